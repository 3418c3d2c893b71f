"""Ingestion at scale: companybrain's rules ingestion of a synthetic company against two
baselines on an empty graph (a raw batched MERGE of the records' Source rows alone, and
FalkorDB writing every row ingestion writes, extracted beforehand), a second (unchanged)
run, the graph's memory against the raw bytes of what it stores, and restart to first
answer against FalkorDB's own load time."""

from __future__ import annotations

import time
import tracemalloc
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from companybrain.ask.engine import ask
from companybrain.config import Settings
from companybrain.graph.connection import Store
from companybrain.graph.queries import baseline_q, records_q
from companybrain.graph.server import EmbeddedServer
from companybrain.ingest.corpus import open_corpus
from companybrain.ingest.extract import Context, extract_batch, record_hash, source_properties
from companybrain.ingest.org_codec import org_digest, org_to_graph
from companybrain.ingest.pipeline import ingest
from companybrain.ingest.report import IngestReport
from companybrain.ingest.writer import BATCH, batches
from companybrain.proposers.rules import propose


@dataclass
class IngestRun:
    records: int
    first_s: float
    again_s: float
    raw_s: float  # the raw MERGE's query time only
    rows_s: float  # FalkorDB writing every row ingestion writes: the write queries' time only
    raw_bytes: int  # property bytes of the rows the raw MERGE wrote
    graph_bytes: int  # the brain graph (records, claims, edges, indexes)
    raw_graph_bytes: int  # the raw MERGE's graph
    claims: int
    report: IngestReport
    again: IngestReport


def _value_bytes(value: Any) -> int:
    if isinstance(value, str):
        return len(value.encode())
    if isinstance(value, list):
        return sum(_value_bytes(v) for v in value)
    return 8  # numbers and booleans


def raw_rows(corpus: Path) -> Iterator[list[dict[str, Any]]]:
    """The Source rows ingestion writes for each record, a batch at a time."""
    stream = open_corpus(corpus)
    org = stream.org
    assert org is not None
    digest = org_digest(org)
    batch: list[dict[str, Any]] = []
    for record in stream.records():
        authority = org.authority_of(record.kind)
        h = record_hash(record, authority)
        batch.append(source_properties(record, authority, h, digest, "rules", True))
        if len(batch) == BATCH:
            yield batch
            batch = []
    if batch:
        yield batch


def raw_merge(store: Store, corpus: Path) -> tuple[float, int]:
    """Seconds the batched MERGE queries took, and the property bytes they wrote."""
    store.ensure_schema()
    spent, size = 0.0, 0
    for rows in raw_rows(corpus):
        size += sum(_value_bytes(v) for row in rows for v in row.values())
        started = time.perf_counter()
        baseline_q.merge_rows(store, rows)
        spent += time.perf_counter() - started
    return spent, size


def write_only(store: Store, corpus: Path) -> float:
    """Seconds FalkorDB takes to write every row ingestion writes (sources, their edges,
    claims, decisions, refusals) in ingestion's own batched query, the rows extracted
    beforehand, a batch at a time, outside the clock: what is left of an ingestion when
    reading, extraction and checks cost nothing."""
    store.ensure_schema()
    stream = open_corpus(corpus)
    org = stream.org
    assert org is not None
    org_to_graph(store, org)
    ctx = Context(org=org, org_hash=org_digest(org), proposer_name="rules", in_corpus=True)
    spent = 0.0
    for chunk in batches(stream.records()):
        rows = extract_batch(chunk, {}, ctx, propose).rows
        started = time.perf_counter()
        records_q.write_sources(store, rows, [])
        spent += time.perf_counter() - started
    return spent


def ingest_run(base: Settings, corpus: Path, records: int) -> IngestRun:
    raw = Store(base.with_(graph="raw"))
    raw_s, raw_bytes = raw_merge(raw, corpus)
    raw_graph_bytes = baseline_q.memory_usage(raw)
    raw.delete_graph()
    raw.close()
    rows = Store(base.with_(graph="rows"))
    rows_s = write_only(rows, corpus)
    rows.delete_graph()
    rows.close()
    store = Store(base)
    store.ensure_schema()
    started = time.perf_counter()
    report = ingest(store, corpus, base)
    first_s = time.perf_counter() - started
    started = time.perf_counter()
    again = ingest(store, corpus, base)
    again_s = time.perf_counter() - started
    claims = store.read("MATCH (c:OwnershipClaim) RETURN count(c) AS n")[0]["n"]
    graph_bytes = baseline_q.memory_usage(store)
    store.close()
    return IngestRun(
        records, first_s, again_s, raw_s, rows_s, raw_bytes, graph_bytes, raw_graph_bytes,
        claims, report, again,
    )  # fmt: skip


def peak_heap_mb(base: Settings, corpus: Path) -> float:
    """Peak Python memory of the writer process for one ingestion (workers not counted)."""
    store = Store(base.with_(graph="heap"))
    store.ensure_schema()
    tracemalloc.start()
    try:
        ingest(store, corpus, base.with_(graph="heap"))
        return tracemalloc.get_traced_memory()[1] / 1e6
    finally:
        tracemalloc.stop()
        store.delete_graph()
        store.close()


def restart(base: Settings, question: str, now: datetime) -> tuple[float, float]:
    """(FalkorDB's own load: start until it answers PING, restart to the first answer).
    The append-only file is compacted first, so the load is FalkorDB reading its snapshot."""
    store = Store(base)
    store.command("BGREWRITEAOF")
    time.sleep(0.2)
    while _info(store).get("aof_rewrite_in_progress") or _info(store).get("aof_rewrite_scheduled"):
        time.sleep(0.1)
    store.close()
    server = EmbeddedServer(base.home)
    server.stop()
    started = time.perf_counter()
    server.ensure_running()
    load_s = time.perf_counter() - started
    server.stop()
    started = time.perf_counter()
    store = Store(base)
    answer = ask(store, base, question, now=now)
    first_s = time.perf_counter() - started
    assert answer.status in ("answered", "refused")
    store.close()
    return load_s, first_s


def _info(store: Store) -> dict[str, Any]:
    reply = store.command("INFO", "persistence")
    return reply if isinstance(reply, dict) else {}
