"""A day is the end of that day in the company's time zone (org.yaml `timezone`)."""

from __future__ import annotations

from pathlib import Path

from companybrain.ask.engine import ask
from companybrain.config import Settings
from companybrain.graph.connection import Store
from companybrain.ingest.pipeline import ingest
from tests.ingest.corpus_builder import ORG, md, write_corpus

DIRECTORY_FRONT = {"id": "dir-1", "kind": "service_directory", "at": "2026-09-01T08:00:00Z"}
DIRECTORY_BODY = "| Service | Owner |\n| --- | --- |\n| Billing Gateway | Ana Ruiz |\n"
DIRECTORY = md({**DIRECTORY_FRONT, "author": "cy"}, DIRECTORY_BODY)
# 20:00 UTC on the 14th is already 03:00 on the 15th in Bangkok.
TRANSFER = md(
    {"id": "CC-1", "kind": "change_control", "at": "2026-10-13T09:00:00Z",
     "effective_at": "2026-10-14T20:00:00Z", "author": "cy", "about": ["billing-gateway"]},
    "Ownership of the billing gateway transfers from Ana Ruiz to Bo Lind.",
)  # fmt: skip


NOW = "2026-10-20T12:00:00Z"


def owner_on(store: Store, settings: Settings, day: str) -> str:
    answer = ask(
        store, settings, f"Who owned the billing gateway on {day}?", now="2026-10-20T12:00:00Z"
    )
    assert answer.result is not None, answer.refusal
    return str(answer.result["owner"]["id"])


def test_the_same_day_ends_at_different_instants(
    store: Store, settings: Settings, tmp_path: Path
) -> None:
    records = {"dir.md": DIRECTORY, "cc.md": TRANSFER}
    ingest(store, write_corpus(tmp_path / "utc", records, org=ORG), settings)
    assert owner_on(store, settings, "2026-10-14") == "bo"

    bangkok = {**ORG, "timezone": "Asia/Bangkok"}
    ingest(store, write_corpus(tmp_path / "bkk", records, org=bangkok), settings)
    assert owner_on(store, settings, "2026-10-14") == "ana"
    assert owner_on(store, settings, "October 15, 2026") == "bo"
    answer = ask(
        store, settings, "Who owned the billing gateway on 2026-10-14?", now="2026-10-20T12:00:00Z"
    )
    assert answer.as_of == "2026-10-14T23:59:59.999+07:00"


def test_a_change_in_the_repeated_last_hour_of_a_day_counts_for_that_day(
    store: Store, settings: Settings, tmp_path: Path
) -> None:
    """In Santiago the clocks turn back from 00:00 on 5 April 2026 to 23:00 on the 4th, so
    23:30-04:00 is still the 4th (its second 23:30)."""
    late = md(
        {"id": "CC-1", "kind": "change_control", "at": "2026-04-04T23:30:00-04:00",
         "author": "cy", "about": ["billing-gateway"]},
        "Ownership of the billing gateway transfers from Ana Ruiz to Bo Lind.",
    )  # fmt: skip
    directory = md({**DIRECTORY_FRONT, "at": "2026-03-01T08:00:00Z"}, DIRECTORY_BODY)
    santiago = {**ORG, "timezone": "America/Santiago"}
    ingest(
        store,
        write_corpus(tmp_path, {"dir.md": directory, "cc.md": late}, org=santiago),
        settings,
    )
    assert owner_on(store, settings, "2026-04-04") == "bo"
    assert owner_on(store, settings, "2026-04-03") == "ana"


def test_record_times_are_cited_as_written_not_padded_to_microseconds(
    store: Store, settings: Settings, tmp_path: Path
) -> None:
    transfer = md(
        {"id": "CC-1", "kind": "change_control", "at": "2026-10-12T10:00:00.5Z",
         "effective_at": "2026-10-13T06:00:00.25+07:00", "about": ["billing-gateway"]},
        "Ownership of the billing gateway transfers from Ana Ruiz to Bo Lind.",
    )  # fmt: skip
    finer = md(
        {"id": "CC-2", "kind": "change_control", "at": "2026-10-12T10:00:00.123456Z",
         "about": ["search-index"]},
        "Ownership of the search index transfers from Ana Ruiz to Bo Lind.",
    )  # fmt: skip
    ingest(store, write_corpus(tmp_path, {"a.md": transfer, "b.md": finer}), settings)
    [cited] = ask(store, settings, "Who owns the billing gateway?", now=NOW).citations
    assert (cited.at, cited.effective_at) == (
        "2026-10-12T10:00:00.500Z",
        "2026-10-13T06:00:00.250+07:00",
    )
    [cited] = ask(store, settings, "Who owns the search index?", now=NOW).citations
    assert cited.at == "2026-10-12T10:00:00.123456Z"


def test_a_record_written_after_now_does_not_count(
    store: Store, settings: Settings, tmp_path: Path
) -> None:
    """CC-2 is written on 25 October and backdates the transfer to the 10th. Asked with the
    clock at 20 October (today, or any day before) it was not written yet."""
    backdated = md(
        {"id": "CC-2", "kind": "change_control", "at": "2026-10-25T09:00:00Z",
         "effective_at": "2026-10-10T09:00:00Z", "about": ["billing-gateway"]},
        "Ownership of the billing gateway transfers from Ana Ruiz to Bo Lind.",
    )  # fmt: skip
    ingest(store, write_corpus(tmp_path, {"dir.md": DIRECTORY, "cc.md": backdated}), settings)
    for question in ("Who owns the billing gateway?", "Who owns the billing gateway today?"):
        answer = ask(store, settings, question, now=NOW)
        assert answer.result == {"owner": {"id": "ana", "name": "Ana Ruiz"}}, question
        assert [c.record for c in answer.citations] == ["dir-1"]
    assert owner_on(store, settings, "2026-10-15") == "ana"
    later = ask(
        store, settings, "Who owned the billing gateway on 2026-10-15?", now="2026-10-26T00:00:00Z"
    )
    assert later.result == {"owner": {"id": "bo", "name": "Bo Lind"}}


def test_who_knows_today_leaves_out_what_is_written_after_now(
    store: Store, settings: Settings, tmp_path: Path
) -> None:
    """'today' runs to the end of the day, but a ticket resolved this evening, read with
    the clock at noon, has not been written yet."""
    front = {"kind": "ticket", "status": "resolved", "about": ["search-index"]}
    records = {
        "t1.md": md({**front, "id": "T-1", "at": "2026-10-19T09:00:00Z", "resolved_by": "ana"},
                    "Reindexed the search index."),
        "t2.md": md({**front, "id": "T-2", "at": "2026-10-20T18:00:00Z", "resolved_by": "bo"},
                    "Reindexed the search index again."),
        "t3.md": md({**front, "id": "T-3", "at": "2026-10-20T19:00:00Z", "resolved_by": "bo"},
                    "And again."),
    }  # fmt: skip
    ingest(store, write_corpus(tmp_path, records), settings)
    noon = ask(store, settings, "Who knows about the search index today?", now=NOW)
    assert [e["id"] for e in noon.result["experts"]] == ["ana"], noon.result
    evening = ask(
        store, settings, "Who knows about the search index today?", now="2026-10-20T20:00:00Z"
    )
    assert evening.result["experts"][0]["id"] == "bo"
