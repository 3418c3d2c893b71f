"""A topic `why` listed the five best decisions and said nothing of the rest: over a log
of 3,000 entries that all matched, it answered with five as if they were all there was.
The answer now says how many more matched, in its result (`more`) and its text."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from companybrain.ask.engine import ask
from companybrain.config import Settings
from companybrain.graph.connection import Store
from companybrain.repo.ingest import ingest_repo
from tests.repo.gitrepo import GitRepo

NOW = datetime(2026, 1, 1, tzinfo=UTC)


def _log(entries: int) -> str:
    return "# Decisions\n\n" + "".join(
        f"## Cache pages for report {i:02}\n\nReport {i:02} keeps its pages in a cache.\n\n"
        for i in range(entries)
    )


def test_a_topic_answer_says_how_many_more_decisions_matched(
    store: Store, settings: Settings, tmp_path: Path
) -> None:
    r = GitRepo(tmp_path / "r")
    r.write("DECISIONS.md", _log(8))
    r.commit("Log", "2025-02-01T09:00:00Z")
    ingest_repo(store, r.root)
    for question in ("Why do we cache pages?", "Why do we cache pages as of 2025-03-01?"):
        a = ask(store, settings, question, now=NOW)
        assert a.tool == "why" and a.status == "answered", (question, a.refusal)
        assert len(a.result["decisions"]) == 5 and len(a.citations) == 5
        assert a.result["more"] == 3, question
        assert "and 3 more matching decision(s), not shown" in a.explanation


def test_no_more_when_every_match_is_shown(
    store: Store, settings: Settings, tmp_path: Path
) -> None:
    r = GitRepo(tmp_path / "r")
    r.write("DECISIONS.md", _log(5))
    r.commit("Log", "2025-02-01T09:00:00Z")
    ingest_repo(store, r.root)
    a = ask(store, settings, "Why do we cache pages?", now=NOW)
    assert len(a.result["decisions"]) == 5
    assert "more" not in a.result and "more" not in a.explanation


def test_the_command_line_says_how_many_more(store: Store, tmp_path: Path, run_cli: Any) -> None:
    r = GitRepo(tmp_path / "r")
    r.write("DECISIONS.md", _log(7))
    r.commit("Log", "2025-02-01T09:00:00Z")
    ingest_repo(store, r.root)
    out = run_cli("why", "cache pages")
    assert out.exit_code == 0, out.output
    assert "  … and 2 more\n" in out.output
