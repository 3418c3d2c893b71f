"""`why` by a code name listed every decision that mentions it, in the order of their ids:
"Why does TaskStore.add lock each claim in one transaction?" also answered with a decision
that only logs `TaskStore.add` calls, and put a weaker match first. Decisions naming the
identifier are ranked by how much of the rest of the question they hold, and those holding
less than half of it are left out when another holds at least half."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from companybrain.ask.engine import ask
from companybrain.ask.repo import tools
from companybrain.config import Settings
from companybrain.graph.connection import Store
from companybrain.repo.ingest import ingest_repo
from tests.repo.gitrepo import GitRepo

NOW = datetime(2026, 1, 1, tzinfo=UTC)
LOCK = "DECISIONS.md#Lock claims in TaskStore.add"
BATCH = "DECISIONS.md#Batch claims in TaskStore.add"
LOG = "DECISIONS.md#Log every write"

LOG_TEXT = """# Decisions

## Batch claims in TaskStore.add

`TaskStore.add` locks a batch of claims at a time.

## Lock claims in TaskStore.add

`TaskStore.add` locks each claim in one transaction, so two workers never claim one task.

## Log every write

Every write is logged, `TaskStore.add` among them, with its claim id.
"""


@pytest.fixture
def repo(store: Store, tmp_path: Path) -> GitRepo:
    r = GitRepo(tmp_path / "r")
    r.write("src/store.py", "class TaskStore:\n    def add(self, task):\n        pass\n")
    r.write("DECISIONS.md", LOG_TEXT)
    r.commit("Start", "2025-01-10T09:00:00Z")
    ingest_repo(store, r.root)
    return r


def test_the_decision_answering_most_of_the_question_first_weak_ones_left_out(
    store: Store, settings: Settings, repo: GitRepo
) -> None:
    question = "Why does TaskStore.add lock each claim in one transaction?"
    a = ask(store, settings, question, now=NOW)
    assert a.tool == "why" and a.status == "answered", a.refusal
    assert [d["id"] for d in a.result["decisions"]] == [LOCK, BATCH]
    assert [c.record for c in a.citations] == [LOCK, BATCH]
    assert LOG not in a.explanation


def test_the_code_name_alone_still_lists_every_decision_naming_it(
    store: Store, repo: GitRepo
) -> None:
    a = tools.why(store, "TaskStore.add", now=NOW)
    assert sorted(d["id"] for d in a.result["decisions"]) == sorted([LOCK, BATCH, LOG])
