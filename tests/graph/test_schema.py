from __future__ import annotations

import pytest

from companybrain.errors import SchemaMismatch, StoreError
from companybrain.graph import schema
from companybrain.graph.connection import Store
from companybrain.graph.queries import schema_q


def test_schema_is_created_idempotently(store: Store) -> None:
    before = schema_q.existing_indexes(store)
    again = Store(store.settings)
    again.ensure_schema()
    assert schema_q.existing_indexes(store) == before
    for label in schema.KEYED_LABELS:
        assert (label, "id", "RANGE") in before
    assert ("Source", "text", "FULLTEXT") in before
    assert schema_q.read_version(store) == schema.SCHEMA_VERSION


def test_what_another_process_made_meanwhile_is_no_error(store: Store) -> None:
    """Two commands opening one new graph at once: both saw no index, one made it first."""
    schema._create(schema_q.create_range_index, store, "Source", "id")
    schema._create(schema_q.create_fulltext_index, store, "Source", ("title", "text"))
    schema._create(schema_q.create_unique_constraint, store, "Source", "id")


def test_unique_ids_are_enforced(store: Store) -> None:
    store.query("CREATE (:Service {id: $id})", {"id": "billing"})
    with pytest.raises(StoreError, match="unique constraint"):
        store.query("CREATE (:Service {id: $id})", {"id": "billing"})


def test_fulltext_index_finds_record_text(store: Store) -> None:
    store.query("CREATE (:Source {id: 'r1', title: 'Handover', text: 'the search index moves'})")
    rows = store.read(
        "CALL db.idx.fulltext.queryNodes('Source', $q) YIELD node RETURN node.id AS id",
        {"q": "index"},
    )
    assert rows == [{"id": "r1"}]


def test_a_different_schema_version_is_refused_clearly(store: Store) -> None:
    schema_q.write_version(store, schema.SCHEMA_VERSION + 1)
    fresh = Store(store.settings)
    with pytest.raises(SchemaMismatch, match=r"schema version 2.*brain reset --yes"):
        fresh.ensure_schema()


def test_reading_a_graph_that_does_not_exist_is_empty(settings) -> None:  # type: ignore[no-untyped-def]
    assert Store(settings.with_(graph="never_written")).read("MATCH (n) RETURN n") == []
