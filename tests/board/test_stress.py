"""The board under stress: retries after a whole went ahead, late workers, restarts."""

from __future__ import annotations

from companybrain.board.fill import fill
from companybrain.board.options import BoardOptions
from companybrain.board.worker import Worker
from companybrain.config import Settings
from companybrain.graph.connection import Store
from companybrain.graph.queries import board_q, findings_q
from tests.board.conftest import Adr, seed_decisions


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
