"""Cypher for indexes, constraints and the schema version."""

from __future__ import annotations

from typing import TYPE_CHECKING

from companybrain.graph.ident import ident, ident_list

if TYPE_CHECKING:
    from companybrain.graph.connection import Store


def read_version(store: Store) -> int | None:
    rows = store.read("MATCH (m:Meta {key: 'schema'}) RETURN m.version AS version")
    return int(rows[0]["version"]) if rows else None


def write_version(store: Store, version: int) -> None:
    store.query("MERGE (m:Meta {key: 'schema'}) SET m.version = $version", {"version": version})


def existing_indexes(store: Store) -> set[tuple[str, str, str]]:
    """(label, property, RANGE|FULLTEXT) for every node index."""
    rows = store.read(
        "CALL db.indexes() YIELD label, properties, types, entitytype "
        "WHERE entitytype = 'NODE' RETURN label, properties, types"
    )
    found: set[tuple[str, str, str]] = set()
    for row in rows:
        types = row["types"] or {}
        for prop in row["properties"] or []:
            for kind in types.get(prop, []):
                found.add((row["label"], prop, kind))
    return found


def create_range_index(store: Store, label: str, prop: str) -> None:
    store.query(f"CREATE INDEX FOR (n:{ident(label)}) ON (n.{ident(prop)})")


def create_fulltext_index(store: Store, label: str, props: tuple[str, ...]) -> None:
    store.query(f"CREATE FULLTEXT INDEX FOR (n:{ident(label)}) ON ({ident_list('n', props)})")


def existing_unique_constraints(store: Store) -> set[tuple[str, str]]:
    rows = store.read(
        "CALL db.constraints() YIELD type, label, properties, entitytype "
        "WHERE type = 'UNIQUE' AND entitytype = 'NODE' RETURN label, properties"
    )
    return {(row["label"], prop) for row in rows for prop in row["properties"]}


def create_unique_constraint(store: Store, label: str, prop: str) -> None:
    store.command(
        "GRAPH.CONSTRAINT",
        "CREATE",
        store.graph_name,
        "UNIQUE",
        "NODE",
        ident(label),
        "PROPERTIES",
        1,
        ident(prop),
    )


def constraint_statuses(store: Store) -> list[str]:
    rows = store.read("CALL db.constraints() YIELD status RETURN status")
    return [row["status"] for row in rows]


def label_counts(store: Store) -> dict[str, int]:
    rows = store.read(
        "MATCH (n) UNWIND labels(n) AS label WITH label WHERE label <> 'Meta' "
        "RETURN label, count(*) AS n ORDER BY label"
    )
    return {row["label"]: row["n"] for row in rows}


def relationship_counts(store: Store) -> dict[str, int]:
    rows = store.read("MATCH ()-[r]->() RETURN type(r) AS type, count(r) AS n ORDER BY type")
    return {row["type"]: row["n"] for row in rows}
