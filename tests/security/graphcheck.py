"""A digest of a whole graph (every node's labels and properties, every edge with its ends),
to show that hostile input changed nothing but what it was meant to write."""

from __future__ import annotations

import hashlib
import json
from typing import Any

from companybrain.graph.connection import Store


def _dump(value: Any) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=True, default=str)


def graph_rows(store: Store) -> tuple[list[str], list[str]]:
    # The ingest checkpoint (Meta {key: 'ingest'}) records every run; it is bookkeeping.
    nodes = store.read(
        "MATCH (n) WHERE NOT (n:Meta AND n.key = 'ingest') "
        "RETURN labels(n) AS labels, properties(n) AS props"
    )
    edges = store.read(
        "MATCH (a)-[r]->(b) RETURN labels(a) AS a, a.id AS a_id, a.key AS a_key, type(r) AS t, "
        "properties(r) AS props, labels(b) AS b, b.id AS b_id, b.key AS b_key"
    )
    return sorted(_dump(n) for n in nodes), sorted(_dump(e) for e in edges)


def digest(store: Store) -> str:
    nodes, edges = graph_rows(store)
    return hashlib.sha256("\n".join([*nodes, "--", *edges]).encode()).hexdigest()


def sources(store: Store) -> dict[str, dict[str, Any]]:
    rows = store.read("MATCH (s:Source) RETURN properties(s) AS p")
    return {row["p"]["id"]: row["p"] for row in rows}


def count_nodes(store: Store) -> int:
    return int(store.read("MATCH (n) RETURN count(n) AS n")[0]["n"])
