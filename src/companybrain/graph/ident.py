"""Identifiers (labels, relationship types, property names) cannot be Cypher parameters.
The few places that need one in a query string pass it through `ident`, the single gate:
it accepts only names on the fixed allow-list below, so that nothing read from data (a
front-matter key, a kind, a column header) can ever name a label, a relationship type or
a property. Values always travel as `$params`."""

from __future__ import annotations

import re
import unicodedata

from companybrain.errors import InputError

# The graph model's vocabulary (docs/graph-model.md). A new label, relationship type or
# indexed property is added here on purpose, in code review, never from data.
LABELS = frozenset(
    {
        "Agent", "Commit", "Decision", "File", "Finding", "Group", "Handoff", "Instruction",
        "InstructionSection", "Item", "Meta", "OwnershipClaim", "Person", "Project",
        "Rejection", "Service", "Source", "Team",
    }
)  # fmt: skip
RELATIONSHIPS = frozenset(
    {
        "ABOUT", "ATTESTS", "AUTHORED", "CLAIMED", "COMMENT_ON", "COMMITTED", "CONFIRMED",
        "CO_AUTHORED", "DEPENDS_ON", "FOUND", "HAS_FINDING", "HAS_SECTION", "IN_GROUP",
        "LED_BY", "MEMBER_OF", "MENTIONS", "MOTIVATED_BY", "NAMES_OWNER", "PARENT", "PART_OF",
        "RAISED", "RATIONALE", "RECORDED_IN", "REJECTED", "REJECTED_FROM", "RENAMED_TO",
        "REPLY_TO", "RESOLVED", "SET_INSTRUCTION", "STATED_IN", "SUPERSEDES", "TOUCHED",
        "WORKED_WITH",
    }
)  # fmt: skip
# Properties that index and constraint definitions name.
PROPERTIES = frozenset({"id", "key", "kind", "landed_ms", "status", "text", "title", "value"})
# Query variables that index definitions use (`FOR (n:Label) ON (n.prop)`).
VARIABLES = frozenset({"n"})
ALLOWED = LABELS | RELATIONSHIPS | PROPERTIES | VARIABLES

_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]{0,63}")


def ident(name: str) -> str:
    """`name` unchanged when it is on the allow-list; InputError for anything else."""
    if not isinstance(name, str) or not _IDENT.fullmatch(name) or name not in ALLOWED:
        raise InputError(f"not an allowed graph identifier: {name!r}")
    return name


def ident_list(var: str, props: tuple[str, ...] | list[str]) -> str:
    """`n.a, n.b` for an index definition, every part checked."""
    return ", ".join(f"{ident(var)}.{ident(p)}" for p in props)


def storable_id(value: str) -> bool:
    """Can `value` be the `id` of a node under a unique constraint? The pinned FalkorDB
    crashes (the whole server) on one with surrounding white space or a control character,
    so such values are refused or skipped before they reach it."""
    return (
        bool(value)
        and value == value.strip()
        and not any(unicodedata.category(c) == "Cc" for c in value)
    )
