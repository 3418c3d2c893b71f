"""Plain questions routed to the repository tools (rules, no model)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from companybrain.ask.repo import route_repo_question
from companybrain.graph.connection import Store
from companybrain.model.answer import RefusalCode
from tests.repo.conftest import BATCH, ROUTER, Scenario

NOW = datetime(2025, 12, 1, tzinfo=UTC)


@pytest.mark.parametrize(
    ("question", "tool", "first"),
    [
        ("Why does the exporter batch its writes?", "why", BATCH),
        ("Why is src/router.py like this?", "why", ROUTER),
        ("What breaks if I change src/router.py?", "what_breaks", ROUTER),
        ("Is it safe to delete src/router.py?", "what_breaks", ROUTER),
        ("What was tried for the corrected router text?", "disproven", ROUTER),
        ("Who knows src/router.py?", "who_knows", "bob@example.com"),
        ("Who knows the router?", "who_knows", "bob@example.com"),
        ("What replaced docs/adr/0002-use-postgresql.md?", "trace",
         "docs/adr/0003-use-falkordb.md"),
        ("Where did src/legacy.py come from?", "origin", "dave@example.com"),
        ("What replaced the decision to batch exporter writes?", "trace",
         "DECISIONS.md#2025-05-01: Stream exporter writes"),
        ("Who recorded the decision to keep the legacy import path?", "origin",
         "dave@example.com"),
        ("What did AGENTS.md tell the agent about tests on 2025-03-01?", "told", "AGENTS.md"),
        ("What does CLAUDE.md say about the router prompt?", "told", "CLAUDE.md"),
    ],
)  # fmt: skip
def test_questions_reach_their_tool(built: Scenario, question: str, tool: str, first: str) -> None:
    a = route_repo_question(question, built.store, NOW)
    assert a is not None
    assert (a.tool, a.status) == (tool, "answered"), a.refusal
    r = a.result or {}
    got = {
        "why": lambda: r["decisions"][0]["id"],
        "what_breaks": lambda: r["decisions"][0]["id"],
        "disproven": lambda: r["experiments"][0]["decision"],
        "who_knows": lambda: r["experts"][0]["id"],
        "trace": lambda: r["chain"][0],
        "origin": lambda: r["author"],
        "told": lambda: r["file"],
    }[tool]()
    assert got == first


def test_told_at_a_commit_named_by_a_short_sha(built: Scenario) -> None:
    sha = built.shas["agents_v2"][:10]
    a = route_repo_question(
        f"What did the agent instructions say about tests at {sha}?", built.store, NOW
    )
    assert a is not None and a.tool == "told"
    assert a.result is not None and a.result["text"].endswith("Run pytest before committing.")


def test_review_by_question(built: Scenario) -> None:
    a = route_repo_question(f"review {built.shas['coauthored'][:12]}", built.store, NOW)
    assert a is not None and a.tool == "review"
    assert a.result is not None and a.result["decisions"][0]["id"] == ROUTER


def test_refusals_and_questions_for_others(built: Scenario, store: Store) -> None:
    vague = route_repo_question("What did AGENTS.md say about tests 3 weeks ago?", built.store, NOW)
    assert vague is not None and vague.refusal is not None
    assert vague.refusal.code == RefusalCode.VAGUE_DATE
    nothing = route_repo_question("Why do we deploy on Kubernetes?", built.store, NOW)
    assert nothing is not None and nothing.refusal is not None
    assert nothing.refusal.code == RefusalCode.NO_CLAIM
    unknown = route_repo_question("Who knows src/missing.py?", built.store, NOW)
    assert unknown is not None and unknown.refusal is not None
    assert unknown.refusal.code == RefusalCode.NOT_IN_GRAPH
    assert route_repo_question("Who owns the billing gateway?", built.store, NOW) is None
    # a graph without a repository: not a repository question at all
    assert route_repo_question("Why does the exporter batch its writes?", store, NOW) is None


def test_how_two_things_connect(built: Scenario) -> None:
    a = route_repo_question("How is src/router.py connected to bob@example.com?", built.store, NOW)
    assert a is not None and a.tool == "connect" and a.status == "answered"
    assert a.result is not None and a.result["path"][-1]["id"] == "bob@example.com"


def test_a_why_question_is_about_its_topic(built: Scenario) -> None:
    a = route_repo_question("Why does the exporter batch its writes?", built.store, NOW)
    assert a is not None and a.subject == {
        "id": "exporter batch its writes", "type": "Topic", "name": "exporter batch its writes"
    }  # fmt: skip


@pytest.mark.parametrize(
    "question",
    ["Who knows src/nothing/router.py?", "What breaks if I change src/nothing/router.py?"],
)
def test_a_path_the_history_does_not_know_is_not_a_file_named_by_its_words(
    built: Scenario, question: str
) -> None:
    """`router` is a word of the path asked about; src/router.py is not that path."""
    a = route_repo_question(question, built.store, NOW)
    assert a is not None and a.status == "refused", a.result
    assert a.refusal is not None and a.refusal.code == RefusalCode.NOT_IN_GRAPH
