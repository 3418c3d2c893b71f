"""A change control written 10 May saying "Bo Lind is the acting owner of the billing
gateway." (or "interim owner", "co-owned by Bo Lind and Cy Park", "Bo Lind co-owns the
billing gateway with Cy Park") gave no claim, so the directory's Kofi answered for good,
citing the directory. An acting or interim owner is who owns it now; co-owners are owners,
and two of them from one record refuse CONFLICT showing both, as "Bo and Cy own it" does."""

from __future__ import annotations

from pathlib import Path

import pytest

from companybrain.config import Settings
from companybrain.graph.connection import Store
from companybrain.model.answer import RefusalCode
from tests.ask.handover import load, on


@pytest.mark.parametrize(
    "text",
    [
        "Bo Lind is the acting owner of the billing gateway.",
        "Bo Lind is the interim owner of the billing gateway.",
    ],
)
def test_an_acting_owner_is_the_owner(
    store: Store, settings: Settings, tmp_path: Path, text: str
) -> None:
    load(store, settings, tmp_path, text)
    answer = on(store, settings, "2026-05-10")
    assert answer.result == {"owner": {"id": "bo", "name": "Bo Lind"}}
    assert [c.record for c in answer.citations] == ["CC-7"]


@pytest.mark.parametrize(
    "text",
    [
        "The billing gateway is co-owned by Bo Lind and Cy Park.",
        "Bo Lind co-owns the billing gateway with Cy Park.",
    ],
)
def test_co_owners_refuse_conflict_citing_both(
    store: Store, settings: Settings, tmp_path: Path, text: str
) -> None:
    load(store, settings, tmp_path, text)
    answer = on(store, settings, "2026-05-10")
    assert answer.refusal is not None and answer.refusal.code is RefusalCode.CONFLICT
    assert {c.record for c in answer.citations} == {"CC-7"}
    assert answer.result is None
