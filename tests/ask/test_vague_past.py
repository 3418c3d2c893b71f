"""A change control written on Sunday 10 May 2026 saying "Bo Lind took over the billing
gateway last week." (or "earlier this month", "recently", "a few days ago", "on Monday",
"in April"), with no `effective_at`, counted from 10 May: the directory's Kofi answered for
the days of last week, citing the directory, although the record says Bo owned it by then.
The days between the first the change may have come on and the record are unknown: refused
MISSING_PROVENANCE citing the record, never naming Bo or a day; Bo from the record's time;
"yesterday" and "3 days ago" are one day, read as the start."""

from __future__ import annotations

from datetime import date, timedelta
from pathlib import Path

import pytest

from companybrain.config import Settings
from companybrain.graph.connection import Store
from companybrain.model.answer import Answer, RefusalCode
from tests.ask.handover import WRITTEN, load, on, owner


def refused_citing_the_change(answer: Answer) -> bool:
    return (
        answer.refusal is not None
        and answer.refusal.code is RefusalCode.MISSING_PROVENANCE
        and [c.record for c in answer.citations] == ["CC-7"]
        and all(c.effective_at is None for c in answer.citations)
        and "bo" not in answer.refusal.message.lower().split()
        and "bo lind" not in answer.refusal.message.lower()
    )


@pytest.mark.parametrize(
    ("said", "first"),
    [
        ("last week", "2026-04-27"),
        ("earlier this month", "2026-05-01"),
        ("this week", "2026-05-04"),
        ("a few days ago", "2026-05-01"),
        ("last month", "2026-04-01"),
        ("recently", "2026-02-07"),
        ("on Monday", "2026-04-27"),
        ("last Friday", "2026-04-27"),
        ("two weeks ago", "2026-04-20"),
        ("in April", "2026-04-01"),
    ],
)
def test_a_past_change_without_its_day_refuses_the_days_before_the_record(
    store: Store, settings: Settings, tmp_path: Path, said: str, first: str
) -> None:
    load(store, settings, tmp_path, f"Bo Lind took over the billing gateway {said}.")
    before = on(store, settings, _day_before(first))
    if first > "2026-03-01":  # the directory's day
        assert owner(before) == "kofi" and [c.record for c in before.citations] == ["dir-1"]
    else:
        assert before.refusal is not None and before.refusal.code is RefusalCode.NO_CLAIM
    for day in (first, "2026-05-09"):
        assert refused_citing_the_change(on(store, settings, day)), day
    after = on(store, settings, "2026-05-10")
    assert owner(after) == "bo" and [(c.record, c.effective_at) for c in after.citations] == [
        ("CC-7", WRITTEN)
    ]
    assert owner(on(store, settings, "2026-06-01")) == "bo"


@pytest.mark.parametrize(
    ("text", "start"),
    [
        ("Bo Lind took over the billing gateway yesterday.", "2026-05-09"),
        ("Ownership of the billing gateway moved to Bo Lind 3 days ago.", "2026-05-07"),
    ],
)
def test_yesterday_is_one_day_the_claims_start(
    store: Store, settings: Settings, tmp_path: Path, text: str, start: str
) -> None:
    load(store, settings, tmp_path, text)
    assert owner(on(store, settings, _day_before(start))) == "kofi"
    answer = on(store, settings, start)
    assert owner(answer) == "bo"
    assert [(c.record, c.effective_at) for c in answer.citations] == [
        ("CC-7", f"{start}T00:00:00Z")
    ]


@pytest.mark.parametrize(
    "text",
    [
        "Bo Lind owns the billing gateway. Cy Park took over the search index last week.",
        "Bo Lind owns the billing gateway; we met last week.",
        "Bo Lind owns the billing gateway; the audit is in Q3.",
        "Bo Lind owns the billing gateway. We review budgets next quarter.",
        "Bo Lind took over the billing gateway today.",
        "Bo Lind owns the billing gateway, and was on call last week.",
        "Bo Lind owns the billing gateway, but he was away last week.",
        "Bo Lind owns the billing gateway, and was on leave in April.",
        "Bo Lind owns the billing gateway; he moved from Paris last week.",
    ],
)
def test_a_vague_time_of_something_else_keeps_the_records_time(
    store: Store, settings: Settings, tmp_path: Path, text: str
) -> None:
    load(store, settings, tmp_path, text)
    assert owner(on(store, settings, "2026-05-09")) == "kofi"
    assert owner(on(store, settings, "2026-05-10")) == "bo"


def test_a_change_still_to_come_stays_unclear(
    store: Store, settings: Settings, tmp_path: Path
) -> None:
    load(store, settings, tmp_path, "Bo Lind will take over the billing gateway next week.")
    assert owner(on(store, settings, "2026-05-09")) == "kofi"
    assert refused_citing_the_change(on(store, settings, "2026-05-20"))


def _day_before(day: str) -> str:
    return (date.fromisoformat(day) - timedelta(days=1)).isoformat()


@pytest.mark.parametrize(
    ("text", "first"),
    [
        ("The billing gateway changed hands last week. Bo Lind owns the billing gateway.",
         "2026-04-27"),
        ("The handover of the billing gateway happened last week. Ownership of the billing "
         "gateway transfers to Bo Lind.", "2026-04-27"),
        ("The billing gateway changed hands in April. Bo Lind owns the billing gateway.",
         "2026-04-01"),
    ],
)  # fmt: skip
def test_another_sentence_telling_this_services_change_done_without_its_day(
    store: Store, settings: Settings, tmp_path: Path, text: str, first: str
) -> None:
    """ "The billing gateway changed hands last week.", then "Bo Lind owns the billing
    gateway.": Kofi answered for last week, as for the same words in the claim's sentence."""
    load(store, settings, tmp_path, text)
    assert owner(on(store, settings, _day_before(first))) == "kofi"
    for day in (first, "2026-05-09"):
        assert refused_citing_the_change(on(store, settings, day)), day
    assert owner(on(store, settings, "2026-05-10")) == "bo"


def test_another_sentence_saying_yesterday_dates_the_claim(
    store: Store, settings: Settings, tmp_path: Path
) -> None:
    text = "The billing gateway changed hands yesterday. Bo Lind owns the billing gateway."
    load(store, settings, tmp_path, text)
    assert owner(on(store, settings, "2026-05-08")) == "kofi"
    answer = on(store, settings, "2026-05-09")
    assert owner(answer) == "bo"
    assert [(c.record, c.effective_at) for c in answer.citations] == [
        ("CC-7", "2026-05-09T00:00:00Z")
    ]


@pytest.mark.parametrize(
    "text",
    [
        "Bo Lind owns the billing gateway. The search index changed hands last week.",
        "Bo Lind owns the billing gateway. We had the offsite last week.",
    ],
)
def test_another_sentence_about_something_else_keeps_the_records_time(
    store: Store, settings: Settings, tmp_path: Path, text: str
) -> None:
    load(store, settings, tmp_path, text)
    assert owner(on(store, settings, "2026-05-09")) == "kofi"
    assert owner(on(store, settings, "2026-05-10")) == "bo"


@pytest.mark.parametrize(
    ("text", "first"),
    [
        ("Kofi Mensah owned the billing gateway until last week. Bo Lind owns the billing "
         "gateway.", "2026-04-27"),
        ("Bo Lind owns the billing gateway; Kofi Mensah owned it until last week.",
         "2026-04-27"),
        ("Kofi Mensah owned the billing gateway until yesterday. Ownership of the billing "
         "gateway transfers to Bo Lind.", "2026-05-09"),
    ],
)  # fmt: skip
def test_the_owner_before_said_to_own_it_until_a_past_time_without_its_day(
    store: Store, settings: Settings, tmp_path: Path, text: str, first: str
) -> None:
    """ "Kofi Mensah owned the billing gateway until last week." beside Bo's claim: Kofi
    answered for last week, although the record says he owned it only until some day of
    it. The days from then until the record are refused, never Kofi."""
    load(store, settings, tmp_path, text)
    assert owner(on(store, settings, _day_before(first))) == "kofi"
    for day in (first, "2026-05-09"):
        assert refused_citing_the_change(on(store, settings, day)), day
    assert owner(on(store, settings, "2026-05-10")) == "bo"


@pytest.mark.parametrize(
    "text",
    [
        "Bo Lind owns the billing gateway. Kofi Mensah was on leave until last week.",
        "Kofi Mensah owns the search index until last week. Bo Lind owns the billing gateway.",
    ],
)
def test_an_absence_or_another_services_end_keeps_the_records_time(
    store: Store, settings: Settings, tmp_path: Path, text: str
) -> None:
    load(store, settings, tmp_path, text)
    assert owner(on(store, settings, "2026-05-09")) == "kofi"
    assert owner(on(store, settings, "2026-05-10")) == "bo"


@pytest.mark.parametrize(
    ("said", "first"),
    [("over the weekend", "2026-04-27"), ("last night", "2026-05-09")],
)
def test_a_weekend_or_last_night_refuses_the_days_before_too(
    store: Store, settings: Settings, tmp_path: Path, said: str, first: str
) -> None:
    load(store, settings, tmp_path, f"Bo Lind took over the billing gateway {said}.")
    assert owner(on(store, settings, _day_before(first))) == "kofi"
    assert refused_citing_the_change(on(store, settings, first))
    assert owner(on(store, settings, "2026-05-10")) == "bo"


@pytest.mark.parametrize(
    "text",
    [
        "Bo Lind took over the billing gateway last week. Cy Park will take over the billing "
        "gateway next month.",
        "Cy Park will take over the billing gateway next month. Bo Lind took over the billing "
        "gateway last week.",
    ],
)
def test_a_change_to_come_at_no_one_time_still_refuses_beside_a_past_one(
    store: Store, settings: Settings, tmp_path: Path, text: str
) -> None:
    """The record's claim for the days before it and its claim whose time cannot be read
    were one per service: the first kept stood for both. Bo answered in July, although Cy
    takes over "next month"; or Kofi answered for last week."""
    load(store, settings, tmp_path, text)
    assert owner(on(store, settings, "2026-04-26")) == "kofi"
    for day in ("2026-04-27", "2026-05-10", "2026-07-15"):
        answer = on(store, settings, day)
        assert answer.refusal is not None, day
        assert answer.refusal.code is RefusalCode.MISSING_PROVENANCE, day


@pytest.mark.parametrize(
    "text",
    [
        "Bo Lind owns the billing gateway as of last week.",
        "Effective last Monday, Bo Lind owns the billing gateway.",
    ],
)
def test_a_start_given_as_a_past_time_without_its_day(
    store: Store, settings: Settings, tmp_path: Path, text: str
) -> None:
    """ "Bo Lind owns the billing gateway as of last week." tells no change in a past
    tense, and was read as from the record's day: Kofi answered for last week."""
    load(store, settings, tmp_path, text)
    assert owner(on(store, settings, "2026-04-26")) == "kofi"
    for day in ("2026-04-27", "2026-05-09"):
        assert refused_citing_the_change(on(store, settings, day)), day
    assert owner(on(store, settings, "2026-05-10")) == "bo"
