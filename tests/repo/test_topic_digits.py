"""A one-digit number in a topic question was dropped with the one-letter words: "Why do
we cache pages for report 7?" over a log with an entry per report answered with reports 1,
10, 11, 12 and 2 (every entry matched the other words equally), each with its quote, and
not with report 7's. The number is a word of the question like any other."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from companybrain.ask.engine import ask
from companybrain.config import Settings
from companybrain.graph.connection import Store
from companybrain.repo.ingest import ingest_repo
from tests.repo.gitrepo import GitRepo

NOW = datetime(2026, 1, 1, tzinfo=UTC)


def test_a_one_digit_number_picks_its_decision(
    store: Store, settings: Settings, tmp_path: Path
) -> None:
    r = GitRepo(tmp_path / "r")
    r.write(
        "DECISIONS.md",
        "# Decisions\n\n"
        + "".join(
            f"## Cache pages for report {i}\n\nReport {i} keeps its pages in a cache.\n\n"
            for i in range(1, 13)
        ),
    )
    r.commit("Log", "2025-02-01T09:00:00Z")
    ingest_repo(store, r.root)
    a = ask(store, settings, "Why do we cache pages for report 7?", now=NOW)
    assert a.status == "answered", a.refusal
    assert a.result["decisions"][0]["id"] == "DECISIONS.md#Cache pages for report 7"
    assert a.citations[0].quote == "Report 7 keeps its pages in a cache."
