"""A change control written 10 May saying "Bo Lind is the acting owner of the billing
gateway." (or "interim owner", "co-owned by Bo Lind and Cy Park", "Bo Lind co-owns the
billing gateway with Cy Park") gave no claim, so the directory's Kofi answered for good,
citing the directory. An acting or interim owner is who owns it now; co-owners are owners,
and two of them from one record refuse CONFLICT showing both, as "Bo and Cy own it" does."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from companybrain.config import Settings
from companybrain.graph.connection import Store
from companybrain.model.answer import RefusalCode
from tests.ask.handover import load, on
from tests.support.model_server import ScriptedModelServer, tool_call


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


KOFI_ROW = "| Billing Gateway | Kofi Mensah |"


@pytest.mark.parametrize(
    "text",
    [
        "The billing gateway is co-owned by Bo Lind and Cy Park.",
        "Bo Lind co-owns the billing gateway with Cy Park.",
        "Bo Lind and Cy Park own the billing gateway.",
    ],
)
def test_a_model_naming_one_of_two_co_owners_refuses_conflict_as_the_rules(
    store: Store,
    model_settings: Settings,
    model_server: ScriptedModelServer,
    tmp_path: Path,
    text: str,
) -> None:
    """A model proposer that read Bo alone from the sentence made him the sole owner, cited,
    where the rules read both co-owners and refuse CONFLICT."""

    def reads_bo(request: dict[str, Any]) -> dict[str, Any]:
        user = request["messages"][-1]["content"]
        if KOFI_ROW in user:
            fact = {"service": "billing-gateway", "owner": "kofi", "quote": KOFI_ROW}
        else:
            fact = {"service": "billing-gateway", "owner": "bo", "quote": text}
        return tool_call("record_facts", {"ownership": [fact], "decisions": []})

    llm = model_settings.with_(home=tmp_path / "home", proposer="model")
    model_server.play(reads_bo, reads_bo)
    load(store, llm, tmp_path, text)
    answer = on(store, llm, "2026-05-10")
    assert answer.refusal is not None and answer.refusal.code is RefusalCode.CONFLICT
    assert {c.record for c in answer.citations} == {"CC-7"}
    assert answer.result is None
