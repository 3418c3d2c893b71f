"""CLAUDE.md says "Always use floats for money.", AGENTS.md "Never use floats for money.",
.github/copilot-instructions.md "Use decimals for money." and a Cursor rule "Store money as
integer cents.": `told money` named AGENTS.md as the file in force, cited all four, and never
said they disagree; an agent reading it was told one thing with confidence. Each is read by
its own agent and none takes precedence, so the answer now says they disagree, naming each
file and line, and names none as in force. Files that say the same stay one answer."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from companybrain.ask.repo import told
from companybrain.graph.connection import Store
from companybrain.repo.ingest import ingest_repo
from tests.repo.gitrepo import GitRepo

NOW = datetime(2026, 1, 1, tzinfo=UTC)


def test_instruction_files_that_disagree_are_said_to(
    store: Store, tmp_path: Path, run_cli: Any
) -> None:
    r = GitRepo(tmp_path / "r")
    r.write("CLAUDE.md", "# Agents\n\nAlways use floats for money.\n")
    r.write("AGENTS.md", "# Agents\n\nNever use floats for money.\n\n## Tests\n\nRun pytest.\n")
    r.write(".github/copilot-instructions.md", "# Copilot\n\nUse decimals for money.\n")
    r.write(".cursor/rules/money.mdc", "---\nglobs: src/**\n---\n\nStore money as integer cents.\n")
    r.write("src/pay.py", "x = 1\n")
    r.commit("Start", "2025-01-10T09:00:00Z")
    r.write("src/pay.py", "x = 2\n")
    r.commit("Change", "2025-01-11T09:00:00Z")
    ingest_repo(store, r.root)

    a = told.told(store, "HEAD", "money", now=NOW)
    assert a.status == "answered" and a.result is not None
    assert [(d["file"], d["line"], d["quote"]) for d in a.result["disagree"]] == [
        ("AGENTS.md", 3, "Never use floats for money."),
        ("CLAUDE.md", 3, "Always use floats for money."),
        (".github/copilot-instructions.md", 3, "Use decimals for money."),
        (".cursor/rules/money.mdc", 5, "Store money as integer cents."),
    ]
    assert "disagree about “money”" in a.explanation
    assert "CLAUDE.md line 3 “Always use floats for money.”" in a.explanation
    assert "was in force" not in a.explanation and "none is named" in a.explanation
    assert {c.record for c in a.citations} == {
        "AGENTS.md", "CLAUDE.md", ".github/copilot-instructions.md", ".cursor/rules/money.mdc"
    }  # fmt: skip
    # A topic only one file speaks of is that file's, as before.
    tests = told.told(store, "HEAD", "pytest", now=NOW)
    assert tests.result is not None and "disagree" not in tests.result
    assert "AGENTS.md" in tests.explanation and "was in force" in tests.explanation

    printed = run_cli("told", "money", "--at", "HEAD")
    assert "CLAUDE.md L3: Always use floats for money." in printed.output, printed.output


def test_instruction_files_that_say_the_same_do_not_disagree(store: Store, tmp_path: Path) -> None:
    r = GitRepo(tmp_path / "r")
    r.write("CLAUDE.md", "# Claude\n\nNever use floats  for money.\nRound money half-even.\n")
    r.write("AGENTS.md", "# Agents\n\n## Money\n\nNever use floats for money.\n")
    r.commit("Start", "2025-01-10T09:00:00Z")
    ingest_repo(store, r.root)
    a = told.told(store, "2025-02-01", "money", now=NOW)
    assert a.result is not None and "disagree" not in a.result, a.result
    assert a.result["file"] == "AGENTS.md" and "was in force" in a.explanation


def test_a_long_disagreement_is_told_in_a_few_lines(store: Store, tmp_path: Path) -> None:
    r = GitRepo(tmp_path / "r")
    r.write("AGENTS.md", "".join(f"Rule {i}: keep money in cents.\n" for i in range(400)))
    r.write("CLAUDE.md", "Use floats for money.\n")
    r.commit("Start", "2025-01-10T09:00:00Z")
    ingest_repo(store, r.root)
    a = told.told(store, "2025-02-01", "money", now=NOW)
    assert a.result is not None and len(a.result["disagree"]) == 401
    assert "(and 397 more lines of AGENTS.md)" in a.explanation and len(a.explanation) < 1000
