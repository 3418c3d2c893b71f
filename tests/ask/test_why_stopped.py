""" "Why did we stop X?" asked of a decision still in force: its motivation is why X was
adopted, not why it was stopped."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from companybrain.ask.engine import ask
from companybrain.config import Settings
from companybrain.graph.connection import Store
from companybrain.ingest.pipeline import ingest
from companybrain.policy.stopped import (
    asks_about_the_replaced,
    asks_why_stopped,
    stops_what_is_asked,
)
from tests.ask.conftest import NOW
from tests.ingest.corpus_builder import write_corpus


def q(store: Store, settings: Settings, question: str) -> dict[str, Any]:
    return ask(store, settings, question, now=NOW).to_dict()


def test_why_we_stopped_a_decision_in_force_is_refused(
    demo: Store, demo_settings: Settings
) -> None:
    """ "Why did we abandon hourly micro-batches for the data warehouse?" answered "ADR-011
    (..., accepted) <- ADR-003 ... ADR-011 was motivated by DATA-23", citing DATA-23 (why
    hourly loads were adopted) as why they were abandoned; they never were. So did "Why did
    we stop streaming ledger events with logical replication?" (ADR-015, in force, retires
    the outbox relay, not itself) and "Why did we stop using the transactional outbox on
    2026-08-01?" (in use until 22 September)."""
    for question, decision in (
        ("Why did we abandon hourly micro-batches for the data warehouse?", "ADR-011"),
        ("Why did we stop streaming ledger events with logical replication?", "ADR-015"),
        ("Why did we stop using the transactional outbox on 2026-08-01?", "ADR-009"),
        # asked why it was superseded itself: what it retires (the relay) is not that
        ("Why was ADR-011 superseded?", "ADR-011"),
        ("Why was ADR-015 replaced?", "ADR-015"),
    ):
        a = q(demo, demo_settings, question)
        assert (a["status"], a["result"]) == ("refused", None), (question, a["result"])
        assert a["refusal"]["code"] == "NO_CLAIM" and a["subject"]["id"] == decision, question
        assert "was stopped or replaced" in a["refusal"]["message"], a["refusal"]
        assert [c["record"] for c in a["citations"]] == [decision], question
        assert "motivated" not in a["explanation"], question
    # what was stopped is answered: replaced by a newer decision, or stopped by this one
    for question, chain in (
        ("Why did we stop publishing ledger events through Kafka?", "ADR-015"),
        ("Why did we stop using the transactional outbox?", "ADR-015"),
        ("Why don't we load the data warehouse nightly anymore?", "ADR-011"),
        ("Why did we move away from the outbox relay?", "ADR-015"),
        # ADR-011 replaced the nightly loads: it says why they were dropped
        ("Why did we drop nightly batch loads for hourly micro-batches?", "ADR-011"),
        ("Why do we load the data warehouse in hourly micro-batches?", "ADR-011"),
        ("Why was ADR-009 superseded?", "ADR-015"),
        ("Why was ADR-003 replaced?", "ADR-011"),
        ("What replaced ADR-015?", "ADR-015"),
        ("What did ADR-011 replace?", "ADR-011"),
    ):
        a = q(demo, demo_settings, question)
        assert a["status"] == "answered" and a["result"]["chain"][0] == chain, (question, a)


def test_why_we_stopped_what_the_records_only_started(
    store: Store, settings: Settings, tmp_path: Path
) -> None:
    """Only ADR-1 ("We will publish ledger events through Kafka.", accepted) is recorded:
    "Why did we stop publishing ledger events through Kafka?" answered with ADR-1 and its
    quote, as if it said why."""
    adr = "---\nid: ADR-{}\nkind: adr\nat: 2026-0{}-05T09:00:00Z\nstatus: {}\ntitle: {}\n---\n{}\n"
    records = {
        "adr1.md": adr.format(1, 1, "accepted", "Publish ledger events through Kafka",
                              "## Decision\nWe will publish ledger events through Kafka."),
        "adr2.md": adr.format(2, 2, "superseded", "Nightly search reindex",
                              "## Decision\nWe will reindex the search index nightly."),
    }  # fmt: skip
    ingest(store, write_corpus(tmp_path / "c", records), settings)
    a = q(store, settings, "Why did we stop publishing ledger events through Kafka?")
    assert a["status"] == "refused" and a["refusal"]["code"] == "NO_CLAIM", a["result"]
    assert "ADR-1 (Publish ledger events through Kafka, accepted)" in a["refusal"]["message"]
    assert q(store, settings, "Why do we publish ledger events through Kafka?")["status"] == (
        "answered"
    )
    # its record says it is superseded: the chain is what there is to say
    gone = q(store, settings, "Why did we stop the nightly search reindex?")
    assert gone["status"] == "answered" and gone["result"]["chain"] == ["ADR-2"], gone


def test_what_a_question_and_a_statement_stop() -> None:
    assert asks_why_stopped("Why did we move away from Kafka?") == "move away from"
    assert asks_why_stopped("Why don't we use Kafka any more?") == "n't we use Kafka any more"
    assert asks_why_stopped("Why do we use Kafka anymore?") is None
    assert asks_why_stopped("Why do we use Kafka?") is None
    statement = "We will stop publishing ledger events through Kafka and write them to an outbox"
    assert stops_what_is_asked("Why did we stop publishing through Kafka?", statement)
    assert not stops_what_is_asked("Why did we stop using the outbox?", statement)
    assert stops_what_is_asked("Why did we retire it?", "Retire the relay.")
    assert not stops_what_is_asked("Why don't we use the outbox anymore?", statement)
    assert stops_what_is_asked("Why don't we use Kafka anymore?", statement)
    assert not stops_what_is_asked("Why did we stop it?", "We will use an outbox.")
    hourly, nightly = "Hourly micro-batch loads", "Nightly batch loads"
    assert asks_about_the_replaced("Why did we drop nightly loads for hourly?", nightly, hourly)
    assert not asks_about_the_replaced("Why did we drop hourly micro-batches?", nightly, hourly)
