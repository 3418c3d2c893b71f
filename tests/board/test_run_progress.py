"""What `brain board run` shows while it waits on items that workers of an earlier run,
stopped or killed, still hold: the run had said only "claimed 2" for up to two minutes."""

from __future__ import annotations

from companybrain.board.fill import fill
from companybrain.board.options import BoardOptions
from companybrain.board.run import progress_detail
from companybrain.graph.connection import Store
from companybrain.graph.queries import board_q

OPTIONS = BoardOptions(claim_ttl_s=120, max_attempts=2, poll_s=0.01)


def test_claims_left_by_an_earlier_run_are_named_with_when_they_free(
    seeded: Store, board: Store
) -> None:
    fill(seeded, board, OPTIONS)
    board_q.ensure_agent(board, "rules-1", "rules")
    assert board_q.claim(board, "rules-1", 1_000, 120_000, 2)  # then the run was killed
    snap = board_q.progress(board, since_ms=5_000)  # a new run started at 5 s
    assert (snap["held"], snap["held_until"]) == (1, 121_000)
    detail = progress_detail(snap, at_ms=15_000)
    assert detail.startswith("pending ") and "claimed 1 failed 0" in detail
    assert "(1 held by workers of an earlier run that stopped: free for the taking in 106 s)" in (
        detail
    )


def test_claims_of_this_run_are_not_called_left_over(seeded: Store, board: Store) -> None:
    fill(seeded, board, OPTIONS)
    board_q.ensure_agent(board, "rules-1", "rules")
    assert board_q.claim(board, "rules-1", 6_000, 120_000, 2)
    snap = board_q.progress(board, since_ms=5_000)
    assert snap["held"] == 0
    assert "held" not in progress_detail(snap, at_ms=15_000)
    assert "claimed 1" in progress_detail(snap, at_ms=15_000)
