"""An AGENTS.md saved with a byte-order mark and Windows line endings: its first heading
"\\ufeff# Agents" was no heading, so `told` quoted the mark with it as a section of its own
("\\ufeff# Agents", line 1) and "## Money" stood outside "# Agents"; a Cursor rule's front
matter behind a mark was quoted as its words. The mark is no text."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from companybrain.ask.repo import told
from companybrain.graph.connection import Store
from companybrain.repo.ingest import ingest_repo
from tests.repo.gitrepo import GitRepo

NOW = datetime(2026, 1, 1, tzinfo=UTC)


def test_a_byte_order_mark_is_no_text(store: Store, tmp_path: Path) -> None:
    r = GitRepo(tmp_path / "r")
    (r.root / "AGENTS.md").write_bytes(
        "\ufeff# Agents\r\n\r\n## Money\r\n\r\nUse Decimal for money.\r\n".encode()
    )
    (r.root / ".cursor/rules").mkdir(parents=True)
    (r.root / ".cursor/rules/tests.mdc").write_bytes(
        "\ufeff---\r\ndescription: tests\r\nalwaysApply: true\r\n---\r\n\r\n"
        "Run pytest.\r\n".encode()
    )
    r.git("add", "-A")
    r.commit("Start", "2025-01-10T09:00:00Z")
    ingest_repo(store, r.root)

    whole = told.told(store, "2025-02-01", "", "AGENTS.md", now=NOW)
    assert whole.result is not None and whole.result["sections"] == ["Agents"], whole.result
    assert whole.result["text"] == "# Agents\n\n## Money\n\nUse Decimal for money."
    assert all("\ufeff" not in (c.quote or "") for c in whole.citations)
    assert whole.citations[0].lines == (1, 5)
    rule = told.told(store, "2025-02-01", "pytest", now=NOW)
    assert rule.result is not None and rule.result["text"] == "Run pytest.", rule.result
