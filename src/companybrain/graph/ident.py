"""Identifiers (labels, relationship types, property names) cannot be Cypher parameters.
The few places that need one in a query string pass it through `ident`, the single gate:
it accepts only names on the fixed allow-list below, so that nothing read from data (a
front-matter key, a kind, a column header) can ever name a label, a relationship type or
a property. Values always travel as `$params`."""

from __future__ import annotations

import hashlib
import re

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
PROPERTIES = frozenset(
    {
        "id", "key", "kind", "landed_ms", "motivated_by", "parent", "record", "source",
        "status", "supersedes", "text", "title", "value",
    }
)  # fmt: skip
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


# The pinned FalkorDB also crashes (the whole server, in EnforceUniqueEntity) on a unique id
# over 4,096 bytes. Ids are limited to a quarter of that, in UTF-8 bytes: some ids are built
# from others (an ownership claim's is record|service|owner) and must stay under it too.
MAX_ID_BYTES = 1_000


def id_too_long(value: str) -> bool:
    """Is `value` over MAX_ID_BYTES in UTF-8? (Under a quarter of that in characters, it
    cannot be: the common case needs no encoding.)"""
    return (
        len(value) > MAX_ID_BYTES // 4
        and len(value.encode("utf-8", "surrogatepass")) > MAX_ID_BYTES
    )


def digest_id(value: str, keep: int = 200) -> str:
    """A stand-in for an id built from data that no id can hold (too long, a control
    character): its printable start and a digest of the whole, so that two such values
    still get two ids."""
    digest = hashlib.sha256(value.encode("utf-8", "surrogatepass")).hexdigest()[:16]
    start = _CONTROL.sub("", value[:keep]).strip()
    return f"{start}~{digest}"


# Unicode's control characters (category Cc) are exactly these two ranges: one regex search
# instead of a category lookup per character of every id read.
_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f]")


def has_control(value: str) -> bool:
    """Does `value` hold a control character (tab, line break, NUL, ...)?"""
    return _CONTROL.search(value) is not None


def storable_id(value: str) -> bool:
    """Can `value` be the `id` of a node under a unique constraint? The pinned FalkorDB
    crashes (the whole server) on one with surrounding white space, a control character or
    over MAX_ID_BYTES, so such values are refused or skipped before they reach it."""
    return (
        bool(value) and value == value.strip() and not has_control(value) and not id_too_long(value)
    )
