"""What time a question is about, read strictly.

A question names one specific day ("on September 25, 2026", "2026-09-25", "9/25/2026",
"25 Sep 2026", "yesterday", "today"), an exact instant ("2026-10-14T12:00:00Z"), or no
time at all (then it is about `now`). Anything else that looks like a time ("3 weeks ago",
"during September", "last quarter", "before CC-1031", "3/4/2026", which is March 4 or
3 April) is vague, and the question is refused rather than answered as of now.

A day means the end of that day in the company's time zone, so a claim that takes effect
at any time that day counts."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from companybrain.policy.text import NameSet

_MONTHS = {
    "jan": 1, "feb": 2, "mar": 3, "apr": 4, "may": 5, "jun": 6,
    "jul": 7, "aug": 8, "sep": 9, "oct": 10, "nov": 11, "dec": 12,
}  # fmt: skip
_WEEKDAYS = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")
_NUMBERS = {
    "a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5,
    "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10,
}  # fmt: skip

_MONTH = (
    r"(?P<mon>jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?"
    r"|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?"
)
_WEEKDAY = (
    r"(?:(?P<wd>mon(?:day)?|tue(?:s(?:day)?)?|wed(?:nesday)?|thu(?:r(?:s(?:day)?)?)?"
    r"|fri(?:day)?|sat(?:urday)?|sun(?:day)?),?\s+)?"
)
_ORD = r"(?:st|nd|rd|th)?"
# Any number right after the day is taken as its year, so that "25 Sep 26" or "Sep 25, 26"
# is refused for its two-digit year rather than read as another day of this year; a time
# of day ("Oct 15 10:00") is not.
_YEAR = r"(?:,?\s+(?P<year>'?\d+)(?!:))?"

# Forms that name one day or one instant, tried in this order; each match is blanked out
# of the text before the next form and before the search for vague phrases.
_ISO_INSTANT = re.compile(
    r"\b(?P<y>\d{4})-(?P<m>\d{2})-(?P<d>\d{2})[T ](?P<H>\d{2}):(?P<M>\d{2})"
    r"(?::(?P<S>\d{2})(?:[.,](?P<frac>\d+))?)?"
    r"(?P<off>Z|[+-]\d{2}(?::?\d{2})?|\s?(?:UTC|GMT)(?![+-]\d))?"
    # Not followed by more of a time it does not read (a seconds offset, a zone name): the
    # rest would be dropped and the instant read in the company's zone.
    r"(?![\w:]|[.,+-]\d|\s?(?-i:[A-Z]{3,5})\b)",
    re.I,
)
# An instant followed by a zone it does not read: an IANA name (America/New_York, also in
# brackets), an abbreviation (ET, CEST; AM/PM too), or an offset written after UTC or GMT
# (UTC-4). Read without it, the time was taken in the company's zone, hours off.
_UNREAD_ZONE = re.compile(
    r"\b\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?(?:Z|[+-]\d{2}(?::?\d{2})?)?"
    r"\s?(?:\[[^\]]*\]|(?-i:[A-Z][A-Za-z]+/[\w+-]*)|(?:UTC|GMT)[+-]\d|(?!(?:UTC|GMT)\b)(?-i:[A-Z]{2,5})\b)",
    re.I,
)
_ISO_DAY = re.compile(r"\b(?P<y>\d{4})-(?P<m>\d{1,2})-(?P<d>\d{1,2})\b(?!-)")
_YEAR_FIRST_SLASH = re.compile(r"\b(?P<y>\d{4})/(?P<m>\d{1,2})/(?P<d>\d{1,2})\b")
_NUMERIC_DAY = re.compile(r"\b(?P<a>\d{1,2})(?P<sep>[/.])(?P<b>\d{1,2})(?P=sep)(?P<y>\d{2,4})\b")
_MONTH_DAY = re.compile(rf"\b{_WEEKDAY}{_MONTH}\s+(?P<day>\d{{1,2}}){_ORD}\b{_YEAR}\b", re.I)
_DAY_MONTH = re.compile(
    rf"\b{_WEEKDAY}(?:the\s+)?(?P<day>\d{{1,2}}){_ORD}(?:\s+of)?\s+{_MONTH}(?![a-z]){_YEAR}\b",
    re.I,
)
_RELATIVE = re.compile(
    r"\b(?P<rel>(?:the\s+)?day\s+before\s+yesterday|yesterday|today|tomorrow"
    r"|(?P<n>\d{1,3}|an?|one|two|three|four|five|six|seven|eight|nine|ten)\s+days?\s+ago)\b",
    re.I,
)
_NOW = re.compile(
    r"\b(?:as\s+of\s+now|right\s+now|just\s+now|now|currently|at\s+present|presently"
    r"|at\s+the\s+moment|these\s+days|nowadays)\b",
    re.I,
)

# Things that are not times even though they contain digits: record ids (CC-1031,
# dir-2026-09), hyphenated names (billing-gw), file paths.
_NOT_TIME = re.compile(r"\b(?!(?:UTC|GMT)-\d)[A-Za-z][\w]*(?:-[\w]+)+\b|\S+/\S+\.\w+")

# Phrases that point at a time but not at one specific day.
_MONTH_WORD = (
    r"january|february|march|april|june|july|august|september|october|november|december"
    r"|jan|feb|apr|jun|jul|aug|sept?|oct|nov|dec"
)
_WEEKDAY_WORD = r"monday|tuesday|wednesday|thursday|friday|saturday|sunday"
_UNIT = r"weeks?|months?|quarters?|years?|weekends?|sprints?|fortnights?|days?|hours?"
_VAGUE = [
    re.compile(p, re.I)
    for p in (
        r"\bago\b",
        rf"\b(?:last|this|next|past|previous|coming|current|recent|same|that|prior)\s+"
        rf"(?:few\s+|couple\s+of\s+)?(?:{_UNIT}|night|morning|afternoon|evening|time"
        rf"|{_WEEKDAY_WORD}|{_MONTH_WORD}|may)\b",
        # ("looks after the gateway" is someone caring for it, not a time)
        r"\b(?:before|(?<!look )(?<!looks )(?<!looked )(?<!looking )after|since|until|till"
        r"|prior\s+to|earlier\s+than|later\s+than|by\s+the\s+time)\b",
        # "between" two times, days or events (a name or a day read is blanked by then), not
        # between things ("Why do we use gRPC between services?"); "between A and B" is one
        rf"\bbetween\b(?!\s+(?:the\s+)?+(?!(?:{_MONTH_WORD}|{_WEEKDAY_WORD}|{_UNIT}|and|then"
        r"|now|when|last|this|next|early|late|mid|start|end|beginning|may|two|both|first|second"
        r"|those|these|releases?|versions?|deploy\w*|changes?|handovers?|transfers?|outages?"
        r"|incidents?|migrations?|reorg\w*)\b)[a-z]+\b(?![-\d])(?!.*\band\b))",
        rf"\b(?:{_MONTH_WORD})\b",
        r"\b(?:in|during|early|mid|late|end\s+of|start\s+of|beginning\s+of|of)\s+may\b",
        r"\bmay\s+\d{4}\b",
        rf"\b(?:{_WEEKDAY_WORD})\b",
        r"\bq[1-4]\b|\bh[12]\s+\d{4}\b|\bfy\s?\d{2,4}\b",
        r"\b(?:quarter|semester|fortnight|weekend|tonight|noon|midnight)\b",
        # a part of a day: "the morning of 2026-10-14" is not the end of that day
        r"\b(?:morning|afternoon|evening|dawn|dusk|midday|overnight|lunchtime)\b"
        r"|\b(?:early|late)\s+(?:on|in)\b|\b(?:start|beginning)\s+of\b",
        r"\b(?:weeks?|months?|quarters?|years?)\b",
        rf"\b(?:\d+|a|an|one|two|three|four|five|six|seven|eight|nine|ten|few|several)\s+(?:{_UNIT})\b",
        r"\b(?:recently|lately|earlier|formerly|previously|originally|initially|historically"
        r"|back\s+then|at\s+the\s+time|the\s+other\s+day|used\s+to|in\s+the\s+past)\b",
        r"(?<![\w-])(?:19|20)\d{2}(?![\w-])",
        r"\b\d{1,2}(?:st|nd|rd|th)\b",
        r"\b\d{1,2}:\d{2}\b|\b\d{1,2}\s?(?:am|pm)\b",
        r"\b\d{1,2}/\d{1,2}\b",
        # Date-like forms no reader took (a valid one is blanked by then): a year of five
        # digits, day first with dashes (25-09-2026), a day with a time glued on
        # (2026-09-25T10Z), a year and month (2026-09), a week (2026-W39), a day of the year
        # (2026-268), a compact 20260925. Read as no time at all, they were answered for now.
        r"(?<![\w-])\d+[-/]\d{1,2}[-/]\d+(?!\d)",
        r"(?<![\w-])(?:1[89]|2\d)\d{2}-w?\d{1,3}(?!\w)",
        r"(?<![\w-])(?:1[89]|2\d)\d{2}(?:0[1-9]|1[0-2])(?:0[1-9]|[12]\d|3[01])(?!\d)",
    )
]


@dataclass(frozen=True)
class QuestionTime:
    """The instant a question is about. `phrase` is the text it was read from (None when
    the question named no time and it is about `now`); `day` is set for a day. `now` is
    the clock it was read against (None: not known, every record counts)."""

    as_of: datetime
    phrase: str | None = None
    day: date | None = None
    now: datetime | None = None

    @property
    def as_of_ms(self) -> int:
        return to_ms(self.as_of)

    @property
    def now_ms(self) -> int | None:
        return to_ms(self.now) if self.now is not None else None

    @property
    def written_by_ms(self) -> int:
        """The last instant a record may have been written and count: the question's time
        ("today" runs to the day's end), but never past the clock."""
        now_ms = self.now_ms
        return self.as_of_ms if now_ms is None else min(self.as_of_ms, now_ms)


@dataclass(frozen=True)
class VagueDate:
    """A time-like phrase that is not one specific day, with why."""

    phrase: str
    reason: str

    @property
    def message(self) -> str:
        return (
            f'the question says "{self.phrase}": {self.reason}. Ask about one specific day, '
            'for example "on 2026-09-25" or "yesterday".'
        )

    def given_as(self, field: str) -> str:
        """The message for a value given in `field` (--as-of, an as_of argument), which is
        not the question's text."""
        return (
            f'{field}: "{self.phrase}": {self.reason}. Give one day ("2026-09-25", '
            '"yesterday") or an instant ("2026-09-25T10:00:00Z").'
        )


TimeReading = QuestionTime | VagueDate


def zone(tz: str) -> ZoneInfo:
    try:
        return ZoneInfo(tz or "UTC")
    except (ZoneInfoNotFoundError, ValueError) as exc:
        raise ValueError(f"{tz!r} is not an IANA time zone name") from exc


def clock_now() -> datetime:
    """The real time to the millisecond, the precision every time is compared and printed
    at: a record typed now is cited at 08:14:07.259Z, not 08:14:07.259255Z."""
    moment = datetime.now(UTC)
    return moment.replace(microsecond=moment.microsecond // 1000 * 1000)


def to_ms(moment: datetime) -> int:
    return int(moment.astimezone(UTC).timestamp() * 1000)


def off_calendar(moment: datetime) -> str | None:
    """Why an aware clock or record time cannot be read against, or None. A day either side
    of it and that day's end in any zone must still be on the calendar."""
    if FIRST_INSTANT <= moment <= LAST_INSTANT:  # compared without converting: no overflow
        return None
    return f"it is outside the years {_FIRST_YEAR:04d} to {_LAST_YEAR} (UTC)"


_TRAILING_OFFSET = re.compile(r"[+-]\d{2}:?(\d{2})(?::?(\d{2})(?:\.\d+)?)?$")


def offset_problem(text: str) -> str | None:
    """Why the UTC offset that ends the ISO 8601 time `text` is not one on a clock (minutes
    or seconds past 59), or None. datetime.fromisoformat carries the excess over into the
    hour, so that +02:60 would be read as +03:00 and +02:99 as +03:39."""
    m = _TRAILING_OFFSET.search(text.strip())
    if m and any(int(part) > 59 for part in m.groups() if part):
        return f"its UTC offset {m.group(0)} has minutes or seconds past 59"
    return None


def end_of_day(day: date, tz: str = "UTC") -> datetime:
    """The last millisecond of `day` in the time zone `tz`. Counted back from the next
    day's start as an instant: on a clock a day's last hour can repeat (Santiago, Beirut
    turn back at midnight), and a step back on the wall clock lands in its first pass."""
    start_next = datetime.combine(day + timedelta(days=1), time(0), tzinfo=zone(tz))
    return (start_next.astimezone(UTC) - timedelta(milliseconds=1)).astimezone(zone(tz))


def format_instant(moment: datetime, tz: str = "UTC") -> str:
    """ISO 8601 in the company's zone, milliseconds only when there are some, Z for UTC."""
    local = moment.astimezone(zone(tz))
    spec = "milliseconds" if local.microsecond else "seconds"
    text = local.isoformat(timespec=spec)
    return text[:-6] + "Z" if text.endswith("+00:00") else text


def parse_question_time(
    question: str, now: datetime, tz: str = "UTC", *, names: NameSet | Iterable[str] = ()
) -> TimeReading:
    """The instant `question` is about, read against the clock `now`, or why not.
    `names` are names the question may use that are not times (a person called June, a
    service called "Q3 Reports"); they are set aside before reading."""
    if now.tzinfo is None:
        raise ValueError("now must be timezone-aware")
    text = _blank(question, _NOT_TIME)
    # Only names the question contains: a company has thousands, a question names a few.
    known = NameSet.of(names)
    present = known.present(question) | set(known.non_ascii)
    for name in sorted(present, key=len, reverse=True):
        pattern = re.compile(rf"(?<!\w){re.escape(name.strip())}(?!\w)", re.I)
        text = pattern.sub(lambda m: _name_blanked(question, m), text)
    found: list[tuple[str, datetime, date | None]] = []
    for reader in _READERS:
        text, reading = reader(text, now, tz)
        if isinstance(reading, VagueDate):
            return reading
        found.extend(reading)
    now_word = _NOW.search(text)
    text = _blank(text, _NOW)
    for pattern in _VAGUE:
        match = pattern.search(text)
        if match:
            return VagueDate(_phrase(question, match), _vague_reason(match.group(0)))
    instants = {to_ms(m) for _, m, _ in found}
    # "now" beside another day ("who owns it now, and who owned it on 2026-09-25?") is two
    # times: read as the other day alone, today's question got that day's owner.
    today = now.astimezone(zone(tz)).date()
    if now_word and any(day != today for _, _, day in found):
        phrases = [*(p for p, _, _ in found), " ".join(now_word.group(0).split())]
        return VagueDate(" and ".join(phrases), "it names more than one time")
    if len(instants) > 1:
        return VagueDate(" and ".join(p for p, _, _ in found), "it names more than one time")
    if found:
        phrase, moment, day = found[0]
        return QuestionTime(as_of=moment, phrase=phrase, day=day, now=now)
    return QuestionTime(as_of=now.astimezone(UTC), now=now)


def parse_as_of(value: str, now: datetime, tz: str = "UTC") -> TimeReading:
    """An explicit as-of value (`--as-of`): a day or an instant in any form a question may
    use; it must name exactly one."""
    reading = parse_question_time(value, now, tz)
    if isinstance(reading, QuestionTime) and reading.phrase is None:
        return VagueDate(value, "it is not a day or an instant")
    return reading


# -- the readers of specific forms -------------------------------------------------------

Found = list[tuple[str, datetime, date | None]]
Reader = Callable[[str, datetime, str], tuple[str, Found | VagueDate]]


def _read_instants(text: str, now: datetime, tz: str) -> tuple[str, Found | VagueDate]:
    unread = _UNREAD_ZONE.search(text)
    if unread:
        return text, VagueDate(unread.group(0), _ZONE_NOT_READ)
    found: Found = []
    for m in _ISO_INSTANT.finditer(text):
        offset = m.group("off")
        try:
            base = datetime(
                int(m["y"]),
                int(m["m"]),
                int(m["d"]),
                int(m["H"]),
                int(m["M"]),
                int(m["S"] or 0),
                int((m["frac"] or "0").ljust(6, "0")[:6]),
            )
        except ValueError:
            return text, VagueDate(m.group(0), "it is not a time on the calendar")
        if not _FIRST_YEAR <= base.year <= _LAST_YEAR:
            return text, VagueDate(m.group(0), "it is not a time on the calendar")
        if offset is None:
            moment = base.replace(tzinfo=zone(tz))
            problem = _not_one_instant(moment, tz)
            if problem:
                return text, VagueDate(m.group(0), problem)
        elif offset.strip().upper() in ("Z", "UTC", "GMT"):
            moment = base.replace(tzinfo=UTC)
        else:
            hours, minutes = int(offset[1:3]), int(_colon(offset)[4:6])
            if hours > 23 or minutes > 59:  # +25:00 would not convert; +02:60 is no offset
                return text, VagueDate(m.group(0), "its UTC offset is not one on the clock")
            moment = datetime.fromisoformat(base.isoformat() + _colon(offset))
        if off_calendar(moment):
            return text, VagueDate(m.group(0), "it is not a time on the calendar")
        found.append((m.group(0), moment, None))
    return _blank(text, _ISO_INSTANT), found


_ZONE_NOT_READ = (
    "what follows the time (a time zone, AM or PM) is not read; write the time with its "
    "UTC offset, as 2026-09-25T10:00:00-04:00"
)


def _read_iso_days(text: str, now: datetime, tz: str) -> tuple[str, Found | VagueDate]:
    found: Found = []
    for pattern in (_ISO_DAY, _YEAR_FIRST_SLASH):
        for m in pattern.finditer(text):
            day = _day(int(m["y"]), int(m["m"]), int(m["d"]))
            if day is None:
                return text, VagueDate(m.group(0), "it is not a date on the calendar")
            found.append((m.group(0), end_of_day(day, tz), day))
        text = _blank(text, pattern)
    return text, found


def _read_numeric_days(text: str, now: datetime, tz: str) -> tuple[str, Found | VagueDate]:
    found: Found = []
    for m in _NUMERIC_DAY.finditer(text):
        a, b, year = int(m["a"]), int(m["b"]), m["y"]
        if len(year) != 4:
            return text, VagueDate(m.group(0), "a two-digit year could be any century")
        if a <= 12 and b <= 12 and a != b:
            return text, VagueDate(
                m.group(0),
                f"it could be month {a} day {b} or day {a} month {b}",
            )
        month, dom = (a, b) if b > 12 or a == b else (b, a)
        day = _day(int(year), month, dom)
        if day is None:
            return text, VagueDate(m.group(0), "it is not a date on the calendar")
        found.append((m.group(0), end_of_day(day, tz), day))
    return _blank(text, _NUMERIC_DAY), found


def _read_named_days(text: str, now: datetime, tz: str) -> tuple[str, Found | VagueDate]:
    found: Found = []
    today = now.astimezone(zone(tz)).date()
    for pattern in (_DAY_MONTH, _MONTH_DAY):  # day first: "25 Sep 26" is not "Sep 26"
        for m in pattern.finditer(text):
            written = (m["year"] or "").lstrip("'")
            if written and len(written) != 4:
                why = "a two-digit year could be any century" if len(written) == 2 else ""
                return text, VagueDate(m.group(0), why or "a year has four digits")
            year = int(written) if written else today.year
            day = _day(year, _MONTHS[m["mon"][:3].lower()], int(m["day"]))
            if day is None:
                return text, VagueDate(m.group(0), "it is not a date on the calendar")
            if not written and day > today:  # asked on 2 January, "December 30" is last year's
                return text, VagueDate(
                    m.group(0), f"it gives no year, and {day.isoformat()} is still to come"
                )
            weekday = m["wd"]
            if weekday and _WEEKDAYS.index(weekday[:3].lower()) != day.weekday():
                named = day.strftime("%A")
                return text, VagueDate(
                    m.group(0), f"{day.isoformat()} is a {named}, not a {weekday.title()}"
                )
            found.append((m.group(0), end_of_day(day, tz), day))
        text = _blank(text, pattern)
    return text, found


def _read_relative_days(text: str, now: datetime, tz: str) -> tuple[str, Found | VagueDate]:
    found: Found = []
    today = now.astimezone(zone(tz)).date()
    for m in _RELATIVE.finditer(text):
        word = m["rel"].lower()
        if m["n"]:
            n = m["n"].lower()
            back = int(n) if n.isdigit() else _NUMBERS[n]
        elif "before" in word:
            back = 2
        else:
            back = {"yesterday": 1, "today": 0, "tomorrow": -1}[word]
        day = _shifted(today, back)
        if day is None:
            return text, VagueDate(m.group(0), "it is not a date on the calendar")
        found.append((m.group(0), end_of_day(day, tz), day))
    return _blank(text, _RELATIVE), found


_READERS: tuple[Reader, ...] = (
    _read_instants,
    _read_iso_days,
    _read_numeric_days,
    _read_named_days,
    _read_relative_days,
)


# -- helpers ------------------------------------------------------------------------------


# Years a question may name: the ends of the calendar would overflow a day's last instant.
_FIRST_YEAR, _LAST_YEAR = 2, 9998
FIRST_INSTANT = datetime(_FIRST_YEAR, 1, 1, tzinfo=UTC)
LAST_INSTANT = datetime(_LAST_YEAR, 12, 31, 23, 59, 59, 999_999, tzinfo=UTC)


def _shifted(today: date, back: int) -> date | None:
    """`back` days before `today`, or None off the years a question may name."""
    try:
        day = today - timedelta(days=back)
    except OverflowError:
        return None
    return day if _FIRST_YEAR <= day.year <= _LAST_YEAR else None


def _day(year: int, month: int, dom: int) -> date | None:
    if not _FIRST_YEAR <= year <= _LAST_YEAR:
        return None
    try:
        return date(year, month, dom)
    except ValueError:
        return None


def _not_one_instant(local: datetime, tz: str) -> str | None:
    """Why a wall-clock time without an offset names no single instant in `tz` (the hour
    the clocks skip, or the one they repeat), or None."""
    if local.astimezone(UTC).astimezone(local.tzinfo).replace(tzinfo=None) != local.replace(
        tzinfo=None
    ):
        return f"that time does not exist in {tz} (the clocks skip it); add its UTC offset"
    if local.replace(fold=1).utcoffset() != local.utcoffset():
        return f"that time comes twice in {tz} (the clocks turn back); add its UTC offset"
    return None


def _colon(offset: str) -> str:
    return offset if ":" in offset else f"{offset[:3]}:{offset[3:] or '00'}"


# Words after which a month is a month, even one a person is named after ("in June").
_BEFORE_A_TIME = re.compile(
    r"\b(?:in|on|during|since|until|till|before|after|by|of|early|mid|late|last|next|this"
    r"|through|from|to)\s+$",
    re.I,
)


def _name_blanked(question: str, m: re.Match[str]) -> str:
    """A name set aside (blanked), unless it is one word used as a time: after "in",
    "since"... or before a day's number ("June 1": a person June, or the first of June)."""
    one_word = not re.search(r"\s", m.group())
    as_a_time = _BEFORE_A_TIME.search(question[: m.start()]) or re.match(
        r"\s+\d", question[m.end() :]
    )
    return m.group() if one_word and as_a_time else " " * len(m.group())


def _blank(text: str, pattern: re.Pattern[str]) -> str:
    """Replace matches with spaces, keeping every position where it was."""
    return pattern.sub(lambda m: " " * len(m.group(0)), text)


def _phrase(question: str, match: re.Match[str]) -> str:
    """The words around a vague match, taken from the original question."""
    start, end = match.span()
    left = question[:start].split()
    right = question[end:].split()
    core = question[start:end].strip()
    word = match.group(0).strip().lower()
    if word in {"before", "after", "since", "until", "till", "between"} and right:
        return f"{core} {right[0]}".rstrip("?.!,")
    if word == "ago" and left:
        return " ".join([*left[-2:], core])
    if left and left[-1].lower() in {"in", "during", "of", "since", "until", "by", "for"}:
        return f"{left[-1]} {core}".rstrip("?.!,")
    return core.rstrip("?.!,")


def _vague_reason(matched: str) -> str:
    word = matched.strip().lower()
    if re.fullmatch(r"\d{1,2}:\d{2}|\d{1,2}\s?(?:am|pm)", word) or re.search(
        r"morning|afternoon|evening|dawn|dusk|midday|overnight|lunchtime|early|late|start|begin",
        word,
    ):
        return "a time of day is not read; a day means the whole day"
    if re.fullmatch(r"\d+[-/]\d+[-/]\d+|\d{4}-w?\d+|\d{8}", word):
        return "it looks like a date but is not a day this reads (write one as 2026-09-25)"
    if re.search(r"before|after|since|until|till|between|prior|earlier|later|time", word):
        return "it is a span relative to something else, not one specific day"
    return "it is not one specific day"
