"""The throughput pipeline: batches written as single queries, extraction in worker
processes, a durability checkpoint, and re-runs that converge."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from companybrain.config import Settings
from companybrain.graph.connection import Prepared, Store
from companybrain.graph.queries import records_q, schema_q
from companybrain.ingest import writer
from companybrain.ingest.corpus import open_corpus
from companybrain.ingest.org_codec import org_digest, org_to_graph
from companybrain.ingest.pipeline import ingest, store_records
from companybrain.ingest.report import IngestReport
from companybrain.model.records import Record
from companybrain.synth.write import generate


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("batched") / "company"
    generate(out, people=30, records=1200, seed=5, questions=5)
    return out


def snapshot(store: Store) -> dict[str, Any]:
    """Everything ingestion wrote, in a form two graphs can be compared by."""
    sources = store.read("MATCH (s:Source) RETURN s.id AS id, properties(s) AS p ORDER BY id")
    edges = store.read(
        "MATCH (a)-[r]->(b) WHERE NOT a:Meta "
        "RETURN labels(a)[0] AS a, a.id AS aid, type(r) AS t, b.id AS bid, "
        "properties(r) AS p ORDER BY a, aid, t, bid"
    )
    claims = store.read("MATCH (c:OwnershipClaim) RETURN properties(c) AS p ORDER BY p.id")
    return {
        "labels": schema_q.label_counts(store),
        "sources": [(r["id"], {k: v for k, v in r["p"].items() if k != "origin"}) for r in sources],
        "edges": edges,
        "claims": claims,
    }


def test_worker_processes_write_the_same_graph_as_one_process(
    corpus: Path, store: Store, settings: Settings
) -> None:
    one = ingest(store, corpus, settings, workers=0)
    alone = snapshot(store)
    other = store.for_graph(f"{settings.graph}_pool")
    try:
        other.ensure_schema()
        many = ingest(other, corpus, settings.with_(graph=other.graph_name), workers=2)
        assert snapshot(other) == alone
        assert (many.stored, many.kept, many.proposed) == (one.stored, one.kept, one.proposed)
        assert many.rejected_facts == one.rejected_facts
    finally:
        other.delete_graph()
        other.close()


def test_a_second_run_writes_nothing_and_a_changed_record_keeps_its_edges(
    corpus: Path, store: Store, settings: Settings, tmp_path: Path
) -> None:
    ingest(store, corpus, settings)
    before = snapshot(store)
    again = ingest(store, corpus, settings)
    assert (again.stored, again.unchanged) == (0, 1200)
    assert snapshot(store) == before

    # One change control rewritten: its claim is replaced, its author and mentions stay.
    changed = tmp_path / "changed"
    changed.mkdir()
    for item in corpus.iterdir():
        if item.name != "records.jsonl":
            (changed / item.name).symlink_to(item)
    lines = (corpus / "records.jsonl").read_text().splitlines()
    number, raw = next((n, json.loads(x)) for n, x in enumerate(lines) if '"CC-' in x)
    raw["text"] += " Reviewed again."
    lines[number] = json.dumps(raw)
    (changed / "records.jsonl").write_text("\n".join(lines) + "\n")
    third = ingest(store, changed, settings)
    assert (third.stored, third.unchanged) == (1, 1199)
    after = snapshot(store)
    assert after["edges"] == before["edges"]
    assert after["claims"] == before["claims"]
    assert dict(after["sources"])[raw["id"]]["text"].endswith("Reviewed again.")


def test_the_checkpoint_says_what_is_durable(
    corpus: Path, store: Store, settings: Settings
) -> None:
    assert store.wait_durable(30_000) is True  # the embedded server runs with appendonly
    ingest(store, corpus, settings)
    mark = records_q.read_checkpoint(store, writer.CHECKPOINT_KEY)
    assert mark is not None
    assert mark["complete"] is True and mark["durable"] == 1200 and mark["last"]


def test_an_interrupted_run_is_marked_and_the_next_run_converges(
    corpus: Path, store: Store, settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(writer, "CHECKPOINT_S", 0.0)  # a durability point after every batch
    stream = open_corpus(corpus)
    assert stream.org is not None
    org_to_graph(store, stream.org)

    def cut(records: Iterator[Record]) -> Iterator[Record]:
        for n, record in enumerate(records):
            if n == 2 * writer.BATCH + 10:
                raise RuntimeError("the process died")
            yield record

    with pytest.raises(RuntimeError):
        store_records(
            store, cut(stream.records()), stream.org, org_digest(stream.org), settings,
            IngestReport(), in_corpus=True, workers=0,
        )  # fmt: skip
    mark = records_q.read_checkpoint(store, writer.CHECKPOINT_KEY)
    assert mark is not None and mark["complete"] is False
    assert mark["durable"] == 2 * writer.BATCH  # the batches written before the failure
    assert schema_q.label_counts(store)["Source"] == 2 * writer.BATCH

    report = ingest(store, corpus, settings)
    assert (report.unchanged, report.stored) == (2 * writer.BATCH, 1200 - 2 * writer.BATCH)
    mark = records_q.read_checkpoint(store, writer.CHECKPOINT_KEY)
    assert mark is not None and mark["complete"] is True
    clean = store.for_graph(f"{settings.graph}_clean")
    try:
        clean.ensure_schema()
        ingest(clean, corpus, settings.with_(graph=clean.graph_name))
        assert snapshot(store) == snapshot(clean)
    finally:
        clean.delete_graph()
        clean.close()


def test_after_a_failed_batch_none_queued_behind_it_is_written(
    corpus: Path, store: Store, settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(writer, "CHECKPOINT_S", 0.0)  # a durability point after every batch
    real = records_q.send
    calls = []

    def second_fails(out: Store, prepared: Prepared) -> None:
        calls.append(prepared)
        if len(calls) == 2:
            raise RuntimeError("the server refused the batch")
        real(out, prepared)

    monkeypatch.setattr(writer.records_q, "send", second_fails)
    with pytest.raises(RuntimeError, match="refused the batch"):
        ingest(store, corpus, settings, workers=0)
    assert len(calls) == 2  # the third batch, queued behind the failure, was never sent
    mark = records_q.read_checkpoint(store, writer.CHECKPOINT_KEY)
    assert mark is not None and mark["complete"] is False
    assert mark["durable"] == writer.BATCH
    assert schema_q.label_counts(store)["Source"] == writer.BATCH
