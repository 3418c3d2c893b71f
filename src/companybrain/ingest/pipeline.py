"""read → propose → check → store. The verifier is the only way a fact reaches the graph;
everything it refuses is kept for audit. Unchanged records (same content hash, same
organisation, same proposer) are skipped, so a second run changes nothing."""

from __future__ import annotations

import hashlib
import json
from dataclasses import asdict
from pathlib import Path
from typing import Any

from companybrain.config import Settings
from companybrain.errors import InputError
from companybrain.graph.connection import Store
from companybrain.graph.queries import ask_q, records_q
from companybrain.ingest.corpus import CorpusRead, read_corpus
from companybrain.ingest.org_codec import org_digest, org_from_graph, org_to_graph
from companybrain.ingest.report import IngestReport, Progress
from companybrain.ingest.times import iso, to_ms
from companybrain.model.facts import Proposal, Verified
from companybrain.model.records import Org, Project, Record, Service
from companybrain.policy.text import names_in
from companybrain.policy.verify import verify
from companybrain.proposers import get_proposer


def record_hash(record: Record, authority: int) -> str:
    """Content hash of everything a record says, with the authority of its kind."""
    data = {k: v for k, v in asdict(record).items() if k != "origin"}
    data["authority"] = authority
    return hashlib.sha256(_json(data).encode()).hexdigest()


def ingest(
    store: Store,
    path: str | Path,
    settings: Settings,
    *,
    prune: bool = False,
    progress: Progress | None = None,
) -> IngestReport:
    """Ingest a corpus folder, a folder of records, or one record file into `store`."""
    store.ensure_schema()
    stored_org = org_from_graph(store)
    corpus = read_corpus(path, org=stored_org, max_bytes=settings.max_record_bytes)
    org = corpus.org or stored_org
    assert org is not None  # read_corpus refuses a path without an organisation
    if corpus.org is not None:
        org_to_graph(store, corpus.org)
    org_hash = org_digest(org)
    report = IngestReport(
        files=corpus.files,
        read=len(corpus.records) + len(corpus.rejected),
        rejected=corpus.rejected,
        warnings=corpus.warnings,
    )
    store_records(
        store,
        corpus.records,
        org,
        org_hash,
        settings,
        report,
        in_corpus=corpus.whole_corpus,
        progress=progress,
    )
    if prune:
        if not corpus.whole_corpus:
            raise InputError("--prune needs a whole corpus folder (with org.yaml)")
        report.pruned = prune_missing(store, corpus)
    finish(store)
    return report


def add_typed_record(store: Store, record: Record, settings: Settings) -> IngestReport:
    """A record typed by a person: always stored as chat, whatever kind it claims, then the
    same extraction and checks as everything else."""
    org = org_from_graph(store)
    if org is None:
        raise InputError("no organisation in this graph yet: ingest a corpus with org.yaml first")
    if record.author and org.person(record.author) is None:
        raise InputError(f"unknown person id {record.author!r}")
    chat = Record(
        **{
            **asdict(record),
            "kind": "chat",
            "supersedes": (),
            "motivated_by": (),
            "about": tuple(record.about),
            "acl": record.acl,
        }
    )
    report = IngestReport(files=0, read=1)
    store_records(store, [chat], org, org_digest(org), settings, report, in_corpus=False)
    finish(store)
    return report


def finish(store: Store) -> None:
    """Derived structure, rebuilt once per run: edges named by ids in front matter, and the
    who-worked-with-whom graph, so that read-only connections (MCP, agents) find it ready."""
    records_q.relink(store)
    ask_q.refresh_worked_with(store)


def _json(value: object) -> str:
    return json.dumps(value, sort_keys=True, default=str, ensure_ascii=False)


def store_records(
    store: Store,
    records: list[Record],
    org: Org,
    org_hash: str,
    settings: Settings,
    report: IngestReport,
    *,
    in_corpus: bool,
    progress: Progress | None = None,
) -> None:
    propose = get_proposer(settings)
    proposer_name = settings.proposer if settings.proposer == "rules" else f"model:{settings.model}"
    states = records_q.source_states(store, [r.id for r in records])
    for done, record in enumerate(records, start=1):
        if progress:
            progress(done - 1, len(records), record.id)
        authority = org.authority_of(record.kind)
        digest = record_hash(record, authority)
        state = states.get(record.id)
        if (
            state
            and state["hash"] == digest
            and state["org_hash"] == org_hash
            and state["proposer"] == proposer_name
        ):
            report.unchanged += 1
            continue
        proposal = propose(record, org)
        verified = verify(proposal, record, org)
        _count(report, proposal, verified)
        source = source_properties(record, authority, digest, org_hash, proposer_name, in_corpus)
        records_q.replace_source(store, source, derived_links(record, org, verified, proposal))
        report.stored += 1
    if progress:
        progress(len(records), len(records), "done")


def _count(report: IngestReport, proposal: Proposal, verified: Verified) -> None:
    report.proposed += len(proposal.ownership) + len(proposal.decisions)
    report.proposed += sum(1 for r in verified.rejected if isinstance(r.fact, dict))
    report.kept += len(verified.ownership) + len(verified.decisions)
    for rejection in verified.rejected:
        report.rejected_facts[rejection.check] += 1
        report.rejected_detail.append(
            {"record": rejection.record, "check": rejection.check, "reason": rejection.reason}
        )


def source_properties(
    record: Record, authority: int, digest: str, org_hash: str, proposer: str, in_corpus: bool
) -> dict[str, Any]:
    props: dict[str, Any] = {
        "id": record.id, "kind": record.kind, "authority": authority,
        "at": iso(record.at), "at_ms": to_ms(record.at),
        "effective_at": iso(record.effective), "effective_ms": to_ms(record.effective),
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


def derived_links(
    record: Record, org: Org, verified: Verified, proposal: Proposal
) -> dict[str, Any]:
    mentions = [{"id": sid, "how": "about"} for sid in record.about]
    listed = set(record.about)
    subjects: list[Service | Project] = [*org.services, *org.projects]
    said = f"{record.title or ''}\n{record.text}"
    for subject in subjects:
        if subject.id not in listed and names_in(said, subject.names):
            mentions.append({"id": subject.id, "how": "text"})
    # One claim per (service, owner) in a record: the first quote stands for it.
    claims_by_id = {
        f"{record.id}|{f.service}|{f.owner}": {
            "id": f"{record.id}|{f.service}|{f.owner}",
            "service": f.service,
            "owner": f.owner,
            "quote": f.quote,
            "effective_at": iso(record.effective),
            "effective_ms": to_ms(record.effective),
        }
        for f in reversed(verified.ownership)
    }
    claims = list(claims_by_id.values())
    decisions = [
        {
            "id": record.id,
            "title": d.title or record.title or record.id,
            "quote": d.quote,
            "status": record.status or "accepted",
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
                r.fact if isinstance(r.fact, dict) else asdict(r.fact), sort_keys=True, default=str
            ),
            "proposer": proposal.proposer,
        }
        for i, r in enumerate(verified.rejected)
    ]
    return {
        "mentions": mentions,
        "claims": claims,
        "decisions": decisions,
        "rejections": rejections,
    }


def prune_missing(store: Store, corpus: CorpusRead) -> int:
    """Remove records that have left the corpus. A record whose file failed to read this
    time may still be there, so it stays until the file reads again."""
    present = {r.id for r in corpus.records}
    broken = {_file_of(p.where) for p in corpus.rejected}
    stale = [
        sid
        for sid, origin in records_q.corpus_sources(store).items()
        if sid not in present and _file_of(origin) not in broken
    ]
    return records_q.delete_sources(store, stale)


def _file_of(where: str) -> str:
    """`path:line` (a JSONL line) or `path` (a Markdown file) → path."""
    head, _, tail = where.rpartition(":")
    return head if head and tail.isdigit() else where
