"""A Cursor rule whose front matter is no YAML (`globs: *.tsx`, which YAML reads as an
alias, or an unclosed bracket) and an AGENTS.md with a line that is not UTF-8 were read
without a word: the rule's front matter was dropped silently and the line left unquoted,
and the run named neither. The run now warns once per file, naming file and line;
`globs: *.tsx` on a line of its own, as Cursor writes it, is read as it stands, unwarned."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from companybrain.graph.connection import Store
from companybrain.repo.ingest import ingest_repo
from tests.repo.gitrepo import GitRepo


def _repo(root: Path) -> GitRepo:
    r = GitRepo(root)
    r.write(
        ".cursor/rules/ui.mdc", "---\ndescription: [unclosed\nglobs: web/**\n---\n\nUse tabs.\n"
    )
    (r.root / "AGENTS.md").write_bytes(b"# Agents\n\nRun the caf\xe9 tests.\n")
    r.git("add", "-A")
    r.commit("Start", "2025-01-10T09:00:00Z")
    r.write(
        ".cursor/rules/ui.mdc", "---\ndescription: [unclosed\nglobs: web/**\n---\n\nUse 2 tabs.\n"
    )
    r.write(".cursor/rules/tsx.mdc", "---\ndescription: TSX\nglobs: *.tsx\n---\n\nUse hooks.\n")
    r.commit("Again", "2025-01-11T09:00:00Z")
    return r


def test_instruction_files_read_otherwise_are_named(store: Store, tmp_path: Path) -> None:
    report = ingest_repo(store, _repo(tmp_path / "r").root)
    assert len(report.instruction_problems) == 2, report.instruction_problems
    front, utf8 = report.instruction_problems
    assert front.startswith(".cursor/rules/ui.mdc line 2: front matter is not YAML"), front
    assert utf8.startswith("AGENTS.md line 3: not UTF-8"), utf8


def test_the_command_line_names_them(run_cli: Any, tmp_path: Path) -> None:
    done = run_cli("ingest-repo", str(_repo(tmp_path / "r").root))
    assert done.exit_code == 0, done.output
    assert "warning .cursor/rules/ui.mdc line 2: front matter is not YAML" in done.output
    assert "warning AGENTS.md line 3: not UTF-8" in done.output
