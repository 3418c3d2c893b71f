"""A digest of a whole graph, and of what each record wrote, to compare two graphs: after a
crash and a re-run, the graph must be the one an uninterrupted run builds. Nodes are named
by their labels and properties, edges by their type, properties and the nodes at their
ends, so that internal ids (which differ between runs) play no part."""

from __future__ import annotations

import hashlib
import json
from collections import defaultdict
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from companybrain.graph.connection import Store


# Bookkeeping of a run, not data: the ingestion checkpoint names its run and clock.
BOOKKEEPING_KEYS = ("ingest",)


def _canon(value: Any) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=True, default=str)


def _node_key(labels: list[str] | None, props: dict[str, Any] | None) -> str:
    return _canon([sorted(labels or []), props or {}])


def graph_rows(store: Store) -> tuple[list[str], list[str]]:
    """Every node and every edge, each as one canonical line, sorted (run bookkeeping left
    out)."""
    nodes = store.read(
        "MATCH (n) WHERE NOT (n:Meta AND n.key IN $skip) "
        "RETURN labels(n) AS labels, properties(n) AS props",
        {"skip": list(BOOKKEEPING_KEYS)},
    )
    edges = store.read(
        "MATCH (a)-[r]->(b) RETURN labels(a) AS a_labels, properties(a) AS a_props, "
        "type(r) AS type, properties(r) AS props, labels(b) AS b_labels, properties(b) AS b_props"
    )
    node_lines = sorted(_node_key(n["labels"], n["props"]) for n in nodes)
    edge_lines = sorted(
        _canon(
            [
                _node_key(e["a_labels"], e["a_props"]),
                e["type"],
                e["props"] or {},
                _node_key(e["b_labels"], e["b_props"]),
            ]
        )
        for e in edges
    )
    return node_lines, edge_lines


def graph_digest(store: Store) -> str:
    """sha256 over every node and edge of the graph; equal digests, equal graphs."""
    nodes, edges = graph_rows(store)
    return _sha("\n".join([*nodes, "--", *edges]))


def record_digests(store: Store) -> dict[str, str]:
    """For every record (Source) id, a digest of the record and of what its own write put
    beside it: its claims (with service and owner), mentions, authors, decisions and refused
    facts. Links that a run adds at its end (comments, replies, supersession) are left out,
    so that one record can be compared between a graph cut short and a finished one."""
    parts: dict[str, list[str]] = defaultdict(list)
    for row in store.read("MATCH (s:Source) RETURN s.id AS id, properties(s) AS props"):
        parts[row["id"]].append(_canon(["source", row["props"]]))
    for row in store.read(
        "MATCH (s:Source)-[att:ATTESTS]->(c:OwnershipClaim) "
        "OPTIONAL MATCH (c)-[:ABOUT]->(svc:Service) "
        "OPTIONAL MATCH (c)-[:NAMES_OWNER]->(p:Person) "
        "RETURN s.id AS id, att.quote AS quote, properties(c) AS claim, svc.id AS service, "
        "p.id AS owner"
    ):
        parts[row["id"]].append(
            _canon(["claim", row["quote"], row["claim"], row["service"], row["owner"]])
        )
    for row in store.read(
        "MATCH (s:Source)-[r:MENTIONS]->(t) RETURN s.id AS id, r.how AS how, t.id AS target"
    ):
        parts[row["id"]].append(_canon(["mentions", row["how"], row["target"]]))
    for row in store.read(
        "MATCH (p:Person)-[r:AUTHORED|RESOLVED]->(s:Source) "
        "RETURN s.id AS id, type(r) AS type, p.id AS person"
    ):
        parts[row["id"]].append(_canon(["by", row["type"], row["person"]]))
    for row in store.read(
        "MATCH (d:Decision)-[st:STATED_IN]->(s:Source) "
        "RETURN s.id AS id, properties(d) AS decision, st.quote AS quote"
    ):
        parts[row["id"]].append(_canon(["decision", row["decision"], row["quote"]]))
    for row in store.read(
        "MATCH (r:Rejection)-[:REJECTED_FROM]->(s:Source) RETURN s.id AS id, properties(r) AS rej"
    ):
        parts[row["id"]].append(_canon(["rejected", row["rej"]]))
    return {rid: _sha("\n".join(sorted(lines))) for rid, lines in parts.items()}


def _sha(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()
