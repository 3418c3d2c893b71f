"""A decision whose heading was edited ("## Use Postgres" became "## Use Postgres for the
exporter") is in the graph under its new heading only. Asked about a day before the edit,
"What replaced DECISIONS.md#Use Postgres for the exporter as of 2025-03-01?" (and `why`)
refused "was not in the decision log on 2025-03-01", although it was, under its old
heading; reviewing a change from before the edit lost the experiment the board had found
in it. The section of that day is the one of today's log holding most of its lines, as git
blame traces them; a section deleted and another written in its place is not."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from companybrain.ask.engine import ask
from companybrain.ask.repo.review import review
from companybrain.config import Settings
from companybrain.graph.connection import Store
from companybrain.graph.queries import findings_q
from companybrain.model.answer import Answer, RefusalCode
from companybrain.model.findings import Finding, FindingKind, Verdict
from companybrain.repo.ingest import ingest_repo
from tests.repo.gitrepo import GitRepo

NOW = datetime(2026, 1, 1, tzinfo=UTC)
OLD = "DECISIONS.md#Use Postgres"
NEW = "DECISIONS.md#Use Postgres for the exporter"
CACHE = "DECISIONS.md#Add a read cache"
BODY = "The exporter in src/exporter.py writes to Postgres.\nTried SQLite first: it lost rows."
TRIED = "Tried SQLite first: it lost rows."


def _log(postgres: str, cache: str) -> str:
    return (
        f"# Decisions\n\n## {postgres}\n\nDate: 2025-02-01\n\n{BODY}\n\n"
        f"## {cache}\n\nDate: 2025-02-01\n\n"
        + (
            "We keep no cache in src/cache.py.\n"
            if cache.startswith("No")
            else "src/cache.py caches reads.\n"
        )
    )


@pytest.fixture
def repo(store: Store, tmp_path: Path) -> dict[str, str]:
    r = GitRepo(tmp_path / "r")
    r.write("src/exporter.py", "def export(rows):\n    return rows\n")
    r.write("src/cache.py", "CACHE = None\n")
    r.commit("Start", "2025-01-10T09:00:00Z")
    r.write("DECISIONS.md", _log("Use Postgres", "No read cache"))
    r.commit("Record the store", "2025-02-01T09:00:00Z")
    r.git("checkout", "-q", "-b", "tweak")
    r.write("src/exporter.py", "def export(rows):\n    return list(rows)\n")
    tweak = r.commit("Try SQLite again", "2025-02-10T09:00:00Z")
    r.git("checkout", "-q", "main")
    # The heading is edited; the cache entry is replaced by another decision.
    r.write("DECISIONS.md", _log("Use Postgres for the exporter", "Add a read cache"))
    r.commit("Name the exporter in the heading", "2025-05-01T09:00:00Z")
    ingest_repo(store, r.root)
    findings_q.add_findings(
        store, NEW, [Finding(NEW, FindingKind.EXPERIMENT, TRIED, "use SQLite", Verdict.DISPROVEN)]
    )
    return {"root": str(r.root), "tweak": tweak}


def _ask(store: Store, settings: Settings, question: str) -> Answer:
    return ask(store, settings, question, now=NOW)


def test_a_renamed_heading_was_in_the_log_under_its_old_heading(
    store: Store, settings: Settings, repo: dict[str, str]
) -> None:
    for question in (
        f"What replaced {NEW} as of 2025-03-01?",
        f"Why {NEW} as of 2025-03-01?",
    ):
        a = _ask(store, settings, question)
        assert a.status == "answered", (question, a.refusal)
        assert a.subject is not None and a.subject["id"] == OLD, question
        assert [c.record for c in a.citations] == [OLD], question
    origin = _ask(store, settings, f"Where did {NEW} come from as of 2025-03-01?")
    assert origin.status == "answered" and "in_log_then" not in origin.result
    assert f"it was {OLD}" in origin.explanation
    # Today's answer is today's heading.
    assert _ask(store, settings, f"What replaced {NEW}?").result["decision"] == NEW


def test_a_section_written_in_place_of_another_is_not_it(
    store: Store, settings: Settings, repo: dict[str, str]
) -> None:
    a = _ask(store, settings, f"What replaced {CACHE} as of 2025-03-01?")
    assert a.refusal is not None and a.refusal.code == RefusalCode.NO_CLAIM, a.result
    assert "was not in the decision log on 2025-03-01" in a.refusal.message
    assert a.citations == []


def test_reviewing_a_change_from_before_the_rename_keeps_its_warning(
    store: Store, repo: dict[str, str]
) -> None:
    a = review(store, repo["tweak"], repo=Path(repo["root"]))
    assert [d["id"] for d in a.result["decisions"]] == [OLD]
    assert [(w["decision"], w["quote"]) for w in a.result["warnings"]] == [(OLD, TRIED)]
