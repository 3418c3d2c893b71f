"""The agent board: decision entries read per second by 1, 2 and 4 worker processes, as
ratios to one worker measured in the same run. Each run reads a fresh copy of the same
repository (ingested with `ingest_repo`), so that every run does the same work.

Two workloads: the rules worker, where reading costs almost nothing and the database's
serialised writes are the limit; and the model worker against a local chat-completions
server that answers after a fixed delay, where reading is the limit, as with a real model.
Two rates each: wall time from starting the processes to the last one exiting (what
`brain board run` costs), and the steady rate between the first claim and the last item
done (without interpreter start-up)."""

from __future__ import annotations

import datetime as dt
import os
import re
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any

from tests.support.model_server import ScriptedModelServer, tool_call

from benchmarks.common import bench_settings
from companybrain.board.fill import fill
from companybrain.board.options import BoardOptions, board_graph
from companybrain.board.run import run_board
from companybrain.config import Settings
from companybrain.graph.connection import Store
from companybrain.graph.queries import board_q
from companybrain.repo.ingest import ingest_repo

ENTRIES = int(os.environ.get("BENCH_BOARD_ENTRIES", "400"))
MODEL_ENTRIES = int(os.environ.get("BENCH_BOARD_MODEL_ENTRIES", "120"))
MODEL_DELAY_S = 0.05
WORKERS = (1, 2, 4)
GIT_ENV = {
    "GIT_AUTHOR_NAME": "Bench",
    "GIT_AUTHOR_EMAIL": "bench@example.com",
    "GIT_COMMITTER_NAME": "Bench",
    "GIT_COMMITTER_EMAIL": "bench@example.com",
}


def _repository(root: Path, entries: int) -> Path:
    """A repository with `entries` ADRs carrying figures, files and experiments. No
    supersessions: a handoff needs a second agent, so one worker would do less work."""
    day0 = dt.date(2024, 1, 1)
    adr = root / "docs" / "adr"
    adr.mkdir(parents=True)
    (root / "src").mkdir()
    for m in range(8):
        (root / "src" / f"mod{m}.py").write_text(
            f"class Mod{m}:\n    def run(self):\n        ...\n"
        )
    for i in range(1, entries + 1):
        date = (day0 + dt.timedelta(days=i)).isoformat()
        (adr / f"{i:04d}-batch-{i}.md").write_text(
            f"# {i}. Batch writes in module {i % 8}\n\nDate: {date}\n\n## Status\n\nAccepted\n\n"
            f"## Context\n\nWe measured {i * 3} ms p99 on the batch path; {i % 20}/20 runs "
            f"passed. We tried a larger batch and it did not help.\n\n## Decision\n\n"
            f"Keep batches small in `src/mod{i % 8}.py`; throughput is 1.{i % 9}x higher.\n"
        )
    env = {**os.environ, **GIT_ENV}
    for args in (["init", "-q"], ["add", "-A"], ["commit", "-q", "-m", "decisions"]):
        subprocess.run(["git", "-C", str(root), *args], check=True, env=env)
    return root


def _model_reply(request: dict[str, Any]) -> dict[str, Any]:
    """After a model-like delay, a measurement quoted from the entry it was sent."""
    time.sleep(MODEL_DELAY_S)
    prompt = request["messages"][-1]["content"]
    m = re.search(r"We measured (\d+ ms) p99", prompt)
    measurements = [{"figure": m.group(1), "quote": m.group(0)}] if m else []
    return tool_call(
        "record_findings",
        {
            "measurements": measurements,
            "experiments": [],
            "files": [],
            "concepts": [],
            "relations": [],
        },
    )


def _series(
    base: Settings, repo: Path, kind: str, entries: int, server: ScriptedModelServer | None
) -> dict[int, tuple[float, float]]:
    options = BoardOptions(claim_ttl_s=60, poll_s=0.05)
    rates: dict[int, tuple[float, float]] = {}
    for workers in WORKERS:
        settings = base.with_(graph=f"bench_board_{kind}_{workers}")
        if server:
            settings = settings.with_(model="scripted", model_base_url=server.base_url)
            server.play(*[_model_reply] * entries)
        brain = Store(settings)
        ingest_repo(brain, repo)
        board = brain.for_graph(board_graph(settings.graph))
        fill(brain, board, options, files="none")
        report = run_board(settings, options, workers, kind, show_progress=False)
        items = board_q.items(board)
        done = sum(1 for i in items if i["kind"] == "entry" and i["status"] == "done")
        assert done == entries, f"{workers} {kind} worker(s) finished {done}/{entries}"
        first = min(i["claimed_at"] for i in items if i["claimed_at"])
        last = max(i["done_at"] for i in items if i["done_at"])
        rates[workers] = (done / report.seconds, done / ((last - first) / 1000))
        board.close()
        brain.close()
    return rates


def _lines(title: str, rates: dict[int, tuple[float, float]]) -> list[str]:
    base_wall, base_steady = rates[1]
    lines = [title]
    for workers, (wall, steady) in rates.items():
        lines.append(
            f"  {workers} worker(s): {wall:7.1f} entries/s wall ({wall / base_wall:.2f}x), "
            f"{steady:7.1f} entries/s steady ({steady / base_steady:.2f}x)"
        )
    return lines


def run() -> list[str]:
    lines = [f"{os.cpu_count()} CPU(s)"]
    with tempfile.TemporaryDirectory(prefix="brain-bench-repo-") as tmp:
        rules_repo = _repository(Path(tmp) / "rules", ENTRIES)
        model_repo = _repository(Path(tmp) / "model", MODEL_ENTRIES)
        with bench_settings() as base:
            rates = _series(base, rules_repo, "rules", ENTRIES, None)
            lines += _lines(f"rules workers, {ENTRIES} decision entries", rates)
            server = ScriptedModelServer().start()
            try:
                rates = _series(base, model_repo, "model", MODEL_ENTRIES, server)
                server.assert_done()
            finally:
                server.stop()
            lines += _lines(
                f"model workers ({MODEL_DELAY_S * 1000:.0f} ms a reply), "
                f"{MODEL_ENTRIES} decision entries",
                rates,
            )
    return lines
