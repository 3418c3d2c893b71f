"""The graph's schema: unique ids, range indexes, the full-text index over record text and
a version kept in the graph. Created idempotently on first use and checked every time."""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from companybrain.errors import SchemaMismatch, StoreError
from companybrain.graph.queries import schema_q

if TYPE_CHECKING:
    from companybrain.graph.connection import Store

SCHEMA_VERSION = 1

# Every label whose nodes carry a stable `id`: a range index and a unique constraint each.
KEYED_LABELS = (
    "Source",  # a company record
    "OwnershipClaim",
    "Decision",
    "Person",
    "Team",
    "Service",
    "Project",
    "Group",
    "Rejection",  # a proposal the verifier refused, kept for audit
    "Commit",
    "File",
    "Instruction",  # one version of an agent instruction file
    "Agent",
    "Item",  # a work item on the board
    "Finding",
    "Handoff",
)

# Other range indexes that hot queries filter on.
RANGE_INDEXES: tuple[tuple[str, str], ...] = (
    ("Source", "kind"),
    ("Source", "supersedes"),  # which records replace one written later (records_q)
    ("Decision", "source"),  # a record's decision and refused proposals, when it is
    ("Rejection", "record"),  # rewritten or removed (records_q)
    ("Source", "parent"),  # what a record written later hangs off (records_q)
    ("Decision", "supersedes"),  # ... and the decisions that name one written later
    ("Decision", "motivated_by"),
    ("Item", "status"),
    ("Meta", "key"),
    ("Finding", "kind"),  # experiments and measurements of decisions
    ("Finding", "value"),  # `file` findings name a path (what rests on a file)
    ("Commit", "landed_ms"),  # what was on the main line at a time
)

# Full-text search over what records say.
FULLTEXT_INDEXES: tuple[tuple[str, tuple[str, ...]], ...] = (("Source", ("title", "text")),)

CONSTRAINT_WAIT_S = 10.0


def ensure(store: Store) -> None:
    """Create what is missing, then check the version. Safe to run any number of times."""
    found = schema_q.read_version(store)
    if found is not None and found != SCHEMA_VERSION:
        raise SchemaMismatch(
            f"graph {store.graph_name!r} was written by schema version {found}; this "
            f"companybrain uses version {SCHEMA_VERSION}. Re-ingest into a new graph "
            f"(--graph NAME) or clear it with `brain reset --yes --graph {store.graph_name}`."
        )
    existing = schema_q.existing_indexes(store)
    for label in KEYED_LABELS:
        if (label, "id", "RANGE") not in existing:
            _create(schema_q.create_range_index, store, label, "id")
    for label, prop in RANGE_INDEXES:
        if (label, prop, "RANGE") not in existing:
            _create(schema_q.create_range_index, store, label, prop)
    for label, props in FULLTEXT_INDEXES:
        if not all((label, p, "FULLTEXT") in existing for p in props):
            _create(schema_q.create_fulltext_index, store, label, props)
    constraints = schema_q.existing_unique_constraints(store)
    for label in KEYED_LABELS:
        if (label, "id") not in constraints:
            _create(schema_q.create_unique_constraint, store, label, "id")
    _wait_for_constraints(store)
    if found is None:
        schema_q.write_version(store, SCHEMA_VERSION)


def _create(make: Callable[..., None], *args: Any) -> None:
    """Create one index or constraint. Another process opening the same new graph (two
    `brain` commands at once) may have made it between our look and now: that is fine."""
    try:
        make(*args)
    except StoreError as exc:
        if not _ALREADY.search(str(exc)):
            raise


_ALREADY = re.compile(r"is already indexed|constraint already exists", re.IGNORECASE)


def _wait_for_constraints(store: Store) -> None:
    """Constraints are built asynchronously; a write racing one could slip a duplicate in."""
    deadline = time.monotonic() + CONSTRAINT_WAIT_S
    while time.monotonic() < deadline:
        statuses = schema_q.constraint_statuses(store)
        if "FAILED" in statuses:
            raise StoreError(
                f"a unique constraint failed to build on graph {store.graph_name!r}: "
                "it holds duplicate ids"
            )
        if all(status == "OPERATIONAL" for status in statuses):
            return
        time.sleep(0.05)
    raise StoreError(f"unique constraints on graph {store.graph_name!r} did not finish building")
