"""A question joining a second subject the graph does not know to one it knows, with "and"
or "or": answered for the known one alone, the other passed over without a word."""

from __future__ import annotations

from companybrain.ask.engine import ask
from companybrain.ask.registry import ReadOnlyStore, ToolContext, read_only_tools
from companybrain.config import Settings
from companybrain.graph.connection import Store
from tests.ask.conftest import NOW


def test_an_unknown_second_subject_is_refused_by_name(demo: Store, demo_settings: Settings) -> None:
    """ "Who knows the search index and the zeppelin?" named Nadia for the search index,
    with her records: the asker learnt nothing of the zeppelin, and was not told so."""
    for question in (
        "Who knows the search index and the zeppelin?",
        "Who knows the zeppelin and the search index?",
        "Who owns the search index or the zeppelin?",
    ):
        a = ask(demo, demo_settings, question, now=NOW).to_dict()
        assert (a["status"], a["refusal"]["code"]) == ("refused", "NOT_IN_GRAPH"), (question, a)
        assert '"the zeppelin", which the graph does not know' in a["refusal"]["message"]
        assert a["citations"] == [] and a["result"] is None
    for question in ("Who knows the search index?", "Who knows the search index and can help?"):
        a = ask(demo, demo_settings, question, now=NOW).to_dict()
        assert a["status"] == "answered" and a["subject"]["id"] == "search-index", question


def test_the_tools_refuse_an_unknown_second_subject_too(
    demo: Store, demo_settings: Settings
) -> None:
    """MCP (and the agent's) who_knows {"subject": "the search index and the zeppelin"}
    answered about the search index alone, as `brain ask` did."""
    tools = {t.name: t for t in read_only_tools()}
    ctx = ToolContext(ReadOnlyStore(demo_settings), demo_settings)
    for name in ("who_knows", "owner_of"):
        a = tools[name](ctx, {"subject": "the search index and the zeppelin"}).to_dict()
        assert (a["status"], a["refusal"]["code"]) == ("refused", "NOT_IN_GRAPH"), (name, a)
        assert '"the zeppelin", which the graph does not know' in a["refusal"]["message"]
    found = tools["who_knows"](ctx, {"subject": "search index"}).to_dict()
    assert found["subject"]["id"] == "search-index"
