""" "Why do we use X for Y?" where no decision names X: not answered with a decision about Y
that chose something else."""

from __future__ import annotations

from typing import Any

from companybrain.ask.engine import ask
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
