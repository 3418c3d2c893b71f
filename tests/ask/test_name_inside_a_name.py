"""A name inside a longer name of another kind ("payments" in "Payments API") is not named
by the question: the question is never answered about the shorter one."""

from __future__ import annotations

from typing import Any

from companybrain.ask.engine import ask
from companybrain.ask.registry import ReadOnlyStore, ToolContext, read_only_tools
from companybrain.config import Settings
from companybrain.graph.connection import Store
from tests.ask.conftest import NOW


def q(store: Store, settings: Settings, question: str) -> dict[str, Any]:
    return ask(store, settings, question, now=NOW).to_dict()


def test_a_service_is_not_taken_for_the_team_its_name_begins_with(
    demo: Store, demo_settings: Settings
) -> None:
    """ "Who is the payments api?" answered with the Payments team, its lead and members:
    the team is named Payments, the service Payments API; and "Tell me about the payments
    api" did the same, where "Tell me about the billing gateway" searches the records."""
    a = q(demo, demo_settings, "Who is the payments api?")
    assert (a["status"], a["result"]) == ("refused", None), a["result"]
    assert a["refusal"]["code"] == "OUT_OF_SCOPE"
    assert "names Payments API but no person or team" in a["refusal"]["message"]
    told = q(demo, demo_settings, "Tell me about the payments api")
    assert told["tool"] == "search_records" and told["status"] == "answered", told
    team = q(demo, demo_settings, "Who is on the Payments team?")
    assert team["result"]["team"]["id"] == "payments"
    assert q(demo, demo_settings, "Tell me about payments")["result"]["team"]["id"] == "payments"

    tool = {t.name: t for t in read_only_tools()}["person_or_team"]
    ctx = ToolContext(ReadOnlyStore(demo_settings), demo_settings)
    by_tool = tool.run(ctx, {"name": "payments api"}).to_dict()
    assert by_tool["status"] == "refused" and by_tool["result"] is None, by_tool
    assert tool.run(ctx, {"name": "payments"}).to_dict()["result"]["team"]["id"] == "payments"
