"""The raw baselines benchmarks measure companybrain against, on the same graph in the same
run: the least FalkorDB work each answer needs, with none of companybrain's checks."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from companybrain.graph.connection import Row, Store


def merge_rows(store: Store, rows: list[dict[str, Any]]) -> None:
    """Batched MERGE of record rows by id, properties set as they are."""
    store.query("UNWIND $rows AS r MERGE (s:Source {id: r.id}) SET s = r", {"rows": rows})


def three_hop(store: Store, service: str) -> list[Row]:
    """Claims about a service with their source and owner: service ← claim ← source, claim → owner."""
    return store.read(
        "MATCH (svc:Service {id: $id})<-[:ABOUT]-(c:OwnershipClaim)<-[a:ATTESTS]-(s:Source) "
        "MATCH (c)-[:NAMES_OWNER]->(p:Person) "
        "RETURN c.id AS claim, s.id AS record, a.quote AS quote, p.id AS owner",
        {"id": service},
    )


def fulltext(store: Store, query: str, limit: int) -> list[Row]:
    """The full-text index alone: ids of the best `limit` records."""
    return store.read(
        "CALL db.idx.fulltext.queryNodes('Source', $q) YIELD node, score "
        "RETURN node.id AS record, score ORDER BY score DESC LIMIT $limit",
        {"q": query, "limit": limit},
    )


def memory_usage(store: Store) -> int:
    """Bytes the graph takes in the server (GRAPH.MEMORY USAGE, reported in whole MB)."""
    reply = store.command("GRAPH.MEMORY", "USAGE", store.graph_name)
    fields = dict(zip(reply[::2], reply[1::2], strict=False))
    return int(fields["total_graph_sz_mb"]) * 1024 * 1024
