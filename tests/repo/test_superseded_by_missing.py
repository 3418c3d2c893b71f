"""An ADR whose status says "Superseded by ADR-9", where the log holds no ADR-9: `review`
of a change to the file it rests on counted it as "1 decision(s) to follow", and `trace`
said only that nothing supersedes it. Its own status says it is no guidance: review does
not count it as a decision to follow, and trace says what its status says."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from companybrain.ask.repo.history_tools import trace
from companybrain.ask.repo.review import review
from companybrain.graph.connection import Store
from companybrain.repo.ingest import ingest_repo
from tests.repo.gitrepo import GitRepo

NOW = datetime(2026, 1, 1, tzinfo=UTC)
ADR = "docs/adr/0001-use-postgres.md"


def test_a_decision_superseded_by_one_the_log_lacks(store: Store, tmp_path: Path) -> None:
    r = GitRepo(tmp_path / "r")
    r.write("src/store/db.py", "def save(x):\n    return x\n")
    r.write(
        ADR,
        "# 1. Use Postgres\n\nDate: 2025-02-01\n\n## Status\n\nSuperseded by ADR-9\n\n"
        "## Decision\n\nsrc/store/db.py writes to Postgres.\n",
    )
    r.commit("Start", "2025-02-01T09:00:00Z")
    r.write("src/store/db.py", "def save(x):\n    return [x]\n")
    change = r.commit("Change the store", "2025-03-01T09:00:00Z")
    report = ingest_repo(store, r.root)
    # named by its file and line: which of many ADRs says so
    assert report.unresolved_references == [f"{ADR} line 7: Superseded by ADR-9"]

    a = review(store, change, repo=r.root, now=NOW)
    assert [(d["id"], d["status"]) for d in a.result["decisions"]] == [(ADR, "superseded")]
    assert a.explanation.startswith(
        "0 decision(s) to follow (1 more whose status says superseded, by none in the log)"
    ), a.explanation
    t = trace(store, ADR, now=NOW)
    assert t.result is not None and t.result["chain"] == [ADR]
    assert "Its status says it is superseded, by no decision the log holds." in t.explanation
