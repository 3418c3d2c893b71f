""" "Why do we use X for Y?" where no decision names X: not answered with a decision about Y
that chose something else."""

from __future__ import annotations

from typing import Any

from companybrain.ask.engine import ask
from companybrain.ask.registry import ReadOnlyStore, ToolContext, read_only_tools
from companybrain.config import Settings
from companybrain.graph.connection import Store
from tests.ask.conftest import NOW


def q(store: Store, settings: Settings, question: str, **kw: Any) -> dict[str, Any]:
    return ask(store, settings, question, now=NOW, **kw).to_dict()


def test_a_name_the_question_writes_must_be_in_the_decision(
    demo: Store, demo_settings: Settings
) -> None:
    """ "Why do we use Kafka for the search index?" answered with ADR-006, "Run the search
    index on managed OpenSearch", and its quote: a reason for a choice never made, cited
    (a repository's `why` refuses this since an earlier round)."""
    for question, named in (
        ("Why do we use Kafka for the search index?", "Kafka"),
        ("Why do we load the data warehouse with Airflow?", "Airflow"),
    ):
        a = q(demo, demo_settings, question)
        assert (a["status"], a["result"]) == ("refused", None), (question, a["result"])
        assert a["refusal"]["code"] == "NOT_IN_GRAPH" and a["citations"] == [], question
        assert f"names {named}" in a["refusal"]["message"], a["refusal"]
    for question, decision in (
        ("Why do we run the search index on OpenSearch?", "ADR-006"),
        ("Why did we stop publishing ledger events through Kafka?", "ADR-009"),
        ("Why do we load the Data Warehouse in hourly micro-batches?", "ADR-011"),
        ("Explain why we load the data warehouse in hourly micro-batches", "ADR-011"),
    ):
        a = q(demo, demo_settings, question)
        assert a["status"] == "answered" and a["subject"]["id"] == decision, (question, a)
    # a decision the asker may not see is not the one that names it
    hidden = q(demo, demo_settings, "Why the Thales Luna appliance for the vault unseal keys?",
               as_person="rafael")  # fmt: skip
    assert hidden["refusal"]["code"] == "NOT_IN_GRAPH", hidden
    assert "ADR-017" not in str(hidden) and "ADR-016" not in str(hidden)


def test_the_trace_decision_tool_reads_names_as_brain_ask_does(
    demo: Store, demo_settings: Settings
) -> None:
    """The MCP tool (and the agent's) trace_decision {"decision": "Kafka for the search
    index"} answered ADR-006 (managed OpenSearch), which `brain ask` refuses."""
    tool = {t.name: t for t in read_only_tools()}["trace_decision"]
    ctx = ToolContext(ReadOnlyStore(demo_settings), demo_settings)
    kafka = tool.run(ctx, {"decision": "Kafka for the search index"}).to_dict()
    assert kafka["status"] == "refused" and kafka["refusal"]["code"] == "NOT_IN_GRAPH", kafka
    found = tool.run(ctx, {"decision": "the search index on managed OpenSearch"}).to_dict()
    assert found["result"]["decision"] == "ADR-006"


def test_a_name_that_begins_the_question_is_a_name(demo: Store, demo_settings: Settings) -> None:
    """ "Kafka for the search index: why?" answered with ADR-006 (managed OpenSearch): the
    first word was read as capitalised for its place. A first word the decisions write as
    a name is one; others ("Explain") are not."""
    a = q(demo, demo_settings, "Kafka for the search index: why?")
    assert (a["status"], a["refusal"]["code"]) == ("refused", "NOT_IN_GRAPH"), a
    assert "names Kafka" in a["refusal"]["message"] and a["citations"] == []
    for question, decision in (
        ("OpenSearch for the search index: why?", "ADR-006"),
        ("Explain why we run the search index on managed OpenSearch", "ADR-006"),
    ):
        found = q(demo, demo_settings, question)
        assert found["status"] == "answered" and found["subject"]["id"] == decision, found
