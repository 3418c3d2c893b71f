"""Cypher for the agent board: a graph of its own (`<graph>_board`) holding work items,
agents, their claims, findings and handoffs; plus the few reads the board makes of the
brain it serves (entries to read, known paths) and the file summaries it writes back.

Coordination is plain Cypher. FalkorDB runs the writes to one graph one at a time, so a
statement that reads and updates (the claim, the completion) cannot interleave with another
worker's: no locks are needed outside the database.

    (:Agent {id, kind})-[:CLAIMED {at, attempt}]->(:Item {id, kind, entry, status, order,
        attempts, waiting, not_for[], errors[], expires_at, claimed_by, done_by, ...})
    (:Item)-[:PART_OF]->(:Item)          # a section -> its whole; a file -> its folder
    (:Item)-[:FOUND]->(:Finding {id, entry, kind, quote, value, verdict, relation, by,
                                kept, reason})
    (:Agent)-[:RAISED]->(:Handoff {id, relation, from_entry, to_entry, quote, found_in,
                                   raised_by, status, reason, settled_by, quote_from, quote_to})
    (:Agent)-[:CONFIRMED {at, counted, reason}]->(:Handoff)
    (:Agent)-[:REJECTED {at, reason}]->(:Handoff)
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from companybrain.graph.connection import Store

Row = dict[str, Any]

# Handoff items are ordered after everything a fill creates.
HANDOFF_ORDER_BASE = 10**13

# -- items -----------------------------------------------------------------------------------


def ensure_agent(board: Store, agent: str, kind: str) -> None:
    board.query("MERGE (a:Agent {id: $id}) SET a.kind = $kind", {"id": agent, "kind": kind})


def next_order(board: Store) -> int:
    rows = board.read(
        "MATCH (s:Item) WHERE s.kind <> 'handoff' RETURN coalesce(max(s.order), -1) + 1 AS n"
    )
    return int(rows[0]["n"]) if rows else 0


def top_item_hashes(board: Store) -> dict[str, str]:
    """Item id -> hash of what it was filled from, for items that are not parts."""
    rows = board.read(
        "MATCH (s:Item) WHERE s.kind IN ['entry', 'record', 'file', 'dir'] "
        "RETURN s.id AS id, s.hash AS hash"
    )
    return {r["id"]: r["hash"] or "" for r in rows}


def done_items(board: Store) -> set[str]:
    """Ids of the items (not parts) that are done."""
    rows = board.read(
        "MATCH (s:Item) WHERE s.kind IN ['entry', 'record', 'file', 'dir'] AND s.status = 'done' "
        "RETURN s.id AS id"
    )
    return {r["id"] for r in rows}


def delete_items(board: Store, ids: list[str]) -> None:
    """Remove items, their parts and what they found (an entry changed: read it again)."""
    if not ids:
        return
    board.query(
        "MATCH (s:Item) WHERE s.id IN $ids "
        "OPTIONAL MATCH (part:Item)-[:PART_OF]->(s) WHERE part.kind = 'part' "
        "WITH collect(DISTINCT s) + collect(DISTINCT part) AS doomed "
        "UNWIND doomed AS d "
        "OPTIONAL MATCH (d)-[:FOUND]->(f:Finding) "
        "DETACH DELETE f, d",
        {"ids": ids},
    )


def drop_handoffs(board: Store, ids: list[str]) -> None:
    """Delete handoffs and their items, so that they can be raised and judged anew."""
    if ids:
        board.query(
            "MATCH (h:Handoff) WHERE h.id IN $ids "
            "OPTIONAL MATCH (i:Item {kind: 'handoff'}) WHERE i.entry = h.id "
            "DETACH DELETE h, i",
            {"ids": ids},
        )


def create_items(board: Store, rows: list[Row]) -> int:
    """Create work items (pending, no attempts yet). Each row: id, kind, entry, label,
    title, order, waiting, hash, parent, start, end, text, path, parts."""
    if not rows:
        return 0
    out = board.query(
        "UNWIND $rows AS r "
        "CREATE (s:Item {id: r.id, kind: r.kind, entry: r.entry, label: r.label, "
        "title: r.title, order: r.order, waiting: r.waiting, hash: r.hash, parent: r.parent, "
        "start: r.start, end: r.end, text: r.text, path: r.path, parts: r.parts, "
        "status: 'pending', "
        "attempts: 0, not_for: [], errors: [], expires_at: 0}) "
        "RETURN count(s) AS n",
        {"rows": rows},
    )
    return int(out[0]["n"]) if out else 0


def link_parts(board: Store, pairs: list[Row]) -> None:
    """`(child)-[:PART_OF]->(parent)` for each {child, parent}."""
    if pairs:
        board.query(
            "UNWIND $pairs AS p MATCH (c:Item {id: p.child}) MATCH (w:Item {id: p.parent}) "
            "MERGE (c)-[:PART_OF]->(w)",
            {"pairs": pairs},
        )


_ITEM_FIELDS = (
    "s.id AS id, s.kind AS kind, s.entry AS entry, s.label AS label, s.title AS title, "
    "s.attempts AS attempts, s.start AS start, s.end AS end, s.hash AS hash, "
    "s.parent AS parent, s.path AS path, s.parts AS parts"
)

# The claim, in one statement: the first pending item, or a claimed one whose claim has
# expired, whose attempts are under the cap and that waits on nothing. A taken-over claim
# leaves a line in the item's errors, so a crash is visible on the board. (`status IN` lets
# the status index skip finished items; an OR of the two states would scan every item.)
_CLAIM = (
    """
    MATCH (s:Item)
    WHERE s.status IN ['pending', 'claimed']
      AND (s.status = 'pending' OR s.expires_at < $now)
      AND s.attempts < $max AND s.waiting = 0 AND NOT $agent IN s.not_for
    WITH s ORDER BY s.order, s.id LIMIT 1
    MATCH (a:Agent {id: $agent})
    WITH s, a, s.status = 'claimed' AS expired, s.claimed_by AS previous
    SET s.errors = CASE WHEN expired
                        THEN s.errors + ['claim by ' + previous + ' expired']
                        ELSE s.errors END,
        s.status = 'claimed', s.claimed_by = $agent, s.claimed_at = $now,
        s.expires_at = $now + $ttl, s.attempts = s.attempts + 1
    CREATE (a)-[:CLAIMED {at: $now, attempt: s.attempts}]->(s)
    RETURN """
    + _ITEM_FIELDS
)


def claim(board: Store, agent: str, now_ms: int, ttl_ms: int, max_attempts: int) -> Row | None:
    rows = board.query(_CLAIM, {"agent": agent, "now": now_ms, "ttl": ttl_ms, "max": max_attempts})
    return rows[0] if rows else None


def sweep(board: Store, now_ms: int, max_attempts: int) -> int:
    """Fail items that used their last attempt: a claim that expired on it (the worker
    died), or a pending item at the cap (the cap was lowered). Their wholes stop waiting."""
    rows = board.query(
        """
        MATCH (s:Item)
        WHERE (s.status = 'claimed' AND s.expires_at < $now AND s.attempts >= $max)
           OR (s.status = 'pending' AND s.attempts >= $max)
        WITH s, s.status = 'claimed' AS expired, s.claimed_by AS previous
        SET s.errors = s.errors + [CASE WHEN expired
              THEN 'claim by ' + previous + ' expired on attempt ' + toString(s.attempts)
                   + ' of ' + toString($max)
              ELSE 'attempts cap of ' + toString($max) + ' reached' END],
            s.status = 'failed', s.failed_at = $now, s.expires_at = 0
        WITH s
        OPTIONAL MATCH (s)-[:PART_OF]->(p:Item)
        FOREACH (x IN CASE WHEN p IS NULL THEN [] ELSE [p] END | SET x.waiting = x.waiting - 1)
        RETURN count(DISTINCT s) AS n
        """,
        {"now": now_ms, "max": max_attempts},
    )
    return int(rows[0]["n"]) if rows else 0


def work_left(board: Store, agent: str, max_attempts: int) -> int:
    """Items this agent could still take or must wait for: pending ones it may claim, and
    claimed ones it may take should the claim expire. A claimed item only others may take
    (a handoff this agent raised, claimed by an agent that then died) is no reason to wait:
    waiting for it never ended."""
    rows = board.read(
        "MATCH (s:Item) WHERE s.status IN ['pending', 'claimed'] AND NOT $agent IN s.not_for "
        "AND (s.status = 'claimed' OR s.attempts < $max) RETURN count(s) AS n",
        {"agent": agent, "max": max_attempts},
    )
    return int(rows[0]["n"]) if rows else 0


def still_claimed(board: Store, item_id: str, agent: str, attempt: int) -> bool:
    rows = board.read(
        "MATCH (s:Item {id: $id}) WHERE s.status = 'claimed' AND s.claimed_by = $agent "
        "AND s.attempts = $attempt RETURN count(s) AS n",
        {"id": item_id, "agent": agent, "attempt": attempt},
    )
    return bool(rows and rows[0]["n"])


# The completion, in one statement: only the claim holder (same attempt) can finish the
# item; its findings and the handoffs it raises are written with it or not at all.
_COMPLETE = """
    MATCH (s:Item {id: $id})
    WHERE s.status = 'claimed' AND s.claimed_by = $agent AND s.attempts = $attempt
    SET s.status = 'done', s.done_by = $agent, s.done_at = $now, s.expires_at = 0,
        s.summary = $summary
    FOREACH (f IN $findings |
        MERGE (n:Finding {id: f.id})
        SET n.entry = f.entry, n.kind = f.kind, n.quote = f.quote, n.value = f.value,
            n.verdict = f.verdict, n.relation = f.relation, n.by = f.by, n.kept = f.kept,
            n.reason = f.reason
        MERGE (s)-[:FOUND]->(n))
    FOREACH (h IN $handoffs |
        MERGE (x:Handoff {id: h.id})
        ON CREATE SET x.relation = h.relation, x.from_entry = h.from_entry,
            x.to_entry = h.to_entry, x.quote = h.quote, x.found_in = h.found_in,
            x.raised_by = $agent, x.status = 'open', x.at = $now
        MERGE (a:Agent {id: $agent})
        MERGE (a)-[:RAISED]->(x)
        MERGE (i:Item {id: h.item})
        ON CREATE SET i.kind = 'handoff', i.entry = h.id, i.title = h.title,
            i.status = 'pending', i.order = h.order, i.attempts = 0, i.waiting = 0,
            i.not_for = [$agent], i.errors = [], i.expires_at = 0)
    WITH s
    OPTIONAL MATCH (s)-[:PART_OF]->(p:Item)
    FOREACH (x IN CASE WHEN p IS NULL THEN [] ELSE [p] END | SET x.waiting = x.waiting - 1)
    RETURN count(DISTINCT s) AS n
"""


def complete(
    board: Store,
    item_id: str,
    agent: str,
    attempt: int,
    now_ms: int,
    *,
    findings: list[Row],
    handoffs: list[Row],
    summary: str | None = None,
) -> bool:
    """Mark the item done with what it found. False when the claim was lost (it expired and
    another agent took the item): then nothing is written."""
    rows = board.query(
        _COMPLETE,
        {
            "id": item_id,
            "agent": agent,
            "attempt": attempt,
            "now": now_ms,
            "findings": findings,
            "handoffs": handoffs,
            "summary": summary,
        },
    )
    return bool(rows and rows[0]["n"])


def fail(
    board: Store, item_id: str, agent: str, attempt: int, now_ms: int, error: str, max_attempts: int
) -> str | None:
    """Record an error; the item goes back to pending, or to failed at the attempts cap.
    Returns the new status, or None when the claim was already lost."""
    rows = board.query(
        """
        MATCH (s:Item {id: $id})
        WHERE s.status = 'claimed' AND s.claimed_by = $agent AND s.attempts = $attempt
        WITH s, s.attempts >= $max AS final
        SET s.errors = s.errors + [$error],
            s.status = CASE WHEN final THEN 'failed' ELSE 'pending' END,
            s.failed_at = CASE WHEN final THEN $now ELSE null END,
            s.expires_at = 0
        WITH s, final
        OPTIONAL MATCH (s)-[:PART_OF]->(p:Item)
        FOREACH (x IN CASE WHEN p IS NULL OR NOT final THEN [] ELSE [p] END |
            SET x.waiting = x.waiting - 1)
        RETURN DISTINCT s.status AS status
        """,
        {
            "id": item_id,
            "agent": agent,
            "attempt": attempt,
            "now": now_ms,
            "error": error,
            "max": max_attempts,
        },
    )
    return rows[0]["status"] if rows else None


def retry_failed(board: Store) -> int:
    """Put failed items back to pending with a fresh attempts count (errors are kept).
    A whole (an entry read in sections, a folder) that went ahead without them is done
    again once they are, so that what they find reaches the brain; every whole above a
    retried item waits for its unfinished children again."""
    rows = board.query(
        "MATCH (s:Item {status: 'failed'}) "
        "SET s.status = 'pending', s.attempts = 0, s.expires_at = 0 "
        "RETURN collect(s.id) AS ids"
    )
    ids = rows[0]["ids"] if rows else []
    if not ids:
        return 0
    board.query(
        "MATCH (s:Item)-[:PART_OF*1..32]->(w:Item {status: 'done'}) WHERE s.id IN $ids "
        "SET w.status = 'pending', w.attempts = 0, w.expires_at = 0",
        {"ids": ids},
    )
    board.query(
        """
        MATCH (s:Item)-[:PART_OF*0..32]->(w:Item) WHERE s.id IN $ids
        WITH DISTINCT w
        MATCH (c:Item)-[:PART_OF]->(w)
        WITH w, sum(CASE WHEN c.status IN ['pending', 'claimed'] THEN 1 ELSE 0 END) AS n
        SET w.waiting = n
        """,
        {"ids": ids},
    )
    return len(ids)


def item_text(board: Store, item_id: str) -> str | None:
    rows = board.read("MATCH (s:Item {id: $id}) RETURN s.text AS text", {"id": item_id})
    return rows[0]["text"] if rows else None


def kept_findings_of_parts(board: Store, item_id: str) -> list[Row]:
    """Kept findings of an item's sections, for the whole to move into the brain."""
    return board.read(
        "MATCH (:Item {id: $id})<-[:PART_OF]-(:Item)-[:FOUND]->(f:Finding {kept: true}) "
        "RETURN DISTINCT f.entry AS entry, f.kind AS kind, f.quote AS quote, "
        "f.value AS value, f.verdict AS verdict, f.relation AS relation, f.by AS by "
        "ORDER BY kind, value, quote",
        {"id": item_id},
    )


def children(board: Store, item_id: str) -> list[Row]:
    """What an item waited for: each child with its status, kept summary and text."""
    return board.read(
        "MATCH (c:Item)-[:PART_OF]->(:Item {id: $id}) "
        "OPTIONAL MATCH (c)-[:FOUND]->(f:Finding {kind: 'summary', kept: true}) "
        "RETURN c.id AS id, c.kind AS kind, c.entry AS entry, c.status AS status, "
        "c.text AS text, c.start AS start, c.order AS order, collect(f.value) AS summaries "
        "ORDER BY order",
        {"id": item_id},
    )


def descendant_files(board: Store, item_id: str) -> list[Row]:
    """Path and text of every file a folder item contains, at any depth."""
    return board.read(
        "MATCH (c:Item {kind: 'file'})-[:PART_OF*1..32]->(:Item {id: $id}) "
        "RETURN DISTINCT c.entry AS path, c.text AS text ORDER BY path",
        {"id": item_id},
    )


def release(board: Store, item_id: str, agent: str, attempt: int) -> bool:
    """Give an item back without counting the attempt, and never offer it to `agent` again
    (a handoff reached the agent that raised it)."""
    rows = board.query(
        "MATCH (s:Item {id: $id}) "
        "WHERE s.status = 'claimed' AND s.claimed_by = $agent AND s.attempts = $attempt "
        "SET s.status = 'pending', s.attempts = s.attempts - 1, s.expires_at = 0, "
        "s.not_for = s.not_for + [$agent] RETURN count(s) AS n",
        {"id": item_id, "agent": agent, "attempt": attempt},
    )
    return bool(rows and rows[0]["n"])


def item_statuses(board: Store) -> dict[str, str]:
    return {
        r["id"]: r["status"]
        for r in board.read("MATCH (s:Item) RETURN s.id AS id, s.status AS status")
    }


# -- handoffs --------------------------------------------------------------------------------


def handoff(board: Store, handoff_id: str) -> Row | None:
    rows = board.read(
        "MATCH (h:Handoff {id: $id}) RETURN h.id AS id, h.relation AS relation, "
        "h.from_entry AS from_entry, h.to_entry AS to_entry, h.quote AS quote, "
        "h.found_in AS found_in, h.raised_by AS raised_by, h.status AS status, "
        "h.reason AS reason, h.settled_by AS settled_by, h.quote_from AS quote_from",
        {"id": handoff_id},
    )
    return rows[0] if rows else None


def confirmed_from(board: Store, entry_id: str) -> list[Row]:
    """Confirmed handoffs whose relation the entry states (it supersedes, replaces...)."""
    return board.read(
        "MATCH (h:Handoff {status: 'confirmed'}) WHERE h.from_entry = $entry "
        "RETURN h.relation AS relation, h.to_entry AS to_entry, h.quote_from AS quote_from, "
        "h.raised_by AS raised_by ORDER BY to_entry",
        {"entry": entry_id},
    )


_SETTLE = {
    "confirmed": """
        MATCH (h:Handoff {id: $id}) WHERE h.status = 'open'
        MERGE (a:Agent {id: $agent})
        SET h.status = 'confirmed', h.reason = $reason, h.settled_by = $agent,
            h.settled_at = $now, h.quote_from = $quote_from, h.quote_to = $quote_to
        CREATE (a)-[:CONFIRMED {at: $now, counted: true, reason: $reason}]->(h)
        RETURN count(h) AS n
    """,
    "rejected": """
        MATCH (h:Handoff {id: $id}) WHERE h.status = 'open'
        MERGE (a:Agent {id: $agent})
        SET h.status = 'rejected', h.reason = $reason, h.settled_by = $agent,
            h.settled_at = $now, h.quote_from = $quote_from, h.quote_to = $quote_to
        CREATE (a)-[:REJECTED {at: $now, reason: $reason}]->(h)
        RETURN count(h) AS n
    """,
    # A confirmation that does not count is still recorded, and the handoff stays open.
    "not_counted": """
        MATCH (h:Handoff {id: $id}) WHERE h.status = 'open'
        MERGE (a:Agent {id: $agent})
        CREATE (a)-[:CONFIRMED {at: $now, counted: false, reason: $reason}]->(h)
        RETURN count(h) AS n
    """,
}


def settle_handoff(
    board: Store,
    handoff_id: str,
    agent: str,
    outcome: str,
    reason: str,
    now_ms: int,
    *,
    quote_from: str = "",
    quote_to: str = "",
) -> bool:
    """Record a judgement on an open handoff. False when it was no longer open."""
    rows = board.query(
        _SETTLE[outcome],
        {
            "id": handoff_id,
            "agent": agent,
            "reason": reason,
            "now": now_ms,
            "quote_from": quote_from,
            "quote_to": quote_to,
        },
    )
    return bool(rows and rows[0]["n"])


def handoffs(board: Store, status: str | None = None) -> list[Row]:
    return board.read(
        "MATCH (h:Handoff) WHERE $status IS NULL OR h.status = $status "
        "OPTIONAL MATCH (a:Agent)-[c:CONFIRMED {counted: false}]->(h) "
        "RETURN h.id AS id, h.relation AS relation, h.from_entry AS from_entry, "
        "h.to_entry AS to_entry, h.quote AS quote, h.raised_by AS raised_by, "
        "h.status AS status, h.reason AS reason, h.settled_by AS settled_by, "
        "h.quote_from AS quote_from, h.quote_to AS quote_to, "
        "collect(a.id) AS not_counted ORDER BY id",
        {"status": status},
    )


# -- status ----------------------------------------------------------------------------------


def item_counts(board: Store) -> dict[str, int]:
    rows = board.read("MATCH (s:Item) RETURN s.status AS status, count(s) AS n")
    return {r["status"]: r["n"] for r in rows}


def finding_counts(board: Store) -> dict[str, int]:
    rows = board.read("MATCH (f:Finding) RETURN f.kept AS kept, count(f) AS n")
    return {("kept" if r["kept"] else "rejected"): r["n"] for r in rows}


def handoff_counts(board: Store) -> dict[str, int]:
    rows = board.read("MATCH (h:Handoff) RETURN h.status AS status, count(h) AS n")
    return {r["status"]: r["n"] for r in rows}


def agent_counts(board: Store) -> list[Row]:
    """Per agent: claims made, items done, findings produced (kept and rejected)."""
    return board.read(
        """
        MATCH (a:Agent)
        OPTIONAL MATCH (a)-[c:CLAIMED]->()
        WITH a, count(c) AS claims
        OPTIONAL MATCH (d:Item {status: 'done'}) WHERE d.done_by = a.id
        WITH a, claims, count(d) AS done
        OPTIONAL MATCH (f:Finding) WHERE f.by = a.id
        RETURN a.id AS agent, a.kind AS kind, claims, done,
               sum(CASE WHEN f.kept THEN 1 ELSE 0 END) AS kept,
               sum(CASE WHEN f IS NOT NULL AND NOT f.kept THEN 1 ELSE 0 END) AS rejected
        ORDER BY agent
        """
    )


def failed_items(board: Store) -> list[Row]:
    return board.read(
        "MATCH (s:Item {status: 'failed'}) RETURN s.id AS id, s.kind AS kind, "
        "s.entry AS entry, s.attempts AS attempts, s.errors AS errors ORDER BY s.order"
    )


def progress(board: Store, since_ms: int | None = None) -> Row:
    """One read for the live display: counts per state and items done per agent; with
    `since_ms` (when the run started), also the items still claimed from before it (by
    workers of a run that was killed) and when the first of those claims expires."""
    rows = board.read("MATCH (s:Item) RETURN s.status AS status, s.done_by AS agent, count(s) AS n")
    states: dict[str, int] = {}
    per_agent: dict[str, int] = {}
    for r in rows:
        states[r["status"]] = states.get(r["status"], 0) + r["n"]
        if r["status"] == "done" and r["agent"]:
            per_agent[r["agent"]] = per_agent.get(r["agent"], 0) + r["n"]
    out: Row = {"states": states, "agents": per_agent, "held": 0, "held_until": None}
    if since_ms is not None and states.get("claimed"):
        held = board.read(
            "MATCH (s:Item) WHERE s.status = 'claimed' AND s.claimed_at < $since "
            "RETURN count(s) AS n, min(s.expires_at) AS until",
            {"since": since_ms},
        )[0]
        out |= {"held": held["n"], "held_until": held["until"]}
    return out


def claim_history(board: Store) -> list[Row]:
    """Every claim ever made: item, agent, attempt, time (for audits and tests)."""
    return board.read(
        "MATCH (a:Agent)-[c:CLAIMED]->(s:Item) RETURN s.id AS item, a.id AS agent, "
        "c.attempt AS attempt, c.at AS at ORDER BY at"
    )


def items(board: Store) -> list[Row]:
    return board.read(
        "MATCH (s:Item) RETURN s.id AS id, s.kind AS kind, s.entry AS entry, "
        "s.status AS status, s.order AS order, s.attempts AS attempts, s.waiting AS waiting, "
        "s.errors AS errors, s.claimed_by AS claimed_by, s.done_by AS done_by, "
        "s.claimed_at AS claimed_at, s.done_at AS done_at, s.summary AS summary "
        "ORDER BY s.order"
    )


def board_findings(board: Store) -> list[Row]:
    return board.read(
        "MATCH (s:Item)-[:FOUND]->(f:Finding) RETURN DISTINCT f.id AS id, f.entry AS entry, "
        "f.kind AS kind, f.quote AS quote, f.value AS value, f.verdict AS verdict, "
        "f.relation AS relation, f.by AS by, f.kept AS kept, f.reason AS reason "
        "ORDER BY id"
    )


# -- reads of the brain ----------------------------------------------------------------------


def brain_entries(brain: Store) -> list[Row]:
    """What there is to read: decision entries with their text (from repositories) and
    company records with a body; `read_hash` is the hash of the text the board's findings
    in the brain were read from (None when the brain holds no reading)."""
    decisions = brain.read(
        "MATCH (d:Decision) WHERE d.text IS NOT NULL AND d.text <> '' "
        "RETURN d.id AS id, 'Decision' AS label, d.title AS title, d.text AS text, "
        "d.path AS path, d.read_hash AS read_hash ORDER BY id"
    )
    # A company ADR's findings (and so its read_hash) go on the decision of its id, when
    # it states one: findings_q.add_findings writes to a Decision first.
    records = brain.read(
        "MATCH (s:Source) WHERE s.text IS NOT NULL AND s.text <> '' "
        "OPTIONAL MATCH (d:Decision {id: s.id}) "
        "RETURN s.id AS id, 'Source' AS label, s.title AS title, s.text AS text, "
        "null AS path, coalesce(d.read_hash, s.read_hash) AS read_hash ORDER BY id"
    )
    return decisions + records


def brain_entry(brain: Store, entry_id: str, label: str) -> Row | None:
    if label == "Decision":
        rows = brain.read(
            "MATCH (d:Decision {id: $id}) RETURN d.id AS id, 'Decision' AS label, "
            "d.title AS title, d.text AS text, d.path AS path, d.date AS date",
            {"id": entry_id},
        )
    else:
        rows = brain.read(
            "MATCH (s:Source {id: $id}) RETURN s.id AS id, 'Source' AS label, "
            "s.title AS title, s.text AS text, null AS path, s.at AS date",
            {"id": entry_id},
        )
    return rows[0] if rows else None


def entry_index(brain: Store) -> list[Row]:
    """Every entry's id, title, path, date and repository, for resolving "supersedes
    ADR-7"."""
    decisions = brain.read(
        "MATCH (d:Decision) RETURN d.id AS id, 'Decision' AS label, d.title AS title, "
        "d.path AS path, d.date AS date, d.repo AS repo ORDER BY id"
    )
    records = brain.read(
        "MATCH (s:Source) WHERE s.text IS NOT NULL RETURN s.id AS id, 'Source' AS label, "
        "s.title AS title, null AS path, s.at AS date, null AS repo ORDER BY id"
    )
    return decisions + records


def known_paths(brain: Store) -> set[str]:
    """Every path git history knows (File nodes)."""
    return {r["id"] for r in brain.read("MATCH (f:File) RETURN f.id AS id")}


def rationale_files(brain: Store) -> list[str]:
    rows = brain.read(
        "MATCH (:Decision)-[:RATIONALE]->(f:File) RETURN DISTINCT f.id AS id ORDER BY id"
    )
    return [r["id"] for r in rows]


def set_file_summary(brain: Store, path: str, summary: str, by: str) -> bool:
    """A checked file summary, kept on its File node."""
    rows = brain.query(
        "MATCH (f:File {id: $path}) SET f.summary = $summary, f.summary_by = $by "
        "RETURN count(f) AS n",
        {"path": path, "summary": summary, "by": by},
    )
    return bool(rows and rows[0]["n"])
