"""Asked what the agent was told about "testing", `told` said AGENTS.md "say nothing about
“testing”" although its "## Tests" section says "Run pytest before committing": only the
word itself and its plural were looked for. A topic's other forms count, as in `why`."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from companybrain.ask.repo import told
from companybrain.graph.connection import Store
from companybrain.repo.ingest import ingest_repo
from tests.repo.gitrepo import GitRepo

NOW = datetime(2026, 1, 1, tzinfo=UTC)
TESTS = "## Tests\n\nRun pytest before committing."


def test_other_forms_of_a_topic_find_the_section(store: Store, tmp_path: Path) -> None:
    r = GitRepo(tmp_path / "r")
    long = "\n".join(f"- rule {n}: keep the style" for n in range(25))
    r.write("AGENTS.md", f"# Agents\n\n{TESTS}\n\n## Style\n\n{long}\n- logging goes to stderr\n")
    r.commit("Start", "2025-01-10T09:00:00Z")
    ingest_repo(store, r.root)

    for topic in ("testing", "commits"):
        a = told.told(store, "2025-02-01", topic, now=NOW)
        assert a.result is not None and a.result["text"] == TESTS, (topic, a.refusal)
    logs = told.told(store, "2025-02-01", "logs", now=NOW)  # a long section: its line
    assert logs.result is not None, logs.refusal
    assert [c.quote for c in logs.citations] == ["- logging goes to stderr"]
    none = told.told(store, "2025-02-01", "deploys", now=NOW)
    assert none.status == "refused"
