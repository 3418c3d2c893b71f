"""`brain board fill|run|status|retry` end to end (the run starts real worker processes)."""

from __future__ import annotations

import json
from typing import Any

from companybrain.graph.connection import Store
from companybrain.graph.queries import board_q
from tests.board.conftest import ADR_1, ADR_2, ADRS, remove_entry


def status_json(run_cli: Any) -> dict[str, Any]:
    result = run_cli("board", "status", "--json")
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


def test_run_with_two_workers_empties_the_board(seeded: Store, board: Store, run_cli: Any) -> None:
    result = run_cli("board", "run", "--workers", "2", "--claim-ttl", "10")
    assert result.exit_code == 0, result.output
    assert "board: 3 items created (3 entries new or changed, 0 files)" in result.output
    assert "2 rules worker(s) in" in result.output

    counts = status_json(run_cli)
    assert set(counts) == {"items", "findings", "handoffs", "agents"}
    assert counts["items"] == {"pending": 0, "claimed": 0, "done": 5, "failed": 0}
    assert counts["handoffs"] == {"open": 0, "confirmed": 1, "rejected": 1}
    assert counts["findings"]["kept"] > 0
    assert set(counts["agents"]) <= {"rules-1", "rules-2"}
    assert sum(a["done"] for a in counts["agents"].values()) == 5
    assert set(next(iter(counts["agents"].values()))) == {"claims", "done", "kept", "rejected"}

    again = run_cli("board", "run", "--workers", "2")
    assert again.exit_code == 0, again.output
    assert "board: 0 items created" in again.output and "3 unchanged" in again.output


def test_status_shows_failed_items_with_their_errors_and_open_handoffs(
    store: Store, board: Store, run_cli: Any
) -> None:
    from tests.board.conftest import seed_decisions

    seed_decisions(store, ADRS)
    assert run_cli("board", "fill").exit_code == 0
    remove_entry(store, ADR_1.id)
    result = run_cli("board", "run", "-n", "1", "--no-fill", "--max-attempts", "2")
    assert result.exit_code == 0, result.output
    assert "1 item(s) still pending" in result.output

    counts = status_json(run_cli)
    assert counts["items"] == {"pending": 1, "claimed": 0, "done": 2, "failed": 1}
    assert counts["handoffs"] == {"open": 1, "confirmed": 0, "rejected": 0}

    human = run_cli("board", "status")
    assert human.exit_code == 0, human.output
    text = " ".join(human.output.split())
    assert f"failed entry:{ADR_1.id} after 2 attempt(s):" in text
    assert text.count(f"rules-1: ItemError: {ADR_1.id} is not in the brain graph") == 2
    assert f"open handoff docs/adr/0003-keep-router-line.md supersedes {ADR_2.id}" in text
    assert "'This does not supersede ADR-2.'" in text

    retried = run_cli("board", "retry")
    assert retried.output.strip() == "1 failed item(s) back to pending"
    assert status_json(run_cli)["items"]["pending"] == 2


def test_the_model_worker_needs_a_model(seeded: Store, board: Store, run_cli: Any) -> None:
    """Without a model, `board run --worker model` filled the board with every item, then
    refused: it now refuses before it writes anything."""
    for fill in ("--no-fill", "--fill"):
        result = run_cli("board", "run", "--worker", "model", fill)
        assert result.exit_code != 0
        assert "the model worker needs a model" in str(result.exception)
    assert board_q.items(board) == []


def test_bad_options_are_refused_before_the_board_is_filled(
    seeded: Store, board: Store, run_cli: Any
) -> None:
    """--workers 0 filled the board, then said so; --claim-ttl inf crashed every worker."""
    for args, named in (
        (["--workers", "0"], "--workers"),
        (["--claim-ttl", "inf"], "--claim-ttl"),
        (["--claim-ttl", "nan"], "--claim-ttl"),
        (["--max-attempts", "99999999999999999999"], "--max-attempts"),  # never reached
    ):
        result = run_cli("board", "run", *args)
        assert result.exit_code != 0
        assert named in result.output + str(result.exception)
        assert status_json(run_cli)["items"]["pending"] == 0


def test_workers_stopped_by_the_model_say_so_and_exit_non_zero(
    store: Store, board: Store, run_cli: Any
) -> None:
    """The run ended with exit code 0 and "items still pending: handoffs wait for an agent
    other than the one that raised them", whatever had stopped the workers."""
    import socket

    from tests.board.conftest import seed_decisions

    seed_decisions(store, ADRS)
    with socket.socket() as s:  # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        url = f"http://127.0.0.1:{s.getsockname()[1]}/v1"
    env = {"BRAIN_MODEL": "m", "BRAIN_MODEL_BASE_URL": url}
    result = run_cli("board", "run", "-n", "1", "--worker", "model", env=env)
    assert result.exit_code == 1, result.output
    assert "workers that exited with an error: {'model-1': 1}" in result.output
    assert "still pending: the workers stopped (their errors are above)" in result.output
    assert "handoffs wait" not in result.output


def test_retry_on_a_graph_without_a_board_creates_none(store: Store, run_cli: Any) -> None:
    """`brain board retry` created the graph's board, empty, to put nothing back."""
    result = run_cli("board", "retry")
    assert result.exit_code == 0, result.output
    assert result.output == "0 failed item(s) back to pending\n"
    assert not store.for_graph(f"{store.graph_name}_board").graph_exists()
