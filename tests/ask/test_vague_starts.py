"""A change of owner whose start is a stretch of the calendar, some time to come or a
condition ("transfers to Cora Ng in 2027", "in November", "at the end of the quarter",
"soon", "once the audit closes"), written 1 April with no `effective_at`, was kept as
effective when written: Cora was named for April and May, citing the sentence that says the
change comes later. None of these is one day: the claim is kept without its owner and
owner_of refuses from the record's day; an `effective_at` inside the month or year named
settles it."""

from __future__ import annotations

from pathlib import Path

import pytest

from companybrain.ask.engine import ask
from companybrain.config import Settings
from companybrain.graph.connection import Store
from companybrain.ingest.pipeline import ingest
from companybrain.model.answer import Answer, RefusalCode
from tests.ask.handover import DIRECTORY, TEAM_ORG, change, owner
from tests.ingest.corpus_builder import write_corpus

NOW = "2028-07-01T00:00:00Z"


def load(store: Store, settings: Settings, tmp_path: Path, cc: str) -> None:
    files = {"dir.md": DIRECTORY, "cc.md": cc}
    ingest(store, write_corpus(tmp_path / "c", files, org=TEAM_ORG), settings)


def on(store: Store, settings: Settings, day: str) -> Answer:
    return ask(store, settings, f"Who owns the billing gateway on {day}?", now=NOW)


def refused_citing_the_change(answer: Answer) -> bool:
    return (
        answer.refusal is not None
        and answer.refusal.code is RefusalCode.MISSING_PROVENANCE
        and [c.record for c in answer.citations] == ["CC-7"]
        and "cora" not in answer.refusal.message.lower()
        and "bo lind" not in answer.refusal.message.lower()
    )


@pytest.mark.parametrize(
    "sentence",
    [
        "Ownership of the billing gateway transfers to Cora Ng in 2027.",
        "Ownership of the billing gateway transfers to Cora Ng in November.",
        "Ownership of the billing gateway transfers to Cora Ng at the end of the quarter.",
        "Ownership of the billing gateway transfers to Cora Ng by end of year.",
        "Ownership of the billing gateway transfers to Cora Ng soon.",
        "Ownership of the billing gateway will transfer to Cora Ng in due course.",
        "Bo Lind will own the billing gateway after the migration.",
        "Once the audit closes, ownership of the billing gateway transfers to Bo Lind.",
        "Bo Lind takes over the billing gateway when Ana Ruiz leaves.",
        "Ownership of the billing gateway transfers to Bo Lind, pending approval.",
        # (a change waiting for approval is not a hedge of who owns it: when, not whether)
        "Once approved, ownership of the billing gateway transfers to Bo Lind.",
        "Ownership of the billing gateway transfers to Bo Lind, subject to approval.",
        "Ownership of the billing gateway transfers to Cora Ng in early May.",
        "Ownership of the billing gateway transfers to Cora Ng in mid-2027.",
        "Ownership of the billing gateway transfers to Cora Ng in H2.",
    ],
)
def test_a_start_that_is_no_one_day_refuses_from_the_records_day(
    store: Store, settings: Settings, tmp_path: Path, sentence: str
) -> None:
    load(store, settings, tmp_path, change(sentence))
    assert owner(on(store, settings, "2026-03-31")) == "kofi"
    for day in ("2026-04-01", "2026-05-15", "2027-06-01"):
        assert refused_citing_the_change(on(store, settings, day)), day


def test_an_effective_at_in_the_month_named_settles_it_one_outside_does_not(
    store: Store, settings: Settings, tmp_path: Path
) -> None:
    sentence = "Ownership of the billing gateway transfers to Cora Ng in November 2026."
    load(store, settings, tmp_path, change(sentence, effective_at="2026-11-16T00:00:00Z"))
    assert owner(on(store, settings, "2026-11-15")) == "kofi"
    assert owner(on(store, settings, "2026-11-16")) == "cora"
    load(store, settings, tmp_path, change(sentence, effective_at="2026-10-31T00:00:00Z"))
    assert refused_citing_the_change(on(store, settings, "2026-11-16"))


@pytest.mark.parametrize(
    "sentence",
    [
        "Cora Ng took over the billing gateway in March.",
        "Ownership of the billing gateway transferred to Cora Ng in 2025.",
        "Cora Ng has owned the billing gateway since the start of the year.",
        "Cora Ng owns the billing gateway; page her when the alert fires.",
    ],
)
def test_a_stretch_in_the_past_or_no_start_at_all_keeps_the_records_time(
    store: Store, settings: Settings, tmp_path: Path, sentence: str
) -> None:
    load(store, settings, tmp_path, change(sentence))
    assert owner(on(store, settings, "2026-04-01")) == "cora"


def test_a_month_gone_this_year_in_a_sentence_telling_no_change_keeps_the_records_time(
    store: Store, settings: Settings, tmp_path: Path
) -> None:
    """Written in July, "reviewed in March" is this year's March, not a start to come."""
    text = "Cora Ng owns the billing gateway, reviewed in March."
    load(store, settings, tmp_path, change(text, at="2026-07-15T09:00:00Z"))
    assert owner(on(store, settings, "2026-07-15")) == "cora"


TRANSFER = "Ownership of the billing gateway transfers to Bo Lind."


@pytest.mark.parametrize(
    ("text", "front"),
    [
        (TRANSFER, {"title": "Billing gateway handover in November"}),
        ("The handover happens in November.\n\n" + TRANSFER, {}),
        ("- Effective: November 2026\n- " + TRANSFER, {}),
        ("The billing gateway handover is planned for Q3.\n\n" + TRANSFER, {}),
        ("The handover happens next month.\n\n" + TRANSFER, {}),
        ("Bo Lind owns the billing gateway. The billing gateway changes hands next month.", {}),
    ],
    ids=["title", "sentence", "line", "planned", "next-month", "state-then-next-month"],
)
def test_a_start_that_is_no_one_day_elsewhere_in_the_record_refuses_from_its_day(
    store: Store, settings: Settings, tmp_path: Path, text: str, front: dict[str, str]
) -> None:
    load(store, settings, tmp_path, change(text, **front))
    assert owner(on(store, settings, "2026-03-31")) == "kofi"
    assert refused_citing_the_change(on(store, settings, "2026-04-15"))


def test_a_heading_or_another_events_month_leaves_the_change_at_the_records_time(
    store: Store, settings: Settings, tmp_path: Path
) -> None:
    text = "## Month-end\n\nThe team offsite is in November.\n\n" + TRANSFER
    load(store, settings, tmp_path, change(text))
    assert owner(on(store, settings, "2026-04-01")) == "bo"


def test_a_month_in_a_clause_about_a_duty_does_not_disagree_with_effective_at(
    store: Store, settings: Settings, tmp_path: Path
) -> None:
    text = "Cora Ng owns the billing gateway and will be on leave in November."
    load(store, settings, tmp_path, change(text, effective_at="2026-04-01T09:00:00Z"))
    assert owner(on(store, settings, "2026-04-01")) == "cora"


def test_a_stretch_in_another_column_of_a_row_does_not_date_it(
    store: Store, settings: Settings, tmp_path: Path
) -> None:
    """A directory row "| Billing Gateway | Bo Lind | Q3 2026 |" under "Next review" was
    refused as a start that is no one day; under "Effective" it still is."""
    rows = "| Service | Owner | {} |\n| --- | --- | --- |\n"
    rows += "| Billing Gateway | Bo Lind | Q3 2026 |\n"
    load(store, settings, tmp_path, change(rows.format("Next review"), kind="service_directory"))
    assert owner(on(store, settings, "2026-04-01")) == "bo"
    load(store, settings, tmp_path, change(rows.format("Effective"), kind="service_directory"))
    answer = on(store, settings, "2026-04-01")
    assert answer.refusal is not None and answer.refusal.code is RefusalCode.MISSING_PROVENANCE
