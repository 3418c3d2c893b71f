"""An AGENTS.md section holding a Latin-1 byte ("caf\\xe9") was quoted by `told` with U+FFFD
in its place, a line the file does not hold. Such lines are never quoted: told says which
line is not UTF-8 text; the file's other sections are quoted as before."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from companybrain.ask.repo import told
from companybrain.graph.connection import Store
from companybrain.model.answer import RefusalCode
from companybrain.repo.ingest import ingest_repo
from tests.repo.gitrepo import GitRepo

NOW = datetime(2026, 1, 1, tzinfo=UTC)


def test_a_line_that_is_not_utf8_is_not_quoted(store: Store, tmp_path: Path) -> None:
    r = GitRepo(tmp_path / "r")
    (r.root / "AGENTS.md").write_bytes(
        b"# Agents\n\n## Tests\n\nRun the caf\xe9 tests first.\n\n## Style\n\nUse ruff.\n"
    )
    r.git("add", "AGENTS.md")
    r.commit("Agents", "2025-01-03T10:00:00Z")
    ingest_repo(store, r.root)

    a = told.told(store, "2025-01-04", "tests", now=NOW)
    assert a.refusal is not None and a.refusal.code == RefusalCode.NO_CLAIM, a.result
    assert "line 5" in a.refusal.message and "not UTF-8" in a.refusal.message
    assert a.citations == []
    style = told.told(store, "2025-01-04", "style", now=NOW)
    assert style.status == "answered" and style.result["text"] == "## Style\n\nUse ruff."
