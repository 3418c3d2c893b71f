"""A question naming a path with a space in backticks ("Why is `src/my file.py` the way it
is?") was read as a topic of its words (`src`, `my`, `py`) and answered with every decision
naming some other src/*.py file, each cited; "What breaks if I change `src/my file.py`?"
said no file was named. A backticked path the history knows is that file."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from companybrain.ask.engine import ask
from companybrain.config import Settings
from companybrain.graph.connection import Store
from companybrain.repo.ingest import ingest_repo
from tests.repo.gitrepo import GitRepo

NOW = datetime(2026, 1, 1, tzinfo=UTC)


def test_a_backticked_path_with_a_space_is_that_file(
    store: Store, settings: Settings, tmp_path: Path
) -> None:
    r = GitRepo(tmp_path / "r")
    r.write("src/other.py", "y = 1\n")
    r.write("DECISIONS.md", "# Decisions\n\n## Other module\n\nsrc/other.py holds the helpers.\n")
    r.commit("Other", "2025-01-03T10:00:00Z")
    r.write("src/my file.py", "x = 1\n")
    r.commit("Notes", "2025-01-04T10:00:00Z")
    ingest_repo(store, r.root)

    for question, tool in (
        ("Why is `src/my file.py` the way it is?", "why"),
        ("What breaks if I change `src/my file.py`?", "what_breaks"),
    ):
        a = ask(store, settings, question, now=NOW)
        assert a.tool == tool and a.subject == {
            "id": "src/my file.py",
            "type": "File",
            "name": "src/my file.py",
        }, (question, a.subject)
        assert a.refusal is not None and a.citations == [], (question, a.result)
    who = ask(store, settings, "Who knows `src/my file.py`?", now=NOW)
    assert who.status == "answered" and who.subject["id"] == "src/my file.py"


def test_a_path_with_a_space_in_double_quotes_is_that_file(
    store: Store, settings: Settings, tmp_path: Path
) -> None:
    """In double quotes ("src/my file.py", “src/my file.py”) the same question was read as a
    topic and answered with the decision about src/other.py, citing it; "Who knows ...?"
    said the question names no file."""
    r = GitRepo(tmp_path / "r")
    r.write("src/other.py", "y = 1\n")
    r.write("DECISIONS.md", "# Decisions\n\n## Other module\n\nsrc/other.py holds the helpers.\n")
    r.commit("Other", "2025-01-03T10:00:00Z")
    r.write("src/my file.py", "x = 1\n")
    r.commit("Notes", "2025-01-04T10:00:00Z")
    ingest_repo(store, r.root)

    for question in ('Why is "src/my file.py" the way it is?', "Why is “src/my file.py” here?"):
        a = ask(store, settings, question, now=NOW)
        assert a.tool == "why" and a.subject["id"] == "src/my file.py", (question, a.subject)
        assert a.refusal is not None and a.citations == [], (question, a.result)
    who = ask(store, settings, 'Who knows "src/my file.py"?', now=NOW)
    assert who.status == "answered" and who.subject["id"] == "src/my file.py", who.refusal
