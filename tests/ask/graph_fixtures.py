"""Test-only Cypher that builds what ingestion never would: a claim without its source,
a claim missing a field, a quote that is not in its record, and very many claims."""

from __future__ import annotations

from companybrain.graph.connection import Store


def orphan_claim(store: Store, service: str, owner: str, effective_ms: int) -> None:
    """An OwnershipClaim with an owner and a time but no Source attesting it."""
    store.query(
        "MATCH (svc:Service {id: $service}), (p:Person {id: $owner}) "
        "CREATE (c:OwnershipClaim {id: $id, effective_at: 'unknown', effective_ms: $ms}) "
        "CREATE (c)-[:ABOUT]->(svc) CREATE (c)-[:NAMES_OWNER]->(p)",
        {"service": service, "owner": owner, "ms": effective_ms, "id": f"orphan|{service}|{owner}"},
    )


def drop_claim_field(store: Store, record: str, field: str) -> None:
    """Remove `effective_ms` from a record's claims, or `authority` from the record."""
    if field == "effective_ms":
        store.query(
            "MATCH (:Source {id: $id})-[:ATTESTS]->(c:OwnershipClaim) SET c.effective_ms = null",
            {"id": record},
        )
    elif field == "authority":
        store.query("MATCH (s:Source {id: $id}) SET s.authority = null", {"id": record})
    elif field == "owner":
        store.query(
            "MATCH (:Source {id: $id})-[:ATTESTS]->(:OwnershipClaim)-[r:NAMES_OWNER]->() DELETE r",
            {"id": record},
        )
    else:
        raise ValueError(field)


def change_quote(store: Store, record: str, quote: str) -> None:
    store.query(
        "MATCH (:Source {id: $id})-[a:ATTESTS]->(:OwnershipClaim) SET a.quote = $quote",
        {"id": record, "quote": quote},
    )


def many_chat_claims(store: Store, service: str, owner: str, n: int, start_ms: int) -> None:
    """`n` chat records, each claiming `owner` owns `service`, a minute apart."""
    store.query(
        "MATCH (svc:Service {id: $service}), (p:Person {id: $owner}) "
        "UNWIND range(1, $n) AS i "
        "CREATE (s:Source {id: 'gen-' + toString(i), kind: 'chat', authority: 35, "
        "at: 'generated', at_ms: $start + i * 60000, effective_at: 'generated', "
        "effective_ms: $start + i * 60000, title: '', text: $text}) "
        "CREATE (c:OwnershipClaim {id: 'gen-' + toString(i) + '|' + $service, "
        "effective_at: 'generated', effective_ms: $start + i * 60000}) "
        "CREATE (s)-[:ATTESTS {quote: $text}]->(c) "
        "CREATE (c)-[:ABOUT]->(svc) CREATE (c)-[:NAMES_OWNER]->(p)",
        {"service": service, "owner": owner, "n": n, "start": start_ms,
         "text": f"{owner} owns {service}"},
    )  # fmt: skip
