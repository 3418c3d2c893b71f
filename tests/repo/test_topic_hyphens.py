"""A decision that writes "writeahead log" (or "rate-limited") was not found by "Why a
write-ahead log?" (or "Why do we ratelimit uploads?"): the question's compound was split
into words the decision does not hold apart. A hyphenated compound is one word, met by a
text that writes it hyphenated, spaced or joined."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from companybrain.ask.engine import ask
from companybrain.config import Settings
from companybrain.graph.connection import Store
from companybrain.repo.ingest import ingest_repo
from tests.repo.gitrepo import GitRepo

NOW = datetime(2026, 1, 1, tzinfo=UTC)
WAL = "DECISIONS.md#Keep a log of changes"
LIMIT = "DECISIONS.md#Limit uploads"
LOG = (
    "# Decisions\n\n## Keep a log of changes\n\nThe server keeps a writeahead log of every "
    "change before it replies.\n\n## Limit uploads\n\nUploads are rate-limited per user.\n"
)


def test_a_compound_meets_the_decision_however_it_is_written(
    store: Store, settings: Settings, tmp_path: Path
) -> None:
    r = GitRepo(tmp_path / "r")
    r.write("DECISIONS.md", LOG)
    r.commit("Decide", "2025-02-01T09:00:00Z")
    ingest_repo(store, r.root)

    for question, wanted in (
        ("Why a write-ahead log?", WAL),
        ("Why do we ratelimit uploads?", LIMIT),
        ("Why rate limit uploads?", LIMIT),
    ):
        a = ask(store, settings, question, now=NOW)
        assert a.status == "answered", (question, a.refusal)
        assert [d["id"] for d in a.result["decisions"]] == [wanted], question
    other = ask(store, settings, "Why a write-ahead cache for images?", now=NOW)
    assert other.status == "refused", other.result


def test_two_words_meet_the_decision_that_writes_them_as_one(
    store: Store, settings: Settings, tmp_path: Path
) -> None:
    """ "Why a write ahead log?" did not find the decision writing "writeahead log" (the
    reverse, "writeahead" asked of "write ahead", did): two neighbours of the question that
    the decision writes joined are one term, as "write-ahead" is."""
    r = GitRepo(tmp_path / "r")
    r.write("DECISIONS.md", LOG)
    r.commit("Decide", "2025-02-01T09:00:00Z")
    ingest_repo(store, r.root)

    for question in ("Why a write ahead log?", "Why do we keep a write ahead log of changes?"):
        a = ask(store, settings, question, now=NOW)
        assert a.status == "answered", (question, a.refusal)
        assert [d["id"] for d in a.result["decisions"]] == [WAL], question
        assert "writeahead log" in a.citations[0].quote
    for other in ("Why a write ahead cache for images?", "Why write images ahead of time?"):
        assert ask(store, settings, other, now=NOW).status == "refused", other
