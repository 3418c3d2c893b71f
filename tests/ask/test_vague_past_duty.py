"""A change control written Sunday 10 May saying "Bo Lind took over the billing gateway last
week and will be on call." named Kofi (the directory's) for the days of last week, citing
the directory: "will" in the duty's clause made the sentence read as a change to come, so
"last week" did not date the change. A duty in a clause of its own says nothing of when the
change came: the days of last week are refused, never Kofi's; Bo from the record."""

from __future__ import annotations

from pathlib import Path

import pytest

from companybrain.config import Settings
from companybrain.graph.connection import Store
from companybrain.ingest.pipeline import ingest
from companybrain.model.answer import RefusalCode
from tests.ask.handover import DIRECTORY, TEAM_ORG, change, on, owner
from tests.ingest.corpus_builder import write_corpus

WRITTEN = "2026-05-10T09:00:00Z"  # a Sunday


@pytest.mark.parametrize(
    "text",
    [
        "Bo Lind took over the billing gateway last week and will be on call.",
        "Bo Lind took over the billing gateway last week and will be away next week.",
    ],
    ids=["on-call", "away"],
)
def test_a_duty_to_come_does_not_undo_a_change_told_done(
    store: Store, settings: Settings, tmp_path: Path, text: str
) -> None:
    files = {"dir.md": DIRECTORY, "cc.md": change(text, at=WRITTEN)}
    ingest(store, write_corpus(tmp_path / "c", files, org=TEAM_ORG), settings)
    assert owner(on(store, settings, "2026-04-26")) == "kofi"
    for day in ("2026-04-27", "2026-05-04", "2026-05-09"):
        answer = on(store, settings, day)
        assert answer.refusal is not None, (day, owner(answer))
        assert answer.refusal.code is RefusalCode.MISSING_PROVENANCE
        assert [c.record for c in answer.citations] == ["CC-7"]
    assert owner(on(store, settings, "2026-05-10")) == "bo"
