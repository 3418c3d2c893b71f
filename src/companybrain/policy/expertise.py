"""Who knows a subject: weighted paths from the records, summed per person, ties broken by
a who-worked-with-whom rank, and the bus factor (how few people hold most of it)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

PATH_ORDER = ("resolved_ticket", "wrote_doc", "commented_ticket", "chat")


@dataclass(frozen=True)
class PathRow:
    person: str
    name: str | None
    path: str  # one of PATH_ORDER
    weight: int
    record: str
    kind: str | None = None


@dataclass
class Expert:
    id: str
    name: str
    score: int = 0
    paths: dict[str, int] = field(default_factory=dict)  # path -> how many records
    records: list[str] = field(default_factory=list)
    rank: float = 0.0  # tie-break only

    def to_dict(self) -> dict[str, object]:
        return {
            "id": self.id,
            "name": self.name,
            "score": self.score,
            "paths": {p: self.paths[p] for p in PATH_ORDER if p in self.paths},
        }


def score_experts(rows: Iterable[PathRow]) -> list[Expert]:
    """Sum each person's path weights (each record counts once per path)."""
    experts: dict[str, Expert] = {}
    seen: set[tuple[str, str, str]] = set()
    for row in rows:
        key = (row.person, row.path, row.record)
        if key in seen:
            continue
        seen.add(key)
        expert = experts.setdefault(row.person, Expert(row.person, row.name or row.person))
        expert.score += row.weight
        expert.paths[row.path] = expert.paths.get(row.path, 0) + 1
        if row.record not in expert.records:
            expert.records.append(row.record)
    return list(experts.values())


def has_ties(experts: Iterable[Expert]) -> bool:
    scores = [e.score for e in experts]
    return len(scores) != len(set(scores))


def rank_experts(experts: Iterable[Expert], tie_break: Mapping[str, float]) -> list[Expert]:
    """Highest score first; equal scores by who-worked-with-whom rank, then by id so that
    the order is always the same."""
    ranked = list(experts)
    for expert in ranked:
        expert.rank = float(tie_break.get(expert.id, 0.0))
    return sorted(ranked, key=lambda e: (-e.score, -e.rank, e.id))


def bus_factor(experts: Iterable[Expert]) -> int:
    """The fewest people who together hold more than half of the total score."""
    scores = sorted((e.score for e in experts), reverse=True)
    total = sum(scores)
    held = 0
    for n, score in enumerate(scores, start=1):
        held += score
        if held * 2 > total:
            return n
    return len(scores)


def worked_with_pairs(participants: Iterable[tuple[str, str]]) -> list[tuple[str, str]]:
    """(a, b) in both directions for every two people who took part in the same ticket."""
    by_ticket: dict[str, set[str]] = {}
    for ticket, person in participants:
        by_ticket.setdefault(ticket, set()).add(person)
    pairs = {(a, b) for people in by_ticket.values() for a in people for b in people if a != b}
    return sorted(pairs)
