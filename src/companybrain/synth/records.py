"""The record stream of a synthetic company: raw records (the corpus format's keys, body in
`text`) yielded one at a time, so that any size streams to disk in flat memory.

Ownership statements of authority 60 or more come only from service directories and change
controls, whose owners the generator decides first; chat, mail and wiki add noise (stale
or wrong owners, at authorities the rules always outrank once a directory exists). A tenth
of the change controls, and a few chats and mails, are for one team only: the truth of
who owns a service depends on who asks."""

from __future__ import annotations

import random
from collections import Counter, deque
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta, timezone
from typing import Any

from companybrain.synth import names
from companybrain.synth.company import QUARTER, SPAN, START, Claim, Company, Person, Service

MIX = {"chat": 50, "comment": 14, "ticket": 12, "email": 10, "wiki": 6, "runbook": 3, "adr": 1}
OFFSETS = [UTC] + [timezone(timedelta(hours=h, minutes=m))
                            for h, m in ((2, 0), (-5, 0), (5, 30), (9, 0), (-8, 0))]  # fmt: skip
CONFLICT_RATE = 0.03  # services that get two change controls naming different owners at once
NOISY_OWNER_RATE = 0.12  # chat and mail that say (often wrongly) who owns something
RESTRICTED_RATE = 0.03
RESTRICTED_CHANGE_RATE = 0.1  # change controls only the service's team may see
SUPERSEDE_RATE = 0.3  # ADRs that replace an earlier one
MOTIVATED_RATE = 0.4  # ADRs that name a ticket as what motivated them
MAX_CHAIN = 4  # decisions in one chain of replacements, well within what trace walks
OPEN_HEADS = 1000  # the latest ADRs not yet replaced that a new one may replace


def iso(moment: datetime, rng: random.Random) -> str:
    """The instant written in a random offset: times compare as instants, not text."""
    text = moment.astimezone(rng.choice(OFFSETS)).isoformat(timespec="seconds")
    return text[:-6] + "Z" if text.endswith("+00:00") else text


class Stream:
    """Everything the generator writes, in order; `counts` says how many of each kind."""

    def __init__(
        self, company: Company, rng: random.Random, total: int, snapshots: int | None = None
    ) -> None:
        self.c = company
        self.rng = rng
        self.total = total
        # Directory snapshots per team: by default one a quarter (at most 8, fewer in a
        # small company); more are spread evenly over the two years.
        self.snapshots = snapshots or max(1, min(8, (total // 10) // max(1, len(company.teams))))
        self.every = QUARTER if self.snapshots <= 8 else SPAN / self.snapshots
        self.counts: Counter[str] = Counter()
        self.people = {p.id: p for p in company.people}
        self.team_people: dict[str, list[Person]] = {}
        for p in company.people:
            self.team_people.setdefault(p.team, []).append(p)
        self.team_services: dict[str, list[Service]] = {}
        for s in company.services:
            self.team_services.setdefault(s.team, []).append(s)
        self.said: Claim | None = None  # the ownership claim of the record being made
        self.tickets: deque[tuple[str, datetime, Service]] = deque(maxlen=500)
        self.chats: deque[tuple[str, datetime, str]] = deque(maxlen=200)
        # Decision chains: each ADR is replaced at most once and only by a later one, so
        # that what replaced what has one answer the truth can state. Kept for the truth:
        # about one record in a hundred is an ADR, a few bytes each.
        self.adr_ids: list[str] = []
        self.adr_at: dict[str, datetime] = {}
        self.heads: dict[str, tuple[datetime, int]] = {}  # not replaced yet: at, chain length
        self.older: dict[str, str] = {}  # newer -> the ADR it replaces
        self.newer: dict[str, str] = {}  # older -> the ADR that replaced it
        self.motivations: dict[str, str] = {}  # ADR -> the ticket that motivated it
        # service -> [(effective, owner)] decided before anything is written
        self.history: dict[str, list[tuple[datetime, str]]] = {}

    # -- helpers ---------------------------------------------------------------------------

    def _when(self) -> datetime:
        return START + timedelta(seconds=self.rng.randrange(int(SPAN.total_seconds())))

    def _person(self, team: str | None = None) -> Person:
        pool = self.team_people.get(team) if team and self.rng.random() < 0.7 else None
        return self.rng.choice(pool or self.c.people)

    def _service(self) -> Service:
        return self.rng.choice(self.c.services)

    def owner_at(self, service: str, at: datetime) -> str:
        owner = self.history[service][0][1]
        for effective, who in self.history[service]:
            if effective <= at:
                owner = who
        return owner

    def _emit(self, raw: dict[str, Any]) -> dict[str, Any]:
        self.counts[raw["kind"]] += 1
        return raw

    # -- the stream ------------------------------------------------------------------------

    def __iter__(self) -> Iterator[dict[str, Any]]:
        changes = list(self._plan_changes())
        structural = self.snapshots * len(self.c.teams) + len(changes)
        for q in range(self.snapshots):
            for team, _name, _lead in self.c.teams:
                yield self._emit(self._directory(team, q))
        for change in changes:
            yield self._emit(change)
        for n in range(max(0, self.total - structural)):
            yield self._emit(self._filler(n))

    def _plan_changes(self) -> Iterator[dict[str, Any]]:
        """Initial owners, then change controls moving services between people over time."""
        number = 0
        for svc in self.c.services:
            owner = self._person(svc.team).id
            self.history[svc.id] = [(START, owner)]
        budget = max(0, self.total // 50)  # change controls: about 2% of records
        for svc in self.c.services:
            if budget <= 0:
                break
            moves = self.rng.choice((0, 1, 1, 2, 3))
            times = sorted(self._when() for _ in range(moves))
            for at in times:
                if budget <= 0:
                    break
                effective = at + timedelta(days=self.rng.choice((0, 0, 1, 7, 14)))
                previous = self.owner_at(svc.id, effective)
                new = self._person(svc.team).id
                number += 1
                budget -= 1
                self.history[svc.id].append((effective, new))
                self.history[svc.id].sort()
                yield self._change(f"CC-{number:06d}", svc, at, effective, new, previous)
                if self.rng.random() < CONFLICT_RATE:
                    other = self._person().id
                    if other != new:
                        number += 1
                        budget -= 1
                        yield self._change(f"CC-{number:06d}", svc, at, effective, other, None)

    def _change(
        self, rid: str, svc: Service, at: datetime, effective: datetime, new: str, old: str | None
    ) -> dict[str, Any]:
        who = self.people[new].name
        if old and old != new and self.rng.random() < 0.5:
            text = (
                f"Ownership of the {svc.name} transfers from {self.people[old].name} to {who}. "
                "Handover notes are linked in the runbook."
            )
        else:
            text = (
                f"Change {rid} (agreed at the service council): effective "
                f"{effective.date().isoformat()}, {who} owns the {svc.name}. "
                "On-call rotation follows at the next cycle."
            )
        # Some are for the service's team only: until the next directory says so, no one
        # else may learn of the change, and their answer is the one before it.
        acl = (svc.team,) if self.rng.random() < RESTRICTED_CHANGE_RATE else ()
        self.c.add_claim(Claim(svc.id, new, rid, "change_control", effective, acl))
        raw: dict[str, Any] = {
            "id": rid, "kind": "change_control", "at": iso(at, self.rng),
            "effective_at": iso(effective, self.rng), "author": self._person().id,
            "title": f"{svc.name} ownership change", "about": [svc.id], "text": text,
        }  # fmt: skip
        self.c.add_work(svc.id, raw["author"], "wrote_doc", at)
        return raw | {"acl": list(acl)} if acl else raw

    def _directory(self, team: str, snapshot: int) -> dict[str, Any]:
        at = START + self.every * snapshot
        rid = f"DIR-{team}-{snapshot + 1:02d}"
        rows = []
        for svc in self.team_services.get(team, []):
            owner = self.owner_at(svc.id, at)
            rows.append(f"| {svc.name} | {self.people[owner].name} |")
            self.c.add_claim(Claim(svc.id, owner, rid, "service_directory", at))
        text = (
            f"Service directory for team {team}, as of {at.date().isoformat()}.\n\n"
            "| Service | Owner |\n| --- | --- |\n" + "\n".join(rows) + "\n"
        )
        return {
            "id": rid, "kind": "service_directory", "at": iso(at, self.rng),
            "title": f"Service directory: {team}", "text": text,
        }  # fmt: skip

    def _filler(self, n: int) -> dict[str, Any]:
        kind = self.rng.choices(list(MIX), weights=list(MIX.values()))[0]
        if kind == "comment" and not self.tickets:
            kind = "ticket"
        maker = getattr(self, f"_{kind}")
        self.said = None
        raw: dict[str, Any] = maker(n)
        if kind in ("chat", "email") and self.rng.random() < RESTRICTED_RATE:
            raw["acl"] = [self.people[raw["author"]].team]
            if self.said:  # what it says of an owner is for that team too
                self.said.acl = tuple(raw["acl"])
        return raw

    def _noisy_owner(self, svc: Service, at: datetime, rid: str, kind: str) -> str:
        """Someone said to own `svc`: the right owner half the time, else anyone."""
        right = self.owner_at(svc.id, at)
        who = right if self.rng.random() < 0.5 else self._person().id
        self.said = Claim(svc.id, who, rid, kind, at)
        self.c.add_claim(self.said)
        return self.people[who].name

    def _chat(self, n: int) -> dict[str, Any]:
        rid, at, author = f"MSG-{n:07d}", self._when(), self._person()
        svc = self._service()
        raw: dict[str, Any] = {"id": rid, "kind": "chat", "author": author.id,
                               "channel": f"#{author.team}"}  # fmt: skip
        if self.chats and self.rng.random() < 0.3:
            parent, parent_at, channel = self.rng.choice(self.chats)
            at = parent_at + timedelta(minutes=self.rng.randrange(1, 180))
            raw |= {"parent": parent, "channel": channel}
        opener = self.rng.choice(names.CHAT_OPENERS)
        if self.rng.random() < NOISY_OWNER_RATE:
            who = self._noisy_owner(svc, at, rid, "chat")
            text = f"{opener} pretty sure {who} owns {svc.id} now? not 100%"
            self.c.add_work(svc.id, author.id, "chat", at)
        elif self.rng.random() < 0.5:
            text = f"{opener} the {svc.name} {self.rng.choice(names.SYMPTOMS)} again :("
            self.c.add_work(svc.id, author.id, "chat", at)
        else:
            text = f"{opener} can someone look at {self.rng.choice(names.TOPICS)} today?"
        self.chats.append((rid, at, raw["channel"]))
        return raw | {"at": iso(at, self.rng), "text": text}

    def _ticket(self, n: int) -> dict[str, Any]:
        rid, at, author, svc = f"TCK-{n:07d}", self._when(), self._person(), self._service()
        symptom = self.rng.choice(names.SYMPTOMS)
        status = self.rng.choice(("open", "resolved", "resolved", "closed"))
        helper = self._person(svc.team)
        raw: dict[str, Any] = {
            "id": rid, "kind": "ticket", "at": iso(at, self.rng), "author": author.id,
            "title": f"{svc.name} {symptom}", "about": [svc.id], "status": status,
            "text": f"The {svc.name} {symptom}. Seen since {self.rng.choice(names.TOPICS)}.\n\n"
                    f"Assigned to {helper.name}; logs attached.",
        }  # fmt: skip
        if status == "resolved":
            raw["resolved_by"] = helper.id
            self.c.add_work(svc.id, helper.id, "resolved_ticket", at)
        self.tickets.append((rid, at, svc))
        return raw

    def _comment(self, n: int) -> dict[str, Any]:
        parent, parent_at, svc = self.rng.choice(self.tickets)
        svc_name = svc.name
        at = parent_at + timedelta(hours=self.rng.randrange(1, 96))
        author = self._person()
        self.c.add_work(svc.id, author.id, "commented_ticket", at)
        text = self.rng.choice((
            f"Reproduced on the {svc_name}; looks related to {self.rng.choice(names.TOPICS)}.",
            "Can't reproduce here, closing unless it comes back.",
            f"Fix is in review. {self._person().name} has context.",
            "+1 seeing this too",
        ))  # fmt: skip
        return {"id": f"CMT-{n:07d}", "kind": "comment", "at": iso(at, self.rng),
                "author": author.id, "parent": parent, "text": text}  # fmt: skip

    def _email(self, n: int) -> dict[str, Any]:
        rid, at, author, svc = f"EML-{n:07d}", self._when(), self._person(), self._service()
        topic = self.rng.choice(names.TOPICS)
        body = f"Hi all,\n\nnotes from {topic} are in the shared folder."
        if self.rng.random() < NOISY_OWNER_RATE:
            who = self._noisy_owner(svc, at, rid, "email")
            body += f"\n\nFor the record, {who} owns the {svc.name}."
        return {"id": rid, "kind": "email", "at": iso(at, self.rng), "author": author.id,
                "title": f"Re: {topic}", "text": body + "\n\nThanks"}  # fmt: skip

    def _wiki(self, n: int) -> dict[str, Any]:
        rid, at, svc = f"WIKI-{n:07d}", self._when(), self._service()
        text = f"# {svc.name}\n\nWhat it does, how to deploy it, where the dashboards are."
        if self.rng.random() < 0.3:
            text += f"\n\nThe {svc.name} is owned by {self._noisy_owner(svc, at, rid, 'wiki')}."
        return {"id": rid, "kind": "wiki", "at": iso(at, self.rng), "title": svc.name,
                "about": [svc.id], "text": text}  # fmt: skip

    def _runbook(self, n: int) -> dict[str, Any]:
        rid, at, svc = f"RB-{n:07d}", self._when(), self._service()
        text = (f"# Runbook: {svc.name}\n\n1. Check the dashboard.\n2. If it "
                f"{self.rng.choice(names.SYMPTOMS)}, restart one instance at a time.\n"
                "3. Escalate to the owning team if that does not help.")  # fmt: skip
        raw: dict[str, Any] = {
            "id": rid, "kind": "runbook", "at": iso(at, self.rng), "author": self._person().id,
            "title": f"Runbook: {svc.name}", "about": [svc.id], "text": text,
        }  # fmt: skip
        self.c.add_work(svc.id, raw["author"], "wrote_doc", at)
        return raw

    def _adr(self, n: int) -> dict[str, Any]:
        rid, at, svc = f"ADR-{n:07d}", self._when(), self._service()
        topic = self.rng.choice(names.TOPICS).removeprefix("the ")
        raw: dict[str, Any] = {
            "id": rid, "kind": "adr", "author": self._person().id,
            "title": f"Standardise {topic} for the {svc.name}", "status": "accepted",
            "about": [svc.id],
            "text": f"# {rid}\n\n## Context\n\nThe {svc.name} "
                    f"{self.rng.choice(names.SYMPTOMS)}.\n\n"
                    f"## Decision\n\nWe will standardise {topic} for the {svc.name} and review "
                    "it every quarter.\n\n## Consequences\n\nMore process, fewer surprises.\n",
        }  # fmt: skip
        length = 1
        if self.heads and self.rng.random() < SUPERSEDE_RATE:
            older = self.rng.choice(list(self.heads))
            older_at, older_length = self.heads[older]
            if older_length < MAX_CHAIN and older_at + timedelta(days=1) < START + SPAN:
                del self.heads[older]
                at = max(at, older_at + timedelta(days=1))  # a decision replaces an earlier one
                raw["supersedes"] = [older]
                self.older[rid], self.newer[older] = older, rid
                length = older_length + 1
        if self.tickets and self.rng.random() < MOTIVATED_RATE:
            ticket, ticket_at, _svc = self.rng.choice(self.tickets)
            if ticket_at <= at:
                raw["motivated_by"] = [ticket]
                self.motivations[rid] = ticket
        self.adr_ids.append(rid)
        self.adr_at[rid] = at
        self.c.add_work(svc.id, raw["author"], "wrote_doc", at)
        self.heads[rid] = (at, length)
        if len(self.heads) > OPEN_HEADS:
            del self.heads[next(iter(self.heads))]
        return raw | {"at": iso(at, self.rng)}

    def chain(self, adr: str) -> list[str]:
        """The chain of replacements `adr` is in, newest first."""
        newest = adr
        while newest in self.newer:
            newest = self.newer[newest]
        out = [newest]
        while out[-1] in self.older:
            out.append(self.older[out[-1]])
        return out
