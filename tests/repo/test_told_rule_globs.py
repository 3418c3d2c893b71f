"""A Cursor rule limited by its front matter to some files (`globs: src/**`,
`alwaysApply: false`), or a Copilot file to `applyTo: "**/*.py"`: `told` at a commit that
changed only docs/guide.md quoted "Store money as integer cents." as in force when it was
written, citing it, though the rule is not for that file. A rule counts only for the files
its patterns match (`alwaysApply: true`, or no patterns, for every file)."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from companybrain.ask.engine import ask
from companybrain.ask.repo import told
from companybrain.config import Settings
from companybrain.graph.connection import Store
from companybrain.model.answer import RefusalCode
from companybrain.repo.ingest import ingest_repo
from companybrain.repo.instructions import applies_to, glob_matches
from tests.repo.gitrepo import GitRepo

NOW = datetime(2026, 1, 1, tzinfo=UTC)
RULE = ".cursor/rules/money.mdc"


def test_a_rule_is_for_the_files_its_globs_match(
    store: Store, settings: Settings, tmp_path: Path
) -> None:
    r = GitRepo(tmp_path / "r")
    r.write(RULE, "---\nglobs: src/**\nalwaysApply: false\n---\n\nStore money as integer cents.\n")
    r.write(".github/instructions/py.instructions.md",
            '---\napplyTo: "**/*.py"\n---\n\nFormat money with two decimals.\n')  # fmt: skip
    r.write(
        ".cursor/rules/always.mdc", "---\nglobs: src/**\nalwaysApply: true\n---\n\nLog money.\n"
    )
    r.write("src/pay.py", "x = 1\n")
    r.write("docs/guide.md", "Guide\n")
    r.commit("Start", "2025-01-10T09:00:00Z")
    r.write("docs/guide.md", "Guide 2\n")
    docs = r.commit("Docs", "2025-01-11T09:00:00Z")
    r.write("src/pay.py", "x = 2\n")
    code = r.commit("Code", "2025-01-12T09:00:00Z")
    ingest_repo(store, r.root)

    a = told.told(store, docs, "money", now=NOW)
    assert a.result is not None and a.result["file"] == ".cursor/rules/always.mdc", a.result
    assert "others" not in a.result and {c.record for c in a.citations} == {
        ".cursor/rules/always.mdc"
    }
    only = told.told(store, docs, "cents", now=NOW)
    assert only.refusal is not None and only.refusal.code == RefusalCode.NO_CLAIM
    assert "matching src/**" in only.refusal.message and RULE in only.refusal.message
    assert only.citations == []
    b = told.told(store, code, "cents", now=NOW)
    assert b.result is not None and b.result["file"] == RULE
    c = told.told(store, code, "decimals", now=NOW)
    assert c.result is not None and c.result["file"] == ".github/instructions/py.instructions.md"
    d = ask(store, settings, "What was the agent told about cents for docs/guide.md on "
            "2025-01-20?", now=NOW)  # fmt: skip
    assert d.status == "refused" and d.citations == [], d.result
    day = told.told(store, "2025-01-20", "cents", now=NOW)  # no file asked about: said for whom
    assert day.result is not None and day.result["for_files_matching"] == ["src/**"]
    assert "in force on 2025-01-20" in day.explanation and "matching src/**" in day.explanation


def test_patterns() -> None:
    assert applies_to("---\nglobs: *.tsx, src/**\nalwaysApply: false\n---\nx\n") == [
        "*.tsx", "src/**"
    ]  # fmt: skip
    assert applies_to("---\nglobs: src/**\nalwaysApply: true\n---\nx\n") == []
    assert applies_to("# No front matter\n") == []
    assert glob_matches("src/**", "src/a/pay.py") and not glob_matches("src/**", "docs/a.md")
    assert glob_matches("*.tsx", "web/app/page.tsx") and glob_matches("**/*.py", "pay.py")
    assert glob_matches("*.{ts,tsx}", "a.ts") and not glob_matches("docs/*.md", "docs/a/b.md")
