"""A Cursor rule (`.cursor/rules/money.mdc`) starts with front matter saying where it
applies (`globs: src/**`). `told` quoted "--- globs: src/** --- Store money as integer
cents." as what the rule said, lines 1-5: the front matter is no instruction. The rule's
words are quoted, from the line they are on."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from companybrain.ask.repo import told
from companybrain.graph.connection import Store
from companybrain.repo.ingest import ingest_repo
from companybrain.repo.instructions import sections
from tests.repo.gitrepo import GitRepo

NOW = datetime(2026, 1, 1, tzinfo=UTC)
RULE = ".cursor/rules/money.mdc"


def test_a_rules_front_matter_is_not_quoted_as_the_rule(store: Store, tmp_path: Path) -> None:
    r = GitRepo(tmp_path / "r")
    r.write(RULE, "---\nglobs: src/**\nalwaysApply: false\n---\n\nStore money as integer cents.\n")
    r.write("src/pay.py", "x = 1\n")
    r.commit("Start", "2025-01-10T09:00:00Z")
    r.write("src/pay.py", "x = 2\n")
    change = r.commit("Change", "2025-01-11T09:00:00Z")
    ingest_repo(store, r.root)

    a = told.told(store, change, "money", now=NOW)
    assert a.result is not None and a.result["text"] == "Store money as integer cents."
    assert [(c.quote, c.lines) for c in a.citations] == [("Store money as integer cents.", (6, 6))]
    whole = told.told(store, change, "", now=NOW)
    assert whole.result is not None and "globs" not in whole.result["text"]


def test_front_matter_and_headings() -> None:
    text = "---\ndescription: Money\n# not a heading\n---\n# Money\n\nUse Decimal.\n"
    assert [(s.heading, s.line_start, s.line_end) for s in sections(text)] == [("Money", 5, 7)]
    assert sections("---\nglobs: src/**\n---\n") == []
    plain = sections("Use Decimal.\n\n---\n\nNot front matter.\n")
    assert [(s.line_start, s.line_end) for s in plain] == [(1, 5)]
