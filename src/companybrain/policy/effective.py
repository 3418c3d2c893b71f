"""When an ownership claim takes effect, checked against the sentence that states it.

A record takes effect at its `effective_at`, else when it was written (`at`). The sentence
of a claim may say otherwise: "Effective 1 May 2026, ownership of the billing gateway
transfers to Cora", written on 1 April with no `effective_at`, made Cora the owner all
April. So the words are read, as strictly as a question's dates (policy/time.py):

- a day or an instant the sentence gives as when it starts ("effective", "from", "as of",
  "starting", "on" ...), and no `effective_at`: the claim takes effect then (a day from its
  start in the company's zone; a time of day in the zone it names, else the company's);
- a stated time that disagrees with `effective_at`: refused, naming both (which is right
  is for people to say);
- a sentence that names two such times ("to Ben on Monday, then to Cora on 1 December"):
  refused, a claim takes effect at one time;
- without `effective_at`, a start that is no one day ("next Monday", "in two weeks",
  "from Q3", "on 1 December" with no year, unless it is one of the three months before the
  record was written: then it is that day, "from 1 May" written 10 May), a stretch of
  the calendar not over when it was written ("in November", "in 2027", "mid-2027", "H2"),
  some time to come ("soon", "in due course", "at the end of the quarter") or a condition
  of a change to come ("once the audit closes", "will own it after the migration"), or
  a dated day not said to be the start ("until 1 May 2026"): refused. Kept at the time of
  writing it would name the new owner before the change; the record's `effective_at`
  settles it, so it is refused, not guessed.

With `effective_at`, a month, quarter or year the sentence names must hold it (in the
zone `effective_at` is written in or the company's): "in November 2026" agrees with
2026-11-16, "in November" with a day of any November; other vague words are settled by it.

Past-pointing vague words ("has owned it since March", "took it over in April", "last
week", "recently") and the past day of something else done ("We agreed on 3 March 2026
that Bo owns it", written later) keep the record's time: what it states is true when it was
written, and so does a vague time in a clause of its own about a duty or an absence and no
change ("Kofi owns it and will be on call next week"). But a change told as done on a day
it does not give may have come as early as that time's first day: from then until the
record was written, who owned the service cannot be read (`Unsure`, policy/vague_past.py);
"yesterday" and "3 days ago" are one day, the claim's start.

The rest of the record is read too, for when its change starts: its title ("Billing
gateway handover, effective 1 May 2026") speaks for all the record says, and so does another
sentence, line or heading about the same service or none ("Effective 1 May 2026 the billing
gateway changes hands. The new owner is Cora.", "- Effective: 2026-05-01"), when it says
"effective", "from", "as of", "starting" ... a day not before the record was written (the
title may look back, and so may a `Key: value` line or front-matter field such as
"Effective: 2026-05-01", and a sentence naming no one that says this service changes hands:
"The billing gateway changed hands effective 1 May 2026.", written 10 May; "on" and "since"
are as often another day: "the outage on 3 March", "on the team since 2019"). Such a time
is the claim's when its sentence gives none, and disagrees as the sentence's own would: with
`effective_at`, with the sentence, or a second one. A day to come that may be another
event's ("The handover happens on 1 May 2026.", "From 1 May the billing
gateway is on call.") leaves a claim whose sentence gives no time unclear: refused without
`effective_at`, never moved to that day."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, replace
from datetime import UTC, date, datetime, time, timedelta, timezone
from functools import lru_cache

from companybrain.policy import time as qtime
from companybrain.policy import vague_past

_WEEKDAY_WORD = r"monday|tuesday|wednesday|thursday|friday|saturday|sunday"
# Words that, even outside the claim's sentence, say the time after them is when a change
# starts ("Effective: 2026-05-01", "Handover date: 1 May 2026").
_FIRM = (
    r"\b(?:effective(?:\s+date)?|with\s+effect|as\s+of|as\s+from|from|starting|beginning"
    r"|commencing|takes?\s+effect|taking\s+effect|(?:handover|transfer|cutover|start)\s+date"
    # a key or column naming the change itself: "Handover: 2026-06-01" (not "handover 1 May")
    r"|(?:handover|hand-over|owner(?:ship)?\s+(?:transfer|change))(?=\s*:))"
)
_FIRM_START = re.compile(rf"{_FIRM}(?:\s+(?:on|from|as\s+of))?\s*:?\s*(?:the\s+)?$", re.I)
_FIRM_WORD = re.compile(_FIRM, re.I)
# Words that say the time after them is when something ends: "Ana keeps it until 30 April
# 2026" elsewhere in the record leaves an undated "Bo owns it" unclear.
_ENDS = r"\b(?:until|till|til|through|thru|up\s+to|ending|ends?|expir\w*)"
_UNTIL = re.compile(rf"{_ENDS}\s*:?\s*(?:the\s+)?$", re.I)
# Words that say the time right after them is when the statement starts to hold.
_START = re.compile(
    rf"(?:(?:{_FIRM}|\bsince|\btook\s+effect)(?:\s+(?:on|from|as\s+of))?"
    r"|\bon)\s*:?\s*(?:the\s+)?$",
    re.I,
)
# In a text dating a service's change of hands: the day it happened ("The handover of the
# billing gateway took place on 1 May 2026.", "The billing gateway was handed over on ...").
_HAPPENED_ON = re.compile(
    r"\b(?:took\s+place|happened|occurred|(?:was|were)\s+(?:completed|done|finali[sz]ed)"
    r"|completed|handed\s+over|changed\s+hands|transferred|reassigned)\s+on\s*(?:the\s+)?$",
    re.I,
)
# "announced on 21 September", "agreed on ...": the day of something else.
_OTHER_EVENT_ON = re.compile(
    r"\b(?!(?:transferred|moved|passed|handed|reassigned)\b)\w+ed\s+on\s*(?:the\s+)?$", re.I
)
_TIME_OF_DAY = re.compile(
    r"(?:\s*,)?(?:\s+at)?\s+(?P<H>\d{1,2})(?:[:.](?P<M>\d{2})(?!\d))?"
    r"(?:\s*(?P<ampm>[ap])\.?m\b\.?)?"
    r"(?:\s*(?:UTC|GMT|Z)\b\s*(?P<off>[+-]\d{1,2}(?::?\d{2})?)?"
    r"|\s*\((?:[^()]{0,40}?,\s*)?(?:UTC|GMT)\s*(?P<poff>[+-]\d{1,2}(?::?\d{2})?)?\))?",
    re.I,
)
_ZONE_SAID = re.compile(r"UTC|GMT|Z\b", re.I)
# After a time of day, a zone it does not read ("09:00 CET", "19:00 (Bangkok)"): taken in
# the company's zone, the instant would be off by the difference.
_ZONE_UNREAD = re.compile(r"\s*(?:\(|(?-i:[A-Z]{2,5})\b)")
# A time that is after the writing but no one day: a start no reader can date.
_LATER = re.compile(
    rf"\b(?:next|coming|following)\s+(?:week|month|quarter|year|sprint|cycle|business\s+day"
    rf"|{_WEEKDAY_WORD})\b"
    r"|\bin\s+(?:a|an|one|two|three|four|five|six|seven|eight|nine|ten|a\s+few|few|several"
    r"|a\s+couple\s+of|\d+)\s+(?:days?|weeks?|fortnights?|months?|quarters?|years?|sprints?)\b"
    r"|\b(?:the\s+day\s+after\s+)?tomorrow\b|\blater\s+this\s+(?:week|month|quarter|year)\b"
    r"|\b(?:effective|with\s+effect\s+from|as\s+of|as\s+from|from|starting|beginning|on)\s+"
    r"(?:the\s+)?(?:q[1-4]|h[12]|start\s+of|end\s+of|beginning\s+of|"
    rf"{_WEEKDAY_WORD}|january|february|march|april|may|june|july|august|september|october"
    r"|november|december)\b",
    re.I,
)
# A start given as a stretch of the calendar, not one day: a month ("in November", "by
# early May 2026"), a year ("in 2027", "mid-2027"), a quarter or a half ("Q3", "H2 2026").
_MONTH_NAMES = (
    r"jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?"
    r"|sept?(?:ember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?"
)
_PART_OF = (
    r"(?:(?:early|mid|late)[\s-]+|(?:the\s+)?(?:start|beginning|middle|end|close|first\s+half"
    r"|second\s+half)\s+of\s+)"
)
_PERIOD = re.compile(
    r"\b(?:(?:in|during|by|before|from|after|around|throughout|starting|beginning|commencing"
    rf"|effective|as\s+of|as\s+from)(?:\s*:)?\s+(?:the\s+)?(?:month\s+of\s+)?{_PART_OF}?|{_PART_OF})"
    rf"(?:(?P<month>{_MONTH_NAMES})\b(?:\s*,?\s*(?P<myear>(?:19|20)\d\d)\b)?"
    r"|(?P<year>(?:19|20)\d\d)\b)"
    r"|\b(?P<part>[qh][1-4])\b(?:\s*(?:of\s+)?(?P<pyear>(?:19|20)\d\d)\b)?",
    re.I,
)
# Written with a hyphen, which the reading of days leaves out of the sentence ("mid-2027").
_PERIOD_HYPHENATED = re.compile(
    rf"\b(?:early|mid|late)-(?:(?P<month>{_MONTH_NAMES})|(?P<year>(?:19|20)\d\d)"
    r"|week|month|quarter|year)\b|\b(?:week|month|quarter|year)-end\b",
    re.I,
)
# A start that is some time to come, or the end of something else: "soon", "in due course",
# "at the end of the quarter", "this summer", "once the audit closes" ("this week" is taken
# as the week the record was written in: "handing it over to Tomas this week").
_SOMETIME = re.compile(
    r"\b(?:soon|shortly|eventually|in\s+due\s+course|at\s+some\s+point|some\s*time"
    r"|in\s+the\s+(?:coming|next|following)\s+(?:few\s+)?(?:days|weeks|months|quarters|years)"
    r"|within\s+(?:the\s+)?(?:a|an|one|two|three|four|five|six|a\s+few|few|several|\d+|next)"
    r"\s+(?:business\s+)?(?:days?|weeks?|fortnights?|months?|quarters?|years?)"
    r"|(?:this|the\s+current)\s+(?:month|quarter|half|year|sprint|summer|winter|spring"
    r"|autumn|fall)|next\s+(?:summer|winter|spring|autumn|fall)"
    r"|(?:in|during|over|by|before|after)\s+the\s+(?:summer|winter|spring|autumn|fall|new\s+year"
    r"|holidays)"
    r"|(?:the\s+)?(?:start|beginning|middle|end|close)\s+of\s+(?:the\s+)?(?:day|week|month"
    r"|quarter|half|year|sprint)"
    r"|(?:first|second)\s+half|(?:early|mid|late)\s+(?:week|month|quarter|year)"
    r"|(?:week|month|quarter|year)\s+end"
    r"|(?P<cond>(?:once|as\s+soon\s+as|upon|pending|subject\s+to)(?:\s+\w+){1,3}))\b",
    re.I,
)
# The same with words too common to have a record cut for them: read in a claim's sentence
# (and in a text cut for another reason), "takes over when Ana Ruiz leaves".
_AFTER = re.compile(r"\b(?P<cond>(?:after|when|following)(?:\s+\w+){1,3})\b", re.I)
# A sentence telling a change still to come ("will own", "transfers to"), or one done
# ("took over", "has owned"): a condition ("once the audit closes") leaves only the first
# unclear, and a stretch of time that has begun ("took over in April") is past for the second.
_TO_COME = re.compile(
    r"\b(?:will|shall|is\s+to|are\s+to|going\s+to|transfers|moves|passes|goes|hands|takes"
    r"|changes\s+hands|becomes|happens|takes\s+place|planned|scheduled)\b|'ll\b",
    re.I,
)
_DONE = re.compile(
    r"\b(?:took|transferred|moved|passed|handed|became|went|changed|reassigned|inherited|has"
    r"|have|had|was|were)\b",
    re.I,
)
_WEEKDAY_ALONE = re.compile(rf"\b(?:{_WEEKDAY_WORD})\b", re.I)
# A clause of its own that says where someone is or what duty they have then, not who owns
# what: "Kofi owns the gateway and will be on call next week".
_ON_DUTY = re.compile(
    r"\b(?:on\s+call|on\s+leave|on\s+holiday|on\s+vacation|on\s+duty|on\s+the\s+rota"
    r"|out\s+of\s+(?:the\s+)?office|ooo|away|off\s+sick|travell?ing|at\s+the\s+offsite)\b",
    re.I,
)
_CLAUSE_BREAK = re.compile(r"[,;:]|\b(?:and|but|while|whereas|although|though)\b", re.I)
# Words that make a clause about a change, whatever else it says.
_CHANGE = re.compile(
    r"\b(?:own\w*|transfer\w*|hand\w*|take[sn]?|took|taking|move[sd]?|moving|pass\w*|goes|go"
    r"|going|went|gets?|got|reassign\w*|assign\w*|lead\w*|responsib\w*|cover\w*|inherit\w*"
    r"|becom\w*|became|effective|official\w*|formal\w*|complet\w*|start\w*|begin\w*"
    r"|began|begun|happen\w*|switch\w*|swap\w*|contact|review\w*|back)\b",
    re.I,
)
# A time said to be when something starts, or a vague one: may a text date a change?
_SAYS_WHEN = re.compile(
    rf"(?:{_FIRM}|\bon|\bsince|{_ENDS})\s*:?\s*(?:the\s+)?(?:\d|(?:{_WEEKDAY_WORD})\b"
    r"|(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s*\d)"
    rf"|{_LATER.pattern}",
    re.I,
)


@dataclass(frozen=True)
class Stated:
    """A time a sentence names: a day (`day`), a moment (`instant`, also set when a time of
    day follows the day), or a day without its year (`month_day`) or a weekday alone."""

    phrase: str
    marked: bool  # said to be when it starts ("effective", "from", "on" ...)
    day: date | None = None
    instant: datetime | None = None
    zone_given: bool = False  # the instant's zone is written (else the company's)
    zone_unread: bool = False  # a zone follows that this does not read ("09:00 CET")
    month_day: tuple[int, int] | None = None
    weekday: int | None = None
    either: tuple[date, ...] = ()  # the days a numeric date may be ("5/1/2026")
    unreadable: str | None = None  # why a date not given as the start was not read
    where: int = 0  # where it starts in the sentence
    origin: str = ""  # where in the record, when not in the claim's sentence

    @property
    def dated(self) -> bool:
        return self.day is not None or bool(self.either) or self.unreadable is not None


@dataclass(frozen=True)
class Unsure:
    """A claim that holds from `at` (when its record was written), telling a change that may
    have come as early as `since`: who owned the service between cannot be read (`why`)."""

    at: datetime
    since: datetime
    why: str


class Unreadable(Exception):
    """A time in the sentence that is not one on the calendar, or not one instant."""


def effective_time(
    sentence: str,
    at: datetime,
    effective_at: datetime | None,
    tz: str = "UTC",
    *,
    row: bool = False,
    title: str = "",
    elsewhere: tuple[str, ...] = (),
    aside: tuple[str, ...] = (),
    back: tuple[str, ...] = (),
    days: tuple[str, ...] = (),
) -> datetime | str | Unsure:
    """When a claim stated by `sentence` takes effect, for a record written at `at` with
    `effective_at` (None: not given), or why it is refused. `row`: the sentence is a table
    row, whose days not said to be its start are other columns' ("Last reviewed").
    `title`: the record's; `elsewhere`: its other sentences, lines and headings that date
    its change ("Effective: 2026-05-01"); `aside`: those that may give the day of something
    else ("The review is on 5 May 2026"): a day to come there leaves it unclear; `back`:
    those that date its change and may look back, as the title may ("The billing gateway
    changed hands effective 1 May 2026." written 10 May, "Effective date: 2026-05-01");
    `days`: its `Key: value` lines and table rows beside a change that name a day without
    saying what starts then ("- Date: 2026-06-01", "| Handover | 2026-06-01 |"): one to
    come may be the change's, and leaves it unclear.
    A change told as done on a day it does not give ("took over last week"), or beside a day
    already past that may be its own (a title's "Billing gateway handover 1 May 2026"), holds
    from `at`, and before it back to that day is `Unsure` (policy/vague_past.py)."""
    try:
        stated, rest = stated_times(sentence, tz)
    except Unreadable as exc:
        return f"the quote's time {exc}"
    try:
        around, unsure, vague, maybe = _stated_around(title, elsewhere, aside, back, at, tz, days)
    except Unreadable as exc:
        return f"the record's time {exc}"
    starts = _most_precise([*(s for s in stated if s.marked), *around], tz)
    if len({_key(s) for s in starts}) > 1:
        named = ", ".join(_said(s) for s in starts)
        return (
            f"the {'record' if around else 'quote'} names {len(starts)} times it takes effect "
            f"({named}); a claim takes effect at one time: state each change in a record of "
            "its own"
        )
    # a table row's stretches are another column's ("Next review: Q3 2026") unless said to
    # be its start ("Effective: Q3 2026") or in a cell telling a change ("moves to Cy in May")
    telling = not row or bool(_TO_COME.search(rest))
    periods = [
        p
        for p in _no_one_day(rest, sentence, at, tz)
        if not _of_another_clause(rest, p[0]) and (telling or _firm_before(rest, p[0]))
    ]
    if effective_at is not None:
        for m, months in periods:  # "in November 2026", effective_at 2026-11-16: agrees
            if months is not None and not _within(months, effective_at, tz):
                return (
                    f'the quote says it takes effect "{" ".join(m.group(0).split())}", the '
                    f"record's effective_at is {effective_at.isoformat()}: "
                    "which one is right is not for the rules to guess"
                )
        for s in starts:
            if not _agrees(s, effective_at, tz):
                return (
                    f"the {_whose(s)} says it takes effect {_said(s)}, the record's effective_at "
                    f"is {effective_at.isoformat()}: "
                    "which one is right is not for the rules to guess"
                )
        return effective_at
    undated = [] if row else [s for s in stated if s.dated and not s.marked]
    # "We agreed on 3 March 2026 that Bo owns it", written later: true when written
    undated = [s for s in undated if not _done_before(s, sentence, at, tz)]
    if undated:
        return (
            f'the quote names "{undated[0].phrase}" and does not say it takes effect then; '
            "the record has no effective_at to tell when it does"
        )
    if unsure and not starts:  # "The handover happens on 1 May 2026. Cora owns ...", "until"
        return (
            f"the record names {_said(unsure[0])}, and does not say whether the quote takes "
            "effect then; the record has no effective_at to tell when it does"
        )
    found = next(
        (
            m
            for m in _LATER.finditer(rest)
            if not _of_another_clause(rest, m) and not _month_begun(rest, m, at, tz)
        ),
        None,
    )
    if found is None:  # ("owns it from May", written 10 May: a start already past)
        found = next((m for m, _ in periods if not _from_month_begun(rest, m, at, tz)), None)
    later = f'"{" ".join(found.group(0).split())}"' if found else vague
    if starts and later:  # "since 1 March 2026 Ben owns it; next month it moves to Cora"
        return (
            f"the {_whose(starts[0])} names {_said(starts[0])} and {later}; "
            "a claim takes effect at one time, and the record has no effective_at to tell which"
        )
    if starts:
        start = starts[0]
        if start.zone_unread:
            return (
                f"the {_whose(start)} says it takes effect {_said(start)} in a time zone this "
                "does not read (write UTC or its UTC offset); the record has no effective_at to "
                "tell when"
            )
        if start.instant is not None:
            return start.instant
        if start.day is not None:
            return start_of_day(start.day, tz)
        if _agrees(start, at, tz):
            return at  # "effective 14 October" written that day
        if (past := _lately_day(start, at, tz)) is not None:
            return start_of_day(past, tz)  # "from 1 May" written 10 May: this year's
        if start.weekday is not None and not start.origin and _told_done(rest):
            return _since(at, tz, maybe, rest, sentence, start.phrase)  # "took over on Monday"
        return (
            f"the {_whose(start)} says it takes effect {_said(start)}, which is not one day "
            "(no year); the record has no effective_at to tell when"
        )
    if later:
        return (
            f"the {'quote' if found else 'record'} says it takes effect {later}, which is "
            "not one day; the record has no effective_at to tell when"
        )
    week = _THIS_WEEK.search(rest)
    if week and not _told_done(rest) and not _of_another_clause(rest, week):
        written = at.astimezone(qtime.zone(tz)).date()
        monday = written + timedelta(days=7 - written.weekday())
        return Unsure(  # "handing it over to Tomas this week", written on Monday
            start_of_day(monday, tz),
            at,
            'the record tells the change as coming "this week" without its day: who owns it '
            "until that week ends cannot be read; the record has no effective_at to tell when",
        )
    return _since(at, tz, maybe, rest, sentence)


# A change to come "this week" (not "earlier this week", done; "later this week" is _LATER).
_THIS_WEEK = re.compile(r"(?<!earlier\s)(?<!later\s)\bthis\s+week\b", re.I)


def _month_begun(rest: str, later: re.Match[str], at: datetime, tz: str) -> bool:
    """Is the start `later` a month begun by the day `at` is in ("from April", written 10
    May: this April, as a day without its year is one of the three months before), so a
    stretch already past, not one to come?"""
    period = next((p for p in _PERIOD.finditer(rest) if p.start() == later.start()), None)
    months = _months(period) if period is not None and period["month"] else None
    if months is None:
        return False
    written = at.astimezone(qtime.zone(tz)).date()
    year, first, _ = months
    begun = date(year or written.year, first, 1)
    if year is not None:
        return begun <= written
    return begun <= written and (written - begun).days <= _LATELY_DAYS


def _from_month_begun(rest: str, m: re.Match[str], at: datetime, tz: str) -> bool:
    """Is the stretch `m` a start said with "from", "as of", "starting" ... of a month begun
    by the day `at` is in ("from May", written 10 May): a start already past, whose first
    day the claim may have started on (not "in May": when in it is not said)."""
    return bool(_FIRM_WORD.match(m.group(0))) and _month_begun(rest, m, at, tz)


def _told_done(rest: str) -> bool:
    """Does a sentence (its days blanked) tell a change done, or an owner since some time?"""
    rest = _CHANGED_HANDS.sub("changed", rest)  # ("hands" there is no change to come)
    # nor is a duty in a clause of its own: "took over last week and will be on call"
    rest = " , ".join(
        c for c in _CLAUSE_BREAK.split(rest) if not _ON_DUTY.search(c) or _CHANGE.search(c)
    )
    return bool(_DONE.search(rest) or _SINCE_WORD.search(rest)) and not _TO_COME.search(rest)


# Right before a past time, words saying it is when the claim's owner started.
_STARTS_AT = re.compile(rf"(?:{_FIRM}|\bsince)\s*:?\s*(?:the\s+)?$", re.I)
_SINCE_WORD = re.compile(r"\b(?:since|happened|occurred|completed|took\s+place)\b", re.I)
_CHANGED_HANDS = re.compile(r"\bchanged\s+hands\b", re.I)


def _since(
    at: datetime,
    tz: str,
    maybe: tuple[Stated, ...],
    rest: str,
    sentence: str,
    weekday: str = "",
) -> datetime | Unsure:
    """When a claim whose record states no start takes effect: `at`, or the exact day its
    sentence tells its change came ("took over yesterday"); `Unsure` back to the first day
    the change may have come on, when its sentence tells it done without its day ("last
    week", "in April", "on Monday") or the record names a day already past that may be its
    start (`maybe`: a title's "Billing gateway handover 1 May 2026")."""
    written = at.astimezone(qtime.zone(tz)).date()
    firsts: list[tuple[date, bool, str]] = [
        (min(s.either) if s.day is None else s.day, False, _said(s)) for s in maybe
    ]
    if weekday:
        firsts.append((written - timedelta(days=written.weekday() + 7), False, f'"{weekday}"'))
    firsts += _told_past(rest, sentence, written)
    firsts = [f for f in firsts if f[0] < written]
    if not firsts:
        return at
    first, exact, words = min(firsts, key=lambda f: f[0])
    if exact and len(firsts) == 1:
        return start_of_day(first, tz)  # "took over yesterday"
    return Unsure(
        at,
        start_of_day(first, tz),
        f"the record tells the change as done when it was written, and names {words} "
        "without saying it took effect then: who owned it before the record was written "
        "cannot be read; the record has no effective_at to tell when",
    )


def _told_past(rest: str, sentence: str, written: date) -> list[tuple[date, bool, str]]:
    """For a sentence (`rest`: its days blanked) telling a change done, written on the day
    `written`: the first day it may have come on by each past time it gives without its day
    ("last week", "in April"), whether exactly then ("yesterday"), and the words."""
    if not (vague_past.may_say(rest) or may_name_a_stretch(rest)):
        return []
    firsts = [(first, False, words) for first, words in _until_past(rest, written)]
    done = _told_done(rest)  # else only a start given so: "owns it as of last week"

    def dates(m: re.Match[str]) -> bool:
        said = done or _FIRM_WORD.match(m.group(0)) or _STARTS_AT.search(rest[: m.start()])
        return bool(said) and not _of_another_clause(rest, m)  # "and was on leave in April"

    told = vague_past.earliest(rest, written, dates)
    if told is not None:
        firsts.append((told[0], told[1] and not firsts, f'"{told[2]}"'))
    for m in [*_PERIOD.finditer(rest), *_PERIOD_HYPHENATED.finditer(sentence)]:
        months = _months(m)  # "took over in April": a stretch already begun
        if not dates(m):
            continue
        if months is not None and (begun := _begun(months, written)) is not None:
            firsts.append((begun, False, f'"{" ".join(m.group(0).split())}"'))
    return firsts


def _until_past(text: str, written: date) -> list[tuple[date, str]]:
    """The first day of each past time `text` says something lasted until without its
    day ("Kofi owned the billing gateway until last week"): its owner since is unknown.
    (Not a duty or an absence: "Kofi was on leave until last week".)"""
    if _ON_DUTY.search(text) and not _CHANGE.search(text):
        return []
    return [
        (first, f'"{" ".join(text[u.start() : m.end()].split())}"')
        for m, first in vague_past.times(text, written)
        if (u := _UNTIL.search(text[: m.start()])) is not None
    ]


def tells_a_change_to_come(text: str) -> bool:
    """Does a sentence tell a change still to come ("transfers to", "will own")? Then a
    condition on it ("pending approval", "once approved") leaves its start unclear."""
    return _TO_COME.search(text) is not None


def may_tell_a_past(text: str) -> bool:
    """Could `text` tell a change done on a day it does not give ("last week")? (A cheap
    test.)"""
    return vague_past.names_a_past(text)


def pasts_said(text: str) -> int:
    """How many such times `text` may name (see `may_tell_a_past`)."""
    return vague_past.pasts_named(text)


def _begun(months: tuple[int | None, int, int], written: date) -> date | None:
    """The first day of a stretch begun by the day `written` (without its year: this
    year's, else last year's), if one."""
    year, first, _ = months
    for y in (year,) if year is not None else (written.year, written.year - 1):
        if date(y, first, 1) <= written:
            return date(y, first, 1)
    return None


def _done_before(s: Stated, sentence: str, at: datetime, tz: str) -> bool:
    """Is `s` the day something else was done by the day the record was written ("agreed on",
    "decided on", "announced on" a past day)? What the sentence states of that day's
    outcome holds when it was written; the day is not said to be its start."""
    return (
        s.day is not None
        and bool(_OTHER_EVENT_ON.search(sentence[: s.where]))
        and (_before(s, at, tz) or _agrees(s, at, tz))
    )


def _of_another_clause(text: str, later: re.Match[str]) -> bool:
    """Is the vague time `later` that of another clause than the claim's, one about a duty
    or an absence and no change ("..., and will be on call next week")? Then it does not
    date the claim. Never when it is said to be a start ("from next week")."""
    breaks = [m.end() for m in _CLAUSE_BREAK.finditer(text, 0, later.start())]
    if not breaks:
        return False
    after = _CLAUSE_BREAK.search(text, later.end())
    clause = text[breaks[-1] : after.start() if after else len(text)]
    before = text[breaks[-1] : later.start()]
    return (
        bool(_ON_DUTY.search(clause))
        and not _CHANGE.search(clause)
        and not _START.search(before)
        and not _FIRM_WORD.match(later.group(0))
    )


def _no_one_day(
    rest: str, sentence: str, at: datetime, tz: str
) -> Iterator[tuple[re.Match[str], tuple[int | None, int, int] | None]]:
    """The starts `sentence` (`rest`: with its days blanked) gives as a stretch of the
    calendar that has not ended when it was written, as some time to come or on a condition
    ("in November", "in 2027", "at the end of the quarter", "soon", "once the audit
    closes"), each with its months (year or None, first, last) when it is a stretch of
    the calendar. A stretch that ended before, or one that had begun for a change done
    ("took over in April"), is in the past: what the sentence says holds when written."""
    periods = [*_PERIOD.finditer(rest), *_PERIOD_HYPHENATED.finditer(sentence)]
    sometime = [*_SOMETIME.finditer(rest), *_AFTER.finditer(rest)]
    if not periods and not sometime:
        return  # most sentences: none
    to_come = bool(_TO_COME.search(rest))
    done = bool(_DONE.search(rest)) and not to_come
    written = at.astimezone(qtime.zone(tz)).date()
    for m in sorted(periods, key=lambda m: m.start()):
        months = _months(m)
        if months is not None and not _past(months, written, done, to_come):
            yield m, months
    for m in sorted(sometime, key=lambda m: m.start()):
        if re.search(r"\bsince\s*$", rest[: m.start()], re.I):
            continue  # "has owned it since the start of the year"
        if done or (m["cond"] and not to_come):
            continue  # "took it over this week", "Bo owns it; page him when the alert fires"
        yield m, None


def may_name_a_stretch(text: str) -> bool:
    """Could `text` give a start as no one day ("in November", "soon")? (A cheap test.)"""
    return any(p.search(text) for p in (_PERIOD, _PERIOD_HYPHENATED, _SOMETIME))


def stretches_said(text: str) -> int:
    """How many such times `text` may name (see `may_name_a_stretch`)."""
    return sum(1 for p in (_PERIOD, _PERIOD_HYPHENATED, _SOMETIME) for _ in p.finditer(text))


def _months(m: re.Match[str]) -> tuple[int | None, int, int] | None:
    """The year (None: not written) and first and last months a stretch names."""
    groups = m.groupdict()
    if groups.get("month"):
        month = qtime._MONTHS[groups["month"][:3].lower()]
        year = groups.get("myear")
        return (int(year) if year else None), month, month
    if groups.get("year"):
        return int(groups["year"]), 1, 12
    part = groups.get("part")
    if part:
        n, year = int(part[1]), groups.get("pyear")
        size = 3 if part[0].lower() == "q" else 6
        if n * size > 12:
            return None  # "H3" is no half of a year
        return (int(year) if year else None), n * size - size + 1, n * size
    return (None, 1, 12) if "-" in m.group(0) else None  # "mid-year", "quarter-end"


def _past(months: tuple[int | None, int, int], written: date, done: bool, to_come: bool) -> bool:
    """Had the stretch ended before the day `written` (one without its year: this year,
    or within the three months before, as a day without its year, see `_lately`, for a
    change to come: "transfers to Cora in March" written in July may be next March), or
    begun, for a change done?"""
    year, first, last = months
    for y in (year,) if year is not None else (written.year, written.year - 1):
        begun = date(y, first, 1)
        ended = date(y + last // 12, last % 12 + 1, 1) - timedelta(days=1)
        if done and begun <= written:
            return True
        if ended < written and (
            year is not None or not to_come or (written - ended).days <= _LATELY_DAYS
        ):
            return y == written.year or year is not None  # last December: this one's to come?
    return False


def _within(months: tuple[int | None, int, int], instant: datetime, tz: str) -> bool:
    """Is `instant` in the stretch, in the zone it is written in or the company's?"""
    year, first, last = months
    return any(
        (year is None or t.year == year) and first <= t.month <= last
        for t in (instant, instant.astimezone(qtime.zone(tz)))
    )


def may_say_when(text: str) -> bool:
    """Could `text`, outside a claim's sentence, say when the record's change starts? (A
    cheap test: most sentences name no time.)"""
    return bool(_SAYS_WHEN.search(text))


def days_named(text: str) -> int:
    """How many days `text` may name (see `may_name_a_day`)."""
    return sum(1 for _ in _A_DAY.finditer(text))


def may_name_a_day(text: str) -> bool:
    """Could `text` name a day, said to be a start or not ("Handover 1 May 2026")? (A cheap
    test.)"""
    return bool(_A_DAY.search(text))


_A_DAY = re.compile(r"\d{1,4}\W{0,2}(?:\d{1,2}|[a-z]{3})", re.I)


def start_column(header: str) -> bool:
    """Does a table column headed `header` give when its row starts ("Effective", "From",
    "Start date", "Owner since"; not "In production since")?"""
    head = header.strip().rstrip(":")
    return bool(
        _FIRM_START.search(head + ":")
        or _OWNER_SINCE.fullmatch(head)
        or _CHANGE_KEY.fullmatch(head)  # "Billing gateway handover"
    )


# A column or field naming the change whose day it gives: "Handover", "Ownership transfer"
# (not "Data transfer", "Cutover": a migration's).
_CHANGE_KEY = re.compile(
    r"(?:[\w-]+\s+){0,4}(?:handover|hand-over|owner(?:ship)?\s+(?:transfer|change))", re.I
)
# A column or field giving since when the owner owns it: "Since", "Owner since".
_OWNER_SINCE = re.compile(r"(?:(?:owner|owned|ownership|owning)\s+)?since", re.I)
_OWNER_SINCE_FIELD = re.compile(
    r"(?:^|\|)\W*(?:(?:owner|owned|ownership|owning)\s+)?since\s*:\s*$", re.I
)


def says_until(text: str) -> bool:
    """Does `text` give a day something lasts until ("until 31 October 2026"), or lasted
    until ("until last week")?"""
    return any(s.dated and _UNTIL.search(text[: s.where]) for s in _stated_or_none(text)) or any(
        _UNTIL.search(text[: m.start()]) for m in vague_past.said(text)
    )


def _stated_or_none(text: str) -> list[Stated]:
    try:
        return stated_times(text)[0]
    except Unreadable:
        return []


def times_said(text: str) -> int:
    """How many times `text` may say when something starts (see `may_say_when`)."""
    return sum(1 for _ in _SAYS_WHEN.finditer(text))


@lru_cache(maxsize=64)  # a directory's rows share its other lines ("..., as of 2025-01-06.")
def _stated_around(
    title: str,
    elsewhere: tuple[str, ...],
    aside: tuple[str, ...],
    back: tuple[str, ...],
    at: datetime,
    tz: str,
    days: tuple[str, ...] = (),
) -> tuple[tuple[Stated, ...], tuple[Stated, ...], str | None, tuple[Stated, ...]]:
    """The starts the title and the other texts state; the days to come they name with
    "on" or "since" (of this change, or of another event?); a vague start (quoted, with
    where it is); and the past days that may be the change's, not said to be its start.
    A text dating this service's change of hands (`back`, not the title) gives its start
    also with "took place on", "happened on", "was handed over on" a day; another past day
    there ("The handover meeting was on 1 May 2026.") may be the change's, and so may a day
    the title names not said to be the start ("Billing gateway handover 1 May 2026", also a
    meeting's day): one to come leaves the claim unsure. Raises Unreadable for a start off
    the calendar."""
    found: list[Stated] = []
    unsure: list[Stated] = []
    maybe: list[Stated] = []
    vague = None
    # (text, where, is it the title, may it look back, may it be another event's day)
    texts = [(title, "in the record's title", True, True, False)] if title else []
    texts += [(text, f'in "{_shortened(text)}"', False, False, False) for text in elsewhere]
    texts += [(text, f'in "{_shortened(text)}"', False, False, True) for text in aside]
    texts += [(text, f'in "{_shortened(text)}"', False, True, False) for text in back]
    written = at.astimezone(qtime.zone(tz)).date()  # (the day, in the company's zone)
    for text in days:  # "- Date: 2026-06-01" beside "transfers to Bo": the change's day?
        unsure += [
            replace(s, origin=f'in "{_shortened(text)}"')
            for s in stated_times(text, tz)[0]
            if s.dated
            and s.unreadable is None
            and not _before(s, at, tz)
            and not _agrees(s, at, tz)
        ]
    for text, origin, is_title, looks_back, other in texts:
        stated, rest = stated_times(text, tz)
        changes = looks_back and not is_title  # dates this service's change of hands
        for s in stated:
            to_come = not _before(s, at, tz) and not _agrees(s, at, tz)
            if not s.marked and s.dated and _UNTIL.search(text[: s.where]):
                if to_come:  # "Ana keeps it until 31 October 2026"
                    unsure.append(replace(s, origin=origin))
                continue
            if not s.marked:
                if is_title and s.dated and s.unreadable is None and not _agrees(s, at, tz):
                    # "Billing gateway handover 1 May 2026": the change's day, or a meeting's?
                    if to_come:
                        unsure.append(replace(s, origin=origin))
                    elif not _OTHER_DAY_TITLE.search(text) or _CHANGE_TITLE.search(text):
                        maybe.append(replace(s, origin=origin))  # ("CAB minutes 1 May": its
                        # meeting's day, past: what it records holds when written)
                continue
            before = text[: s.where]
            firm = not other and bool(
                _FIRM_START.search(before)
                or (changes and _HAPPENED_ON.search(before))
                or (looks_back and _OWNER_SINCE_FIELD.search(before))  # "Owner since: ..."
            )
            if firm and (looks_back or not _before(s, at, tz)):  # a title may look back
                # and so may a line or sentence dating this service's change of hands
                found.append(replace(s, origin=origin))
            elif to_come:  # "the review on 5 May", "the outage on 3 March" is past
                unsure.append(replace(s, origin=origin))
            elif changes and s.dated and s.unreadable is None:
                # "The billing gateway handover meeting was on 1 May 2026.": maybe its day
                maybe.append(replace(s, origin=origin))
        if changes:  # "The billing gateway changed hands last week."
            for first, exact, words in _told_past(rest, text, written):
                if first < written:
                    told = Stated(words.strip('"'), exact, day=first, origin=origin)
                    (found if exact else maybe).append(told)  # "changed hands yesterday"
        elif not is_title:  # "Kofi Mensah owned the billing gateway until last week."
            for first, words in _until_past(rest, written):
                if first < written:
                    maybe.append(Stated(words.strip('"'), False, day=first, origin=origin))
        # a text about the change telling something to come: "The handover happens in
        # November.", "The billing gateway changes hands next month." (not "## Month-end")
        telling = is_title or (not other and bool(_TO_COME.search(rest)))
        later = _LATER.search(rest)
        if vague is None and later and (telling or _firm_before(rest, later)):
            vague = f'"{" ".join(later.group(0).split())}" {origin}'
        if vague is None and may_name_a_stretch(text):  # "Effective: November 2026"
            stretch = next(
                (m for m, _ in _no_one_day(rest, text, at, tz) if telling or _firm_before(rest, m)),
                None,
            )
            if stretch is not None:
                vague = f'"{" ".join(stretch.group(0).split())}" {origin}'
    return tuple(found), tuple(unsure), vague, tuple(maybe)


# A title naming what its day is of, other than a change ("CAB minutes 2026-05-08", "Weekly
# sync notes 2026-05-08"), unless it names a change of hands too ("Handover meeting ...").
_OTHER_DAY_TITLE = re.compile(
    r"\b(?:minutes|notes|sync|meeting|standup|stand-up|agenda|retro|retrospective|review"
    r"|report|summary|digest|newsletter|call|log|update|status|recap|1:1|one-on-one)\b",
    re.I,
)
_CHANGE_TITLE = re.compile(
    r"\b(?:hand\W?over|handing|transfer\w*|owner\w*|hands|reassign\w*|cut\W?over"
    r"|take\W?over|taking over|successor|succession)\b",
    re.I,
)


def _firm_before(text: str, later: re.Match[str]) -> bool:
    """Is the vague time said to be when something starts ("from next week", "effective
    next Monday"), not only when something else happens ("on call next week")?"""
    return bool(_FIRM_START.search(text[: later.start()]) or _FIRM_WORD.match(later.group(0)))


def _before(s: Stated, at: datetime, tz: str) -> bool:
    """Is the time `s` names before the day `at` is in (a day in the past)?"""
    written = at.astimezone(qtime.zone(tz)).date()
    if s.instant is not None:
        return s.instant < at
    if s.day is not None:
        return s.day < written
    if s.either:
        return all(d < written for d in s.either)
    return _lately(s, at, tz) and not _agrees(s, at, tz)


def _most_precise(starts: list[Stated], tz: str) -> list[Stated]:
    """`starts` without those another place of the record states more precisely: a title's
    "1 May 2026" is the body's "1 May 2026 at 09:00 UTC", and "1 May" is "1 May 2026" (two
    in one sentence are two moves: "to Ben on Monday 4 May 2026, then to Cora on Monday")."""

    def anchor(s: Stated) -> datetime | None:
        return s.instant or (start_of_day(s.day, tz) if s.day else None)

    def vaguer(s: Stated, than: Stated) -> bool:
        rank = (s.instant is not None, s.day is not None)
        return rank < (than.instant is not None, than.day is not None)

    return [
        s
        for s in starts
        if not any(
            p.origin != s.origin
            and vaguer(s, p)
            and (at := anchor(p)) is not None
            and _agrees(s, at, tz)
            for p in starts
        )
    ]


def _whose(s: Stated) -> str:
    return "record" if s.origin else "quote"


def _said(s: Stated) -> str:
    return f'"{s.phrase}"' + (f" {s.origin}" if s.origin else "")


def _shortened(text: str, most: int = 60) -> str:
    text = " ".join(text.split())
    return text if len(text) <= most else text[: most - 3].rstrip() + "..."


def start_of_day(day: date, tz: str = "UTC") -> datetime:
    """The first instant of `day` in the zone `tz` (a zone whose clocks skip midnight
    starts the day at the skipped hour's end)."""
    return qtime.end_of_day(day - timedelta(days=1), tz) + timedelta(milliseconds=1)


def stated_times(sentence: str, tz: str = "UTC") -> tuple[list[Stated], str]:
    """Every time `sentence` names, in the forms a question may use, and the sentence with
    them blanked out. Raises Unreadable for one off the calendar."""
    text = qtime._blank(sentence, qtime._NOT_TIME)
    found: list[Stated] = []
    for pattern in _DAY_FORMS if _DIGIT.search(text) else ():  # each has a digit; most rows none
        spans: list[tuple[int, int]] = []
        for m in pattern.finditer(text):
            try:
                stated, end = _read(m, text, tz)
            except Unreadable as exc:
                if _marked(text[: m.start()]):
                    raise
                # not said to be the start: refuses a sentence as any such day does, and
                # is another column's in a table row ("Last reviewed: 03/04/26")
                stated, end = Stated(m.group(0).strip(), False, unreadable=str(exc)), m.end()
            found.append(replace(stated, where=m.start()))
            spans.append((m.start(), end))
        text = _blank_spans(text, spans)
    weekdays = [m for m in _WEEKDAY_ALONE.finditer(text) if _marked(text[: m.start()])]
    for m in weekdays:
        weekday = qtime._WEEKDAYS.index(m.group(0)[:3].lower())
        found.append(Stated(m.group(0), True, weekday=weekday, where=m.start()))
    text = _blank_spans(text, [m.span() for m in weekdays])
    return sorted(found, key=lambda s: s.where), text


_DIGIT = re.compile(r"\d")
_DAY_FORMS = (
    qtime._ISO_INSTANT,
    qtime._ISO_DAY,
    qtime._YEAR_FIRST_SLASH,
    qtime._NUMERIC_DAY,
    qtime._DAY_MONTH,
    qtime._MONTH_DAY,
)


def _read(m: re.Match[str], text: str, tz: str) -> tuple[Stated, int]:
    """The time a day form matched, with any time of day after it, and where it ends."""
    marked = _marked(text[: m.start()])
    groups = m.groupdict()
    phrase = m.group(0).strip()
    if "H" in groups:  # an ISO instant: read as a question's
        _, found = qtime._read_instants(m.group(0), qtime.FIRST_INSTANT, tz)
        if isinstance(found, qtime.VagueDate):
            raise Unreadable(f'"{phrase}": {found.reason}')
        zone_given = groups["off"] is not None
        return Stated(phrase, marked, found[0][1].date(), found[0][1], zone_given), m.end()
    if "mon" in groups:
        written = (groups["year"] or "").lstrip("'")
        month, dom = qtime._MONTHS[groups["mon"][:3].lower()], int(groups["day"])
        if not written:
            if qtime._day(2000, month, dom) is None:  # 29 February is in a leap year
                raise Unreadable(f'"{phrase}": it is not a date on the calendar')
            return Stated(phrase, marked, month_day=(month, dom)), m.end()
        if len(written) != 4:
            raise Unreadable(f'"{phrase}": a year has four digits')
        day = qtime._day(int(written), month, dom)
        weekday = groups.get("wd")
        if day and weekday and qtime._WEEKDAYS.index(weekday[:3].lower()) != day.weekday():
            raise Unreadable(f'"{phrase}": {day.isoformat()} is a {day.strftime("%A")}')
    elif "a" in groups:  # 25/09/2026 is one day; 5/1/2026 is 1 May or 5 January
        a, b, year = int(groups["a"]), int(groups["b"]), groups["y"]
        if len(year) != 4:
            raise Unreadable(f'"{phrase}": a two-digit year could be any century')
        if a <= 12 and b <= 12 and a != b:
            either = [qtime._day(int(year), a, b), qtime._day(int(year), b, a)]
            days = tuple(d for d in either if d is not None)
            if len(days) != len(either):
                raise Unreadable(f'"{phrase}": it is not a date on the calendar')
            return Stated(phrase, marked, either=days), m.end()
        month, dom = (a, b) if b > 12 or a == b else (b, a)
        day = qtime._day(int(year), month, dom)
    else:
        day = qtime._day(int(groups["y"]), int(groups["m"]), int(groups["d"]))
    if day is None:
        raise Unreadable(f'"{phrase}": it is not a date on the calendar')
    clock = _TIME_OF_DAY.match(text, m.end())
    if not clock or not (clock["M"] or clock["ampm"]):  # "1 May 2026 12 people" is no time
        return Stated(phrase, marked, day), m.end()
    phrase = " ".join(text[m.start() : clock.end()].split())
    instant, zone_given = _on_clock(day, clock, tz)
    unread = not zone_given and bool(_ZONE_UNREAD.match(text, clock.end()))
    return Stated(phrase, marked, day, instant, zone_given, zone_unread=unread), clock.end()


def _on_clock(day: date, clock: re.Match[str], tz: str) -> tuple[datetime, bool]:
    hour, minute = int(clock["H"]), int(clock["M"] or 0)
    if clock["ampm"]:
        if not 1 <= hour <= 12:
            raise Unreadable(f'"{clock.group(0).strip()}": not a time on the clock')
        hour = hour % 12 + (12 if clock["ampm"].lower() == "p" else 0)
    if hour > 23 or minute > 59:
        raise Unreadable(f'"{clock.group(0).strip()}": not a time on the clock')
    offset = clock["off"] or clock["poff"]
    said = bool(offset) or bool(_ZONE_SAID.search(clock.group(0)))
    if said:
        zone = UTC if not offset else _fixed(offset)
        return datetime.combine(day, time(hour, minute), tzinfo=zone), True
    local = datetime.combine(day, time(hour, minute), tzinfo=qtime.zone(tz))
    problem = qtime._not_one_instant(local, tz)
    if problem:
        raise Unreadable(f'"{clock.group(0).strip()}": {problem}')
    return local, False


def _fixed(offset: str) -> timezone:
    """A written UTC offset: +7, +07, +0700 or +07:00."""
    digits = offset[1:].replace(":", "")
    hours, minutes = (int(digits[:-2]), int(digits[-2:])) if len(digits) > 2 else (int(digits), 0)
    if hours > 23 or minutes > 59:
        raise Unreadable(f'"{offset}": not a UTC offset on the clock')
    sign = -1 if offset[0] == "-" else 1
    return timezone(sign * timedelta(hours=hours, minutes=minutes))


def _marked(before: str) -> bool:
    return bool(_START.search(before)) and not _OTHER_EVENT_ON.search(before)


def _blank_spans(text: str, spans: list[tuple[int, int]]) -> str:
    for start, end in spans:
        text = text[:start] + " " * (end - start) + text[end:]
    return text


def _key(s: Stated) -> object:
    if s.instant is not None:
        return qtime.to_ms(s.instant)
    return s.day or s.either or s.month_day or s.weekday


def _lately(s: Stated, at: datetime, tz: str) -> bool:
    """Is a day without its year one of the last three months before `at`? Then it is
    that past day (a start before that, or after `at`, may be next year's)."""
    return _lately_day(s, at, tz) is not None


def _lately_day(s: Stated, at: datetime, tz: str) -> date | None:
    """The day of the last three months before `at` a day without its year is, if one."""
    if s.month_day is None:
        return None
    written = at.astimezone(qtime.zone(tz)).date()
    for year in (written.year, written.year - 1):
        day = qtime._day(year, *s.month_day)
        if day is not None and 0 <= (written - day).days <= _LATELY_DAYS:
            return day
    return None


_LATELY_DAYS = 92


def _agrees(s: Stated, effective_at: datetime, tz: str) -> bool:
    """Does the time `s` names fit `effective_at`? A day or a wall clock is compared in the
    zone `effective_at` is written in and in the company's (a writer's day is theirs)."""
    local = (effective_at, effective_at.astimezone(qtime.zone(tz)))
    if s.instant is not None and s.zone_given:
        return qtime.to_ms(s.instant) == qtime.to_ms(effective_at)
    if s.instant is not None:
        wall = s.instant.replace(tzinfo=None)
        return any(t.replace(tzinfo=None, second=0, microsecond=0) == wall for t in local)
    if s.day is not None:
        return any(t.date() == s.day for t in local)
    if s.either:  # 5/1/2026 fits an effective_at on either day it may be
        return any(t.date() in s.either for t in local)
    if s.month_day is not None:
        return any((t.month, t.day) == s.month_day for t in local)
    return any(t.weekday() == s.weekday for t in local)
