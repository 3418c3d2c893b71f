"""`told` refused about a day (or a commit) with the envelope's `as_of` set to the clock,
not the day the question named: "What did AGENTS.md say about tests on 2025-01-15?"
before AGENTS.md existed was dated today."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from companybrain.ask.repo.told import told
from companybrain.graph.connection import Store
from companybrain.repo.ingest import ingest_repo
from tests.repo.gitrepo import GitRepo

NOW = datetime(2026, 12, 1, tzinfo=UTC)


def test_a_refusal_is_dated_the_time_asked_about(store: Store, tmp_path: Path) -> None:
    r = GitRepo(tmp_path / "r")
    r.write("src/a.py", "a = 1\n")
    first = r.commit("Start", "2025-01-01T10:00:00Z")
    r.write("AGENTS.md", "# Agents\n\n## Tests\n\nRun pytest.\n")
    r.commit("Agents", "2025-02-01T10:00:00Z")
    ingest_repo(store, r.root)

    before = told(store, "2025-01-15", "tests", "AGENTS.md", now=NOW)
    assert before.refusal is not None and before.refusal.code.value == "NO_CLAIM"
    assert before.as_of == "2025-01-15T23:59:59.999Z"
    off_topic = told(store, "2025-02-15", "deploys", "AGENTS.md", now=NOW)
    assert off_topic.refusal is not None and off_topic.as_of == "2025-02-15T23:59:59.999Z"
    at_commit = told(store, first, "tests", "AGENTS.md", now=NOW)
    assert at_commit.refusal is not None and at_commit.as_of == "2025-01-01T10:00:00+00:00"
    assert told(store, "2025-02-15", "tests", "AGENTS.md", now=NOW).result is not None
