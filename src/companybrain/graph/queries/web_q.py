"""Cypher for the web pages: one record with what was drawn from it, one node and its
neighbours, a repository's commits, one board item with what it produced. Interactive
lookups go through the indexed `id` of a known label, never a scan."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from companybrain.graph.ident import ident

if TYPE_CHECKING:
    from companybrain.graph.connection import Row, Store


# -- a record ----------------------------------------------------------------------------


def source(store: Store, record: str) -> Row | None:
    rows = store.read(
        "MATCH (s:Source {id: $id}) "
        "RETURN s.id AS id, s.kind AS kind, s.authority AS authority, s.at AS at, "
        "s.effective_at AS effective_at, s.title AS title, s.text AS text, s.acl AS acl, "
        "s.author AS author, s.channel AS channel, s.parent AS parent, s.status AS status, "
        "s.origin AS origin",
        {"id": record},
    )
    return rows[0] if rows else None


def source_claims(store: Store, record: str) -> list[Row]:
    """The ownership claims kept from a record, with their quote (not one whose time cannot
    be read: that one is a refused fact, shown with the refusals)."""
    return store.read(
        "MATCH (s:Source {id: $id})-[a:ATTESTS]->(c:OwnershipClaim) WHERE c.time_unclear IS NULL "
        "OPTIONAL MATCH (c)-[:ABOUT]->(svc:Service) "
        "OPTIONAL MATCH (c)-[:NAMES_OWNER]->(p:Person) "
        "RETURN c.id AS claim, a.quote AS quote, c.effective_at AS effective_at, "
        "svc.id AS service, svc.name AS service_name, p.id AS owner, "
        "coalesce(p.name, c.unlisted_owner) AS owner_name ORDER BY claim",
        {"id": record},
    )


def source_decisions(store: Store, record: str) -> list[Row]:
    """Decisions a record states, with their quote."""
    return store.read(
        "MATCH (d:Decision)-[st:STATED_IN]->(s:Source {id: $id}) "
        "RETURN d.id AS id, d.title AS title, d.status AS status, st.quote AS quote "
        "ORDER BY id",
        {"id": record},
    )


def source_rejections(store: Store, record: str) -> list[Row]:
    """What the checks refused to draw from a record, each with the check that refused it."""
    return store.read(
        "MATCH (s:Source {id: $id})<-[:REJECTED_FROM]-(r:Rejection) "
        "RETURN r.id AS id, r.check AS check, r.reason AS reason, r.fact_json AS fact_json "
        "ORDER BY id",
        {"id": record},
    )


def source_acls(store: Store, ids: list[str]) -> dict[str, list[str] | None]:
    """id -> acl of these records (absent ids are left out)."""
    rows = store.read(
        "UNWIND $ids AS id MATCH (s:Source {id: id}) RETURN s.id AS id, s.acl AS acl",
        {"ids": ids},
    )
    return {r["id"]: r["acl"] for r in rows}


# -- a node and its neighbours -----------------------------------------------------------


def node(store: Store, label: str, node_id: str) -> Row | None:
    rows = store.read(f"MATCH (n:{ident(label)} {{id: $id}}) RETURN n", {"id": node_id})
    return rows[0]["n"] if rows else None


def neighbours(store: Store, label: str, node_id: str, limit: int, skip: int = 0) -> list[Row]:
    """The nodes one step away, with the relationship and its direction: `limit` of them,
    after the first `skip`, in a fixed order."""
    return store.read(
        f"MATCH (n:{ident(label)} {{id: $id}})-[r]-(m) "
        "RETURN labels(m) AS labels, m.id AS id, "
        "coalesce(m.name, m.title, m.subject, m.relation, m.id) AS name, "
        "type(r) AS rel, startNode(r) = n AS outgoing, m.acl AS acl "
        "ORDER BY rel, id, outgoing, labels SKIP $skip LIMIT $limit",
        {"id": node_id, "limit": limit, "skip": skip},
    )


def gating_sources(store: Store, label: str, ids: list[str]) -> list[Row]:
    """For claims, decisions, findings and rejections: the records they come from (and the
    record a relation finding points at), whose acl decides who may see them (id, acl; one
    row per record)."""
    if label == "OwnershipClaim":
        cypher = (
            "UNWIND $ids AS id MATCH (c:OwnershipClaim {id: id})<-[:ATTESTS]-(s:Source) "
            "RETURN c.id AS id, s.acl AS acl"
        )
    elif label == "Decision":
        cypher = (
            "UNWIND $ids AS id MATCH (d:Decision {id: id})-[:STATED_IN]->(s:Source) "
            "RETURN d.id AS id, s.acl AS acl"
        )
    elif label == "Finding":
        cypher = (  # under a record, or under a decision (a company one states its record);
            # a relation's target record decides too (its value is that record's id)
            "UNWIND $ids AS id MATCH (f:Finding {id: id})<-[:HAS_FINDING]-(e) "
            "OPTIONAL MATCH (e)-[:STATED_IN]->(s:Source) "
            "OPTIONAL MATCH (t:Source {id: f.value}) WHERE f.kind = 'relation' "
            "UNWIND [coalesce(e.acl, s.acl), t.acl] AS acl "
            "RETURN f.id AS id, acl"
        )
    elif label == "Rejection":
        cypher = (
            "UNWIND $ids AS id MATCH (r:Rejection {id: id})-[:REJECTED_FROM]->(s:Source) "
            "RETURN r.id AS id, s.acl AS acl"
        )
    else:
        return []
    return store.read(cypher, {"ids": ids})


def has_node(store: Store, label: str, node_id: str) -> bool:
    """Is there a node with this label and id? (an indexed lookup)"""
    rows = store.read(f"MATCH (n:{ident(label)} {{id: $id}}) RETURN count(n) AS n", {"id": node_id})
    return bool(rows and rows[0]["n"])


# -- a repository ------------------------------------------------------------------------


def commits(store: Store, repo: str, limit: int, before_ms: int | None = None) -> list[Row]:
    """A repository's commits, newest landing first."""
    return store.read(
        "MATCH (c:Commit {repo: $repo}) WHERE c.subject IS NOT NULL "
        "AND ($before IS NULL OR coalesce(c.landed_ms, c.committer_ms) < $before) "
        "OPTIONAL MATCH (a:Person)-[:AUTHORED]->(c) "
        "RETURN c.id AS id, c.subject AS subject, c.landed_at AS landed_at, "
        "coalesce(c.landed_ms, c.committer_ms) AS landed_ms, a.id AS author, "
        "a.name AS author_name, coalesce(a.is_agent, false) AS author_is_agent "
        "ORDER BY landed_ms DESC, id LIMIT $limit",
        {"repo": repo, "limit": limit, "before": before_ms},
    )


# -- the board ---------------------------------------------------------------------------


def board_item(board: Store, item_id: str) -> Row | None:
    rows = board.read(
        "MATCH (s:Item {id: $id}) OPTIONAL MATCH (s)-[:FOUND]->(f:Finding) "
        "RETURN s AS item, collect(f) AS findings",
        {"id": item_id},
    )
    return rows[0] if rows else None


def board_statuses(board: Store) -> list[Row]:
    """One small row per item, for the live refresh."""
    return board.read(
        "MATCH (s:Item) RETURN s.id AS id, s.status AS status, s.claimed_by AS claimed_by, "
        "s.done_by AS done_by ORDER BY s.order"
    )


def board_handoff(board: Store, handoff_id: str) -> Any:
    rows = board.read("MATCH (h:Handoff {id: $id}) RETURN h", {"id": handoff_id})
    return rows[0]["h"] if rows else None
