"""Reading one CC-7 sentence of the handover story (tests/ask/handover.py) by either
proposer: the rules, or a scripted model that names Cora Ng as the billing gateway's owner
with the whole sentence as its quote (and Kofi Mensah from the directory's row)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from companybrain.config import Settings
from companybrain.graph.connection import Store
from companybrain.model.answer import Answer
from tests.ask.handover import load, on, owner
from tests.support.model_server import ScriptedModelServer, tool_call

KOFI_ROW = "| Billing Gateway | Kofi Mensah |"
PROPOSERS = ("rules", "model")


def read_by(
    proposer: str,
    store: Store,
    settings: Settings,
    model_server: ScriptedModelServer,
    tmp_path: Path,
    text: str,
    quote: str | None = None,
) -> Settings:
    """Load the story with CC-7 saying `text`, read by `proposer` ("rules" or "model", which
    quotes `quote`, else the whole text); returns the settings to ask with."""
    if proposer == "rules":
        load(store, settings, tmp_path, text)
        return settings

    def names_cora(request: dict[str, Any]) -> dict[str, Any]:
        user = request["messages"][-1]["content"]
        if KOFI_ROW in user:
            fact = {"service": "billing-gateway", "owner": "kofi", "quote": KOFI_ROW}
        else:
            fact = {"service": "billing-gateway", "owner": "cora", "quote": quote or text}
        return tool_call("record_facts", {"ownership": [fact], "decisions": []})

    llm = settings.with_(
        home=tmp_path / "home",
        proposer="model",
        model="scripted",
        model_base_url=model_server.base_url,
        model_api_key="test",
    )
    model_server.play(names_cora, names_cora)
    load(store, llm, tmp_path, text)
    return llm


def answers(store: Store, settings: Settings) -> list[Answer]:
    """Who owns the billing gateway the day CC-7 is written, and weeks later."""
    return [on(store, settings, day) for day in ("2026-05-10", "2026-06-30")]


def answered_by(store: Store, settings: Settings, who: str, record: str) -> None:
    """`who` owns the billing gateway, citing `record` alone, the day CC-7 is written and
    weeks later."""
    for answer in answers(store, settings):
        assert owner(answer) == who
        assert [c.record for c in answer.citations] == [record]
