"""CLAUDE.md as a symbolic link to AGENTS.md (`ln -s AGENTS.md CLAUDE.md`, a common setup):
git keeps the link as a blob holding "AGENTS.md", and `told --file CLAUDE.md` answered that
CLAUDE.md said "AGENTS.md", citing it, while asked about money it refused that CLAUDE.md
"say nothing about money": Claude reads AGENTS.md through the link, "Never use floats for
money.". A link is answered by the file it points to, and said to be a link."""

from __future__ import annotations

import os
from datetime import UTC, datetime
from pathlib import Path

from companybrain.ask.repo import told
from companybrain.graph.connection import Store
from companybrain.repo.ingest import ingest_repo
from tests.repo.gitrepo import GitRepo

NOW = datetime(2026, 1, 1, tzinfo=UTC)
RULE = "# Agents\n\nNever use floats for money."


def test_a_linked_instruction_file_says_what_it_links_to(store: Store, tmp_path: Path) -> None:
    r = GitRepo(tmp_path / "r")
    r.write("AGENTS.md", f"{RULE}\n")
    os.symlink("AGENTS.md", r.root / "CLAUDE.md")
    (r.root / "svc").mkdir()
    os.symlink("../AGENTS.md", r.root / "svc/CLAUDE.md")
    r.write("svc/app.py", "x = 1\n")
    r.git("add", "-A")
    r.commit("Start", "2025-01-10T09:00:00Z")
    ingest_repo(store, r.root)

    for asked in ("", "money"):
        a = told.told(store, "2025-02-01", asked, "CLAUDE.md", now=NOW)
        assert a.result is not None and a.result["text"] == RULE, (asked, a.result, a.refusal)
        assert a.explanation.startswith("CLAUDE.md is a link to AGENTS.md; AGENTS.md")
        assert [c.record for c in a.citations] == ["AGENTS.md"]
    nested = told.told(store, "2025-02-01", "money", "svc/CLAUDE.md", now=NOW)
    assert nested.result is not None and nested.result["file"] == "AGENTS.md"
    every = told.told(store, "2025-02-01", "money", now=NOW)
    assert every.result is not None and "others" not in every.result, every.result
