"""A review of a change to a file whose only decision is recorded "Status: Withdrawn" (or
Obsolete, Retired; or "Replaced by ..." with no such decision in the log) said "1
decision(s) to follow": only disproven, rejected, deprecated and superseded were told
apart. Those statuses are context for the reviewer, not guidance."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from companybrain.ask.repo.review import review
from companybrain.graph.connection import Store
from companybrain.repo.ingest import ingest_repo
from tests.repo.gitrepo import GitRepo

NOW = datetime(2026, 1, 1, tzinfo=UTC)


@pytest.mark.parametrize(
    ("status", "said"),
    [("Withdrawn", "disproven or rejected"), ("Obsolete", "disproven or rejected"),
     ("Retired", "disproven or rejected"), ("Replaced by the new cache", "says superseded")],
)  # fmt: skip
def test_a_withdrawn_decision_is_not_one_to_follow(
    store: Store, tmp_path: Path, status: str, said: str
) -> None:
    r = GitRepo(tmp_path / "r")
    r.write("src/cache.py", "x = 1\n")
    r.write(
        "docs/adr/0001-use-sqlite.md",
        f"# 1. Use SQLite\n\nDate: 2025-01-10\n\n## Status\n\n{status}\n\n## Decision\n\n"
        "src/cache.py keeps its entries in SQLite.\n",
    )
    r.commit("ADR", "2025-01-10T09:00:00Z")
    r.write("src/cache.py", "x = 2\n")
    change = r.commit("Change the cache", "2025-02-01T09:00:00Z")
    ingest_repo(store, r.root)

    a = review(store, change, now=NOW)
    assert a.explanation.startswith("0 decision(s) to follow"), a.explanation
    assert said in a.explanation
