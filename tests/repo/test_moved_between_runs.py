"""An ADR (or a decision log) moved to another folder between two runs of ingest-repo was
listed twice by `why`: under its new path, and under the old one as "removed", which a
single run over the same history never shows. The old id is dropped once the same entry is
read under the path its file was renamed to."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from companybrain.ask.repo import tools
from companybrain.graph.connection import Store
from companybrain.graph.queries import repo_read
from companybrain.repo.ingest import ingest_repo
from tests.repo.gitrepo import GitRepo

NOW = datetime(2026, 1, 1, tzinfo=UTC)
ADR = "# 1. Cache pages\n\n## Status\n\nAccepted\n\n## Decision\n\nsrc/cache.py caches pages.\n"
LOG = "# Decisions\n\n## Batch writes\n\nsrc/cache.py batches writes.\n\n## Gone\n\nNo more.\n"


def test_a_decision_moved_between_two_runs_is_listed_once(store: Store, tmp_path: Path) -> None:
    r = GitRepo(tmp_path / "r")
    r.write("src/cache.py", "x = 1\n")
    r.write("docs/adr/0001-cache-pages.md", ADR)
    r.write("DECISIONS.md", LOG)
    r.commit("Record", "2025-01-03T10:00:00Z")
    ingest_repo(store, r.root)
    r.write("DECISIONS.md", LOG.split("\n## Gone")[0] + "\n")
    r.commit("Drop an entry", "2025-01-04T10:00:00Z")
    ingest_repo(store, r.root)
    r.mv("docs/adr/0001-cache-pages.md", "docs/decisions/0001-cache-pages.md")
    r.mv("DECISIONS.md", "docs/DECISIONS.md")
    r.commit("Move the records", "2025-01-06T10:00:00Z")
    ingest_repo(store, r.root)

    a = tools.why(store, "src/cache.py", now=NOW)
    assert [d["id"] for d in a.result["decisions"]] == [
        "docs/DECISIONS.md#Batch writes",
        "docs/decisions/0001-cache-pages.md",
        "DECISIONS.md#Gone",  # recorded with a change to it, then removed: it was
    ]
    # an entry removed from the log before it moved is still a removed decision
    ids = {d["id"]: d["present"] for d in repo_read.decisions(store)}
    assert ids == {
        "docs/DECISIONS.md#Batch writes": True,
        "docs/decisions/0001-cache-pages.md": True,
        "DECISIONS.md#Gone": False,
    }
