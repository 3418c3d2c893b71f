"""A Cursor rules folder inside a folder (services/billing/.cursor/rules/money.mdc) is for
that folder's files, as its AGENTS.md would be. `told` at a commit that changed only
services/api/app.py answered with its "Never use floats for money." as in force when the
commit was written, citing it: a rules folder counted for every file wherever it was."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from companybrain.ask.repo import told
from companybrain.graph.connection import Store
from companybrain.repo.ingest import ingest_repo
from tests.repo.gitrepo import GitRepo

NOW = datetime(2026, 1, 1, tzinfo=UTC)
RULE = "services/billing/.cursor/rules/money.mdc"


def test_a_nested_rules_folder_is_for_its_folder(store: Store, tmp_path: Path) -> None:
    r = GitRepo(tmp_path / "r")
    r.write(RULE, "# Money\n\nNever use floats for money.\n")
    r.write("services/billing/pay.py", "x = 1\n")
    r.write("services/api/app.py", "y = 1\n")
    r.commit("Start", "2025-01-10T09:00:00Z")
    r.write("services/api/app.py", "y = 2\n")
    api = r.commit("API change", "2025-02-01T09:00:00Z")
    r.write("services/billing/pay.py", "x = 2\n")
    billing = r.commit("Billing change", "2025-02-02T09:00:00Z")
    ingest_repo(store, r.root)

    a = told.told(store, api, "money", now=NOW)
    assert a.status == "refused" and a.citations == [], a.result
    assert a.refusal is not None and "services/billing/" in a.refusal.message
    b = told.told(store, billing, "money", now=NOW)
    assert b.result is not None and b.result["file"] == RULE
    assert b.result["for_files_under"] == "services/billing/"
