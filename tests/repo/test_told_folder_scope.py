"""An AGENTS.md in services/billing/ is for the files under that folder. Asked what the
agent was told about money for services/api/app.py on a day, `told` answered with
services/billing/AGENTS.md's "Never use floats for money." as in force, citing it; asked
about a day with no file named, it called a folder's file "in force" without saying for
what; and "What did AGENTS.md say ..." answered with services/billing/AGENTS.md while the
root AGENTS.md exists. A folder's file counts for the paths a question names only when they
are under its folder, and only while it was in the tree (added, deleted, added again, its
folder renamed)."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from companybrain.ask.engine import ask
from companybrain.ask.repo import told
from companybrain.config import Settings
from companybrain.graph.connection import Store
from companybrain.model.answer import RefusalCode
from companybrain.repo.ingest import ingest_repo
from tests.repo.gitrepo import GitRepo

NOW = datetime(2026, 1, 1, tzinfo=UTC)
FLOATS = "## Money\n\nNever use floats for money."
DECIMAL = "## Money\n\nUse Decimal for money."


def test_a_folders_instructions_are_for_that_folder_on_every_day(
    store: Store, settings: Settings, tmp_path: Path
) -> None:
    r = GitRepo(tmp_path / "r")
    r.write("AGENTS.md", "# Agents\n\n## Tests\n\nRun pytest before committing.\n")
    r.write("services/billing/pay.py", "x = 1\n")
    r.write("services/api/app.py", "y = 1\n")
    r.commit("Start", "2025-01-10T09:00:00Z")
    r.write("services/billing/AGENTS.md", f"# Billing\n\n{FLOATS}\n")
    r.commit("Billing agents", "2025-02-01T09:00:00Z")
    r.rm("services/billing/AGENTS.md")
    r.commit("Drop them", "2025-03-01T09:00:00Z")
    r.write("services/billing/AGENTS.md", f"# Billing\n\n{DECIMAL}\n")
    r.commit("Billing agents again", "2025-04-01T09:00:00Z")
    r.mv("services/billing", "services/pay")
    r.commit("Rename the folder", "2025-05-01T09:00:00Z")
    ingest_repo(store, r.root)

    api = ask(store, settings, "What was the agent told about money for services/api/app.py "
              "on 2025-02-10?", now=NOW)  # fmt: skip
    assert api.status == "refused" and api.refusal is not None, api.result
    assert api.refusal.code == RefusalCode.NO_CLAIM and api.citations == []
    assert "services/billing/" in api.refusal.message
    billing = ask(store, settings, "What was the agent told about money for "
                  "services/billing/pay.py on 2025-02-10?", now=NOW)  # fmt: skip
    assert billing.result is not None and billing.result["text"] == FLOATS
    assert billing.result["for_files_under"] == "services/billing/"

    # no path named: the folder's file, said to be for that folder's files
    day = told.told(store, "2025-02-10", "money", now=NOW)
    assert day.result is not None and day.result["file"] == "services/billing/AGENTS.md"
    assert "for the files under services/billing/" in day.explanation
    # the root file, when that is the one named
    root = told.told(store, "2025-02-10", "money", "AGENTS.md", now=NOW)
    assert root.status == "refused", root.result
    # deleted, added again, its folder renamed
    gone = told.told(store, "2025-03-10", "money services/billing/pay.py", now=NOW)
    assert gone.status == "refused", gone.result
    again = told.told(store, "2025-04-10", "money services/billing/pay.py", now=NOW)
    assert again.result is not None and again.result["text"] == DECIMAL
    moved = told.told(store, "2025-05-10", "money services/pay/pay.py", now=NOW)
    assert moved.result is not None and moved.result["file"] == "services/pay/AGENTS.md"
    old_name = told.told(store, "2025-05-10", "money services/api/app.py", now=NOW)
    assert old_name.status == "refused", old_name.result
    folder = told.told(store, "2025-05-10", "money in services/api/", now=NOW)
    assert folder.status == "refused", folder.result
