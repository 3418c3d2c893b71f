"""An AGENTS.md (or CLAUDE.md) in a folder is for the files under that folder. Asked what the
agent was told about style when it wrote a commit that changed only src/store/db.py,
`told` answered with src/web/AGENTS.md's "Never use inline scripts." as "in force when it
was written", citing it: instructions the agent was never under for that change. For a
commit, a folder's file counts only when the commit changed a file under that folder."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from companybrain.ask.repo import told
from companybrain.graph.connection import Store
from companybrain.model.answer import RefusalCode
from companybrain.repo.ingest import ingest_repo
from tests.repo.gitrepo import GitRepo

NOW = datetime(2026, 1, 1, tzinfo=UTC)
WEB = "## Style\n\nNever use inline scripts."


@pytest.fixture
def shas(store: Store, tmp_path: Path) -> dict[str, str]:
    r = GitRepo(tmp_path / "r")
    r.write("AGENTS.md", "# Agents\n\n## Tests\n\nRun pytest before committing.\n")
    r.write("src/web/AGENTS.md", f"# Web\n\n{WEB}\n")
    r.write("src/web/app.py", "def page():\n    pass\n")
    r.write("src/store/db.py", "def save(x):\n    return x\n")
    r.commit("Start", "2025-01-10T09:00:00Z")
    r.write("src/store/db.py", "def save(x):\n    return [x]\n")
    store_change = r.commit("Store change", "2025-02-01T09:00:00Z")
    r.write("src/web/app.py", "def page():\n    return 1\n")
    web_change = r.commit("Web change", "2025-02-02T09:00:00Z")
    ingest_repo(store, r.root)
    return {"store": store_change, "web": web_change}


def test_a_folders_instructions_are_for_changes_in_that_folder(
    store: Store, shas: dict[str, str]
) -> None:
    a = told.told(store, shas["store"], "style", now=NOW)
    assert a.refusal is not None and a.refusal.code == RefusalCode.NO_CLAIM, a.result
    assert "src/web/AGENTS.md" in a.refusal.message and "src/web/" in a.refusal.message
    assert a.citations == []
    tests = told.told(store, shas["store"], "pytest", now=NOW)
    assert tests.result is not None and tests.result["file"] == "AGENTS.md"
    assert "others" not in tests.result

    web = told.told(store, shas["web"], "style", now=NOW)
    assert web.result is not None and web.result["file"] == "src/web/AGENTS.md"
    assert web.result["text"] == WEB
    # Asked for by name, or about a day, the file is given as before.
    named = told.told(store, shas["store"], "style", "src/web/AGENTS.md", now=NOW)
    assert named.result is not None and named.result["text"] == WEB
    day = told.told(store, "2025-02-03", "style", now=NOW)
    assert day.result is not None and day.result["file"] == "src/web/AGENTS.md"
