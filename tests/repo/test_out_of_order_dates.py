"""A first-parent commit committed (by its date) before its parent: asked about the child's
day, `told` and "… as of" questions took the child as the tip of the branch, so they quoted
the parent's later text as in force on a day before it was committed. The tip of a day is
now the last commit landed by then and any that follow it by then; a child landed by the
day whose parent landed after it is refused, naming both."""

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


def _agents(text: str) -> str:
    return f"# Agents\n\n## Tests\n\n{text}\n"


def _log(*entries: str) -> str:
    return "# Decisions\n\n" + "".join(
        f"## {e}\n\nThe events go to {e.split()[-1]}.\n\n" for e in entries
    )


def test_a_child_committed_before_its_parent_is_not_the_tip_of_its_day(
    store: Store, settings: Settings, tmp_path: Path
) -> None:
    r = GitRepo(tmp_path / "r")
    r.write("AGENTS.md", _agents("Run make test v1."))
    r.write("DECISIONS.md", _log("Send events to Redis"))
    first = r.commit("one", "2025-01-03T10:00:00Z")
    r.write("AGENTS.md", _agents("Run make test v2."))
    r.write("DECISIONS.md", _log("Send events to Redis", "Send events to Kafka"))
    parent = r.commit("two", "2025-01-05T10:00:00Z")
    r.write("f.txt", "x\n")
    child = r.commit("three", "2025-01-04T10:00:00Z")
    r.write("g.txt", "y\n")
    r.commit("four", "2025-01-10T10:00:00Z")
    ingest_repo(store, r.root)

    a = told.told(store, "2025-01-04", "tests", now=NOW)
    assert a.refusal is not None and a.refusal.code == RefusalCode.NO_CLAIM, a.result
    assert child[:12] in a.refusal.message and parent[:12] in a.refusal.message
    assert "out of order" in a.refusal.message
    why = ask(store, settings, "Why Kafka for events as of 2025-01-04?", now=NOW)
    assert why.refusal is not None and why.refusal.code == RefusalCode.NO_CLAIM, why.result
    assert "out of order" in why.refusal.message and why.citations == []
    # before the two and after both, the branch is in order
    early = told.told(store, "2025-01-03", "tests", now=NOW)
    assert early.result["commit"] == first and "v1" in early.result["text"]
    later = told.told(store, "2025-01-05", "tests", now=NOW)
    assert later.result["commit"] == child and "v2" in later.result["text"]


def test_a_child_committed_earlier_the_same_day_is_the_tip(
    store: Store, settings: Settings, tmp_path: Path
) -> None:
    r = GitRepo(tmp_path / "r")
    r.write("AGENTS.md", _agents("Run make test v1."))
    r.commit("one", "2025-01-03T10:00:00Z")
    r.write("AGENTS.md", _agents("Run make test v2."))
    r.commit("two", "2025-01-04T12:00:00Z")
    r.write("AGENTS.md", _agents("Run make test v3."))
    child = r.commit("three", "2025-01-04T10:00:00Z")
    r.write("g.txt", "y\n")
    r.commit("four", "2025-01-10T10:00:00Z")
    ingest_repo(store, r.root)

    a = told.told(store, "2025-01-04", "tests", now=NOW)
    assert a.status == "answered", a.refusal
    assert a.result["commit"] == child and "v3" in a.result["text"]
