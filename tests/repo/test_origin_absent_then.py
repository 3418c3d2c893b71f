"""A dated `origin` of a decision that was not in the decision log that day: "Who recorded
docs/decisions/0001-cache-pages.md as of 2025-01-04?", the ADR deleted on 2025-01-03 (and
restored and moved later), answered with the recording commit as if the decision stood
that day (`why` refuses it). The answer now says it was not in the log that day, and on a
day it stood under another name, that name."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from companybrain.ask.engine import ask
from companybrain.config import Settings
from companybrain.graph.connection import Store
from companybrain.model.answer import Answer
from companybrain.repo.ingest import ingest_repo
from tests.repo.gitrepo import GitRepo

NOW = datetime(2026, 1, 1, tzinfo=UTC)
OLD = "docs/adr/0001-cache-pages.md"
ADR = "docs/decisions/0001-cache-pages.md"
TEXT = "# 1. Cache pages\n\n## Status\n\nAccepted\n\n## Decision\n\nsrc/cache.py keeps pages.\n"


@pytest.fixture
def repo(store: Store, tmp_path: Path) -> GitRepo:
    r = GitRepo(tmp_path / "r")
    r.write("src/cache.py", "x = 1\n")
    r.write(OLD, TEXT)
    r.commit("Record", "2025-01-01T10:00:00Z")
    r.rm(OLD)
    r.commit("Drop", "2025-01-03T10:00:00Z")
    r.write(OLD, TEXT)
    r.commit("Restore", "2025-01-05T10:00:00Z")
    r.mv(OLD, ADR)
    r.commit("Move", "2025-01-07T10:00:00Z")
    ingest_repo(store, r.root)
    return r


def _origin(store: Store, settings: Settings, day: str) -> Answer:
    a = ask(store, settings, f"Who recorded {ADR} as of {day}?", now=NOW)
    assert a.tool == "origin" and a.status == "answered", (day, a.refusal)
    return a


def test_a_decision_absent_that_day_is_said_to_be(
    store: Store, settings: Settings, repo: GitRepo
) -> None:
    first = repo.git("rev-list", "--max-parents=0", "HEAD")
    a = _origin(store, settings, "2025-01-04")
    assert a.result["commit"] == first
    assert a.result["in_log_then"] is False
    assert "it was not in the decision log on 2025-01-04" in a.explanation
    why = ask(store, settings, f"Why {ADR} as of 2025-01-04?", now=NOW)
    assert why.status == "refused"


def test_a_day_it_stood_says_nothing_of_absence(
    store: Store, settings: Settings, repo: GitRepo
) -> None:
    under_old = _origin(store, settings, "2025-01-06")
    assert "in_log_then" not in under_old.result
    assert f"it was {OLD}" in under_old.explanation
    assert "not in the decision log" not in under_old.explanation
    today = _origin(store, settings, "2025-01-08")
    assert "in_log_then" not in today.result
    assert "not in the decision log" not in today.explanation


def test_the_agents_origin_tool_says_so_too(
    store: Store, settings: Settings, repo: GitRepo
) -> None:
    from companybrain.ask.registry import ReadOnlyStore, ToolContext, read_only_tools
    from companybrain.policy.time import QuestionTime, parse_question_time

    when = parse_question_time("as of 2025-01-04", NOW)
    assert isinstance(when, QuestionTime)
    ro = ReadOnlyStore(settings, settings.graph)
    try:
        ctx = ToolContext(ro, settings, now=NOW, time=when)
        origin = next(t.run for t in read_only_tools() if t.name == "origin")
        came = origin(ctx, {"subject": ADR})
        assert came.result is not None and came.result["in_log_then"] is False
        assert "not in the decision log on 2025-01-04" in came.explanation
    finally:
        ro.close()
