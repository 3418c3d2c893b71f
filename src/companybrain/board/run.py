"""`brain board run`: N worker processes (not threads: each has its own interpreter and
its own connections) until the board is empty, with a live progress display on stderr."""

from __future__ import annotations

import multiprocessing
import time
from dataclasses import dataclass, field
from typing import Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from companybrain.board.options import WORKER_KINDS, BoardOptions, board_graph, now_ms
from companybrain.board.worker import work
from companybrain.config import Settings
from companybrain.errors import ConfigError
from companybrain.graph.connection import Store
from companybrain.graph.queries import board_q

REFRESH_S = 0.3


@dataclass
class RunReport:
    agents: list[str]
    exit_codes: dict[str, int | None] = field(default_factory=dict)
    seconds: float = 0.0
    states: dict[str, int] = field(default_factory=dict)
    done_by: dict[str, int] = field(default_factory=dict)


def agent_names(kind: str, workers: int) -> list[str]:
    return [f"{kind}-{i}" for i in range(1, workers + 1)]


def start_workers(
    settings: Settings, options: BoardOptions, agents: list[str], kind: str
) -> list[Any]:
    """Start one process per agent (spawned, so nothing is shared by fork)."""
    ctx = multiprocessing.get_context("spawn")
    processes = [
        ctx.Process(target=work, args=(settings, options, agent, kind), name=agent, daemon=False)
        for agent in agents
    ]
    for p in processes:
        p.start()
    return processes


def check_workers(settings: Settings, workers: int, kind: str) -> None:
    """What `run_board` needs before it starts anything: checked before the board is filled
    too, so that a run that cannot start writes nothing."""
    if workers < 1:
        raise ConfigError("--workers must be at least 1")
    if kind not in WORKER_KINDS:
        raise ConfigError(f"--worker must be one of {', '.join(WORKER_KINDS)}, got {kind!r}")
    if kind == "model" and not settings.model_configured:
        raise ConfigError(
            "the model worker needs a model: set BRAIN_MODEL and BRAIN_MODEL_BASE_URL "
            "(or OPENAI_BASE_URL)"
        )


def progress_detail(snap: dict[str, Any], at_ms: int) -> str:
    """The live display's counts, and why a run waits on items no worker of it holds: claims
    left by the workers of an earlier run that was stopped, until they expire."""
    states = snap["states"]
    detail = " ".join(f"{s} {states.get(s, 0)}" for s in ("pending", "claimed", "failed"))
    if snap.get("held") and snap.get("held_until") is not None:
        wait = max(0, round((snap["held_until"] - at_ms) / 1000))
        detail += (
            f" ({snap['held']} held by workers of an earlier run that stopped: "
            f"free for the taking in {wait} s)"
        )
    return detail


def run_board(
    settings: Settings,
    options: BoardOptions,
    workers: int,
    kind: str = "rules",
    *,
    show_progress: bool = True,
) -> RunReport:
    check_workers(settings, workers, kind)
    options.validate()
    board = Store(settings, board_graph(settings.graph))
    board.ensure_schema()  # once, before N processes would race to create it
    report = RunReport(agents=agent_names(kind, workers))
    started = time.perf_counter()
    since = now_ms()
    processes = start_workers(settings, options, report.agents, kind)
    console = Console(stderr=True)
    try:
        with Progress(
            TextColumn("[bold]{task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            TextColumn("{task.fields[detail]}"),
            TimeElapsedColumn(),
            console=console,
            disable=not show_progress,
            transient=False,
        ) as bar:
            overall = bar.add_task("board", total=None, detail="")
            per_agent = {a: bar.add_task(f"  {a}", total=None, detail="") for a in report.agents}
            while True:
                alive = any(p.is_alive() for p in processes)
                snap = board_q.progress(board, since)
                states = snap["states"]
                total = sum(states.values())
                finished = states.get("done", 0) + states.get("failed", 0)
                detail = progress_detail(snap, now_ms())
                bar.update(overall, total=total, completed=finished, detail=detail)
                for agent, task in per_agent.items():
                    p = next(x for x in processes if x.name == agent)
                    state = "working" if p.is_alive() else f"exited {p.exitcode}"
                    bar.update(task, completed=snap["agents"].get(agent, 0), detail=state)
                if not alive:
                    break
                time.sleep(REFRESH_S)
    except KeyboardInterrupt:
        for p in processes:
            if p.is_alive():
                p.terminate()  # their claims expire and another run takes the items over
        raise
    finally:
        for p in processes:
            p.join(timeout=10)
        board.close()
    if finished:
        brain = Store(settings)  # the board and the brain are one server's graphs
        try:
            brain.compact_log()  # the next start loads a snapshot, not every write replayed
        finally:
            brain.close()
    report.seconds = time.perf_counter() - started
    report.exit_codes = {p.name: p.exitcode for p in processes}
    report.states = snap["states"]
    report.done_by = snap["agents"]
    return report
