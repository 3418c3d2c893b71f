"""The root AGENTS.md says "Use floats for money."; services/billing/AGENTS.md says "Never
use floats for money: use Decimal.", for its folder. Asked what the agent was told about
money when it wrote a commit changing services/billing/pay.py (or for that file on a day),
`told` named the root's "Use floats for money." as in force, citing it: the nearer file,
which takes precedence for the files under it, came second. It is now the answer, said to
take precedence; a question about no file, or about files outside the folder, is answered
by the root's as before."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from companybrain.ask.engine import ask
from companybrain.ask.repo import told
from companybrain.config import Settings
from companybrain.graph.connection import Store
from companybrain.repo.ingest import ingest_repo
from tests.repo.gitrepo import GitRepo

NOW = datetime(2026, 1, 1, tzinfo=UTC)
ROOT = "## Money\n\nUse floats for money."
BILLING = "## Money\n\nNever use floats for money: use Decimal."


def test_the_nearest_instruction_file_takes_precedence(
    store: Store, settings: Settings, tmp_path: Path
) -> None:
    r = GitRepo(tmp_path / "r")
    r.write("AGENTS.md", f"# Agents\n\n{ROOT}\n")
    r.write("services/billing/AGENTS.md", f"# Billing\n\n{BILLING}\n")
    r.write("services/billing/pay.py", "x = 1\n")
    r.write("services/api/app.py", "y = 1\n")
    r.commit("Start", "2025-01-10T09:00:00Z")
    r.write("services/billing/pay.py", "x = 2\n")
    billing = r.commit("Billing change", "2025-01-11T09:00:00Z")
    r.write("services/api/app.py", "y = 2\n")
    api = r.commit("API change", "2025-01-12T09:00:00Z")
    r.write("services/billing/pay.py", "x = 3\n")
    r.write("services/api/app.py", "y = 3\n")
    both = r.commit("Both", "2025-01-13T09:00:00Z")
    ingest_repo(store, r.root)

    a = told.told(store, billing, "money", now=NOW)
    assert a.result is not None and a.result["file"] == "services/billing/AGENTS.md", a.result
    assert a.result["text"] == BILLING
    assert "takes precedence over it" in a.explanation and "than AGENTS.md" in a.explanation
    assert [o["file"] for o in a.result["others"]] == ["AGENTS.md"]
    day = ask(store, settings, "What was the agent told about money for "
              "services/billing/pay.py on 2025-01-20?", now=NOW)  # fmt: skip
    assert day.result is not None and day.result["text"] == BILLING

    for rev in (api, both):  # the root's is for every file; the folder's for some only
        b = told.told(store, rev, "money", now=NOW)
        assert b.result is not None and b.result["file"] == "AGENTS.md", b.result
        assert "precedence" not in b.explanation
    plain = told.told(store, "2025-01-20", "money", now=NOW)
    assert plain.result is not None and plain.result["file"] == "AGENTS.md"
