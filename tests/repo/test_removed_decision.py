"""A decision removed from the repository after it superseded another: `trace` said "The one
in force is" the removed one, and `why` listed it as accepted; only the JSON's `removed`
said otherwise."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from companybrain.ask.repo import history_tools, tools
from companybrain.graph.connection import Store
from companybrain.repo.ingest import ingest_repo
from tests.repo.gitrepo import GitRepo

NOW = datetime(2026, 12, 1, tzinfo=UTC)
ANN = ("Ann Lee", "ann@example.com")
OLD = "docs/adr/0001-use-postgresql.md"
NEW = "docs/adr/0002-use-falkordb.md"


def _adr(n: int, title: str, status: str, body: str) -> str:
    return (
        f"# {n}. {title}\n\nDate: 2025-0{n}-01\n\n## Status\n\n{status}\n\n## Decision\n\n{body}\n"
    )


def test_a_removed_decision_is_not_said_to_be_in_force(store: Store, tmp_path: Path) -> None:
    repo = GitRepo(tmp_path / "r")
    repo.write("src/orders.py", "x = 1\n")
    repo.write(
        OLD, _adr(1, "Use PostgreSQL", "Accepted", "Orders in src/orders.py use PostgreSQL.")
    )
    repo.commit("Postgres", "2025-01-01T10:00:00Z", author=ANN)
    status = "Accepted\n\nSupersedes [1. Use PostgreSQL](0001-use-postgresql.md)"
    repo.write(NEW, _adr(2, "Use FalkorDB", status, "Orders in src/orders.py use FalkorDB."))
    repo.commit("FalkorDB", "2025-02-01T10:00:00Z", author=ANN)
    repo.rm(NEW)
    repo.commit("Drop the FalkorDB ADR", "2025-03-01T10:00:00Z", author=ANN)
    ingest_repo(store, repo.root)

    traced = history_tools.trace(store, OLD, now=NOW)
    assert traced.result is not None and traced.result["chain"] == [NEW, OLD]
    assert "in force is" not in traced.explanation
    assert f"The newest, {NEW}, was removed from the repository" in traced.explanation
    why = tools.why(store, "src/orders.py", now=NOW)
    assert why.result is not None
    assert f"{NEW} (removed)" in why.explanation
    assert {"id": NEW, "removed": True}.items() <= next(
        d for d in why.result["decisions"] if d["id"] == NEW
    ).items()
