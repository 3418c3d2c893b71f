"""What a question can be about: the services, projects, people, teams and decisions the
graph knows, with every name and alias, and where a question names them."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from companybrain.graph.connection import Store
from companybrain.graph.queries import ask_q
from companybrain.policy.access import Viewer, can_see
from companybrain.policy.text import fold_name

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
        return sorted(
            {n for group in self.entities.values() for e in group.values() for n in e.names}
        )

    def mentions(self, question: str, *types: str) -> list[Mention]:
        """Entities of `types` the question names, first mention first. A mention inside a
        longer one ("payments" inside "payments api") does not count."""
        folded = f" {fold_name(question)} "
        found: list[Mention] = []
        for entity in self.of(*types):
            if entity.type == DECISION:
                names: Iterable[str] = (entity.id,)
            else:
                names = entity.names
            for name in names:
                for start, end in _spans(folded, fold_name(name)):
                    found.append(Mention(entity, start, end))
        kept = [
            m
            for m in found
            if not any(
                o.entity.id != m.entity.id
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


def load_catalog(store: Store, viewer: Viewer | None = None) -> Catalog:
    """Everything the graph knows by name. Decisions stated in a record the viewer may not
    see are left out, as if they did not exist."""
    viewer = viewer or Viewer.everyone()
    meta = ask_q.org_meta(store) or {}
    catalog = Catalog(company=meta.get("company"), timezone=meta.get("timezone") or "UTC")

    def add(entity: Entity) -> None:
        catalog.entities.setdefault(entity.type, {})[entity.id] = entity

    for row in ask_q.services(store):
        add(
            Entity(
                row["id"], SERVICE, row["name"] or row["id"], _names(row["name"], row["aliases"])
            )
        )
    for row in ask_q.projects(store):
        add(
            Entity(
                row["id"],
                PROJECT,
                row["name"] or row["id"],
                _names(row["name"], row["aliases"]),
                {"services": list(row["services"] or [])},
            )
        )
    for row in ask_q.people(store):
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
    for row in ask_q.teams(store):
        add(
            Entity(
                row["id"],
                TEAM,
                row["name"] or row["id"],
                _names(row["name"], [*(row["aliases"] or []), row["id"]]),
                {"lead": row["lead"]},
            )
        )
    for row in ask_q.decisions(store):
        if not can_see(row["acl"], viewer):
            continue
        add(
            Entity(
                row["id"],
                DECISION,
                row["title"] or row["id"],
                _names(row["title"], [row["id"]]),
                {"quote": row["quote"], "status": row["status"], "record": row["record"]},
            )
        )
    return catalog


def _names(name: str | None, aliases: Iterable[str] | None) -> tuple[str, ...]:
    return tuple(dict.fromkeys(n for n in (name, *(aliases or [])) if n and n.strip()))
