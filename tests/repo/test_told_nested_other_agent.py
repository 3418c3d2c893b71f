"""The root CLAUDE.md says "Use floats for money."; services/billing/AGENTS.md says "Never use
floats for money.". Asked about a commit in services/billing/, `told` named the folder's
AGENTS.md as taking precedence over CLAUDE.md: but a nearer AGENTS.md overrides the root's
AGENTS.md, not CLAUDE.md, which Claude still reads for that folder. The two disagree, and
the answer says so; a nearer file of the same name still takes precedence."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from companybrain.ask.repo import told
from companybrain.graph.connection import Store
from companybrain.repo.ingest import ingest_repo
from tests.repo.gitrepo import GitRepo

NOW = datetime(2026, 1, 1, tzinfo=UTC)


def test_a_nearer_agents_md_does_not_override_claude_md(store: Store, tmp_path: Path) -> None:
    r = GitRepo(tmp_path / "r")
    r.write("CLAUDE.md", "# Claude\n\nUse floats for money.\n")
    r.write("AGENTS.md", "# Agents\n\nUse floats for money.\n")
    r.write("services/billing/AGENTS.md", "# Billing\n\nNever use floats for money.\n")
    r.write("services/billing/pay.py", "x = 1\n")
    r.commit("Start", "2025-01-10T09:00:00Z")
    r.write("services/billing/pay.py", "x = 2\n")
    billing = r.commit("Billing", "2025-01-11T09:00:00Z")
    ingest_repo(store, r.root)

    a = told.told(store, billing, "money", now=NOW)
    assert a.result is not None, a.refusal
    assert [(d["file"], d["quote"]) for d in a.result.get("disagree", [])] == [
        ("services/billing/AGENTS.md", "Never use floats for money."),
        ("CLAUDE.md", "Use floats for money."),
    ], a.result
    assert "precedence over CLAUDE.md" not in a.explanation and "disagree" in a.explanation
