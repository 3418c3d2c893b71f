"""Shared helpers for benchmarks: a throwaway embedded server, percentile maths and the
sizes to run at (`python -m benchmarks --scale 10000,100000,1000000`)."""

from __future__ import annotations

import os
import statistics
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from companybrain.config import Settings
from companybrain.graph.server import EmbeddedServer


@contextmanager
def bench_settings(graph: str = "bench") -> Iterator[Settings]:
    """Settings on a fresh embedded server in a temporary folder, stopped afterwards."""
    with tempfile.TemporaryDirectory(prefix="brain-bench-") as home:
        settings = Settings(home=Path(home), graph=graph)
        try:
            yield settings
        finally:
            EmbeddedServer(Path(home)).stop()


def percentile(samples: list[float], pct: float) -> float:
    ordered = sorted(samples)
    if not ordered:
        return float("nan")
    k = max(0, min(len(ordered) - 1, round(pct / 100 * (len(ordered) - 1))))
    return ordered[k]


def summary_ms(samples: list[float]) -> str:
    return (
        f"p50 {percentile(samples, 50) * 1000:.2f} ms, p99 {percentile(samples, 99) * 1000:.2f} ms,"
        f" mean {statistics.fmean(samples) * 1000:.2f} ms"
    )


DEFAULT_SCALES = (10_000,)


def scales() -> list[int]:
    """Record counts to measure at: BENCH_SCALES (set by --scale), else 10,000."""
    raw = os.environ.get("BENCH_SCALES", "")
    return [int(x) for x in raw.split(",") if x.strip()] or list(DEFAULT_SCALES)


def verdict(ratio: float, goal: float, *, below: bool = True) -> str:
    """`met` or `MISSED` for a ratio against its goal (at most `goal` unless below=False)."""
    ok = ratio <= goal if below else ratio >= goal
    return "met" if ok else "MISSED"
