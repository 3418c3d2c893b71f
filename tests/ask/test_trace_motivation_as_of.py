"""trace_decision asked about a day: what motivated a decision is told only from records
written by then."""

from __future__ import annotations

from pathlib import Path

from companybrain.ask.engine import ask
from companybrain.config import Settings
from companybrain.graph.connection import Store
from companybrain.ingest.pipeline import ingest
from tests.ask.conftest import NOW
from tests.ingest.corpus_builder import write_corpus


def test_a_motivation_written_after_the_day_asked_is_not_cited(
    store: Store, settings: Settings, tmp_path: Path
) -> None:
    """ADR-1 (5 March) lists LED-9 (1 February) and LED-10 (1 June) under motivated_by.
    "Why do we publish ledger events through an outbox?" as of 1 April (or with the clock
    on 1 April) answered "ADR-1 was motivated by LED-10, LED-9", citing LED-10, a ticket
    not yet written that day."""
    adr = (
        "---\nid: ADR-1\nkind: adr\nat: 2026-03-05T09:00:00Z\nstatus: accepted\n"
        "title: Publish ledger events through an outbox\nmotivated_by: [LED-9, LED-10]\n---\n"
        "## Decision\nWe will publish ledger events through an outbox.\n"
    )
    tickets = [
        {"id": "LED-9", "kind": "ticket", "at": "2026-02-01T10:00:00Z", "title": "Lost events",
         "text": "Events lost in failover."},
        {"id": "LED-10", "kind": "ticket", "at": "2026-06-01T10:00:00Z",
         "title": "Outbox follow-up", "text": "Outbox relay lag."},
    ]  # fmt: skip
    ingest(store, write_corpus(tmp_path / "c", {"adr1.md": adr}, jsonl=tickets), settings)
    question = "Why do we publish ledger events through an outbox?"
    for answer in (
        ask(store, settings, question, now=NOW, as_of="2026-04-01"),
        ask(store, settings, question, now="2026-04-01T12:00:00Z"),
    ):
        a = answer.to_dict()
        assert a["status"] == "answered" and a["result"]["motivated_by"] == ["LED-9"], a
        assert [c["record"] for c in a["citations"]] == ["ADR-1", "LED-9"]
        assert "LED-10" not in a["explanation"]
    now = ask(store, settings, question, now=NOW).to_dict()
    assert now["result"]["motivated_by"] == ["LED-10", "LED-9"]
