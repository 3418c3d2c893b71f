"""A decision about a name used for something else answered a question about that name:
with only "Use FalkorDB for the board" in the log, "Why do we use FalkorDB for the
exporter?" answered with the board decision and its quote, as if it were about the
exporter. A decision found by a name the question gives must also hold one of the
question's other words; else the refusal says what the decisions naming it are about."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from companybrain.ask.engine import ask
from companybrain.config import Settings
from companybrain.graph.connection import Store
from companybrain.graph.queries import findings_q
from companybrain.model.answer import Answer, RefusalCode
from companybrain.model.findings import Finding, FindingKind, Verdict
from companybrain.repo.ingest import ingest_repo
from tests.repo.gitrepo import GitRepo

NOW = datetime(2026, 1, 1, tzinfo=UTC)
BOARD = "DECISIONS.md#Use FalkorDB for the board"
TRIED = "We tried a FalkorDB lock per worker on the board first: claims still raced."


@pytest.fixture
def repo(store: Store, tmp_path: Path) -> GitRepo:
    r = GitRepo(tmp_path / "r")
    r.write("src/exporter.py", "def export(rows):\n    return rows\n")
    r.write("src/board.py", "def claim():\n    pass\n")
    r.commit("Start", "2025-01-10T09:00:00Z")
    r.write(
        "DECISIONS.md",
        "# Decisions\n\n## Use FalkorDB for the board\n\nDate: 2025-02-01\n\n"
        "The agent board in src/board.py is a FalkorDB graph, so that workers claim items "
        f"atomically.\n\n{TRIED}\n",
    )
    r.commit("Decide the board store", "2025-02-01T09:00:00Z")
    ingest_repo(store, r.root)
    findings_q.add_findings(
        store,
        BOARD,
        [Finding(BOARD, FindingKind.EXPERIMENT, TRIED, "lock per worker", Verdict.DISPROVEN)],
    )
    return r


def _ask(store: Store, settings: Settings, question: str) -> Answer:
    return ask(store, settings, question, now=NOW)


def test_a_decision_using_the_name_for_something_else_does_not_answer(
    store: Store, settings: Settings, repo: GitRepo
) -> None:
    for question in (
        "Why do we use FalkorDB for the exporter?",
        "Why do we use FalkorDB for the exporter as of 2025-03-01?",
    ):
        a = _ask(store, settings, question)
        assert a.tool == "why", question
        assert a.refusal is not None, (question, a.result)
        assert a.refusal.code == RefusalCode.NO_CLAIM
        assert a.citations == []
        assert f"{BOARD} names FalkorDB but is about something else" in a.refusal.message
    for question in (
        "What replaced FalkorDB for the exporter?",
        "Who introduced FalkorDB for the exporter?",
        "What was tried with FalkorDB for the exporter?",
    ):
        a = _ask(store, settings, question)
        assert a.status == "refused" and a.citations == [], (question, a.result)


def test_the_decision_about_the_subject_still_answers(
    store: Store, settings: Settings, repo: GitRepo
) -> None:
    for question in (
        "Why do we use FalkorDB for the board?",
        "Why do we use FalkorDB?",
        "Why FalkorDB for the board as of 2025-03-01?",
    ):
        a = _ask(store, settings, question)
        assert a.status == "answered", (question, a.refusal)
        assert [d["id"] for d in a.result["decisions"]] == [BOARD]
    tried = _ask(store, settings, "What was tried with FalkorDB on the board?")
    assert [e["decision"] for e in tried.result["experiments"]] == [BOARD]
    made = _ask(store, settings, "Who introduced FalkorDB for the board?")
    assert made.status == "answered", made.refusal


def test_asking_why_a_name_was_chosen_is_asking_about_the_name(
    store: Store, settings: Settings, repo: GitRepo
) -> None:
    """ "choose", "pick", "adopt" say that the question asks why, as "use" does: they are
    not what it asks about, or no decision would answer "Why did we pick FalkorDB?"."""
    for question in (
        "Why did we pick FalkorDB?",
        "Why was FalkorDB chosen?",
        "Why did we adopt FalkorDB?",
        "Why do we prefer FalkorDB?",
    ):
        a = _ask(store, settings, question)
        assert a.status == "answered", (question, a.refusal)
        assert [d["id"] for d in a.result["decisions"]] == [BOARD]
    refused = _ask(store, settings, "Why did we choose FalkorDB for the exporter?")
    assert refused.refusal is not None and refused.citations == []


def test_words_of_asking_are_not_the_subject(
    store: Store, settings: Settings, repo: GitRepo
) -> None:
    """ "Why is FalkorDB needed?" asks about FalkorDB alone: "needed" is how it asks, and no
    decision need hold it (it was refused as "about something else")."""
    for question in (
        "Why is FalkorDB needed?",
        "Why was FalkorDB added?",
        "Why do we even use FalkorDB?",
        "Why do we depend on FalkorDB?",
        "Why is FalkorDB a dependency?",
    ):
        a = _ask(store, settings, question)
        assert a.status == "answered", (question, a.refusal)
        assert [d["id"] for d in a.result["decisions"]] == [BOARD]
