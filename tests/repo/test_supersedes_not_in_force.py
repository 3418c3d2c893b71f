"""A rejected ADR-3 (or a proposed ADR-2) saying "Supersedes ADR-1": `trace ADR-1`
answered "The one in force is ADR-3", citing its "Supersedes ADR-1", `why` listed the
accepted ADR-1 as superseded, and review told a change resting on it that its decision was
superseded. A decision rejected, withdrawn or only proposed supersedes nothing."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from companybrain.ask.repo import history_tools, tools
from companybrain.ask.repo.review import review
from companybrain.graph.connection import Store
from companybrain.repo.ingest import ingest_repo
from tests.repo.gitrepo import GitRepo

NOW = datetime(2026, 1, 1, tzinfo=UTC)
ONE, TWO, THREE = (
    "docs/adr/0001-use-sqlite.md",
    "docs/adr/0002-use-postgres.md",
    "docs/adr/0003-use-mongo.md",
)


def _adr(n: int, title: str, status: str) -> str:
    return (
        f"# {n}. Use {title}\n\n## Status\n\n{status}\n\n## Decision\n\nsrc/db.py uses {title}.\n"
    )


def test_a_rejected_or_proposed_decision_supersedes_nothing(store: Store, tmp_path: Path) -> None:
    r = GitRepo(tmp_path / "r")
    r.write("src/db.py", "x = 1\n")
    r.write(ONE, _adr(1, "SQLite", "Accepted"))
    r.write(TWO, _adr(2, "Postgres", "Proposed\n\nSupersedes ADR-1"))
    r.write(THREE, _adr(3, "Mongo", "Rejected\n\nSupersedes ADR-1"))
    r.commit("ADRs", "2025-01-01T09:00:00Z")
    ingest_repo(store, r.root)

    t = history_tools.trace(store, ONE, now=NOW)
    assert t.result is not None and t.result["chain"] == [ONE], t.explanation
    assert "in force is" not in t.explanation
    why = tools.why(store, "src/db.py", now=NOW)
    status = {d["id"]: d["status"] for d in why.result["decisions"]}
    assert status == {ONE: "accepted", TWO: "proposed", THREE: "rejected"}

    r.write("src/db.py", "x = 2\n")
    change = r.commit("Change the store", "2025-02-01T09:00:00Z")
    a = review(store, change, repo=r.root, now=NOW)
    assert ", 0 superseded," in a.explanation, a.explanation
