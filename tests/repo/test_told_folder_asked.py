"""Asked what the agent was told about money "in services/billing/" (a folder, not a file),
`told` left services/billing/AGENTS.md out as the instructions of another folder ("services/
billing" is not under "services/billing/") and answered with the root's "Use floats for
money.", citing it, though the folder's own file says "Never use floats for money." A folder
asked about is under itself."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from companybrain.ask.engine import ask
from companybrain.config import Settings
from companybrain.graph.connection import Store
from companybrain.repo.ingest import ingest_repo
from tests.repo.gitrepo import GitRepo

NOW = datetime(2026, 1, 1, tzinfo=UTC)
BILLING = "## Money\n\nNever use floats for money."


def test_a_folder_asked_about_has_its_own_instructions(
    store: Store, settings: Settings, tmp_path: Path
) -> None:
    r = GitRepo(tmp_path / "r")
    r.write("AGENTS.md", "# Agents\n\n## Money\n\nUse floats for money.\n")
    r.write("services/billing/AGENTS.md", f"# Billing\n\n{BILLING}\n")
    r.write("services/billing/pay.py", "x = 1\n")
    r.write("services/billingx/pay.py", "x = 1\n")
    r.commit("Start", "2025-01-10T09:00:00Z")
    ingest_repo(store, r.root)

    for folder in ("services/billing/", "services/billing"):
        a = ask(store, settings, f"What was the agent told about money in {folder} on "
                "2025-01-20?", now=NOW)  # fmt: skip
        assert a.result is not None and a.result["text"] == BILLING, (folder, a.result)
    other = ask(store, settings, "What was the agent told about money in services/billingx/ "
                "on 2025-01-20?", now=NOW)  # fmt: skip
    assert other.result is not None and other.result["file"] == "AGENTS.md", other.result
