"""One record → the rows the graph stores for it: its content hash, its Source properties and
what is derived from it (mentions, verified claims and decisions, refusals for audit).

Plain functions of (record, organisation, previous state), no I/O, so that a pool of worker
processes can run them while the single writer batches (`extract_batch`). The proposer is
the rules one in workers; a model proposer runs in the writer's process."""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from dataclasses import dataclass, field, fields
from datetime import datetime
from typing import Any

from companybrain.cycles import no_cycle_collection
from companybrain.errors import ProposalFailed
from companybrain.ingest.records import Problem
from companybrain.ingest.times import iso, to_ms
from companybrain.model.facts import OwnershipFact, Proposal, Verified, as_proposed
from companybrain.model.records import Org, Project, Record, Service
from companybrain.policy.mentions import successor_id
from companybrain.policy.text import cut, fold_name, name_words
from companybrain.policy.unknown_owner import VACANT, shared_by
from companybrain.policy.verify import verify
from companybrain.proposers import Proposer

_RECORD_FIELDS = fields(Record)


# What the rules proposer and the verifier make of a record. Stored with each record (as
# "rules@N"), so that a record read by older rules is not "unchanged" to newer ones: bump it
# with a change that alters what a record yields, and the next ingest reads every record
# again (a graph kept the wrong claims of fixed rules until it was rebuilt).
EXTRACTION_VERSION = 15


@dataclass
class Extracted:
    """What a batch of records yields: rows to write and the counts for the report."""

    rows: list[dict[str, Any]] = field(default_factory=list)  # {"source": ..., "links": ...}
    unchanged: int = 0
    proposed: int = 0
    kept: int = 0
    rejected_facts: Counter[str] = field(default_factory=Counter)
    rejected_detail: list[dict[str, Any]] = field(default_factory=list)
    # Records the model failed on: not stored (a re-run asks again), reported as refused.
    failed: list[Problem] = field(default_factory=list)
    # Unchanged records read from another file than the graph says (renamed, or the corpus
    # folder spelled another way; not another line of the same file): {"id", "origin"}, so
    # that a file that fails to read later is known to be theirs (pipeline.missing_from).
    moved: list[dict[str, str]] = field(default_factory=list)
    # Owners named that org.yaml does not list: kept as names, and their services' answers
    # are refused until the organisation lists them; the person ingesting is told.
    warnings: list[Problem] = field(default_factory=list)


@dataclass(frozen=True)
class Context:
    """Everything extraction needs besides the record: the same for a whole run."""

    org: Org
    org_hash: str
    proposer_name: str
    in_corpus: bool


def record_hash(record: Record, authority: int) -> str:
    """Content hash of everything a record says, with the authority of its kind."""
    # Shallow on purpose (asdict deep-copies): the same JSON, a fraction of the cost.
    data = {f.name: getattr(record, f.name) for f in _RECORD_FIELDS if f.name != "origin"}
    data["authority"] = authority
    return hashlib.sha256(_json(data).encode()).hexdigest()


def unchanged(state: dict[str, Any] | None, digest: str, ctx: Context) -> bool:
    """A record ingested on its own and found in the corpus since is written once more, as
    the corpus's: then --prune removes it once it leaves, and the run counts it as held."""
    return bool(
        state
        and state["hash"] == digest
        and state["org_hash"] == ctx.org_hash
        and state["proposer"] == ctx.proposer_name
        and (state.get("in_corpus") or not ctx.in_corpus)
    )


def extract_batch(
    records: list[Record],
    states: dict[str, dict[str, Any]],
    ctx: Context,
    propose: Proposer,
) -> Extracted:
    """Hash every record; skip those the graph already holds as they are; propose and
    verify the rest."""
    out = Extracted()
    for record in records:
        authority = ctx.org.authority_of(record.kind)
        digest = record_hash(record, authority)
        state = states.get(record.id)
        if unchanged(state, digest, ctx):
            out.unchanged += 1
            if moved(state, record, ctx):
                out.moved.append({"id": record.id, "origin": record.origin})
            continue
        try:
            proposal = propose(record, ctx.org)
        except ProposalFailed as exc:
            out.failed.append(Problem(record.origin or record.id, str(exc), record=record.id))
            continue
        verified = verify(proposal, record, ctx.org)
        _count(out, proposal, verified)
        out.warnings += [
            _unlisted(record, fact, ctx.org) for fact in verified.unlisted if fact.owner != VACANT
        ]
        # Stored under another proposer name, an incomplete reading is not "unchanged" to
        # the next run, which asks again.
        name = f"{ctx.proposer_name}:incomplete" if proposal.incomplete else ctx.proposer_name
        # A corpus record changed and ingested on its own is still the corpus's (--prune
        # removes it once it leaves the corpus).
        in_corpus = ctx.in_corpus or bool(state and state.get("in_corpus"))
        source = source_properties(record, authority, digest, ctx.org_hash, name, in_corpus)
        out.rows.append(
            {"source": source, "links": derived_links(record, ctx.org, verified, proposal)}
        )
    return out


def moved(state: dict[str, Any] | None, record: Record, ctx: Context) -> bool:
    """Is an unchanged record read from another file than the graph says it came from? A
    corpus record's file is the corpus's: a copy of it ingested on its own does not move it."""
    return bool(
        state
        and (ctx.in_corpus or not state.get("in_corpus"))
        and file_of(state.get("origin") or "") != file_of(record.origin)
    )


def file_of(where: str) -> str:
    """`path:line` (a JSONL line) or `path` (a Markdown file) → path."""
    head, _, tail = where.rpartition(":")
    return head if head and tail.isdigit() else where


def _count(out: Extracted, proposal: Proposal, verified: Verified) -> None:
    out.proposed += len(proposal.ownership) + len(proposal.decisions)
    out.proposed += sum(1 for r in verified.rejected if isinstance(r.fact, dict))
    out.kept += len(verified.ownership) + len(verified.unlisted) + len(verified.decisions)
    for rejection in verified.rejected:
        out.rejected_facts[rejection.check] += 1
        out.rejected_detail.append(
            {"record": rejection.record, "check": rejection.check, "reason": rejection.reason}
        )


def _unlisted(record: Record, fact: OwnershipFact, org: Org) -> Problem:
    service = org.service(fact.service)
    name = service.name if service else fact.service
    shared = shared_by(fact.owner, org)
    listed = (
        f"org.yaml gives that name to {len(shared)} people ({', '.join(shared)})"
        if shared
        else "org.yaml lists no such person"
    )
    return Problem(
        record.origin or record.id,
        f"{record.id} names {fact.owner} as the owner of {name}, and {listed}: who owns "
        f"{name} is refused while this record decides it",
        fatal=False,
        record=record.id,
    )


def _json(value: object) -> str:
    return json.dumps(value, sort_keys=True, default=str, ensure_ascii=False)


def source_properties(
    record: Record, authority: int, digest: str, org_hash: str, proposer: str, in_corpus: bool
) -> dict[str, Any]:
    props: dict[str, Any] = {
        "id": record.id, "kind": record.kind, "authority": authority,
        "at": iso(record.at), "at_ms": to_ms(record.at),
        "effective_at": iso(record.effective), "effective_ms": to_ms(record.effective),
        # given, though equal to `at` (which a sentence's own day must then agree with)
        "effective_given": True if record.effective_at is not None else None,
        "title": record.title or "", "text": record.text, "hash": digest, "org_hash": org_hash,
        "proposer": proposer, "author": record.author, "parent": record.parent,
        "channel": record.channel, "status": record.status, "resolved_by": record.resolved_by,
        "about": list(record.about), "supersedes": list(record.supersedes),
        "motivated_by": list(record.motivated_by), "origin": record.origin,
        "in_corpus": in_corpus,
        "extra_json": _json(record.extra) if record.extra else None,
    }  # fmt: skip
    if record.acl is not None:
        props["acl"] = list(record.acl)
        props["restricted"] = True
    else:
        props["restricted"] = False
    return {k: v for k, v in props.items() if v is not None}


def stored_record(row: dict[str, Any]) -> Record:
    """A record from the properties `source_properties` stored, to be read again."""
    at = datetime.fromisoformat(row["at"])
    effective = row.get("effective_at")
    return Record(
        id=row["id"],
        kind=row["kind"],
        at=at,
        text=row["text"],
        effective_at=(
            datetime.fromisoformat(effective)
            if effective and (row.get("effective_given") or effective != row["at"])
            else None
        ),
        author=row.get("author"),
        title=row.get("title") or None,
        parent=row.get("parent"),
        channel=row.get("channel"),
        status=row.get("status"),
        supersedes=tuple(row.get("supersedes") or ()),
        motivated_by=tuple(row.get("motivated_by") or ()),
        resolved_by=row.get("resolved_by"),
        about=tuple(row.get("about") or ()),
        acl=tuple(row["acl"]) if row.get("acl") is not None else None,
        origin=row.get("origin") or "",
        extra=json.loads(row["extra_json"]) if row.get("extra_json") else {},
    )


class SubjectNames:
    """Every folded name of the organisation's services and projects, to find the ones a
    text names as whole words in one pass over its words (instead of one pass per subject:
    a company has thousands of services). Same answer as `policy.text.names_in` per
    subject: a folded name is a run of whole words of the folded text."""

    def __init__(self, org: Org) -> None:
        self.order: dict[str, int] = {}
        self.by_name: dict[str, set[str]] = {}
        self.services = frozenset(s.id for s in org.services)
        self.projects = frozenset(p.id for p in org.projects)
        subjects: list[Service | Project] = [*org.services, *org.projects]
        for position, subject in enumerate(subjects):
            self.order.setdefault(subject.id, position)
            for name in subject.names:
                folded = fold_name(name)
                if folded:
                    self.by_name.setdefault(folded, set()).add(subject.id)
        self.longest = max((len(n.split()) for n in self.by_name), default=0)
        self.first = frozenset(n.split()[0] for n in self.by_name)

    def named_in(self, text: str) -> list[str]:
        """Ids of the subjects `text` names, in the organisation's order."""
        words = name_words(text)
        found: set[str] = set()
        for start, word in enumerate(words):
            if word not in self.first:
                continue  # no name starts with this word
            for size in range(1, min(self.longest, len(words) - start) + 1):
                hit = self.by_name.get(" ".join(words[start : start + size]))
                if hit:
                    found |= hit
        return sorted(found, key=self.order.__getitem__)


_subjects: list[tuple[Org, SubjectNames]] = []


def subject_names(org: Org) -> SubjectNames:
    """The (cached, per organisation object) index of subject names."""
    if not _subjects or _subjects[0][0] is not org:
        _subjects[:] = [(org, SubjectNames(org))]
    return _subjects[0][1]


def _unclear_claims(record: Record, verified: Verified) -> list[dict[str, Any]]:
    """See derived_links: one claim per service, without its owner, whose time is unclear,
    and one for the days before the record when a change it tells as done may have come
    then ("took over last week"): one does not stand for the other."""
    since = min(record.at, record.effective, key=to_ms)
    claims = {}
    for r in reversed(verified.unclear):
        if not isinstance(r.fact, OwnershipFact):
            continue
        when = r.fact.effective or since
        before = to_ms(when) < to_ms(since)  # the days before the record was written
        cid = f"{record.id}|{r.fact.service}|(time unclear{' before' if before else ''})"
        claims[cid] = {
            "id": cid,
            "service": r.fact.service,
            "reason": r.reason,
            "quote": r.fact.quote,
            "effective_at": iso(when),
            "effective_ms": to_ms(when),
        }
    return list(claims.values())


def derived_links(
    record: Record, org: Org, verified: Verified, proposal: Proposal
) -> dict[str, Any]:
    subjects = subject_names(org)
    mentions: list[dict[str, Any]] = [{"id": sid, "how": "about"} for sid in record.about]
    listed = set(record.about)
    for sid in subjects.named_in(f"{record.title or ''}\n{record.text}"):
        if sid not in listed:
            mentions.append({"id": sid, "how": "text"})
    for m in mentions:  # which label to look the id up under (a service and a project may
        m["service"] = m["id"] in subjects.services  # share an id: then both)
        m["project"] = m["id"] in subjects.projects
    # One claim per (service, owner) in a record: the first quote stands for it.
    claims_by_id = {
        f"{record.id}|{f.service}|{f.owner}": {
            "id": f"{record.id}|{f.service}|{f.owner}",
            "service": f.service,
            "owner": f.owner,
            "quote": f.quote,
            "effective_at": iso(f.effective or record.effective),
            "effective_ms": to_ms(f.effective or record.effective),
        }
        for f in reversed(verified.ownership)
    }
    claims = list(claims_by_id.values())
    unlisted = list(
        {
            f"{record.id}|{f.service}|?{f.owner}": {
                "id": f"{record.id}|{f.service}|?{f.owner}",
                "service": f.service,
                "name": f.owner,
                "quote": f.quote,
                "effective_at": iso(f.effective or record.effective),
                "effective_ms": to_ms(f.effective or record.effective),
            }
            for f in reversed(verified.unlisted)
        }.values()
    )
    # A statement of who owns a service from a time that cannot be read (refused
    # effective_time): one claim per service, without its owner, counting from the time the
    # record was written (or its effective_at, when that is earlier: a record that dates its
    # change back speaks of the days since), so that owner_of refuses from then on instead
    # of naming the owner before it (policy/ownership.py); one kept until the service
    # changes hands to someone the record does not name, from then (policy/verify.py).
    unclear = _unclear_claims(record, verified) if verified.unclear else []
    decisions = [
        {
            "id": record.id,
            "title": d.title or record.title or record.id,
            "quote": d.quote,
            "status": record.status,  # as the record says, or none: never made up
            "supersedes": list(record.supersedes),
            "motivated_by": list(record.motivated_by),
            "at": iso(record.at),
            "at_ms": to_ms(record.at),
        }
        for d in verified.decisions[:1]  # one decision per ADR record
    ]
    rejections = [
        {
            "id": f"{record.id}#{i}",
            "check": r.check,
            "reason": r.reason,
            "fact_json": json.dumps(
                _cut_strings(as_proposed(r.fact)),
                sort_keys=True,
                default=str,
            ),
            "proposer": proposal.proposer,
        }
        for i, r in enumerate(verified.rejected)
    ]
    return {
        # who wrote or resolved it, as org.yaml knows them now (a former member's new id)
        "author": successor_id(org, record.author) if record.author else None,
        "resolved_by": successor_id(org, record.resolved_by) if record.resolved_by else None,
        "mentions": mentions,
        "claims": claims,
        "unlisted": unlisted,
        "unclear": unclear,
        "decisions": decisions,
        "rejections": rejections,
    }


def _cut_strings(value: Any) -> Any:
    """A refused fact as stored: every long text in it cut (policy/text.py `cut`)."""
    if isinstance(value, str):
        return cut(value)
    if isinstance(value, dict):
        return {k: _cut_strings(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_cut_strings(v) for v in value]
    return value


# -- worker processes ----------------------------------------------------------------------

_worker: tuple[Context, Proposer] | None = None


def init_worker(ctx: Context) -> None:
    """Runs once in each worker process: the organisation arrives once, not per batch."""
    global _worker
    from companybrain.proposers.rules import propose

    _worker = (ctx, propose)


def work(records: list[Record], states: dict[str, dict[str, Any]]) -> Extracted:
    assert _worker is not None, "init_worker did not run"
    ctx, propose = _worker
    with no_cycle_collection():  # a batch's rows hold no cycles (cycles.py)
        return extract_batch(records, states, ctx, propose)
