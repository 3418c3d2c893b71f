"""The organisation of a synthetic company and the ownership history the generator decides
before writing any record, so that the truth is known independently of what ingestion reads.

Ownership truth follows the corpus contract's authority table and the documented ownership
rules (docs: highest authority wins, then the latest effective instant; two owners at the
same authority and instant are a conflict; nothing at authority 60 or more is no answer)."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta

from companybrain.synth import names

START = datetime(2025, 1, 6, 9, 0, tzinfo=UTC)
SPAN = timedelta(days=720)
NOW = START + SPAN + timedelta(days=1)  # the truth's "now": every record is written by then
QUARTER = timedelta(days=90)
MIN_AUTHORITY = 60
AUTHORITY = {
    "change_control": 90, "adr": 85, "service_directory": 80, "runbook": 70, "ticket": 60,
    "comment": 50, "email": 40, "chat": 35, "wiki": 20,
}  # fmt: skip
# Who knows a service: each record a person resolved (a ticket about it), wrote (a
# document about it: ADR, runbook, change control), commented on (a ticket about it) or
# chatted in (naming it) counts this much.
EXPERT_WEIGHTS = {"resolved_ticket": 6, "wrote_doc": 4, "commented_ticket": 2, "chat": 1}


@dataclass(frozen=True)
class Person:
    id: str
    name: str
    team: str

    @property
    def groups(self) -> tuple[str, ...]:
        return (self.team, "eng")


@dataclass(frozen=True)
class Service:
    id: str
    name: str
    team: str


@dataclass
class Claim:
    """An ownership statement the generator writes (and expects ingestion to keep)."""

    service: str
    owner: str
    record: str
    kind: str
    effective: datetime
    acl: tuple[str, ...] = ()  # the groups that may see its record; () for everyone

    @property
    def rank(self) -> tuple[int, datetime]:
        return AUTHORITY[self.kind], self.effective


@dataclass
class Company:
    name: str
    people: list[Person]
    teams: list[tuple[str, str, str]]  # id, name, lead
    services: list[Service]
    projects: list[tuple[str, str, list[str]]]  # id, name, services
    claims: dict[str, list[Claim]] = field(default_factory=dict)  # by service
    work: dict[str, Counter[str]] = field(default_factory=dict)  # service -> person -> score

    def by_team(self, team: str) -> list[Person]:
        return [p for p in self.people if p.team == team]

    def add_claim(self, claim: Claim) -> None:
        self.claims.setdefault(claim.service, []).append(claim)

    def add_work(self, service: str, person: str, path: str, at: datetime) -> None:
        if at <= NOW:  # a comment days after its ticket may come after it
            self.work.setdefault(service, Counter())[person] += EXPERT_WEIGHTS[path]

    def experts(self, service: str) -> list[tuple[str, int]]:
        """Who knows `service`, best first, by the records written about it."""
        return sorted(self.work.get(service, Counter()).items(), key=lambda kv: (-kv[1], kv[0]))

    def truth(
        self, service: str, at: datetime, groups: frozenset[str] | None = None
    ) -> dict[str, object]:
        """What the ownership rules answer for `service` at `at`, from the claims written
        (those of records someone in `groups` may see; None: everyone's)."""
        current = [
            c
            for c in self.claims.get(service, [])
            if c.effective <= at and (groups is None or not c.acl or groups & set(c.acl))
        ]
        if not current or max(AUTHORITY[c.kind] for c in current) < MIN_AUTHORITY:
            code = "NO_CLAIM" if not current else "LOW_AUTHORITY"
            return {"status": "refused", "refusal": code}
        best = max(c.rank for c in current)
        tier = [c for c in current if c.rank == best]
        owners = sorted({c.owner for c in tier})
        if len(owners) > 1:
            return {"status": "refused", "refusal": "CONFLICT",
                    "records": sorted({c.record for c in tier})}  # fmt: skip
        return {"status": "answered", "owner": owners[0],
                "records": sorted({c.record for c in tier})}  # fmt: skip


def _person_names(rng: random.Random, count: int) -> list[str]:
    """Unique full names: first and last, then with a middle initial when those run out."""
    pairs = [(f, last) for f in names.FIRST for last in names.LAST]
    rng.shuffle(pairs)
    out = [f"{f} {last}" for f, last in pairs[:count]]
    if count > len(pairs):
        extra = [(f, i, last) for f in names.FIRST for i in names.INITIALS for last in names.LAST]
        rng.shuffle(extra)
        out += [f"{f} {i}. {last}" for f, i, last in extra[: count - len(pairs)]]
    if len(out) < count:
        raise ValueError(f"at most {len(out):,} people can be generated")
    return out


def _service_names(rng: random.Random, count: int) -> list[str]:
    combos = _combos(names.SERVICE_ADJ)
    more = _combos(names.SERVICE_ADJ_MORE) if count > len(combos) else []
    if count > len(combos) + len(more):
        raise ValueError(f"at most {len(combos) + len(more):,} services can be generated")
    plain = combos[: len(names.SERVICE_ADJ) * len(names.SERVICE_NOUN)]
    rng.shuffle(plain)
    rest = combos[len(plain) :]
    rng.shuffle(rest)
    rng.shuffle(more)
    return (plain + rest + more)[:count]


def _combos(adjectives: list[str]) -> list[str]:
    """Adjective, noun and suffix, the names without a suffix first."""
    return [
        " ".join(w for w in (a, n, s) if w)
        for s in names.SERVICE_SUFFIX
        for a in adjectives
        for n in names.SERVICE_NOUN
    ]


def _slug(text: str) -> str:
    return "-".join(text.lower().replace(".", "").split())


def build_company(rng: random.Random, people: int, services: int) -> Company:
    team_count = max(2, min(len(names.TEAM) * 4, people // 8))
    teams = []
    for i in range(team_count):
        base = names.TEAM[i % len(names.TEAM)]
        suffix = "" if i < len(names.TEAM) else f" {i // len(names.TEAM) + 1}"
        teams.append((_slug(base + suffix), base + suffix))
    folks = []
    for i, full in enumerate(_person_names(rng, people)):
        folks.append(Person(id=f"{_slug(full)}", name=full, team=teams[i % team_count][0]))
    leads: dict[str, str] = {}
    for p in folks:
        leads.setdefault(p.team, p.id)
    svc = [
        Service(id=_slug(n), name=n, team=teams[i % team_count][0])
        for i, n in enumerate(_service_names(rng, services))
    ]
    project_count = max(1, services // 20)
    projects = []
    for i in range(project_count):
        base = names.PROJECT[i % len(names.PROJECT)]
        name = f"Project {base}" + (
            "" if i < len(names.PROJECT) else f" {i // len(names.PROJECT) + 1}"
        )
        deps = sorted({s.id for s in rng.sample(svc, min(3, len(svc)))})
        projects.append((_slug(name), name, deps))
    return Company(
        name="Synthetic Freight",
        people=folks,
        teams=[(tid, tname, leads.get(tid, folks[0].id)) for tid, tname in teams],
        services=svc,
        projects=projects,
    )


def org_mapping(company: Company) -> dict[str, object]:
    """org.yaml as a mapping (spec/corpus.md)."""
    return {
        "company": company.name,
        "timezone": "UTC",
        "people": [
            {
                "id": p.id,
                "name": p.name,
                "team": p.team,
                "email": f"{p.id}@synthetic.example",
                "groups": list(p.groups),
            }
            for p in company.people
        ],
        "teams": [{"id": t, "name": n, "lead": lead} for t, n, lead in company.teams],
        "services": [{"id": s.id, "name": s.name, "aliases": [s.id]} for s in company.services],
        "projects": [
            {"id": pid, "name": name, "services": deps} for pid, name, deps in company.projects
        ],
    }
