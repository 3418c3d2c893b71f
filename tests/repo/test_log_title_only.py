"""A decision log holding only its title ("# Decisions", or "# Decision log" and a line of
introduction, before its first entry is written, or after the only entry was reverted) was
read as one decision titled "Decisions": "Why is src/upload.py the way it is?" answered
"DECISIONS.md#Decisions ... was recorded in the commit that changed src/upload.py", citing
the line "# Decisions". A lone first-level heading that names the log, or has nothing under
it, is the log's title, not a decision."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from companybrain.ask.repo import tools
from companybrain.graph.connection import Store
from companybrain.repo.decisions import parse_file
from companybrain.repo.ingest import ingest_repo
from tests.repo.gitrepo import GitRepo

NOW = datetime(2026, 1, 1, tzinfo=UTC)


@pytest.mark.parametrize(
    "text", ["# Decisions\n", "# Decision log\n\nWe write our decisions here, newest last.\n"]
)
def test_a_log_with_only_its_title_holds_no_decision(
    store: Store, tmp_path: Path, text: str
) -> None:
    r = GitRepo(tmp_path / "r")
    r.write("src/upload.py", "def up():\n    pass\n")
    r.write("DECISIONS.md", text)
    r.commit("Start", "2025-01-10T09:00:00Z")
    report = ingest_repo(store, r.root)

    assert report.decisions == 0
    a = tools.why(store, "src/upload.py", now=NOW)
    assert a.status == "refused" and a.citations == [], a.result


def test_a_single_decision_under_a_lone_heading_is_still_one() -> None:
    entries = parse_file("DECISIONS.md", "# Use FalkorDB\n\nWe use FalkorDB.\n", "log")
    assert [e.id for e in entries] == ["DECISIONS.md#Use FalkorDB"]
    titled = parse_file("DECISIONS.md", "# Decisions\n\n## Use X\n\nWe use X.\n", "log")
    assert [e.id for e in titled] == ["DECISIONS.md#Use X"]
