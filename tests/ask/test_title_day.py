"""A change control written 10 May 2026, titled "Billing gateway handover 1 June 2026" with
no word saying the day is the start, beside "Ownership of the billing gateway transfers to
Bo Lind." (no `effective_at`), named Bo from 10 May, three weeks before the handover, citing
the record; titled "Billing gateway handover 1 May 2026" beside "Bo Lind owns the billing
gateway.", the directory's Kofi answered for 1-9 May. A title's day may be the change's or
a meeting's: one to come leaves the claim unclear (refused from the record's day, as "The
handover happens on 1 June 2026." does); one already past leaves the days from it until the
record refused, the owner named from the record's time. Never moved to the title's day."""

from __future__ import annotations

from pathlib import Path

import pytest

from companybrain.config import Settings
from companybrain.graph.connection import Store
from companybrain.ingest.pipeline import ingest
from companybrain.model.answer import Answer, RefusalCode
from tests.ask.handover import DIRECTORY, TEAM_ORG, change, on, owner
from tests.ingest.corpus_builder import write_corpus

WRITTEN = "2026-05-10T09:00:00Z"
TRANSFER = "Ownership of the billing gateway transfers to Bo Lind."
BO = "Bo Lind owns the billing gateway."


def load(store: Store, settings: Settings, tmp_path: Path, title: str, text: str) -> None:
    files = {"dir.md": DIRECTORY, "cc.md": change(text, at=WRITTEN, title=title)}
    ingest(store, write_corpus(tmp_path / "c", files, org=TEAM_ORG), settings)


def refused_citing_the_change(answer: Answer) -> bool:
    return (
        answer.refusal is not None
        and answer.refusal.code is RefusalCode.MISSING_PROVENANCE
        and [c.record for c in answer.citations] == ["CC-7"]
        and "bo lind" not in answer.refusal.message.lower()
    )


@pytest.mark.parametrize(
    "title", ["Billing gateway handover 1 June 2026", "Billing gateway: new owner (2026-06-01)"]
)
def test_a_titles_day_to_come_leaves_the_change_unclear(
    store: Store, settings: Settings, tmp_path: Path, title: str
) -> None:
    load(store, settings, tmp_path, title, TRANSFER)
    assert owner(on(store, settings, "2026-05-09")) == "kofi"
    for day in ("2026-05-10", "2026-05-31", "2026-06-01"):
        assert refused_citing_the_change(on(store, settings, day)), day


@pytest.mark.parametrize("text", [BO, TRANSFER])
@pytest.mark.parametrize(
    "title", ["Billing gateway handover 1 May 2026", "Billing gateway: new owner (2026-05-01)"]
)
def test_a_titles_past_day_refuses_the_days_until_the_record(
    store: Store, settings: Settings, tmp_path: Path, title: str, text: str
) -> None:
    load(store, settings, tmp_path, title, text)
    assert owner(on(store, settings, "2026-04-30")) == "kofi"
    for day in ("2026-05-01", "2026-05-09"):
        assert refused_citing_the_change(on(store, settings, day)), day
    answer = on(store, settings, "2026-05-10")
    assert owner(answer) == "bo"
    assert [(c.record, c.effective_at) for c in answer.citations] == [("CC-7", WRITTEN)]


@pytest.mark.parametrize(
    "title",
    [
        "Billing gateway: new owner (2026-05-10)",  # the record's own day
        "Search index handover 1 June 2026",  # another service's
        "Billing gateway handover, effective 10 May 2026",
    ],
)
def test_a_title_of_the_records_day_or_another_service_keeps_the_records_time(
    store: Store, settings: Settings, tmp_path: Path, title: str
) -> None:
    load(store, settings, tmp_path, title, TRANSFER)
    assert owner(on(store, settings, "2026-05-09")) == "kofi"
    assert owner(on(store, settings, "2026-05-10")) == "bo"
