"""A company at scale: a synthetic company (`brain gen-corpus`) of 10,000 records by default,
or every size given with `--scale`, ingested and asked, each figure a ratio to a raw
FalkorDB baseline measured in the same run (scale_ingest.py, scale_queries.py). Each line
ends with the goal and whether it was met."""

from __future__ import annotations

import json
import tempfile
import time
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path

from benchmarks.common import bench_settings, scales, verdict
from benchmarks.scale_ingest import ingest_run, peak_heap_mb, restart
from benchmarks.scale_queries import RECALL_DEEP, RECALL_K, measure
from companybrain.synth.write import generate


def people_for(records: int) -> int:
    return max(100, min(5_000, records // 200))


def run() -> Iterator[str]:
    """Lines as each size finishes (a million records takes a while)."""
    for records in scales():
        yield from at_scale(records)


def at_scale(records: int) -> list[str]:
    with tempfile.TemporaryDirectory(prefix="brain-bench-corpus-") as tmp:
        corpus = Path(tmp) / "company"
        started = time.perf_counter()
        made = generate(corpus, people=people_for(records), records=records, seed=1)
        gen_s = time.perf_counter() - started
        now = datetime.fromisoformat(json.loads((corpus / "expected.json").read_text())["now"])
        lines = [
            f"{records:,} records ({made.people:,} people, {made.services:,} services), "
            f"generated in {gen_s:.1f} s"
        ]
        with bench_settings("bench_scale") as settings:
            r = ingest_run(settings, corpus, records)
            ours_rate = records / r.first_s
            raw_rate = records / r.raw_s
            share = ours_rate / raw_rate
            rows_share = ours_rate / (records / r.rows_s)
            lines += [
                f"  ingest (rules): {ours_rate:,.0f} records/s ({r.first_s:.1f} s; "
                f"{r.report.kept:,} facts kept, {r.claims:,} ownership claims)",
                f"    vs FalkorDB writing the same rows (every row ingestion writes, "
                f"extracted beforehand): {records / r.rows_s:,.0f} records/s -> "
                f"{rows_share:.1%} (goal >= 50%: {verdict(rows_share, 0.5, below=False)})",
                f"    vs raw batched MERGE of the Source rows alone: {raw_rate:,.0f} rows/s "
                f"-> {share:.1%} (goal >= 50%: {verdict(share, 0.5, below=False)})",
                f"  re-ingest unchanged: {r.again_s:.1f} s, wrote {r.again.stored} -> "
                f"{r.first_s / r.again_s:.1f}x faster than the first "
                f"(goal >= 2x: {verdict(r.first_s / r.again_s, 2.0, below=False)})",
            ]
            per_record = r.graph_bytes / records
            raw_per_record = r.raw_bytes / records
            mem = per_record / raw_per_record
            lines.append(
                f"  memory: {per_record:,.0f} bytes/record in FalkorDB (records, claims, edges, "
                f"indexes; GRAPH.MEMORY USAGE) vs {raw_per_record:,.0f} raw property bytes "
                f"-> {mem:.2f}x (goal <= 2x: {verdict(mem, 2.0)}); the raw MERGE graph alone: "
                f"{r.raw_graph_bytes / records:,.0f} bytes/record"
            )
            lines += _queries(settings, corpus, now)
            first = json.loads((corpus / "expected.json").read_text())["owners"][0]["name"]
            question = f"Who owns the {first}?"
            load_s, first_s = restart(settings, question, now)
            lines.append(
                f"  restart to first answer: {first_s:.2f} s vs FalkorDB's own load {load_s:.2f} s"
                f" -> {first_s / load_s:.2f}x (goal <= 2x: {verdict(first_s / load_s, 2.0)})"
            )
            if records <= 100_000:
                lines.append(
                    f"  peak Python heap of the writer: {peak_heap_mb(settings, corpus):.0f} MB"
                )
    return lines


def _queries(settings, corpus: Path, now: datetime) -> list[str]:  # type: ignore[no-untyped-def]
    from companybrain.graph.connection import Store

    store = Store(settings)
    got = measure(store, settings, corpus, now)
    store.close()
    owner, search, answers = got["owner"], got["search"], got["answers"]
    ours, bm25, n = got["recall"]
    deep, bm25_deep = got["recall_deep"]
    p99 = owner.p("owner_of", 99) * 1000
    lines = [
        f"  owner_of: p50 {owner.p('owner_of', 50) * 1000:.2f} ms, p99 {p99:.2f} ms; raw "
        f"indexed lookup p50 {owner.p('raw lookup', 50) * 1000:.2f} ms -> "
        f"{owner.ratio('owner_of', 'raw lookup'):.1f}x (goal <= 2x: "
        f"{verdict(owner.ratio('owner_of', 'raw lookup'), 2.0)}; p99 goal < 10 ms: "
        f"{verdict(p99, 10.0)})",
        f"  evidence query: p50 {owner.p('evidence', 50) * 1000:.2f} ms vs raw three-hop "
        f"{owner.p('raw three-hop', 50) * 1000:.2f} ms -> "
        f"{owner.ratio('evidence', 'raw three-hop'):.2f}x (goal <= 1.5x: "
        f"{verdict(owner.ratio('evidence', 'raw three-hop'), 1.5)})",
        f"  search_records: p50 {search.p('search_records', 50) * 1000:.2f} ms vs raw "
        f"full-text {search.p('raw full-text', 50) * 1000:.2f} ms -> "
        f"{search.ratio('search_records', 'raw full-text'):.1f}x (goal <= 2x: "
        f"{verdict(search.ratio('search_records', 'raw full-text'), 2.0)})",
        f"  recall on {n} known-item queries: @{RECALL_DEEP} (search_records asked for "
        f"{RECALL_DEEP} hits) {deep:.2f} vs bm25s {bm25_deep:.2f} (goal >= bm25s: "
        f"{verdict(deep, bm25_deep, below=False)}); @{RECALL_K} (the hits an answer lists) "
        f"{ours:.2f} vs bm25s {bm25:.2f} ({verdict(ours, bm25, below=False)}); @{RECALL_DEEP} "
        f"asked as a person who may not see every record: {got['recall_member']:.2f} "
        f"({verdict(got['recall_member'], bm25_deep, below=False)})",
        f"  graph answer end to end: p50 {answers.p('graph answer', 50) * 1000:.1f} ms vs "
        f"keyword-search answer {answers.p('keyword answer', 50) * 1000:.1f} ms -> "
        f"{answers.ratio('graph answer', 'keyword answer'):.2f}x (goal <= 1.5x: "
        f"{verdict(answers.ratio('graph answer', 'keyword answer'), 1.5)}); the first "
        f"after a write (catalog read again): "
        f"{answers.p('graph answer after a write', 50) * 1000:.1f} ms -> "
        f"{answers.ratio('graph answer after a write', 'keyword answer'):.2f}x",
    ]
    return lines
