"""'What replaced the exporter decision?' with three exporter decisions (Postgres, replaced
by SQLite; and batching, replaced by nothing) answered with the Postgres-SQLite chain,
picked by the order of their ids, though the batching decision matched as well. Two
decisions with separate histories matching equally are refused, naming both."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from companybrain.ask.engine import ask
from companybrain.config import Settings
from companybrain.graph.connection import Store
from companybrain.model.answer import RefusalCode
from companybrain.repo.ingest import ingest_repo
from tests.repo.gitrepo import GitRepo

NOW = datetime(2026, 1, 1, tzinfo=UTC)


def _adr(n: int, title: str, status: str, body: str) -> str:
    return f"# {n}. {title}\n\n## Status\n\n{status}\n\n## Decision\n\n{body}\n"


def _three(store: Store, tmp_path: Path) -> None:
    r = GitRepo(tmp_path / "r")
    r.write(
        "docs/adr/0001-postgres.md",
        _adr(
            1,
            "Use Postgres for the exporter",
            "Superseded by [ADR 2](0002-sqlite.md)",
            "The exporter writes to Postgres.",
        ),
    )
    r.write(
        "docs/adr/0002-sqlite.md",
        _adr(
            2,
            "Use SQLite for the exporter",
            "Accepted\n\nSupersedes [ADR 1](0001-postgres.md)",
            "The exporter writes to SQLite.",
        ),
    )
    r.write("docs/adr/0003-batch.md", _adr(3, "Batch the exporter writes", "Accepted",
            "The exporter batches its writes."))  # fmt: skip
    r.commit("ADRs", "2025-01-03T10:00:00Z")
    ingest_repo(store, r.root)


def test_two_histories_matching_alike_are_not_picked_between(
    store: Store, settings: Settings, tmp_path: Path
) -> None:
    _three(store, tmp_path)
    a = ask(store, settings, "What replaced the exporter decision?", now=NOW)
    assert a.tool == "trace" and a.citations == []
    assert a.refusal is not None and a.refusal.code == RefusalCode.NOT_IN_GRAPH, a.result
    assert "docs/adr/0002-sqlite.md" in a.refusal.message
    assert "docs/adr/0003-batch.md" in a.refusal.message
    for question, chain in (
        ("What replaced the Postgres exporter decision?", ["docs/adr/0002-sqlite.md",
                                                           "docs/adr/0001-postgres.md"]),
        ("What replaced the batch exporter decision?", ["docs/adr/0003-batch.md"]),
    ):  # fmt: skip
        b = ask(store, settings, question, now=NOW)
        assert b.status == "answered" and b.result["chain"] == chain, (question, b.refusal)


def test_origin_of_a_decision_named_by_words_that_fit_two(
    store: Store, settings: Settings, tmp_path: Path
) -> None:
    """'Who recorded the exporter decision?' named the one first by score and id; 'When was
    the Postgres exporter decision recorded?' was refused: its words were all cut away."""
    _three(store, tmp_path)
    a = ask(store, settings, "Who recorded the exporter decision?", now=NOW)
    assert a.tool == "origin" and a.citations == []
    assert a.refusal is not None and a.refusal.code == RefusalCode.NOT_IN_GRAPH, a.result
    for question, adr in (
        ("When was the Postgres exporter decision recorded?", "docs/adr/0001-postgres.md"),
        ("Where did the batch exporter decision come from?", "docs/adr/0003-batch.md"),
    ):
        b = ask(store, settings, question, now=NOW)
        assert b.status == "answered" and b.result["decision"] == adr, (question, b.refusal)
