"""Several real worker processes against one embedded FalkorDB: nothing is processed twice,
a worker killed mid-item loses nothing, a poison item stops at the attempts cap, and a
handoff counts only when a second agent confirms it."""

from __future__ import annotations

import datetime as dt
import os
import signal
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from companybrain.board.fill import fill
from companybrain.board.handoffs import judge_directly
from companybrain.board.options import BoardOptions
from companybrain.board.reading import Context, Entry, Judgement
from companybrain.board.refs import EntryRef, RefIndex
from companybrain.board.rules_worker import RulesReader
from companybrain.board.run import start_workers
from companybrain.config import Settings
from companybrain.graph.connection import Store
from companybrain.graph.queries import board_q, findings_q
from companybrain.model.findings import FindingKind
from companybrain.policy.finding_checks import check_finding
from tests.board.conftest import ADR_1, ADR_2, ADRS, FILES, Adr, remove_entry, seed_decisions
from tests.board.conftest import seed_files as seed_paths
from tests.support.model_server import ScriptedModelServer, tool_call

JOIN_S = 60.0

Start = Callable[..., list[Any]]


@pytest.fixture
def spawn() -> Iterator[Start]:
    """Start worker processes; any still running at the end of the test is killed."""
    started: list[Any] = []

    def start(
        settings: Settings, options: BoardOptions, agents: list[str], kind: str = "rules"
    ) -> list[Any]:
        processes = start_workers(settings, options, agents, kind)
        started.extend(processes)
        return processes

    yield start
    for p in started:
        if p.is_alive():
            p.kill()
        p.join(5)


def join_all(processes: list[Any], board: Store | None = None) -> None:
    for p in processes:
        p.join(JOIN_S)
        if p.is_alive():  # say where it is stuck: its stack (stderr) and the board's items
            os.kill(p.pid, signal.SIGUSR1)
            time.sleep(1)
            items = board_q.items(board) if board is not None else []
            left = [(i["id"], i["status"], i["attempts"], i["waiting"]) for i in items
                    if i["status"] != "done"]  # fmt: skip
            raise AssertionError(f"{p.name} did not finish within {JOIN_S} s; not done: {left}")
        assert p.exitcode == 0, f"{p.name} exited with {p.exitcode}"


def wait_for(condition: Callable[[], bool], timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "timed out waiting"
        time.sleep(0.02)


def many_adrs(n: int) -> list[Adr]:
    """Entries with figures, files and now and then a supersession of the one before."""
    day0 = dt.date(2025, 1, 1)
    adrs = []
    for i in range(1, n + 1):
        sup = f" This supersedes ADR-{i - 1}." if i > 1 and i % 5 == 0 else ""
        text = (
            f"# {i}. Batch size decision {i}\n\n"
            f"We measured {i * 10} ms on the batch path and {i % 20}/20 runs passed.{sup}\n"
            f"The code is in `src/mod{i % 4}.py`.\n"
        )
        date = (day0 + dt.timedelta(days=i)).isoformat()
        adrs.append(Adr(f"docs/adr/{i:04d}-batch-{i}.md", f"Batch size decision {i}", date, text))
    return adrs


def expected_findings(adrs: list[Adr], paths: set[str]) -> dict[str, set[tuple[str, str, str]]]:
    """What one careful reader would keep for each entry (relations go through handoffs)."""
    refs = RefIndex(EntryRef(a.id, a.title, a.id, a.date) for a in adrs)
    ctx = Context(refs=refs, known_paths=paths)
    out: dict[str, set[tuple[str, str, str]]] = {}
    for a in adrs:
        entry = Entry(a.id, "Decision", a.title, a.text, a.id, a.date)
        reading = RulesReader().read(entry, 0, len(a.text), ctx, "reference")
        out[a.id] = {
            (f.kind.value, f.value, f.quote)
            for f in reading.findings
            if f.kind is not FindingKind.RELATION
            and check_finding(f, a.text, paths, refs.entries.keys()).kept
        }
    return out


def brain_findings(store: Store, entry_id: str) -> set[tuple[str, str, str]]:
    return {
        (f.kind.value, f.value, f.quote)
        for f in findings_q.findings_of(store, entry_id)
        if f.kind is not FindingKind.RELATION
    }


def test_four_processes_process_every_item_exactly_once(
    store: Store, board: Store, settings: Settings, spawn: Start
) -> None:
    adrs = many_adrs(40)
    paths = [f"src/mod{i}.py" for i in range(4)]
    seed_decisions(store, adrs)
    seed_paths(store, paths)
    options = BoardOptions(claim_ttl_s=30, poll_s=0.05)
    fill(store, board, options)

    join_all(spawn(settings, options, ["rules-1", "rules-2", "rules-3", "rules-4"]))

    items = board_q.items(board)
    assert {i["status"] for i in items} == {"done"}
    claims = Counter(c["item"] for c in board_q.claim_history(board))
    assert set(claims) == {i["id"] for i in items}
    assert max(claims.values()) == 1, "an item was claimed twice"
    assert all(i["attempts"] == 1 for i in items)
    expected = expected_findings(adrs, set(paths))
    for a in adrs:
        assert brain_findings(store, a.id) == expected[a.id], a.id
    # Every handoff was settled, each by an agent other than the one that raised it.
    handoffs = board_q.handoffs(board)
    assert handoffs and all(h["status"] in ("confirmed", "rejected") for h in handoffs)
    assert all(h["settled_by"] != h["raised_by"] for h in handoffs)


def test_a_worker_killed_mid_item_loses_nothing(
    store: Store,
    board: Store,
    model_settings: Settings,
    model_server: ScriptedModelServer,
    spawn: Start,
) -> None:
    """The first worker is SIGKILLed while it waits for the model; after its claim expires
    a second worker takes the item over and finishes it."""
    seed_decisions(store, [ADR_2])
    seed_paths(store, FILES)
    release = threading.Event()
    good = tool_call(
        "record_findings",
        {
            "measurements": [
                {"figure": "16/20", "quote": "16/20 runs still timed out"},
                {"figure": "2.6x", "quote": "Throughput with the outbox table is 2.6x higher."},
            ],
            "experiments": [
                {
                    "claim": "batching the writes to Kafka",
                    "verdict": "disproven",
                    "quote": "We tried batching the writes to Kafka and it did not help",
                }
            ],
            "files": [{"path": "src/outbox.py", "quote": "The outbox lives in `src/outbox.py`."}],
            "concepts": [],
            "relations": [],
        },
    )

    def stuck(_request: dict[str, Any]) -> dict[str, Any]:
        release.wait(30)  # the worker that asked is killed meanwhile
        return good

    model_server.play(stuck, good)
    options = BoardOptions(claim_ttl_s=1.5, poll_s=0.05)
    fill(store, board, options)
    item_id = f"entry:{ADR_2.id}"

    [first] = spawn(model_settings, options, ["model-a"], "model")
    wait_for(lambda: len(model_server.requests) == 1)
    assert board_q.items(board)[0]["claimed_by"] == "model-a"
    os.kill(first.pid, signal.SIGKILL)
    first.join(10)
    release.set()
    assert first.exitcode == -signal.SIGKILL
    assert findings_q.findings_of(store, ADR_2.id) == []

    join_all(spawn(model_settings, options, ["model-b"], "model"))

    [item] = board_q.items(board)
    assert item["id"] == item_id and item["status"] == "done" and item["done_by"] == "model-b"
    assert item["attempts"] == 2
    assert item["errors"] == ["claim by model-a expired"]
    history = [(c["agent"], c["attempt"]) for c in board_q.claim_history(board)]
    assert history == [("model-a", 1), ("model-b", 2)]
    kept = {(f.kind.value, f.value, f.by) for f in findings_q.findings_of(store, ADR_2.id)}
    assert kept == {
        ("measurement", "16/20", "model-b"),
        ("measurement", "2.6x", "model-b"),
        ("experiment", "batching the writes to Kafka", "model-b"),
        ("file", "src/outbox.py", "model-b"),
    }


def test_killing_a_worker_during_a_run_loses_no_finding(
    store: Store, board: Store, settings: Settings, spawn: Start
) -> None:
    adrs = many_adrs(30)
    paths = [f"src/mod{i}.py" for i in range(4)]
    seed_decisions(store, adrs)
    seed_paths(store, paths)
    options = BoardOptions(claim_ttl_s=1.0, poll_s=0.05)
    fill(store, board, options)

    victim, survivor = spawn(settings, options, ["rules-1", "rules-2"])
    wait_for(lambda: any(c["agent"] == "rules-1" for c in board_q.claim_history(board)))
    os.kill(victim.pid, signal.SIGKILL)
    victim.join(10)
    join_all([survivor], board)

    items = [i for i in board_q.items(board) if i["kind"] != "handoff"]
    assert {i["status"] for i in items} == {"done"}
    # Handoffs the survivor raised wait for an agent other than itself.
    for h in board_q.handoffs(board, "open"):
        assert h["raised_by"] == "rules-2"
    claims = Counter(c["item"] for c in board_q.claim_history(board))
    taken_over = {i for i, n in claims.items() if n > 1}
    # Only an item the killed worker held can have been claimed again, at most once.
    assert len(taken_over) <= 1
    for i in items:
        if i["id"] in taken_over:
            assert i["done_by"] == "rules-2" and i["errors"] == ["claim by rules-1 expired"]
    expected = expected_findings(adrs, set(paths))
    for a in adrs:
        assert brain_findings(store, a.id) == expected[a.id], a.id


def test_a_poison_item_stops_at_the_attempts_cap(
    store: Store, board: Store, settings: Settings, spawn: Start
) -> None:
    seed_decisions(store, ADRS)
    seed_paths(store, FILES)
    options = BoardOptions(claim_ttl_s=5, max_attempts=3, poll_s=0.05)
    fill(store, board, options)
    remove_entry(store, ADR_1.id)  # the entry left the brain after the board was filled

    join_all(spawn(settings, options, ["rules-1", "rules-2"]))

    [failed] = board_q.failed_items(board)
    assert failed["id"] == f"entry:{ADR_1.id}" and failed["attempts"] == 3
    assert len(failed["errors"]) == 3
    assert all("is not in the brain graph" in e for e in failed["errors"])
    states = Counter(i["status"] for i in board_q.items(board) if i["kind"] != "handoff")
    assert states == {"done": 2, "failed": 1}
    claims = Counter(c["item"] for c in board_q.claim_history(board))
    assert claims[failed["id"]] == 3, "claimed again after reaching the cap"


def test_a_handoff_counts_only_when_a_second_agent_confirms_it(
    store: Store, board: Store, settings: Settings, spawn: Start
) -> None:
    seed_decisions(store, ADRS)
    seed_paths(store, FILES)
    options = BoardOptions(claim_ttl_s=10, poll_s=0.05)
    fill(store, board, options)
    handoff_id = f"{ADR_2.id}|supersedes|{ADR_1.id}"

    # One agent alone raises the handoffs but cannot confirm them: the run ends with them open.
    join_all(spawn(settings, options, ["rules-1"]))
    opened = {h["id"]: h for h in board_q.handoffs(board, "open")}
    assert handoff_id in opened and opened[handoff_id]["raised_by"] == "rules-1"
    assert not [f for f in findings_q.findings_of(store, ADR_2.id) if f.relation]

    # The same agent confirming it, quotes and all, does not count.
    same = judge_directly(
        store,
        board,
        handoff_id,
        "rules-1",
        Judgement(True, "This supersedes ADR-1.", "Status: Superseded by", "both say so"),
    )
    assert same.outcome == "not_counted"
    [still] = [h for h in board_q.handoffs(board) if h["id"] == handoff_id]
    assert still["status"] == "open" and still["not_counted"] == ["rules-1"]
    assert not [f for f in findings_q.findings_of(store, ADR_2.id) if f.relation]

    # A second agent confirms it with a quote from each side; the negated one is rejected.
    join_all(spawn(settings, options, ["rules-1", "rules-2"]))
    settled = {h["id"]: h for h in board_q.handoffs(board)}
    confirmed = settled[handoff_id]
    assert confirmed["status"] == "confirmed" and confirmed["settled_by"] == "rules-2"
    assert confirmed["quote_from"] in " ".join(ADR_2.text.split())
    assert confirmed["quote_to"] in " ".join(ADR_1.text.split())
    negated = settled[f"docs/adr/0003-keep-router-line.md|supersedes|{ADR_2.id}"]
    assert negated["status"] == "rejected" and "does not" in negated["reason"]
    relations = [f for f in findings_q.findings_of(store, ADR_2.id) if f.relation]
    assert [(f.relation, f.value) for f in relations] == [("supersedes", ADR_1.id)]
    assert not [f for f in findings_q.findings_of(store, ADRS[2].id) if f.relation]
