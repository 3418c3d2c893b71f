"""trace_decision when a decision is replaced by a record that states no decision itself:
a change control retiring an ADR, or an ADR whose decision no rule could read."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from companybrain.ask.engine import ask
from companybrain.config import Settings
from companybrain.graph.connection import Store
from companybrain.ingest.pipeline import ingest
from tests.ask.conftest import NOW
from tests.ingest.corpus_builder import write_corpus

ADR = "---\nid: {}\nkind: adr\nat: {}T09:00:00Z\nstatus: accepted\ntitle: {}\n{}---\n{}\n"
RECORDS = {
    "adr1.md": ADR.format("ADR-1", "2026-01-05", "Publish ledger events through Kafka", "",
                          "## Decision\nWe will publish ledger events through Kafka."),
    # no "Decision" section, no "We will ...": the rules read no decision from it
    "adr2.md": ADR.format("ADR-2", "2026-03-05", "Ledger events via an outbox",
                          "supersedes: [ADR-1]\n",
                          "Kafka lost events in the failover. Ledger events now go through "
                          "an outbox table."),
    "adr5.md": ADR.format("ADR-5", "2026-04-05", "Index search documents nightly", "",
                          "## Decision\nWe will index search documents nightly."),
    "cc9.md": "---\nid: CC-9\nkind: change_control\nat: 2026-05-05T09:00:00Z\n"
              "title: Retire nightly indexing\nsupersedes: [ADR-5]\nacl: [sec]\n---\n"
              "Nightly indexing is retired; documents are indexed on write.\n",
    "chat.md": "---\nid: msg-1\nkind: chat\nat: 2026-05-06T09:00:00Z\nsupersedes: [ADR-1]\n"
               "---\nlol kafka is dead\n",
}  # fmt: skip


def q(store: Store, settings: Settings, question: str, **kw: Any) -> dict[str, Any]:
    return ask(store, settings, question, now=NOW, **kw).to_dict()


def test_a_decision_replaced_by_a_record_stating_none_is_not_the_one_in_force(
    store: Store, settings: Settings, tmp_path: Path
) -> None:
    """ "What replaced ADR-1?" answered "ADR-1 (..., accepted)", nothing newer, though
    ADR-2 says `supersedes: [ADR-1]` (its decision was not read); "Why do we index search
    documents nightly?" answered ADR-5 as in force, though change control CC-9 retired it."""
    ingest(store, write_corpus(tmp_path / "c", RECORDS), settings)

    a = q(store, settings, "What replaced ADR-1?")
    assert a["status"] == "answered" and a["result"]["chain"] == ["ADR-2", "ADR-1"], a["result"]
    olds = {d["id"]: d["supersedes"] for d in a["result"]["decisions"]}
    assert olds == {"ADR-2": ["ADR-1"], "ADR-1": []}  # the chat replaces nothing
    assert [c["record"] for c in a["citations"]] == ["ADR-2", "ADR-1"]
    assert "ADR-2 (Ledger events via an outbox, accepted) ← ADR-1" in a["explanation"]
    stopped = q(store, settings, "Why did we stop publishing ledger events through Kafka?")
    assert stopped["status"] == "answered" and stopped["result"]["chain"][0] == "ADR-2"

    nightly = "Why do we index search documents nightly?"
    insider = q(store, settings, nightly, as_person="bo")
    assert insider["result"]["chain"] == ["CC-9", "ADR-5"], insider["result"]
    assert "CC-9 (Retire nightly indexing) ← ADR-5" in insider["explanation"]
    # CC-9 is for the sec group only, and not yet written on 1 May
    for answer in (
        q(store, settings, nightly, as_person="ana"),
        q(store, settings, f"{nightly[:-1]} as of 2026-05-01?"),
    ):
        assert answer["result"]["chain"] == ["ADR-5"], answer["result"]
        assert "CC-9" not in str(answer)


CC10 = (
    "---\nid: CC-10\nkind: change_control\nat: 2026-05-10T09:00:00Z\ntitle: Withdraw CC-9\n"
    "supersedes: [CC-9]\nacl: [sec]\n---\nCC-9 is withdrawn.\n"
)


def test_a_retirement_replaced_in_turn_is_refused_as_ownership_is(
    store: Store, settings: Settings, tmp_path: Path
) -> None:
    """CC-10 supersedes CC-9, which retired ADR-5: "What replaced ADR-5?" still answered
    "CC-9 ← ADR-5", though CC-10 may withdraw CC-9 (ADR-5 in force again) or restate it;
    owner_of refuses CONFLICT in the same case. Those who may not see CC-10, or asked
    before it was written, still get the chain."""
    ingest(store, write_corpus(tmp_path / "c", {**RECORDS, "cc10.md": CC10}), settings)
    for question in ("What replaced ADR-5?", "Why do we index search documents nightly?"):
        a = q(store, settings, question, as_person="bo")
        assert (a["status"], a["refusal"]["code"]) == ("refused", "CONFLICT"), a
        assert "CC-10 replaces CC-9 in turn" in a["refusal"]["message"], a["refusal"]
        assert "whether ADR-5 is still in force cannot be told" in a["refusal"]["message"]
        assert [c["record"] for c in a["citations"]] == ["ADR-5", "CC-9"]
    before = q(store, settings, "What replaced ADR-5 as of 2026-05-07?", as_person="bo")
    assert before["result"]["chain"] == ["CC-9", "ADR-5"], before
    # (outside the sec group neither CC-9 nor CC-10 is seen)
    assert q(store, settings, "What replaced ADR-5?", as_person="ana")["result"]["chain"] == [
        "ADR-5"
    ]


def test_a_decision_and_a_record_replacing_each_other_are_a_circle(
    store: Store, settings: Settings, tmp_path: Path
) -> None:
    """ADR-1 lists ADR-2 under `supersedes`, and ADR-2 (whose decision no rule reads)
    lists ADR-1: shown as the line "ADR-2 ← ADR-1", then (with the fix above) as ADR-1
    replacing ADR-2 "in turn"; it is a circle, as between two decisions."""
    adr1 = RECORDS["adr1.md"].replace(
        "status: accepted\n", "status: accepted\nsupersedes: [ADR-2]\n"
    )
    ingest(store, write_corpus(tmp_path / "c", {**RECORDS, "adr1.md": adr1}), settings)
    a = q(store, settings, "What replaced ADR-1?")
    assert (a["status"], a["refusal"]["code"]) == ("refused", "CONFLICT"), a
    assert a["refusal"]["message"].startswith(
        "ADR-1 supersedes ADR-2, which supersedes ADR-1: a circle"
    ), a["refusal"]
    assert [c["record"] for c in a["citations"]] == ["ADR-1", "ADR-2"]


def test_a_record_replacing_one_written_after_it_is_refused(
    store: Store, settings: Settings, tmp_path: Path
) -> None:
    """ADR-2 (5 March) with `supersedes: [ADR-1]`, ADR-1 written 5 July: "What replaced
    ADR-1?" answered "ADR-2 ← ADR-1", citing both, though the ingest warns that a record
    cannot replace one not yet written and owner_of refuses CONFLICT on it; so did CC-9
    retiring an ADR written after it."""
    adr1 = RECORDS["adr1.md"].replace("2026-01-05", "2026-07-05")
    cc9 = RECORDS["cc9.md"].replace("acl: [sec]\n", "").replace("2026-05-05", "2026-04-01")
    ingest(store, write_corpus(tmp_path / "c", {**RECORDS, "adr1.md": adr1, "cc9.md": cc9}),
           settings)  # fmt: skip
    for question, says in (
        ("What replaced ADR-1?", "ADR-2 says it replaces ADR-1, written after it"),
        ("What replaced ADR-5?", "CC-9 says it replaces ADR-5, written after it"),
    ):
        a = q(store, settings, question)
        assert (a["status"], a["refusal"]["code"]) == ("refused", "CONFLICT"), a
        assert says in a["refusal"]["message"], a["refusal"]
