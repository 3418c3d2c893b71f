"""The board under stress: retries after a whole went ahead, late workers, restarts."""

from __future__ import annotations

import threading
import time

import pytest

from companybrain.board.fill import fill
from companybrain.board.options import BoardOptions
from companybrain.board.reading import Judgement
from companybrain.board.rules_worker import RulesReader
from companybrain.board.worker import Worker
from companybrain.config import Settings
from companybrain.graph.connection import Store
from companybrain.graph.queries import board_q, findings_q
from companybrain.model.findings import FindingKind
from tests.board.conftest import ADR_2, Adr, seed_decisions


def _long_adr() -> Adr:
    sections = [
        f"## Part {i}\n\nWe measured {i * 100} ms on run {i}. " + ("filler words " * 30) + "\n"
        for i in range(1, 4)
    ]
    return Adr("docs/adr/0009-long.md", "Long decision", "2025-02-02", "".join(sections))


def test_a_retried_section_reaches_the_brain_after_its_whole_went_ahead(
    store: Store, board: Store, settings: Settings
) -> None:
    """A section failed, its whole went ahead without it; `brain board retry` then reads the
    section. Its findings must reach the brain: the whole is read again once it is done."""
    long_adr = _long_adr()
    seed_decisions(store, [long_adr])
    options = BoardOptions(max_chars=600, max_attempts=1, poll_s=0.01)
    fill(store, board, options)
    board_q.ensure_agent(board, "a", "rules")
    first = board_q.claim(board, "a", 1_000, 60_000, 1)
    assert first and first["id"].endswith("#1")
    assert board_q.fail(board, first["id"], "a", 1, 1_001, "the model timed out", 1) == "failed"
    Worker(settings, options, "rules-1").run()
    assert {f.value for f in findings_q.findings_of(store, long_adr.id)} == {"200 ms", "300 ms"}

    assert board_q.retry_failed(board) == 1
    Worker(settings, options, "rules-1").run()

    items = {i["id"]: i for i in board_q.items(board)}
    assert {i["status"] for i in items.values()} == {"done"}
    assert {f.value for f in findings_q.findings_of(store, long_adr.id)} == {
        "100 ms",
        "200 ms",
        "300 ms",
    }
    assert items[f"entry:{long_adr.id}"]["summary"] == "3 findings from its sections"


class _Rejecting(RulesReader):
    def judge(self, relation, source, target, quote, ctx):  # type: ignore[no-untyped-def]
        return Judgement(False, reason="the texts do not say so")


def test_a_late_confirmation_of_a_handoff_another_agent_rejected_writes_nothing(
    seeded: Store, board: Store, settings: Settings
) -> None:
    """rules-1 took the handoff ADR-2 supersedes ADR-1 while it was open and was slow to
    judge: its claim expired, rules-3 took the handoff over and rejected it. rules-1's
    confirmation, arriving late, must not put the relation into the brain: the board says
    rejected, and nobody confirmed it."""
    options = BoardOptions(claim_ttl_s=0.2, max_attempts=3, poll_s=0.01)
    fill(seeded, board, options)
    Worker(settings, options, "rules-2").run()  # raises ADR-2 supersedes ADR-1

    class Slow(RulesReader):
        def judge(self, relation, source, target, quote, ctx):  # type: ignore[no-untyped-def]
            time.sleep(0.3)  # the claim expires meanwhile; rules-3 takes over and rejects
            Worker(settings, options, "rules-3", reader=_Rejecting()).run()
            return super().judge(relation, source, target, quote, ctx)

    late = Worker(settings, options, "rules-1", reader=Slow())
    item = late.claim()
    assert item and item["kind"] == "handoff"
    late.process(item)

    handoff = board_q.handoff(board, item["entry"])
    assert handoff and handoff["status"] == "rejected" and handoff["settled_by"] == "rules-3"
    relations = [
        f for f in findings_q.findings_of(seeded, ADR_2.id) if f.kind is FindingKind.RELATION
    ]
    assert relations == []
    edges = seeded.read("MATCH ()-[s:SUPERSEDES {via: 'finding'}]->() RETURN count(s) AS n")
    assert edges[0]["n"] == 0


def test_a_handoff_confirmed_on_the_board_by_a_worker_that_then_died_reaches_the_brain(
    seeded: Store, board: Store, settings: Settings
) -> None:
    """The board says confirmed, but the worker died before moving the relation into the
    brain (and before finishing the item): whoever takes the item over moves it."""
    options = BoardOptions(claim_ttl_s=0.2, max_attempts=3, poll_s=0.01)
    fill(seeded, board, options)
    Worker(settings, options, "rules-2").run()  # raises ADR-2 supersedes ADR-1
    hid = f"{ADR_2.id}|supersedes|docs/adr/0001-use-kafka.md"
    board_q.ensure_agent(board, "rules-1", "rules")
    item = board_q.claim(board, "rules-1", 1, 200, 3)  # expired long ago
    assert item and item["entry"] == hid
    assert board_q.settle_handoff(
        board, hid, "rules-1", "confirmed", "ok", 2, quote_from="This supersedes ADR-1."
    )  # and then rules-1 dies

    Worker(settings, options, "rules-3").run()

    relations = {
        f.value for f in findings_q.findings_of(seeded, ADR_2.id) if f.kind is FindingKind.RELATION
    }
    assert relations == {"docs/adr/0001-use-kafka.md"}


def test_two_fills_at_once_both_finish_and_create_each_item_once(
    store: Store, board: Store, settings: Settings
) -> None:
    """Two `brain board run` started together both fill the board first: the second used
    to fail with a unique constraint violation on Item; now it waits for the first."""
    adrs = [
        Adr(f"docs/adr/{n:04d}-x.md", f"Decision {n}", "2025-01-01", f"We measured {n} ms.\n" * 40)
        for n in range(1, 301)
    ]
    seed_decisions(store, adrs)
    options = BoardOptions(max_chars=400)
    errors: list[BaseException] = []

    def one() -> None:
        brain = Store(settings, store.graph_name)
        try:
            fill(brain, brain.for_graph(board.graph_name), options)
        except BaseException as exc:
            errors.append(exc)
        finally:
            brain.close()

    threads = [threading.Thread(target=one) for _ in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert errors == []
    ids = [i["id"] for i in board_q.items(board)]
    assert len(ids) == len(set(ids)) == 300 * 3  # each entry and its two sections


def test_a_fill_that_fails_busy_is_not_run_again(
    store: Store, board: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Only taking the lock is tried again: a fill failing with BusyError (a query past its
    time limit) ran again inside the same lock, and the lock's context manager then failed
    with "generator didn't stop"."""
    from companybrain.board import fill as fill_module
    from companybrain.errors import BusyError

    calls: list[int] = []

    def busy(*args: object, **kwargs: object) -> None:
        calls.append(1)
        raise BusyError("the query ran past its time limit")

    monkeypatch.setattr(fill_module, "_fill", busy)
    with pytest.raises(BusyError, match="time limit"):
        fill(store, board, BoardOptions())
    assert calls == [1]
    assert board.lock_holder("ingest") == (None, 0)  # released


def test_the_same_summary_from_two_agents_is_one_finding(
    store: Store, board: Store, settings: Settings
) -> None:
    """A summary's id held its agent's name (every other finding's id is what it says), so
    the same file summarised by two agents, one taking over the other's expired claim, made
    two findings, and the count of findings depended on how many workers ran."""
    one, two = (Worker(settings, BoardOptions(), agent) for agent in ("rules-1", "rules-2"))
    try:
        text = "def a():\n    return 1\n"
        rows = [w._summary_row("src/a.py", "Defines `a`.", text) for w in (one, two)]
        assert rows[0]["id"] == rows[1]["id"] and rows[0]["by"] != rows[1]["by"]
    finally:
        one.close()
        two.close()


def test_a_fill_waiting_past_its_time_names_the_fill(
    store: Store, board: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """It said "another ingest of graph 'x_board' is running" of a board fill."""
    from companybrain.board import fill as fill_module
    from companybrain.errors import BusyError
    from companybrain.ingest.lock import LOCK_NAME, Holder

    monkeypatch.setattr(fill_module, "FILL_WAIT_S", 0.3)
    holder = Holder.here("otherfill01").value()  # this process: alive, so waited for
    assert board.take_lock(LOCK_NAME, holder, 60_000)
    try:
        with pytest.raises(BusyError, match=r"another board fill of graph .* \(run otherfill01"):
            fill(store, board, BoardOptions())
    finally:
        board.drop_lock(LOCK_NAME, holder)
