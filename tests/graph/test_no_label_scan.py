"""Interactive queries never scan a label: every query the ask path runs (the company tools
and the repository tools' lookups) is recorded while it answers real questions, then run
through GRAPH.EXPLAIN with the same parameters; a plan with a label scan or an all-node
scan fails. The only queries allowed to scan are the listings named in LISTINGS: they
read a whole (small) label by design, once per question, for the catalog of names."""

from __future__ import annotations

import json
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from companybrain.ask.engine import ask
from companybrain.ask.repo import history_tools, told, tools
from companybrain.ask.repo.connect import connect
from companybrain.config import Settings
from companybrain.graph.connection import Store
from companybrain.graph.queries import ask_q, repo_read
from companybrain.ingest.pipeline import ingest
from companybrain.repo.ingest import ingest_repo
from tests.conftest import REPO_ROOT
from tests.repo import scenario
from tests.repo.conftest import ROUTER, board_findings

DEMO = REPO_ROOT / "demo" / "corpus"
QUESTIONS = REPO_ROOT / "demo" / "questions.jsonl"
SCANS = ("Label Scan", "All Node Scan")
NOW = datetime(2025, 12, 1, tzinfo=UTC)

# Allowed to scan, each named by the function that runs it:
# - listings read a whole label on purpose (the catalog of names the router matches
#   against, the decision log a trace walks, PageRank over a relationship, the few Meta
#   nodes of the repositories);
# - existence probes stop at the first node (LIMIT 1);
# - files_named, the fallback for a bare file name ("exporter.py") that is neither a path
#   nor a folder: a suffix match no range index can answer (a basename property would).
LISTINGS: list[Callable[[Store], object]] = [
    ask_q.services, ask_q.projects, ask_q.people, ask_q.teams, ask_q.decisions,
    ask_q.worked_with_rank, repo_read.decisions, repo_read.supersessions,
    repo_read.file_names, repo_read.repositories, repo_read.shallow_boundary,
    lambda s: repo_read.rationale_rank(s, 10),
    ask_q.has_repository_data, repo_read.has_repository,
    lambda s: repo_read.files_named(s, "x.py", 2),
]  # fmt: skip

Recorded = dict[str, dict[str, Any]]  # cypher -> the parameters of its first run


@contextmanager
def recording(store: Store) -> Iterator[Recorded]:
    """Every read `store` runs (the real queries, against the real server)."""
    seen: Recorded = {}
    original = store.read

    def read(cypher: str, params: Any = None) -> list[dict[str, Any]]:
        seen.setdefault(cypher, dict(params or {}))
        return original(cypher, params)

    store.read = read  # type: ignore[method-assign]
    try:
        yield seen
    finally:
        store.read = original  # type: ignore[method-assign]


def listing_queries(store: Store) -> set[str]:
    with recording(store) as seen:
        for listing in LISTINGS:
            listing(store)
    return set(seen)


def scans(store: Store, recorded: Recorded, allowed: set[str]) -> list[str]:
    found = []
    for cypher, params in recorded.items():
        if cypher in allowed:
            continue
        plan = store.explain(cypher, params)
        bad = [line for line in plan if any(scan in line for scan in SCANS)]
        if bad:
            found.append(f"{' '.join(cypher.split())[:160]} -> {bad}")
    return found


def test_the_company_tools_use_indexes(store: Store, settings: Settings) -> None:
    ingest(store, DEMO, settings)
    questions = [json.loads(line) for line in QUESTIONS.read_text().splitlines() if line]
    by_tool: dict[str, list[dict[str, Any]]] = {}
    for q in questions:
        by_tool.setdefault(q["expect"].get("tool") or "none", []).append(q)
    assert {"owner_of", "who_knows", "trace_decision", "person_or_team", "search_records"} <= set(
        by_tool
    )
    with recording(store) as recorded:
        for group in by_tool.values():
            for q in group[:3]:
                ask(store, settings, q["question"], now=q["now"], as_person=q.get("as"))
    assert any("OwnershipClaim" in c for c in recorded)  # owner_of's evidence query ran
    assert scans(store, recorded, listing_queries(store)) == []


@pytest.fixture(scope="module")
def repo_store(
    base_settings: Settings, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[tuple[Store, Path, dict[str, str]]]:
    root = tmp_path_factory.mktemp("scan") / "demo"
    shas = scenario.build(root)
    store = Store(base_settings, f"t_scan_{uuid.uuid4().hex[:10]}")
    store.ensure_schema()
    ingest_repo(store, root)
    board_findings(store)
    yield store, root, shas
    store.delete_graph()
    store.close()


def test_the_repository_tools_use_indexes(repo_store: tuple[Store, Path, dict[str, str]]) -> None:
    store, _, shas = repo_store
    with recording(store) as recorded:
        tools.why(store, "src/export/writer.py", now=NOW)
        tools.why(store, "Why does the exporter batch its writes?", now=NOW)
        tools.what_breaks(store, "src/router.py", now=NOW)
        tools.who_knows(store, "src/store.py", now=NOW)
        history_tools.trace(store, "docs/adr/0002-use-postgresql.md", now=NOW)
        history_tools.origin(store, "src/legacy.py", now=NOW)
        history_tools.origin(store, ROUTER, now=NOW)
        told.told(store, "2025-03-01", "tests", "AGENTS.md", now=NOW)
        told.told(store, shas["coauthored"], "router", "CLAUDE.md", now=NOW)
        connect(store, "src/router.py", ROUTER, now=NOW)
    assert len(recorded) > 10
    assert scans(store, recorded, listing_queries(store)) == []


def test_a_scan_is_caught(store: Store) -> None:
    """The check can fail: an unindexed property lookup shows a label scan."""
    recorded = {"MATCH (s:Source) WHERE s.title = $t RETURN s.id": {"t": "x"}}
    assert len(scans(store, recorded, set())) == 1
