"""What a question can be about: the services, projects, people, teams and decisions the
graph knows, with every name and alias, and where a question names them."""

from __future__ import annotations

import threading
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from companybrain.graph.connection import Store
from companybrain.graph.queries import ask_q, records_q
from companybrain.policy.access import Viewer, can_see
from companybrain.policy.text import NameSet, fold_name

SERVICE, PROJECT, PERSON, TEAM, DECISION = "Service", "Project", "Person", "Team", "Decision"

# Words that say nothing about which decision is meant.
_STOP = frozenset(
    str.split(
        """a an the and or of to in on for by with from into through at as is are was were be been
    being do did does we our us you your they their it its this that these those what which who
    whom why how when where there here not no did didn't don't doesn't have has had will would
    should could can may might must use used using decide decided decision decisions adr
    replaced replace replaces superseded supersede supersedes anymore still now any all"""
    )
)


@dataclass(frozen=True)
class Entity:
    id: str
    type: str
    name: str
    names: tuple[str, ...]  # every way a question may name it
    extra: dict[str, Any] = field(default_factory=dict, hash=False, compare=False)

    def subject(self) -> dict[str, str]:
        return {"id": self.id, "type": self.type, "name": self.name}


@dataclass(frozen=True)
class Mention:
    entity: Entity
    start: int
    end: int


@dataclass
class Catalog:
    company: str | None = None
    timezone: str = "UTC"
    entities: dict[str, dict[str, Entity]] = field(default_factory=dict)
    # Records whose file failed to read on a later run: ms since (ingest/unread.py).
    unread: dict[str, int] = field(default_factory=dict)
    # Set by load_catalog on a finished catalog that may be shared between questions: only
    # then are the name index and the list of names kept (a catalog built by hand may still
    # be changing).
    sealed: bool = field(default=False, repr=False, compare=False)
    _index: CatalogIndex | None = field(default=None, init=False, repr=False, compare=False)
    _names: list[str] | None = field(default=None, init=False, repr=False, compare=False)
    _name_set: NameSet | None = field(default=None, init=False, repr=False, compare=False)

    def of(self, *types: str) -> list[Entity]:
        return [e for t in types for e in self.entities.get(t, {}).values()]

    def get(self, entity_id: str, *types: str) -> Entity | None:
        for t in types or tuple(self.entities):
            found = self.entities.get(t, {}).get(entity_id)
            if found:
                return found
        return None

    def names(self) -> list[str]:
        """Every name and alias, so that a date reader can set them aside."""
        if self._names is not None:
            return list(self._names)
        names = sorted(
            {n for group in self.entities.values() for e in group.values() for n in e.names}
        )
        if self.sealed:
            self._names = names
            return list(names)
        return names

    def name_set(self) -> NameSet:
        """names(), indexed to find those a question uses (built once while sealed)."""
        if self._name_set is not None:
            return self._name_set
        found = NameSet(self.names())
        if self.sealed:
            self._name_set = found
        return found

    def mentions(self, question: str, *types: str) -> list[Mention]:
        """Entities of `types` the question names, first mention first. A mention inside a
        longer one of another entity ("payments" inside "payments api") does not count, even
        when that entity has the same id (a project may share its id with a service)."""
        folded = f" {fold_name(question)} "
        if self.sealed:
            if self._index is None:  # built once per catalog content, see load_catalog
                self._index = CatalogIndex(self)
            found = self._index.find(folded, types)
        else:
            found = []
            for entity in self.of(*types):
                for name in _match_names(entity):
                    for start, end in _spans(folded, fold_name(name)):
                        found.append(Mention(entity, start, end))
        kept = [
            m
            for m in found
            if not any(
                (o.entity.type, o.entity.id) != (m.entity.type, m.entity.id)
                and o.start <= m.start
                and m.end <= o.end
                and (o.end - o.start) > (m.end - m.start)
                for o in found
            )
        ]
        kept.sort(key=lambda m: (m.start, -(m.end - m.start)))
        unique: dict[tuple[str, str], Mention] = {}
        for m in kept:
            unique.setdefault((m.entity.type, m.entity.id), m)
        return list(unique.values())

    def decision_overlap(self, question: str, decision: Entity) -> int:
        """How many distinct significant words of the question the decision's title and
        statement use."""
        asked = significant_words(question)
        said = significant_words(f"{decision.name} {decision.extra.get('quote') or ''}")
        return len(asked & said)


def _match_names(entity: Entity) -> Iterable[str]:
    """What a question must say to name `entity`: a decision by its id only."""
    return (entity.id,) if entity.type == DECISION else entity.names


class CatalogIndex:
    """Every folded name of a catalog, looked up word run by word run in the question
    instead of searched for one by one: the cost is in the length of the question, not in
    the size of the company. `find` returns the same mentions, in the same order, as
    searching for every name of every entity of the asked types in turn."""

    def __init__(self, catalog: Catalog) -> None:
        # folded name -> (type, place of the entity in its type, place of the name, entity)
        self._by_name: dict[str, list[tuple[str, int, int, Entity]]] = {}
        for type_, group in catalog.entities.items():
            for place, entity in enumerate(group.values()):
                for which, name in enumerate(_match_names(entity)):
                    folded = fold_name(name)
                    if folded:
                        self._by_name.setdefault(folded, []).append((type_, place, which, entity))
        self._longest = max((k.count(" ") + 1 for k in self._by_name), default=0)

    def find(self, folded: str, types: tuple[str, ...]) -> list[Mention]:
        """Every mention in `folded` (` words `, as Catalog.mentions builds it) of an entity
        of `types`, in the order the plain search finds them."""
        rank = {t: i for i, t in reversed(list(enumerate(types)))}  # first place a type is asked
        words = folded.split()
        starts, at = [], 1
        for word in words:
            starts.append(at)
            at += len(word) + 1
        hits: list[tuple[int, int, int, int, Mention]] = []
        for i in range(len(words)):
            for n in range(1, min(self._longest, len(words) - i) + 1):
                key = " ".join(words[i : i + n])
                for type_, place, which, entity in self._by_name.get(key, ()):
                    if type_ in rank:
                        start = starts[i]
                        mention = Mention(entity, start, start + len(key))
                        hits.append((rank[type_], place, which, start, mention))
        hits.sort(key=lambda h: h[:4])
        return [h[4] for h in hits]


def significant_words(text: str) -> set[str]:
    return {_stem(w) for w in fold_name(text).split() if w not in _STOP and len(w) > 2}


def _stem(word: str) -> str:
    for suffix in ("ings", "ing", "es", "ed", "s"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 4:
            return word[: -len(suffix)]
    return word


def _spans(folded: str, name: str) -> list[tuple[int, int]]:
    """Every place (overlapping too) where ` name ` occurs in `folded`. Plain `find`, not a
    regular expression per name: a company has thousands of names, and compiling one
    pattern per name per question outgrows the `re` cache."""
    if not name:
        return []
    needle, spans = f" {name} ", []
    at = folded.find(needle)
    while at >= 0:
        spans.append((at + 1, at + 1 + len(name)))
        at = folded.find(needle, at + 1)
    return spans


# Catalogs built lately, each with the rows it was built from. The graph is read in full
# for every question (so nothing can be stale); only when what it returned equals, row for
# row, what a recent catalog was built from is that catalog (with its name index) reused.
_RECENT = 4
_recent: list[tuple[list[Any], Catalog]] = []
_recent_lock = threading.Lock()


# The catalog a reader last used, by graph, change marker and the viewer's groups: while
# the graph's change marker (graph/connection.py) is what it was, nothing was written, so
# the rows need not be read again. No marker (a graph written by something else): read.
_by_marker: dict[tuple[str, str, str, tuple[str, ...] | None], Catalog] = {}


def load_catalog(store: Store, viewer: Viewer | None = None) -> Catalog:
    """Everything the graph knows by name. Decisions stated in a record the viewer may not
    see are left out, as if they did not exist."""
    viewer = viewer or Viewer.everyone()
    # Read the marker BEFORE the rows: a write landing in between then only costs a re-read.
    marker = store.change_marker()
    groups = None if viewer.groups is None else tuple(sorted(viewer.groups))
    key = (store.where, store.graph_name, marker or "", groups)
    if marker is not None:
        with _recent_lock:
            found = _by_marker.get(key)
        if found is not None:
            return found
    catalog = _load(store, viewer)
    if marker is not None:
        with _recent_lock:
            if len(_by_marker) >= _RECENT * 4:  # old markers are never asked for again
                _by_marker.clear()
            _by_marker[key] = catalog
    return catalog


def _load(store: Store, viewer: Viewer) -> Catalog:
    meta = ask_q.org_meta(store) or {}
    rows: list[Any] = [
        (meta.get("company"), meta.get("timezone"), meta.get("unread")),
        ask_q.services(store),
        ask_q.projects(store),
        ask_q.people(store),
        ask_q.teams(store),
        [row for row in ask_q.decisions(store) if can_see(row["acl"], viewer)],
    ]
    with _recent_lock:
        for i, (built_from, catalog) in enumerate(_recent):
            if built_from == rows:
                _recent.insert(0, _recent.pop(i))
                return catalog
    catalog = _build(*rows)
    catalog.sealed = True
    with _recent_lock:
        _recent.insert(0, (rows, catalog))
        del _recent[_RECENT:]
    return catalog


def _build(
    meta: tuple[str | None, str | None, str | None],
    services: list[Any],
    projects: list[Any],
    people: list[Any],
    teams: list[Any],
    decisions: list[Any],
) -> Catalog:
    catalog = Catalog(
        company=meta[0], timezone=meta[1] or "UTC", unread=records_q.decode_unread(meta[2])
    )

    def add(entity: Entity) -> None:
        catalog.entities.setdefault(entity.type, {})[entity.id] = entity

    for row in services:
        add(
            Entity(
                row["id"], SERVICE, row["name"] or row["id"], _names(row["name"], row["aliases"])
            )
        )
    for row in projects:
        add(
            Entity(
                row["id"],
                PROJECT,
                row["name"] or row["id"],
                _names(row["name"], row["aliases"]),
                {"services": list(row["services"] or [])},
            )
        )
    for row in people:
        name = row["name"] or row["id"]
        first = name.split()[0] if name.split() else name
        add(
            Entity(
                row["id"],
                PERSON,
                name,
                _names(name, [first, *(row["aliases"] or []), row["id"]]),
                {"team": row["team"], "groups": list(row["groups"] or [])},
            )
        )
    for row in teams:
        add(
            Entity(
                row["id"],
                TEAM,
                row["name"] or row["id"],
                _names(row["name"], [*(row["aliases"] or []), row["id"]]),
                {"lead": row["lead"]},
            )
        )
    for row in decisions:
        add(
            Entity(
                row["id"],
                DECISION,
                row["title"] or row["id"],
                _names(row["title"], [row["id"]]),
                {
                    "quote": row["quote"],
                    "status": row["status"],
                    "record": row["record"],
                    "at_ms": row.get("at_ms"),  # when its record was written
                },
            )
        )
    return catalog


def _names(name: str | None, aliases: Iterable[str] | None) -> tuple[str, ...]:
    return tuple(dict.fromkeys(n for n in (name, *(aliases or [])) if n and n.strip()))
