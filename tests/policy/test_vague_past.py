"""The first day a change told as done without its day may have come on (policy/vague_past.py)."""

from __future__ import annotations

from datetime import date

import pytest

from companybrain.policy.vague_past import earliest

SUNDAY = date(2026, 5, 10)


@pytest.mark.parametrize(
    ("text", "first", "exact"),
    [
        ("took over yesterday", date(2026, 5, 9), True),
        ("took over the day before yesterday", date(2026, 5, 8), True),
        ("took over 3 days ago", date(2026, 5, 7), True),
        ("took over a few days ago", date(2026, 5, 1), False),
        ("took over last week", date(2026, 4, 27), False),
        ("took over this week", date(2026, 5, 4), False),
        ("took over earlier this month", date(2026, 5, 1), False),
        ("took over last month", date(2026, 4, 1), False),
        ("took over last quarter", date(2026, 1, 1), False),
        ("took over this year", date(2026, 1, 1), False),
        ("took over on Monday", date(2026, 4, 27), False),
        ("took over recently", date(2026, 2, 7), False),
        ("took over yesterday, as agreed last week", date(2026, 4, 27), False),
        ("took over last night", date(2026, 5, 9), False),
        ("took over over the weekend", date(2026, 4, 27), False),
        ("took over a week ago", date(2026, 4, 27), False),
        ("took over more than two weeks ago", date(2026, 2, 7), False),
    ],
)
def test_the_first_day_a_past_change_may_have_come_on(text: str, first: date, exact: bool) -> None:
    assert earliest(text, SUNDAY)[:2] == (first, exact)


def test_no_past_time_is_none() -> None:
    assert earliest("Bo Lind owns the billing gateway.", SUNDAY) is None
