"""Handoffs: one agent thinks entry A supersedes (replaces, reverts) entry B and raises it;
it counts only when a different agent confirms it with a quote from each side. A rejection
carries its reason. Only a confirmed relation moves into the brain."""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING, Any

from companybrain.board.options import now_ms
from companybrain.board.reading import Entry, Judgement
from companybrain.board.refs import EntryRef, RefIndex
from companybrain.board.rules_worker import relation_targets
from companybrain.errors import InputError
from companybrain.graph.queries import board_q, findings_q
from companybrain.model.findings import Finding, FindingKind
from companybrain.policy.finding_checks import PASSIVE, Confirmation, check_confirmation

if TYPE_CHECKING:
    from companybrain.graph.connection import Store


def handoff_row(finding: Finding) -> dict[str, Any]:
    """The handoff a kept relation finding raises, always in the active direction."""
    relation = finding.relation or ""
    active = PASSIVE.get(relation, relation)
    if relation in PASSIVE:
        source, target = finding.value, finding.entry
    else:
        source, target = finding.entry, finding.value
    hid = f"{source}|{active}|{target}"
    return {
        "id": hid,
        "item": f"handoff:{hid}",
        "title": f"{source} {active} {target}?",
        "relation": active,
        "from_entry": source,
        "to_entry": target,
        "quote": finding.quote,
        "found_in": finding.entry,
        "order": board_q.HANDOFF_ORDER_BASE + now_ms(),
    }


def settle(
    brain: Store,
    board: Store,
    handoff: dict[str, Any],
    agent: str,
    judgement: Judgement,
    source: Entry,
    target: Entry,
    refs: RefIndex,
) -> Confirmation:
    """Record `agent`'s judgement on an open handoff. A confirmation is checked (a different
    agent, a verbatim quote from each side) before it counts; a counted one moves the
    relation into the brain, on the entry that states it."""
    if judgement.confirm:
        outcome = check_confirmation(
            handoff["raised_by"],
            agent,
            judgement.quote_from,
            source.text,
            judgement.quote_to,
            target.text,
            from_id=source.id,
            to_id=target.id,
            relation=handoff["relation"],
            targets=partial(relation_targets, refs),
        )
    else:
        outcome = Confirmation("rejected", judgement.reason or "(no reason given)")
    # The board first: only the judgement that settles the open handoff counts. A late one
    # (its claim expired and another agent settled it meanwhile) writes nothing anywhere.
    recorded = board_q.settle_handoff(
        board,
        handoff["id"],
        agent,
        outcome.outcome,
        outcome.reason,
        now_ms(),
        quote_from=judgement.quote_from,
        quote_to=judgement.quote_to,
    )
    if not recorded:
        now = board_q.handoff(board, handoff["id"]) or {}
        status, by = now.get("status") or "gone", now.get("settled_by")
        return Confirmation(status, f"already {status}" + (f" by {by}" if by else ""))
    if outcome.outcome == "confirmed":
        move_confirmed(brain, {**handoff, "quote_from": judgement.quote_from})
    return outcome


def move_confirmed(brain: Store, handoff: dict[str, Any]) -> None:
    """A confirmed handoff's relation into the brain, on the entry that states it
    (idempotent: also what a takeover does after a crash between settling and moving)."""
    relation = Finding(
        handoff["from_entry"],
        FindingKind.RELATION,
        handoff["quote_from"],
        handoff["to_entry"],
        relation=handoff["relation"],
        by=handoff["raised_by"],
    )
    findings_q.add_findings(brain, handoff["from_entry"], [relation])


def load_entry(brain: Store, entry_id: str) -> Entry | None:
    for label in ("Decision", "Source"):
        row = board_q.brain_entry(brain, entry_id, label)
        if row and row["text"]:
            date = str(row["date"]) if row["date"] else None
            return Entry(row["id"], label, row["title"] or "", row["text"], row["path"], date)
    return None


def judge_directly(
    brain: Store, board: Store, handoff_id: str, agent: str, judgement: Judgement
) -> Confirmation:
    """An agent's judgement given outside a worker run (a person, another tool): the same
    checks and the same record as a worker's."""
    handoff = board_q.handoff(board, handoff_id)
    if handoff is None:
        raise InputError(f"no handoff {handoff_id!r} on the board")
    if handoff["status"] != "open":
        return Confirmation(handoff["status"], f"already {handoff['status']}")
    source = load_entry(brain, handoff["from_entry"])
    target = load_entry(brain, handoff["to_entry"])
    if source is None or target is None:
        missing = handoff["from_entry"] if source is None else handoff["to_entry"]
        raise InputError(f"{missing} is not in the brain")
    return settle(brain, board, handoff, agent, judgement, source, target, ref_index(brain))


def ref_index(brain: Store) -> RefIndex:
    """Every entry of the brain, for resolving how one entry names another."""
    return RefIndex(
        EntryRef(
            r["id"],
            r["title"],
            r["path"],
            str(r["date"]) if r["date"] else None,
            r["label"],
            r["repo"] or None,
        )
        for r in board_q.entry_index(brain)
    )
