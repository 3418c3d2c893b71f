"""A commit dated 2035 (a clock set wrong) followed by one dated 1975: `told money` with its
default time, now, refused "… was committed by 2026-11-30T17:58:39Z (1975-…), its first
parent … only after (2035-…)": the current time read as a commit date, and nothing said
which date was wrong. It now says the parent is dated in the future, that the question was
about now, and how to ask (by commit), which answers."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from companybrain.ask.repo import told
from companybrain.graph.connection import Store
from companybrain.model.answer import RefusalCode
from companybrain.repo.ingest import ingest_repo
from tests.repo.gitrepo import GitRepo

NOW = datetime(2026, 11, 30, 17, 58, 39, tzinfo=UTC)


def test_now_after_a_parent_dated_in_the_future(store: Store, tmp_path: Path) -> None:
    r = GitRepo(tmp_path / "r")
    r.write("AGENTS.md", "# Agents\n\nNever use floats for money.\n")
    r.commit("Start", "2025-01-10T09:00:00Z")
    r.write("AGENTS.md", "# Agents\n\nUse Decimal for money.\n")
    ahead = r.commit("Clock ahead", "2035-01-10T09:00:00Z")
    r.write("AGENTS.md", "# Agents\n\nUse integer cents for money.\n")
    behind = r.commit("Clock behind", "1975-01-10T09:00:00Z")
    ingest_repo(store, r.root)

    a = told.told(store, NOW.isoformat(timespec="seconds"), "money", now=NOW)
    assert a.refusal is not None and a.refusal.code == RefusalCode.NO_CLAIM, a.result
    why = a.refusal.message
    assert f"{ahead[:12]}, dated 2035-01-10T09:00:00+00:00, in the future" in why, why
    assert f"{behind[:12]}, dated 1975-01-10T09:00:00+00:00" in why
    assert "by now (2026-11-30T17:58:39Z)" in why and "committed by 2026" not in why
    assert "HEAD" in why and a.citations == []
    head = told.told(store, "HEAD", "money", now=NOW)
    assert head.result is not None and head.result["text"] == "# Agents\n\nUse Decimal for money."
