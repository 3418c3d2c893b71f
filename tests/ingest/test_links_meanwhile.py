"""Links named by ids in front matter (`supersedes` between decisions, `motivated_by`,
`parent`) are there from the batch that writes either end, not only from the end of the
run (records_q.relink): a long run, or one cut off, answered without them meanwhile."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from companybrain.ask.engine import ask
from companybrain.config import Settings
from companybrain.graph.connection import Store
from companybrain.ingest import pipeline, writer
from companybrain.ingest.pipeline import ingest
from tests.graph.test_no_label_scan import scans
from tests.ingest.corpus_builder import md, write_corpus

NOW = "2026-11-20T12:00:00Z"
TICKET = md(
    {"id": "LED-41", "kind": "ticket", "at": "2026-01-05T09:00:00Z", "status": "resolved",
     "author": "ana", "about": ["billing-gateway"]},
    "Ledger events are lost when the billing gateway restarts.",
)  # fmt: skip
COMMENT = md(
    {"id": "LED-41-c1", "kind": "comment", "at": "2026-01-06T09:00:00Z", "author": "cy",
     "parent": "LED-41"},
    "Seen it again on the billing gateway this morning.",
)  # fmt: skip


def adr(n: int, body: str, supersedes: list[str], motivated_by: list[str]) -> str:
    front = {"id": f"ADR-{n}", "kind": "adr", "at": f"2026-0{n}-01T09:00:00Z",
             "status": "accepted", "title": f"Queue {n}", "supersedes": supersedes,
             "motivated_by": motivated_by}  # fmt: skip
    return md(front, body)


FIRST = adr(1, "We will use Kafka for the ledger events.", [], [])
SECOND = adr(2, "We will use NATS for the ledger events.", ["ADR-1"], ["LED-41"])


def trace(store: Store, settings: Settings) -> tuple[list[str], list[str]]:
    answer = ask(store, settings, "What replaced ADR-1?", now=NOW)
    if answer.result is None:
        return [], []
    return list(answer.result["chain"]), list(answer.result["motivated_by"])


def experts(store: Store, settings: Settings) -> list[str]:
    answer = ask(store, settings, "Who knows the billing gateway?", now=NOW)
    return sorted(e["id"] for e in answer.result["experts"]) if answer.result else []


@pytest.fixture
def meanwhile(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """Records one record a write; each run's `finish` first calls what the test appends
    to the returned list (the answers then, before the run relinks)."""
    asked: list[Any] = []
    finish = pipeline.finish
    monkeypatch.setattr(pipeline, "finish", lambda s: (asked.append(asked[0]()), finish(s)))
    one_by_one = writer.batches
    monkeypatch.setattr(writer, "batches", lambda records: one_by_one(records, 1))
    return asked


def test_a_decision_written_after_the_one_replacing_it_is_in_its_chain_meanwhile(
    store: Store, settings: Settings, tmp_path: Path, meanwhile: list[Any]
) -> None:
    """ADR-2 (supersedes ADR-1) in the graph, then ADR-1: "What replaced ADR-1?" said
    [ADR-1] until the run's end; ADR-2's motivation, the ticket, likewise."""
    meanwhile.append(lambda: trace(store, settings))
    corpus = write_corpus(tmp_path / "c", {"a2.md": SECOND, "b1.md": FIRST, "c.md": TICKET})
    ingest(store, corpus, settings)  # ADR-2, then ADR-1, then LED-41: a write each
    assert meanwhile[1:] == [(["ADR-2", "ADR-1"], ["LED-41"])]
    assert trace(store, settings) == (["ADR-2", "ADR-1"], ["LED-41"])


def test_a_rewritten_decision_keeps_its_motivation_meanwhile(
    store: Store, settings: Settings, tmp_path: Path, meanwhile: list[Any]
) -> None:
    meanwhile.append(lambda: trace(store, settings))
    files = {"a1.md": FIRST, "a2.md": SECOND, "c.md": TICKET}
    corpus = write_corpus(tmp_path / "c", files)
    ingest(store, corpus, settings)
    (corpus / "records" / "a2.md").write_text(SECOND.replace("NATS", "NATS JetStream"))
    ingest(store, corpus, settings)
    assert meanwhile[1:] == [(["ADR-2", "ADR-1"], ["LED-41"])] * 2


def test_comments_count_meanwhile_whichever_end_is_written(
    store: Store, settings: Settings, tmp_path: Path, meanwhile: list[Any]
) -> None:
    """A comment new or rewritten, or its ticket written after it: who knows the billing
    gateway left out the commenter (Cy) until the run's end."""
    meanwhile.append(lambda: experts(store, settings))
    corpus = write_corpus(tmp_path / "c", {"a-c1.md": COMMENT, "b-t.md": TICKET})
    ingest(store, corpus, settings)  # the comment, then its ticket
    (corpus / "records" / "a-c1.md").write_text(COMMENT.replace("again", "once more"))
    ingest(store, corpus, settings)
    assert meanwhile[1:] == [["cy"]] * 2


def test_the_links_of_a_batch_are_found_through_indexes(
    store: Store, settings: Settings, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No label scan in the batch write (it runs once per 500 records of every run): a
    batch rewriting records looked for their decisions and refused proposals by scanning
    every Decision and every Rejection, once per record (a graph holds tens of thousands
    of Rejections)."""
    written: dict[str, dict[str, Any]] = {}
    prepare = Store.prepare

    def recorded(cypher: str, params: dict[str, Any]) -> Any:
        if "$sources" in cypher:  # the batch write
            written[cypher] = dict(params)
        return prepare(cypher, params)

    monkeypatch.setattr(Store, "prepare", staticmethod(recorded))
    files = {"a1.md": FIRST, "a2.md": SECOND, "c.md": TICKET, "c1.md": COMMENT}
    corpus = write_corpus(tmp_path / "c", files)
    ingest(store, corpus, settings)
    (corpus / "records" / "a2.md").write_text(SECOND.replace("NATS", "NATS JetStream"))
    ingest(store, corpus, settings)
    assert len(written) == 2  # (new records; rewritten ones)
    assert scans(store, written, set()) == []
