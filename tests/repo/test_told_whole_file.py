"""`brain told` without a topic printed an AGENTS.md of "# Agents" with "## Tests" and
"## Style" under it as every section in turn: the file's text, then each sub-section again,
so its result `text` said each instruction twice, which the file does not, and cited the
same lines twice. Without a topic it is the file, once."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from companybrain.ask.repo import told
from companybrain.graph.connection import Store
from companybrain.repo.ingest import ingest_repo
from tests.repo.gitrepo import GitRepo

NOW = datetime(2026, 1, 1, tzinfo=UTC)
AGENTS = "Read this first.\n\n# Agents\n\n## Tests\n\nRun pytest.\n\n## Style\n\nUse ruff.\n"


def test_told_without_a_topic_is_the_file_once(store: Store, tmp_path: Path) -> None:
    r = GitRepo(tmp_path / "r")
    r.write("AGENTS.md", AGENTS)
    r.commit("Agents", "2025-01-03T10:00:00Z")
    ingest_repo(store, r.root)

    a = told.told(store, "2025-01-04", now=NOW)
    assert a.status == "answered" and a.result is not None, a.refusal
    assert a.result["text"] == AGENTS.strip()
    assert [c.lines for c in a.citations] == [(1, 1), (3, 11)]
    # A topic is still its own section, the smallest that says it.
    style = told.told(store, "2025-01-04", "style", now=NOW)
    assert style.result is not None and style.result["text"] == "## Style\n\nUse ruff."
