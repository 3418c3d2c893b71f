"""trace_decision over company ADRs whose status says they were never in force: a decision
rejected, withdrawn or only proposed replaces nothing, as in a repository's log."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from companybrain.ask.engine import ask
from companybrain.config import Settings
from companybrain.graph.connection import Store
from companybrain.ingest.pipeline import ingest
from tests.ask.conftest import NOW
from tests.ingest.corpus_builder import write_corpus

ADR = "---\nid: ADR-{}\nkind: adr\nat: 2026-0{}-05T09:00:00Z\nstatus: {}\ntitle: {}\n{}---\n{}\n"


def q(store: Store, settings: Settings, question: str) -> dict[str, Any]:
    return ask(store, settings, question, now=NOW).to_dict()


def test_a_proposed_or_rejected_decision_replaces_nothing(
    store: Store, settings: Settings, tmp_path: Path
) -> None:
    """ADR-2, only proposed, lists ADR-1 under `supersedes`. "What replaced ADR-1?" answered
    "ADR-2 (..., proposed) <- ADR-1", with `supersedes: ["ADR-1"]` in the result: a
    proposal given as the decision in force, the accepted one as replaced."""
    records = {
        "adr1.md": ADR.format(1, 1, "accepted", "Publish ledger events through Kafka", "",
                              "## Decision\nWe will publish ledger events through Kafka."),
        "adr2.md": ADR.format(2, 2, "proposed", "Publish ledger events through an outbox",
                              "supersedes: [ADR-1]\n",
                              "## Decision\nWe will use an outbox table for ledger events."),
        "adr3.md": ADR.format(3, 3, "Rejected", "Publish ledger events over HTTP",
                              "supersedes: [ADR-1]\n",
                              "## Decision\nWe will post ledger events over HTTP."),
        "adr4.md": ADR.format(4, 4, "accepted", "Publish ledger events with replication",
                              "supersedes: [ADR-1]\n",
                              "## Decision\nWe will stream ledger events by replication."),
    }  # fmt: skip
    ingest(store, write_corpus(tmp_path / "c", records), settings)

    a = q(store, settings, "What replaced ADR-1?")
    assert a["status"] == "answered" and a["result"]["chain"] == ["ADR-4", "ADR-1"], a["result"]
    olds = {d["id"]: d["supersedes"] for d in a["result"]["decisions"]}
    assert olds == {"ADR-4": ["ADR-1"], "ADR-1": []}
    assert {c["record"] for c in a["citations"]} == {"ADR-4", "ADR-1"}
    assert "proposed" not in a["explanation"] and "ejected" not in a["explanation"]
    for question, own in (("What replaced ADR-2?", "ADR-2"), ("What replaced ADR-3?", "ADR-3")):
        alone = q(store, settings, question)
        assert alone["result"]["chain"] == [own], alone["result"]
        assert [d["supersedes"] for d in alone["result"]["decisions"]] == [[]]
