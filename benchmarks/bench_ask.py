"""`owner_of` latency on the demo corpus, against a raw indexed lookup of the same service
measured in the same run. Three measurements per service, interleaved so that drift in the
machine affects each the same way:

- raw: `MATCH (s:Service {id: $id}) RETURN ...`, the floor any answer pays;
- owner_of: the tool alone (evidence query with OPTIONAL MATCH, quote check, access filter,
  policy);
- ask: the whole question (catalog, rules routing, date reading, the tool, the template).

Reported as p50/p99 and as ratios to the raw lookup."""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

from benchmarks.common import bench_settings, percentile, summary_ms
from companybrain.ask import tools
from companybrain.ask.catalog import load_catalog
from companybrain.ask.engine import ask
from companybrain.config import Settings
from companybrain.graph.connection import Store
from companybrain.graph.queries import ask_q
from companybrain.ingest.pipeline import ingest
from companybrain.policy.access import Viewer
from companybrain.policy.time import QuestionTime

ROUNDS = int(os.environ.get("BENCH_ASK_ROUNDS", "300"))
WARMUP = 20
DEMO = Path(__file__).resolve().parent.parent / "demo" / "corpus"
NOW = datetime(2026, 10, 20, 12, tzinfo=UTC)
CASES = (
    ("billing-gateway", "Who owns the billing gateway?"),  # five claims, one outranks
    ("payments-api", "Who owns the Payments API?"),  # a conflict
)


def run() -> list[str]:
    lines: list[str] = []
    with bench_settings("bench_ask") as settings:
        store = Store(settings)
        store.ensure_schema()
        ingest(store, DEMO, settings)
        for service, question in CASES:
            lines += _measure(store, settings, service, question)
        store.close()
    return lines


def _measure(store: Store, settings: Settings, service: str, question: str) -> list[str]:
    catalog = load_catalog(store)
    subject = catalog.get(service)
    assert subject is not None
    ctx = tools.AskContext(store, settings, catalog, Viewer.everyone(), question, QuestionTime(NOW))
    steps: dict[str, Callable[[], object]] = {
        "raw": lambda: ask_q.service_by_id(store, service),
        "owner_of": lambda: tools.owner_of(ctx, subject),
        "ask": lambda: ask(store, settings, question, now=NOW),
    }
    samples: dict[str, list[float]] = {name: [] for name in steps}
    for i in range(WARMUP + ROUNDS):
        for name, step in steps.items():  # interleaved: drift hits each the same
            started = time.perf_counter()
            step()
            if i >= WARMUP:
                samples[name].append(time.perf_counter() - started)
    raw50, raw99 = percentile(samples["raw"], 50), percentile(samples["raw"], 99)
    lines = [f"{service} ({ROUNDS} rounds)"]
    lines += [f"  {name:<9} {summary_ms(samples[name])}" for name in steps]
    for name in ("owner_of", "ask"):
        p50, p99 = percentile(samples[name], 50), percentile(samples[name], 99)
        lines.append(f"  {name} / raw lookup: p50 {p50 / raw50:.1f}x, p99 {p99 / raw99:.1f}x")
    return lines
