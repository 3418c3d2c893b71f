"""A topic question that names a product the decision log never mentions ("Why do we use
SQLite for the exporter?", the log holding only "Use Postgres for the exporter") was
answered with the Postgres decision and its quote, because half of the question's words
matched. A name the question gives must be in the decision that answers it."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from companybrain.ask.engine import ask
from companybrain.ask.repo import tools
from companybrain.config import Settings
from companybrain.graph.connection import Store
from companybrain.graph.queries import findings_q
from companybrain.model.answer import Answer, RefusalCode
from companybrain.model.findings import Finding, FindingKind, Verdict
from companybrain.repo.ingest import ingest_repo
from tests.repo.gitrepo import GitRepo

NOW = datetime(2026, 1, 1, tzinfo=UTC)
ADR = "docs/adr/0001-use-postgres-for-the-exporter.md"
TRIED = "We tried streaming each row to Postgres first: throughput fell to a third."


@pytest.fixture
def repo(store: Store, tmp_path: Path) -> GitRepo:
    r = GitRepo(tmp_path / "r")
    r.write("src/exporter.py", "def export(rows):\n    return rows\n")
    r.commit("Start", "2025-01-10T09:00:00Z")
    r.write(
        ADR,
        "# 1. Use Postgres for the exporter\n\nDate: 2025-02-01\n\n## Status\n\nAccepted\n\n"
        f"## Decision\n\nThe exporter in src/exporter.py writes to Postgres.\n\n{TRIED}\n",
    )
    r.commit("ADR 1", "2025-02-01T10:00:00Z")
    r.write("src/other.py", "x = 1\n")
    r.commit("Later", "2025-04-01T10:00:00Z")
    ingest_repo(store, r.root)
    findings_q.add_findings(
        store, ADR, [Finding(ADR, FindingKind.EXPERIMENT, TRIED, "stream rows", Verdict.DISPROVEN)]
    )
    return r


def _ask(store: Store, settings: Settings, question: str) -> Answer:
    return ask(store, settings, question, now=NOW)


def test_the_names_a_question_gives() -> None:
    from companybrain.ask.repo.topic import names

    assert names("Why do we use SQLite for the exporter?") == ["SQLite"]
    assert names("Kafka for the exporter") == ["Kafka"]
    assert names("use K8s and MCP. Batch writes") == ["K8s", "MCP"]  # "Batch" starts a sentence
    assert names("why does the exporter batch its writes") == []


def test_a_decision_about_another_product_does_not_answer(
    store: Store, settings: Settings, repo: GitRepo
) -> None:
    for question in (
        "Why do we use SQLite for the exporter?",
        "Why do we use SQLite for the exporter as of 2025-03-01?",
        "Why Kafka for the exporter?",
    ):
        a = _ask(store, settings, question)
        assert a.tool == "why", question
        assert a.refusal is not None, (question, a.result)
        assert a.refusal.code == RefusalCode.NO_CLAIM
        assert a.citations == []
        assert "none names" in a.refusal.message
    assert "none names SQLite" in str(tools.why(store, "SQLite for the exporter").refusal)
    for question in (
        "What replaced the SQLite exporter decision?",
        "Who introduced SQLite for the exporter?",
        "What was tried with Kafka for the exporter?",
    ):
        a = _ask(store, settings, question)
        assert a.status == "refused" and a.citations == [], (question, a.result)


def test_the_decision_that_names_it_still_answers(
    store: Store, settings: Settings, repo: GitRepo
) -> None:
    for question in (
        "Why do we use Postgres for the exporter?",
        "Why do we use Postgres for the exporter as of 2025-03-01?",
        "Why does the exporter write to postgres?",
        "Rationale for the Postgres exporter?",
    ):
        a = _ask(store, settings, question)
        assert a.status == "answered", (question, a.refusal)
        assert [d["id"] for d in a.result["decisions"]] == [ADR]
    tried = _ask(store, settings, "What was tried with Postgres for the exporter?")
    assert [e["decision"] for e in tried.result["experiments"]] == [ADR]
