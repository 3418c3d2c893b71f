"""Cypher for the keyword baseline of `brain eval ab`: every record a plain text search can
read, with its text, so that BM25 and the graph tools work from the same records."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from companybrain.graph.connection import Row, Store


def keyword_records(store: Store) -> list[Row]:
    """Company records, repository decisions, commits and agent instruction versions:
    id, kind, title, text and acl (None: everyone may see it)."""
    rows = store.read(
        "MATCH (s:Source) RETURN s.id AS id, s.kind AS kind, s.title AS title, "
        "s.text AS text, s.acl AS acl ORDER BY id"
    )
    rows += store.read(
        "MATCH (d:Decision) WHERE d.text IS NOT NULL "
        "RETURN d.id AS id, 'decision' AS kind, d.title AS title, d.text AS text, "
        "null AS acl ORDER BY id"
    )
    rows += store.read(
        "MATCH (c:Commit) WHERE c.message IS NOT NULL "
        "RETURN c.id AS id, 'commit' AS kind, c.subject AS title, c.message AS text, "
        "null AS acl ORDER BY id"
    )
    rows += store.read(
        "MATCH (i:Instruction) WHERE i.text IS NOT NULL "
        "RETURN i.id AS id, 'instruction' AS kind, i.file AS title, i.text AS text, "
        "null AS acl ORDER BY id"
    )
    return rows
