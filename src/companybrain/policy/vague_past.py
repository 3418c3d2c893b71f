"""How far back a change that a record tells as done, without its day, may have come.

"Bo Lind took over the billing gateway last week.", written on Sunday 10 May with no
`effective_at`, is true when it was written; but counted from then, the owner before Bo
answered for the days of last week, although the record says Bo owned it by then. Such a
sentence names the first day the change may have come on, and the owner from that day
until the record was written cannot be read:

- "yesterday", "the day before yesterday", "3 days ago" are one day: the claim's start;
- "last week", "earlier this month", "last month", "this year", "2 weeks ago", "on Monday",
  "last Friday" go back at most to the first day of that week, month, quarter or year (a
  weekday: of the week before the record's);
- "last night" from the day before, "last weekend" from the Monday of the week before;
- "a few days ago", "several weeks ago" at most nine of them; "recently", "lately", "not
  long ago", "the other day", "more than two weeks ago" at most the three months a day without
  its year reaches back (policy/effective.py), the one bound the rules give to a recent
  past.

Pure: days in, days out, in the company's calendar."""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import date, timedelta

_WEEKDAY_WORD = r"monday|tuesday|wednesday|thursday|friday|saturday|sunday"
_COUNT = (
    r"(?P<n>\d{1,3}|an?|one|two|three|four|five|six|seven|eight|nine|ten|a\s+few|few|several"
    r"|a\s+couple\s+of|couple\s+of)"
)
_NUMBERS = ("one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")
# At most this many of a unit for "a few", "several", "a couple of".
_FEW = 9
# How far back "recently" may reach: as far as a day without its year (effective.py).
_RECENT_DAYS = 92
_PAST = re.compile(
    r"\b(?:(?P<yesterday>(?:the\s+day\s+before\s+)?yesterday)"
    rf"|(?P<over>(?:more|longer)\s+than\s+)?{_COUNT}\s+(?P<unit>days?|weeks?|months?|years?)\s+ago"
    r"|(?P<night>last\s+night)|(?:last|this\s+past|over\s+the|this)\s+(?P<weekend>weekend)"
    r"|(?:earlier\s+)?this\s+(?P<this>week|month|quarter|year)"
    r"|(?:last|previous|past)\s+(?P<last>week|month|quarter|year)"
    rf"|(?:last|on|this\s+past)\s+(?:the\s+)?(?P<weekday>{_WEEKDAY_WORD})"
    r"|(?P<recent>recently|lately|not\s+long\s+ago|the\s+other\s+day))\b",
    re.I,
)
# The same, cheaply, before anything else is read.
_MAY = re.compile(
    r"\b(?:yesterday|ago|this|last|previous|past|on|over|recently|lately|other)\b", re.I
)


def said(text: str) -> list[re.Match[str]]:
    """Each such time `text` names."""
    return list(_PAST.finditer(text)) if _MAY.search(text) else []


def times(text: str, written: date) -> list[tuple[re.Match[str], date]]:
    """Each such time `text` names, with the first day it may be."""
    return [(m, _first_day(m, written)[0]) for m in said(text)]


def names_a_past(text: str) -> bool:
    """Does `text` name such a time at all?"""
    return bool(_PAST.search(text))


def pasts_named(text: str) -> int:
    """How many such times `text` names."""
    return sum(1 for _ in _PAST.finditer(text))


def may_say(text: str) -> bool:
    """Could `text` tell a past change without its day? (A cheap test.)"""
    return bool(_MAY.search(text))


def earliest(
    text: str, written: date, keep: Callable[[re.Match[str]], bool] = lambda m: True
) -> tuple[date, bool, str] | None:
    """For a sentence (its days blanked) telling a change done, written on the day
    `written`: the first day that change may have come on, whether it came exactly then
    ("yesterday"), and the words that say so; the earliest when it says several. None: it
    gives no such time. `keep`: whether a time found dates the change (not "and was on
    call last week")."""
    found = [(_first_day(m, written), m) for m in _PAST.finditer(text) if keep(m)]
    if not found:
        return None
    (day, exact), m = min(found, key=lambda f: f[0][0])
    return day, exact and len(found) == 1, " ".join(m.group(0).split())


def _first_day(m: re.Match[str], written: date) -> tuple[date, bool]:
    monday = written - timedelta(days=written.weekday())
    if m["yesterday"]:
        return written - timedelta(days=2 if m["yesterday"].lower() != "yesterday" else 1), True
    if m["night"]:  # "last night": yesterday's, or after midnight
        return written - timedelta(days=1), False
    if m["weekend"]:  # this week's, or the one before
        return monday - timedelta(weeks=1), False
    if m["over"]:  # "more than two weeks ago": any time before, as far back as "recently"
        return written - timedelta(days=_RECENT_DAYS), False
    if m["unit"]:
        count, exact = _count(m["n"])
        unit = m["unit"].lower().rstrip("s")
        if unit == "day":
            return written - timedelta(days=count), exact
        if unit == "week":  # "2 weeks ago" may be a few days more
            return monday - timedelta(weeks=count), False
        if unit == "month":
            return _months_before(written, count), False
        return date(written.year - count, 1, 1), False
    if m["this"] or m["last"]:
        back = 1 if m["last"] else 0
        unit = (m["this"] or m["last"]).lower()
        if unit == "week":
            return monday - timedelta(weeks=back), False
        if unit == "month":
            return _months_before(written, back), False
        if unit == "quarter":
            first = _months_before(written, (written.month - 1) % 3)
            return _months_before(first, 3 * back), False
        return date(written.year - back, 1, 1), False
    if m["weekday"]:  # "on Monday", "last Monday": this week's or the one before's
        return monday - timedelta(weeks=1), False
    return written - timedelta(days=_RECENT_DAYS), False


def _count(said: str) -> tuple[int, bool]:
    """How many a count says (the most it may be for "a few"), and whether exactly."""
    said = " ".join(said.lower().split())
    if said.isdigit():
        return int(said), True
    if said in ("a", "an"):
        return 1, True
    if said in _NUMBERS:
        return _NUMBERS.index(said) + 1, True
    return _FEW, False


def _months_before(day: date, count: int) -> date:
    """The first day of the month `count` months before `day`'s."""
    months = day.year * 12 + day.month - 1 - count
    return date(months // 12, months % 12 + 1, 1)
