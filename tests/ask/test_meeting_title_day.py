"""A change control written 10 May titled "CAB minutes 2026-05-08" (or "Weekly sync notes
2026-05-08") beside "Ownership of the billing gateway transfers to Bo Lind." refused who
owned the billing gateway on 8 and 9 May, although the directory's Kofi did: a past day
in a title was taken as one the change may have come on. A title that says its day is a
meeting's, notes' or a report's, and names no change of hands, does not date the change;
"Billing gateway handover 2026-05-08" or "Handover meeting notes 2026-05-08" still does."""

from __future__ import annotations

from pathlib import Path

import pytest

from companybrain.config import Settings
from companybrain.graph.connection import Store
from companybrain.model.answer import RefusalCode
from tests.ask.handover import load, on, owner

TRANSFER = "Ownership of the billing gateway transfers to Bo Lind."


@pytest.mark.parametrize("title", ["CAB minutes 2026-05-08", "Weekly sync notes 2026-05-08"])
@pytest.mark.parametrize("text", [TRANSFER, "Bo Lind owns the billing gateway."])
def test_a_meetings_past_day_does_not_date_the_change(
    store: Store, settings: Settings, tmp_path: Path, title: str, text: str
) -> None:
    load(store, settings, tmp_path, text, title=title)
    for day in ("2026-05-07", "2026-05-08", "2026-05-09"):
        assert owner(on(store, settings, day)) == "kofi"
    assert owner(on(store, settings, "2026-05-10")) == "bo"


@pytest.mark.parametrize(
    "title", ["Billing gateway handover 2026-05-08", "Handover meeting notes 2026-05-08"]
)
def test_a_title_naming_the_change_still_may_date_it(
    store: Store, settings: Settings, tmp_path: Path, title: str
) -> None:
    load(store, settings, tmp_path, TRANSFER, title=title)
    assert owner(on(store, settings, "2026-05-07")) == "kofi"
    for day in ("2026-05-08", "2026-05-09"):
        answer = on(store, settings, day)
        assert answer.refusal is not None
        assert answer.refusal.code is RefusalCode.MISSING_PROVENANCE
    assert owner(on(store, settings, "2026-05-10")) == "bo"
