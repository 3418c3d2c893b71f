"""Who may see which record. A record with no `acl` is for everyone; one with an `acl` only
for people in one of its groups. Evidence is filtered BEFORE any policy runs, so a record
the asker may not see changes nothing in their answer and never appears in it."""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable
from dataclasses import dataclass
from typing import Any, TypeVar

T = TypeVar("T")


@dataclass(frozen=True)
class Viewer:
    """Who is asking. `groups` None means unrestricted (the CLI without --as)."""

    person: str | None = None
    groups: frozenset[str] | None = None

    @classmethod
    def everyone(cls) -> Viewer:
        return cls()

    @classmethod
    def member(cls, person: str, groups: Iterable[str]) -> Viewer:
        return cls(person=person, groups=frozenset(groups))

    @property
    def restricted(self) -> bool:
        return self.groups is not None


def can_see(acl: Collection[str] | None, viewer: Viewer) -> bool:
    """A record is visible when it has no acl, when the viewer is unrestricted, or when the
    viewer is in one of its groups. An empty acl list means no one but unrestricted viewers."""
    if acl is None or viewer.groups is None:
        return True
    return bool(set(acl) & viewer.groups)


def visible(
    items: Iterable[T], viewer: Viewer, acl_of: Callable[[T], Collection[str] | None]
) -> list[T]:
    """The items whose record the viewer may see, in their original order."""
    return [item for item in items if can_see(acl_of(item), viewer)]


def query_scope(viewer: Viewer) -> dict[str, Any]:
    """The viewer as query parameters, for queries that must leave hidden records out
    BEFORE they limit, count or rank rows: `everyone` (unrestricted) and `groups`. A row
    is kept when `$everyone OR acl IS NULL OR any(g IN acl WHERE g IN $groups)`, the same
    rule as `can_see`."""
    return {"everyone": viewer.groups is None, "groups": sorted(viewer.groups or ())}
