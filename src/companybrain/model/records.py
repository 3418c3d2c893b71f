"""A company's organisation and its records, as read from a corpus (spec/corpus.md)."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from datetime import datetime
from functools import cached_property
from typing import Any

# spec/corpus.md: authority belongs to the kind of source, never to what a record says.
DEFAULT_AUTHORITY: dict[str, int] = {
    "change_control": 90,
    "adr": 85,
    "service_directory": 80,
    "runbook": 70,
    "ticket": 60,
    "comment": 50,
    "email": 40,
    "chat": 35,
    "wiki": 20,
}
UNKNOWN_KIND_AUTHORITY = 0
# What org.yaml may set a kind to: the scale the defaults sit on, from an unknown kind (0) up.
# (Unchecked, 10**23 was stored as the largest 64-bit integer without a word.)
AUTHORITY_RANGE = range(0, 101)


@dataclass(frozen=True)
class Person:
    id: str
    name: str
    aliases: tuple[str, ...] = ()
    team: str | None = None
    email: str | None = None
    groups: tuple[str, ...] = ()
    # Dropped from org.yaml since an earlier ingest: records written while they were here
    # still name them (as author or owner), so they are still known by name.
    former: bool = False

    @property
    def names(self) -> tuple[str, ...]:
        """Every way text may name this person: name, first name, aliases."""
        first = self.name.split()[0] if self.name.split() else self.name
        return tuple(dict.fromkeys((self.name, first, *self.aliases)))


@dataclass(frozen=True)
class Team:
    id: str
    name: str
    lead: str | None = None
    aliases: tuple[str, ...] = ()

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys((self.name, *self.aliases)))


@dataclass(frozen=True)
class Service:
    id: str
    name: str
    aliases: tuple[str, ...] = ()

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys((self.name, *self.aliases)))


@dataclass(frozen=True)
class Project:
    id: str
    name: str
    aliases: tuple[str, ...] = ()
    services: tuple[str, ...] = ()

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys((self.name, *self.aliases)))


@dataclass(frozen=True)
class Org:
    company: str
    timezone: str = "UTC"
    people: tuple[Person, ...] = ()
    teams: tuple[Team, ...] = ()
    services: tuple[Service, ...] = ()
    projects: tuple[Project, ...] = ()
    authority: dict[str, int] = field(default_factory=lambda: dict(DEFAULT_AUTHORITY))

    def person(self, pid: str) -> Person | None:
        return self._by_id[0].get(pid)

    def service(self, sid: str) -> Service | None:
        return self._by_id[1].get(sid)

    @cached_property
    def _by_id(self) -> tuple[dict[str, Person], dict[str, Service]]:
        """People and services by id, built once: the verifier looks them up for every
        fact, and a large company has thousands (the first of a repeated id wins)."""
        people: dict[str, Person] = {}
        services: dict[str, Service] = {}
        for p in self.people:
            people.setdefault(p.id, p)
        for s in self.services:
            services.setdefault(s.id, s)
        return people, services

    def project(self, pid: str) -> Project | None:
        return next((p for p in self.projects if p.id == pid), None)

    def team(self, tid: str) -> Team | None:
        return next((t for t in self.teams if t.id == tid), None)

    def authority_of(self, kind: str) -> int:
        return self.authority.get(kind, UNKNOWN_KIND_AUTHORITY)

    def with_former(self, before: Org | None) -> Org:
        """This organisation, plus everyone `before` knew whom it no longer lists, as former
        members (no team, no groups). Without them, a record naming someone who has left
        would lose that claim on the next ingest, and an older claim would answer in its
        place: a transfer to them forgotten, the owner before it named again."""
        if before is None:
            return self
        ids = {p.id for p in self.people}
        gone = tuple(
            replace(p, team=None, groups=(), former=True) for p in before.people if p.id not in ids
        )
        return replace(self, people=self.people + gone) if gone else self


@dataclass(frozen=True)
class Record:
    """One company record. Times are timezone-aware; `effective_at` defaults to `at`."""

    id: str
    kind: str
    at: datetime
    text: str
    effective_at: datetime | None = None
    author: str | None = None
    title: str | None = None
    parent: str | None = None
    channel: str | None = None
    status: str | None = None
    supersedes: tuple[str, ...] = ()
    motivated_by: tuple[str, ...] = ()
    resolved_by: str | None = None
    about: tuple[str, ...] = ()
    acl: tuple[str, ...] | None = None  # None: everyone may see it
    origin: str = ""  # the file (and line) it came from, for messages
    extra: dict[str, Any] = field(default_factory=dict)  # fields the format does not know

    @property
    def effective(self) -> datetime:
        return self.effective_at or self.at
