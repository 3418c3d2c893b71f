"""A change control whose sentence says when it takes effect ("Effective 1 May 2026, ...")
takes effect then, not when it was written; one whose sentence disagrees with its
`effective_at`, or names no one time, is refused at ingestion with the reason."""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path
from typing import Any

import pytest

from companybrain.ask.engine import ask
from companybrain.config import Settings
from companybrain.graph.connection import Store
from companybrain.ingest.pipeline import ingest
from companybrain.model.answer import RefusalCode
from tests.ingest.corpus_builder import md, write_corpus
from tests.ingest.test_pipeline import DIRECTORY

NOW = "2026-12-20T12:00:00Z"


def change(text: str, **front: Any) -> str:
    head = {"id": "CC-9", "kind": "change_control", "at": "2026-10-01T09:00:00Z"} | front
    return md(head, text)


def load(store: Store, settings: Settings, tmp_path: Path, text: str, **front: Any) -> Any:
    files = {"dir.md": DIRECTORY, "cc.md": change(text, **front)}
    return ingest(store, write_corpus(tmp_path / "c", files), settings)


def owner_on(store: Store, settings: Settings, day: str) -> tuple[str | None, list[Any]]:
    answer = ask(store, settings, f"Who owns the billing gateway on {day}?", now=NOW)
    found = answer.result["owner"]["id"] if answer.result else None
    return found, [(c.record, c.effective_at) for c in answer.citations]


def refused_on(store: Store, settings: Settings, day: str) -> bool:
    """Is owner_of refused that day for CC-9's change from a time that cannot be read (kept
    without its owner: the owner before it may not be the owner any more)?"""
    answer = ask(store, settings, f"Who owns the billing gateway on {day}?", now=NOW)
    return (
        answer.refusal is not None
        and answer.refusal.code is RefusalCode.MISSING_PROVENANCE
        and [c.record for c in answer.citations] == ["CC-9"]
    )


def refusals(report: Any) -> list[tuple[str, str]]:
    return [(r["check"], r["reason"]) for r in report.rejected_detail if r["record"] == "CC-9"]


def test_the_day_a_sentence_states_is_when_its_claim_takes_effect(
    store: Store, settings: Settings, tmp_path: Path
) -> None:
    """Written on 1 October without effective_at, the transfer "effective 1 November 2026"
    named Bo for October, citing the quote that says it happens in November."""
    text = "Effective 1 November 2026, ownership of the billing gateway transfers from Ana Ruiz to Bo Lind."  # noqa: E501
    load(store, settings, tmp_path, text)
    assert owner_on(store, settings, "2026-10-15") == ("ana", [("dir-1", "2026-09-01T08:00:00Z")])
    assert owner_on(store, settings, "2026-11-01") == ("bo", [("CC-9", "2026-11-01T00:00:00Z")])


def test_a_time_of_day_in_the_sentence_is_the_instant(
    store: Store, settings: Settings, tmp_path: Path
) -> None:
    text = "Starting Monday 2 November 2026 at 09:00 UTC, Bo Lind owns the billing gateway."
    load(store, settings, tmp_path, text)
    answer = ask(store, settings, "Who owns the billing gateway?", now="2026-11-02T08:59:00Z")
    assert answer.result == {"owner": {"id": "ana", "name": "Ana Ruiz"}}
    assert owner_on(store, settings, "2026-11-02") == ("bo", [("CC-9", "2026-11-02T09:00:00Z")])


def test_a_sentence_disagreeing_with_effective_at_is_refused_naming_both(
    store: Store, settings: Settings, tmp_path: Path
) -> None:
    text = "Effective 1 November 2026, ownership of the billing gateway transfers from Ana Ruiz to Bo Lind."  # noqa: E501
    report = load(store, settings, tmp_path, text, effective_at="2026-12-01T00:00:00Z")
    [(check, reason)] = [r for r in refusals(report) if r[0] != "previous_owner"]
    assert check == "effective_time"
    assert "1 November 2026" in reason and "2026-12-01T00:00:00" in reason
    [stored] = store.read(
        "MATCH (r:Rejection {check: 'effective_time'}) RETURN r.fact_json AS fact"
    )
    assert json.loads(stored["fact"]) == {  # as proposed, for audit
        "record": "CC-9",
        "service": "billing-gateway",
        "owner": "bo",
        "quote": text,
    }
    assert owner_on(store, settings, "2026-09-30")[0] == "ana"
    assert refused_on(store, settings, "2026-12-15")


def test_a_start_that_is_no_day_is_refused_without_effective_at_and_kept_with_it(
    store: Store, settings: Settings, tmp_path: Path
) -> None:
    """Kept at the time of writing, "from next Monday" would name Bo before the change;
    the record's effective_at says which Monday."""
    text = "From next Monday, Bo Lind owns the billing gateway."
    [(check, reason)] = refusals(load(store, settings, tmp_path, text))
    assert check == "effective_time" and '"next Monday"' in reason
    assert owner_on(store, settings, "2026-09-30")[0] == "ana"
    assert refused_on(store, settings, "2026-10-02")
    load(store, settings, tmp_path, text, effective_at="2026-10-05T00:00:00Z")
    assert owner_on(store, settings, "2026-10-04")[0] == "ana"
    assert owner_on(store, settings, "2026-10-05")[0] == "bo"


def test_two_moves_at_two_times_in_one_sentence_are_refused(
    store: Store, settings: Settings, tmp_path: Path
) -> None:
    """One instant per record cannot hold both: the last owner named was the answer from
    the record's time."""
    text = (
        "Ownership of the billing gateway transfers to Cy Park on Monday 5 October 2026, "
        "then to Bo Lind on 1 December 2026."
    )
    report = load(store, settings, tmp_path, text)
    [reason] = [reason for check, reason in refusals(report) if check == "effective_time"]
    assert '"Monday 5 October 2026"' in reason and '"1 December 2026"' in reason
    assert owner_on(store, settings, "2026-09-30")[0] == "ana"
    assert refused_on(store, settings, "2026-10-10")
    assert refused_on(store, settings, "2026-12-15")


def test_an_abbreviated_month_stays_in_the_sentence_it_dates(
    store: Store, settings: Settings, tmp_path: Path
) -> None:
    """The full stop of "Nov." ended the sentence: the transfer was quoted from "1, 2026,
    ownership ..." without its month, and named Bo from the time of writing."""
    text = "Effective Nov. 1, 2026, ownership of the billing gateway transfers from Ana Ruiz to Bo Lind."  # noqa: E501
    load(store, settings, tmp_path, text)
    assert owner_on(store, settings, "2026-10-15")[0] == "ana"
    assert owner_on(store, settings, "2026-11-01") == (
        "bo",
        [("CC-9", "2026-11-01T00:00:00Z")],
    )


GIVEN = "Ownership of the billing gateway transfers from Ana Ruiz to Bo Lind."


def timing(report: Any) -> list[tuple[str, str]]:
    return [r for r in refusals(report) if r[0] == "effective_time"]


@pytest.mark.parametrize(
    ("text", "front"),
    [
        (GIVEN, {"title": "Billing gateway handover, effective 1 November 2026"}),
        ("Effective 1 November 2026 the billing gateway changes hands.\n\n" + GIVEN, {}),
        ("- Effective: 2026-11-01\n- " + GIVEN, {}),
        ("## Starting 1 November 2026\n\n" + GIVEN, {}),
        (GIVEN, {"title": "Handover", "effective_at": "2026-11-01T00:00:00Z"}),
    ],
    ids=["title", "sentence", "list", "heading", "effective_at"],
)
def test_the_start_the_record_states_outside_the_sentence_is_the_claims(
    store: Store, settings: Settings, tmp_path: Path, text: str, front: dict[str, str]
) -> None:
    """Written on 1 October, a change control titled "..., effective 1 November 2026", or
    saying so in a sentence or line of its own, named Bo for October, citing the transfer."""
    assert timing(load(store, settings, tmp_path, text, **front)) == []
    assert owner_on(store, settings, "2026-10-31") == ("ana", [("dir-1", "2026-09-01T08:00:00Z")])
    assert owner_on(store, settings, "2026-11-01") == ("bo", [("CC-9", "2026-11-01T00:00:00Z")])


@pytest.mark.parametrize(
    ("text", "front", "named"),
    [
        (
            "Effective 1 December 2026, " + GIVEN[0].lower() + GIVEN[1:],
            {"title": "Billing gateway handover, effective 1 November 2026"},
            '"1 November 2026" in the record\'s title',
        ),
        (GIVEN, {"title": "Billing gateway handover next month"}, '"next month"'),
        (
            GIVEN,
            {
                "title": "Handover, effective 1 November 2026",
                "effective_at": "2026-12-01T00:00:00Z",
            },
            "2026-12-01T00:00:00",
        ),
        ("The handover happens on 1 November 2026. " + GIVEN, {}, '"1 November 2026" in "The'),
        ("From 2 November 2026 the billing gateway is on call.\n\n- " + GIVEN, {}, "2 November"),
        (
            "Ana Ruiz keeps the billing gateway until 31 October 2026. Then Bo Lind owns the "
            "billing gateway.",
            {},
            '"31 October 2026" in "Ana Ruiz keeps',
        ),
        (
            "Ana Ruiz owns the billing gateway until 31 October 2026. Bo Lind owns the billing "
            "gateway.",
            {},
            '"31 October 2026" in "Ana Ruiz owns',
        ),
    ],
    ids=[
        "title-and-sentence",
        "vague-title",
        "title-and-effective_at",
        "on-a-day",
        "from-a-day",
        "until-a-day",
        "until-a-day-of-anothers",
    ],
)
def test_a_start_elsewhere_in_the_record_that_is_unclear_is_refused(
    store: Store, settings: Settings, tmp_path: Path, text: str, front: dict[str, str], named: str
) -> None:
    reasons = [reason for _, reason in timing(load(store, settings, tmp_path, text, **front))]
    assert any(named in reason for reason in reasons), reasons
    assert owner_on(store, settings, "2026-09-30")[0] == "ana"
    assert refused_on(store, settings, "2026-10-15")
    assert refused_on(store, settings, "2026-12-15")


def test_dates_about_other_services_or_the_past_leave_the_claim_at_the_records_time(
    store: Store, settings: Settings, tmp_path: Path
) -> None:
    text = (
        "Since 1 March 2026 Ana Ruiz has run the search index; from 1 December 2026 the "
        f"search index is on call only in office hours. {GIVEN} Effective 2026-09-01 the "
        "billing gateway had its new certificates."
    )
    assert timing(load(store, settings, tmp_path, text)) == []
    assert owner_on(store, settings, "2026-10-01") == ("bo", [("CC-9", "2026-10-01T09:00:00Z")])


def test_a_day_in_a_tables_effective_column_is_when_its_row_takes_effect(
    store: Store, settings: Settings, tmp_path: Path
) -> None:
    """A handover table written 1 October with "Effective: 2026-11-01" in its row named Bo
    for October, citing that row; a "Last reviewed" day is still another column's."""
    text = (
        "| Service | New owner | Effective date | Last reviewed |\n| --- | --- | --- | --- |\n"
        "| Billing Gateway | Bo Lind | 2026-11-01 | 2026-12-01 |\n"
    )
    assert timing(load(store, settings, tmp_path, text)) == []
    assert owner_on(store, settings, "2026-10-31")[0] == "ana"
    assert owner_on(store, settings, "2026-11-01") == ("bo", [("CC-9", "2026-11-01T00:00:00Z")])


def test_a_vague_time_in_a_clause_about_a_duty_leaves_the_owner_named(
    store: Store, settings: Settings, tmp_path: Path
) -> None:
    """ "Bo owns the billing gateway and will be on call next week" named no owner."""
    text = "Bo Lind owns the billing gateway and will be on call next week."
    assert timing(load(store, settings, tmp_path, text)) == []
    assert owner_on(store, settings, "2026-10-01") == ("bo", [("CC-9", "2026-10-01T09:00:00Z")])


def test_a_title_about_another_service_does_not_date_the_claim(
    store: Store, settings: Settings, tmp_path: Path
) -> None:
    """Titled "Search index handover, effective 1 November 2026", the record's billing
    gateway line was moved to November: Ana named for October."""
    text = "Bo Lind owns the billing gateway."
    title = "Search index handover, effective 1 November 2026"
    assert timing(load(store, settings, tmp_path, text, title=title)) == []
    assert owner_on(store, settings, "2026-10-15") == ("bo", [("CC-9", "2026-10-01T09:00:00Z")])


@pytest.mark.parametrize("key", ["effective_date", "start-date", "effective_from"])
def test_a_start_in_a_field_the_format_does_not_know_is_read(
    store: Store, settings: Settings, tmp_path: Path, key: str
) -> None:
    """With `effective_date: 2026-11-01` in its front matter (kept, as the contract says,
    as a field the format does not know), the transfer named Bo for October."""
    load(store, settings, tmp_path, GIVEN, **{key: date(2026, 11, 1)})
    assert owner_on(store, settings, "2026-10-31")[0] == "ana"
    assert owner_on(store, settings, "2026-11-01") == ("bo", [("CC-9", "2026-11-01T00:00:00Z")])


def test_a_dated_change_to_someone_else_does_not_move_the_claim(
    store: Store, settings: Settings, tmp_path: Path
) -> None:
    """ "Bo owns the billing gateway. Effective 1 December 2026 ownership of the billing
    gateway moves to Cy Park." moved Bo's claim to December: Ana named for October and
    November. Another's dated change leaves Bo's claim as written; a claim of a change
    ("transfers to Bo") beside it is unclear."""
    later = " Effective 1 December 2026 ownership of the billing gateway moves to Cy Park."
    assert (
        timing(load(store, settings, tmp_path, "Bo Lind owns the billing gateway." + later)) == []
    )
    assert owner_on(store, settings, "2026-10-15") == ("bo", [("CC-9", "2026-10-01T09:00:00Z")])
    assert owner_on(store, settings, "2026-12-15") == ("cy", [("CC-9", "2026-12-01T00:00:00Z")])
    [(_, reason)] = timing(load(store, settings, tmp_path, GIVEN + later))
    assert '"1 December 2026" in "Effective 1 December' in reason


def test_a_date_in_a_clause_about_another_service_does_not_date_the_claim(
    store: Store, settings: Settings, tmp_path: Path
) -> None:
    """ "Bo owns the billing gateway, and Cy takes over the search index from 1 December
    2026" moved Bo's claim to December: Ana named for October, citing the directory."""
    text = (
        "Bo Lind owns the billing gateway, and Cy Park takes over the search index from "
        "1 December 2026."
    )
    assert timing(load(store, settings, tmp_path, text)) == []
    assert owner_on(store, settings, "2026-10-15") == ("bo", [("CC-9", "2026-10-01T09:00:00Z")])
    [claim] = store.read(
        "MATCH (:Source {id: 'CC-9'})-[:ATTESTS]->(c:OwnershipClaim)-[:ABOUT]->"
        "(:Service {id: 'search-index'}) RETURN c.effective_ms AS ms"
    )
    assert claim["ms"] == 1796083200000  # 2026-12-01T00:00:00Z
