"""A change control written 10 May saying "Kofi Mensah hands the billing gateway to the
platform team." (or "transferred the billing gateway to the platform team", or "The
billing gateway's owner Kofi Mensah handed it to Bo Lind.", whose "it" no pattern reads)
left the directory's Kofi answering for every later day, citing the directory: a hand-over
to no one read was no change of hands to the rules ("hand ... over" was, "hand ... to" was
not), and Kofi refused as the one handing it over did not let it go. From the record's
day owner_of now refuses MISSING_PROVENANCE citing it. A part handed over ("the billing
gateway runbook") changes nothing."""

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
        "Kofi Mensah hands the billing gateway to the platform team.",
        "Kofi Mensah transferred the billing gateway to the platform team.",
        "The billing gateway was transferred from Kofi Mensah to the platform team.",
        "The billing gateway's owner Kofi Mensah handed it to Bo Lind.",
    ],
)
def test_a_hand_over_to_no_one_read_is_refused_from_the_record(
    store: Store, settings: Settings, tmp_path: Path, text: str
) -> None:
    load(store, settings, tmp_path, text)
    assert owner(on(store, settings, "2026-05-09")) == "kofi"
    for day in ("2026-05-10", "2026-06-30"):
        answer = on(store, settings, day)
        assert answer.refusal is not None and answer.result is None
        assert answer.refusal.code is RefusalCode.MISSING_PROVENANCE
        assert [c.record for c in answer.citations] == ["CC-7"]


@pytest.mark.parametrize(
    "text",
    [
        "Kofi Mensah handed the billing gateway runbook to Bo Lind.",
        "Kofi Mensah handed the on-call pager to Bo Lind; he still owns the billing gateway.",
    ],
)
def test_handing_over_something_else_changes_nothing(
    store: Store, settings: Settings, tmp_path: Path, text: str
) -> None:
    load(store, settings, tmp_path, text)
    assert owner(on(store, settings, "2026-06-30")) == "kofi"
