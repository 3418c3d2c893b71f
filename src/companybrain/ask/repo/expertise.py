"""Who knows a file, from its history: authors count fully, co-authors half; each commit
counts once plus a little for the lines it changed. Agents are listed, never experts.
The bus factor is how many people hold more than half of the knowledge. Pure."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

ROLE_WEIGHT = {"AUTHORED": 1.0, "CO_AUTHORED": 0.5}


@dataclass(frozen=True)
class Expert:
    id: str
    name: str
    score: float
    commits: int
    lines: int
    last_ms: int | None
    is_agent: bool

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "name": self.name, "score": self.score, "commits": self.commits}


def rank(rows: list[dict[str, Any]]) -> tuple[list[Expert], list[Expert]]:
    """(people, agents), each highest score first. rows: id, name, is_agent, role, commits,
    lines, last_ms."""
    acc: dict[str, dict[str, Any]] = {}
    for r in rows:
        weight = ROLE_WEIGHT.get(r["role"], 0.0)
        a = acc.setdefault(
            r["id"],
            {"name": r["name"] or r["id"], "score": 0.0, "commits": 0, "lines": 0,
             "last_ms": None, "is_agent": bool(r["is_agent"])},
        )  # fmt: skip
        a["score"] += weight * (r["commits"] + 0.25 * math.log2(1 + (r["lines"] or 0)))
        a["commits"] += r["commits"]
        a["lines"] += r["lines"] or 0
        if r["last_ms"] is not None:
            a["last_ms"] = max(a["last_ms"] or 0, r["last_ms"])
    experts = [
        Expert(pid, a["name"], round(a["score"], 2), a["commits"], a["lines"], a["last_ms"],
               a["is_agent"])
        for pid, a in acc.items()
    ]  # fmt: skip
    experts.sort(key=lambda e: (-e.score, -(e.last_ms or 0), e.id))
    return [e for e in experts if not e.is_agent], [e for e in experts if e.is_agent]


def bus_factor(people: list[Expert]) -> int:
    """The fewest people who together hold more than half of the score."""
    total = sum(e.score for e in people)
    if total <= 0:
        return 0
    held = 0.0
    for n, e in enumerate(people, start=1):
        held += e.score
        if held > total / 2:
            return n
    return len(people)
