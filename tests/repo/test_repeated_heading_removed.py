"""A log with two entries under one heading, "Batch writes" and "Batch writes (2)": when
the first was deleted, the second became "Batch writes", and the graph kept
"Batch writes (2)" as a decision removed from the log, so `why src/web/app.py` listed the
same entry twice, once as "(removed)", although nothing about that file was removed."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from companybrain.ask.repo import tools
from companybrain.graph.connection import Store
from companybrain.repo.ingest import ingest_repo
from tests.repo.gitrepo import GitRepo

NOW = datetime(2026, 1, 1, tzinfo=UTC)
STORE = "\n## Batch writes\n\nsrc/store/db.py batches writes.\n"
WEB = "\n## Batch writes\n\nsrc/web/app.py batches page renders.\n"
THIRD = "\n## Batch writes\n\nsrc/web/app.py batches its logs too.\n"


def test_a_repeated_heading_that_moved_up_is_not_removed(store: Store, tmp_path: Path) -> None:
    r = GitRepo(tmp_path / "r")
    r.write("src/store/db.py", "x = 1\n")
    r.write("src/web/app.py", "y = 1\n")
    r.write("DECISIONS.md", "# Decisions\n" + STORE + WEB + THIRD)
    r.commit("Start", "2025-01-10T09:00:00Z")
    ingest_repo(store, r.root)
    r.write("DECISIONS.md", "# Decisions\n" + WEB + THIRD)
    r.commit("Drop the store entry", "2025-02-01T09:00:00Z")
    ingest_repo(store, r.root)

    why = tools.why(store, "src/web/app.py", now=NOW)
    assert sorted(d["id"] for d in why.result["decisions"]) == [
        "DECISIONS.md#Batch writes",
        "DECISIONS.md#Batch writes (2)",
    ]
    assert not any(d.get("removed") for d in why.result["decisions"]), why.result
    assert sorted(c.quote for c in why.citations) == [
        "src/web/app.py batches its logs too.",
        "src/web/app.py batches page renders.",
    ]
