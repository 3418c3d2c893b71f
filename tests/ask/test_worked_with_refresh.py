"""Who worked with whom (the WORKED_WITH edges that break ties in who_knows) follows the
tickets as they change, also when a change leaves every count as it was: a ticket that
changes hands, a ticket that becomes restricted (only tickets everyone may see count)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from companybrain.config import Settings
from companybrain.graph.connection import Store
from companybrain.ingest.pipeline import ingest
from tests.ingest.corpus_builder import ORG, write_corpus


def ticket(rid: str, author: str, resolver: str, **extra: Any) -> dict[str, Any]:
    return {"id": rid, "kind": "ticket", "at": "2026-05-01T10:00:00Z", "author": author,
            "resolved_by": resolver, "status": "resolved", "about": ["search-index"],
            "title": rid, "text": f"{rid} work.", **extra}  # fmt: skip


def pairs(store: Store) -> set[tuple[str, str]]:
    rows = store.read("MATCH (a:Person)-[:WORKED_WITH]->(b:Person) RETURN a.id AS a, b.id AS b")
    return {(r["a"], r["b"]) for r in rows}


def test_a_ticket_that_changes_hands_changes_who_worked_with_whom(
    store: Store, settings: Settings, tmp_path: Path
) -> None:
    corpus = write_corpus(tmp_path / "c", {}, jsonl=[ticket("T-1", "cy", "bo")], org=ORG)
    ingest(store, corpus, settings)
    assert pairs(store) == {("bo", "cy"), ("cy", "bo")}
    # Same number of tickets, of people on them and of comments: only who changed.
    write_corpus(tmp_path / "c", {}, jsonl=[ticket("T-1", "cy", "ana")], org=ORG)
    report = ingest(store, corpus, settings)
    assert report.stored == 1
    assert pairs(store) == {("ana", "cy"), ("cy", "ana")}


def test_a_ticket_that_becomes_restricted_no_longer_counts(
    store: Store, settings: Settings, tmp_path: Path
) -> None:
    corpus = write_corpus(tmp_path / "c", {}, jsonl=[ticket("T-1", "cy", "bo")], org=ORG)
    ingest(store, corpus, settings)
    assert pairs(store) == {("bo", "cy"), ("cy", "bo")}
    write_corpus(tmp_path / "c", {}, jsonl=[ticket("T-1", "cy", "bo", acl=["sec"])], org=ORG)
    ingest(store, corpus, settings)
    assert pairs(store) == set()
