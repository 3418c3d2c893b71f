"""Store.prepare encodes a query's parameters ahead of sending (the ingestion encodes in its
reading thread, and its writer thread only sends): FalkorDB reads back exactly what went in."""

from __future__ import annotations

from typing import Any

from companybrain.graph.connection import Store


def test_a_prepared_write_stores_what_was_given(store: Store) -> None:
    rows: list[dict[str, Any]] = [
        {"id": 'quote " and \\ back', "text": "line\nbreak\ttab `tick` {brace} 'single' é 😀"},
        {"id": "plain", "text": "", "n": 3, "f": 1.5, "ok": True, "tags": ["a", "b"]},
    ]
    assert Store.prepare("RETURN $a", {"a": [1, "x"]}).text == 'CYPHER a=[1,"x"] RETURN $a'
    store.query(Store.prepare("UNWIND $rows AS r CREATE (p:Probe) SET p = r", {"rows": rows}))
    got = store.read("MATCH (p:Probe) RETURN properties(p) AS p ORDER BY p.id")
    assert [r["p"] for r in got] == sorted(rows, key=lambda r: r["id"])
