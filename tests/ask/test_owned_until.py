"""A change control written 10 May saying "Kofi Mensah owned the billing gateway until
yesterday." (or "was the owner of the billing gateway until yesterday", "resigned as owner
of the billing gateway") names no new owner: the quote was refused as naming a previous
owner, or not read at all, and the directory's Kofi answered for every later day, citing
the directory, although the record says his ownership ended. As for "no longer owns it",
the service changed hands to someone the record does not name: from its day owner_of
refuses MISSING_PROVENANCE citing it. A past owner named as history only ("was the owner
of the billing gateway in 2024") changes nothing."""

from __future__ import annotations

from pathlib import Path

import pytest

from companybrain.config import Settings
from companybrain.graph.connection import Store
from companybrain.model.answer import RefusalCode
from tests.ask.handover import load, on, owner


@pytest.mark.parametrize(
    "text",
    [
        "Kofi Mensah owned the billing gateway until yesterday.",
        "Kofi Mensah was the owner of the billing gateway until yesterday.",
        "Kofi Mensah resigned as owner of the billing gateway.",
    ],
)
def test_an_ended_ownership_is_not_named_after_the_record(
    store: Store, settings: Settings, tmp_path: Path, text: str
) -> None:
    load(store, settings, tmp_path, text)
    assert owner(on(store, settings, "2026-05-08")) == "kofi"
    for day in ("2026-05-10", "2026-06-30"):
        answer = on(store, settings, day)
        assert answer.refusal is not None and answer.result is None
        assert answer.refusal.code is RefusalCode.MISSING_PROVENANCE
        assert [c.record for c in answer.citations] == ["CC-7"]


def test_a_past_owner_named_as_history_changes_nothing(
    store: Store, settings: Settings, tmp_path: Path
) -> None:
    load(store, settings, tmp_path, "Kofi Mensah was the owner of the billing gateway in 2024.")
    assert owner(on(store, settings, "2026-06-30")) == "kofi"
