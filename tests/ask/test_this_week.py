"""A change control written on Monday 4 May saying "I am handing the billing gateway over to
Tomas Berg this week." (no `effective_at`) named Tomas from Monday morning, though the
handover may come on any day of that week: Tomas was named days before it. Who owns it until
that week ends cannot be read (refused MISSING_PROVENANCE, citing the record, never naming
Tomas or Kofi); Tomas from the Monday after. A change told done this week is unchanged."""

from __future__ import annotations

from pathlib import Path

import pytest

from companybrain.config import Settings
from companybrain.graph.connection import Store
from companybrain.ingest.pipeline import ingest
from companybrain.model.answer import RefusalCode
from tests.ask.handover import DIRECTORY, TEAM_ORG, change, on, owner
from tests.ingest.corpus_builder import write_corpus

MONDAY = "2026-05-04T09:00:00Z"
ORG = {**TEAM_ORG, "people": [*TEAM_ORG["people"], {"id": "tomas", "name": "Tomas Berg"}]}


def load(store: Store, settings: Settings, tmp_path: Path, text: str) -> None:
    files = {"dir.md": DIRECTORY, "cc.md": change(text, at=MONDAY)}
    ingest(store, write_corpus(tmp_path / "c", files, org=ORG), settings)


@pytest.mark.parametrize(
    "text",
    [
        "I am handing the billing gateway over to Tomas Berg this week.",
        "Ownership of the billing gateway transfers to Tomas Berg this week.",
    ],
)
def test_a_handover_this_week_refuses_the_rest_of_the_week(
    store: Store, settings: Settings, tmp_path: Path, text: str
) -> None:
    load(store, settings, tmp_path, text)
    assert owner(on(store, settings, "2026-05-03")) == "kofi"
    for day in ("2026-05-04", "2026-05-07", "2026-05-10"):
        answer = on(store, settings, day)
        assert answer.refusal is not None, (day, owner(answer))
        assert answer.refusal.code is RefusalCode.MISSING_PROVENANCE
        assert [c.record for c in answer.citations] == ["CC-7"]
        assert "Tomas" not in answer.refusal.message
    for day in ("2026-05-11", "2026-06-30"):
        answer = on(store, settings, day)
        assert (owner(answer), [c.record for c in answer.citations]) == ("tomas", ["CC-7"])


def test_a_change_done_this_week_names_the_owner_from_the_record(
    store: Store, settings: Settings, tmp_path: Path
) -> None:
    load(store, settings, tmp_path, "Tomas Berg took over the billing gateway this week.")
    assert owner(on(store, settings, "2026-05-04")) == "tomas"
