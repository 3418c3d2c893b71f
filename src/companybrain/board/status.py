"""What `brain board status` shows: counts per state, findings kept and rejected, handoffs,
per agent; and for people, the failed items with their errors and the open handoffs."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from companybrain.graph.queries import board_q

if TYPE_CHECKING:
    from companybrain.graph.connection import Store

ITEM_STATES = ("pending", "claimed", "done", "failed")
HANDOFF_STATES = ("open", "confirmed", "rejected")


def counts(board: Store) -> dict[str, Any]:
    """Exactly {"items", "findings", "handoffs", "agents"}, each with counts."""
    items = board_q.item_counts(board)
    findings = board_q.finding_counts(board)
    handoffs = board_q.handoff_counts(board)
    return {
        "items": {s: items.get(s, 0) for s in ITEM_STATES},
        "findings": {s: findings.get(s, 0) for s in ("kept", "rejected")},
        "handoffs": {s: handoffs.get(s, 0) for s in HANDOFF_STATES},
        "agents": {
            r["agent"]: {
                "claims": r["claims"],
                "done": r["done"],
                "kept": int(r["kept"] or 0),
                "rejected": int(r["rejected"] or 0),
            }
            for r in board_q.agent_counts(board)
        },
    }


def details(board: Store) -> dict[str, Any]:
    """The failed items with their errors and the open handoffs."""
    return {
        "failed": board_q.failed_items(board),
        "open_handoffs": board_q.handoffs(board, "open"),
    }
