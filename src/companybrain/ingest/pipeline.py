"""read → propose → check → store. The verifier is the only way a fact reaches the graph;
everything it refuses is kept for audit. Unchanged records (same content hash, same
organisation, same proposer) are skipped, so a second run changes nothing.

Built for throughput (ingest/writer.py): records stream from the corpus, extraction runs
in worker processes while one writer sends batches of rows as single queries, with a
durability checkpoint every few batches."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from contextlib import ExitStack
from dataclasses import asdict
from pathlib import Path

from companybrain.config import Settings
from companybrain.errors import InputError
from companybrain.graph.connection import Store
from companybrain.graph.queries import ask_q, records_q
from companybrain.ingest import unread
from companybrain.ingest.corpus import CorpusStream, open_corpus
from companybrain.ingest.extract import (
    EXTRACTION_VERSION,
    Context,
    derived_links,
    file_of,
    record_hash,
    source_properties,
    stored_record,
)
from companybrain.ingest.lock import IngestLock
from companybrain.ingest.org_codec import org_digest, org_from_graph, org_to_graph
from companybrain.ingest.records import Problem
from companybrain.ingest.report import IngestReport, Progress
from companybrain.ingest.writer import PARALLEL_FROM, Writer, default_workers, run_batches
from companybrain.model.records import Org, Record
from companybrain.proposers import get_proposer

__all__ = [
    "IngestReport", "Progress", "add_typed_record", "derived_links", "finish", "ingest",
    "prune_missing", "record_hash", "source_properties", "store_records",
]  # fmt: skip


def ingest(
    store: Store,
    path: str | Path,
    settings: Settings,
    *,
    prune: bool = False,
    progress: Progress | None = None,
    workers: int | None = None,
) -> IngestReport:
    """Ingest a corpus folder, a folder of records, or one record file into `store`.
    `workers`: extraction processes (None: by the size of the input and the machine).
    Refused at once (BusyError) while another ingest of the graph runs: ingest/lock.py."""
    store.ensure_schema()
    with IngestLock(store) as lock:  # the organisation is written under it too
        report = _ingest(
            store, path, settings, lock, prune=prune, progress=progress, workers=workers
        )
    if report.stored or report.pruned or report.reread:
        store.compact_log()  # the next start loads a snapshot, not every write replayed
    return report


def _ingest(
    store: Store,
    path: str | Path,
    settings: Settings,
    lock: IngestLock,
    *,
    prune: bool,
    progress: Progress | None,
    workers: int | None,
) -> IngestReport:
    stored_org = org_from_graph(store)
    corpus = open_corpus(path, org=stored_org, max_bytes=settings.max_record_bytes)
    org = corpus.check_org  # with the people who have left, who old records still name
    assert org is not None  # open_corpus refuses a path without an organisation
    if corpus.org is not None and records_q.org_hash(store) != org_digest(corpus.org):
        org_to_graph(store, corpus.org)  # unchanged, it is not written again
    if prune and not corpus.whole_corpus:
        raise InputError("--prune needs a whole corpus folder (with org.yaml)")
    report = IngestReport(files=len(corpus.files))
    marked, read_fine = records_q.unread_records(store), set[str]()
    org_hash = org_digest(org)
    store_records(
        store,
        unread.noting(corpus.records(), marked, read_fine),
        org,
        org_hash,
        settings,
        report,
        in_corpus=corpus.whole_corpus,
        progress=progress,
        total=corpus.estimate(),
        workers=workers,
        pruning=(lambda: prune_missing(store, corpus)) if prune else None,
        lock=lock,
    )
    _read_again(store, org, org_hash, settings, report, lock, corpus.ids)
    report.read = corpus.read
    failed = report.rejected  # by the model: read, and not stored
    report.rejected = [*corpus.rejected, *failed]
    report.warnings = [*corpus.warnings, *report.warnings]  # then unlisted owners
    # refused, unless read fine from another file (beside a broken copy of it)
    refused = [p.record for p in corpus.rejected if p.record and p.record not in corpus.ids]
    refused += [p.record for p in failed if p.record]
    if corpus.whole_corpus and any(p.record is None for p in corpus.rejected):
        refused += _absent(store, corpus)[1]  # a file whose record's id could not be read
    report.kept_stored = sorted(records_q.source_states(store, refused)) if refused else []
    if corpus.whole_corpus and not prune:  # still answering: say so, and how to remove them
        report.gone = _gone(store, corpus, report)
    marks = unread.next_marks(marked, read_fine, report.kept_stored, int(time.time() * 1000))
    if marks:  # a record pruned meanwhile is no longer cited by anything
        marks = {rid: marks[rid] for rid in records_q.source_states(store, list(marks))}
    if marks != marked:
        records_q.write_unread(store, marks)
    return report


def _read_again(
    store: Store,
    org: Org,
    org_hash: str,
    settings: Settings,
    report: IngestReport,
    lock: IngestLock,
    read: set[str],
) -> None:
    """Records the graph holds that were read against another organisation, or by other
    extraction rules (a file ingested on its own, a typed record, one left out of the corpus
    without --prune) are read again from their stored text, so that their facts follow a new
    person, name, alias, authority or rule as the corpus's own records do. Checked on every
    run, so a run interrupted before this step is made good by the next. Not those this
    run `read` (a model's failure on one is not asked again)."""
    after, proposer = "", proposer_name(settings)
    while rows := records_q.sources_read_against_another_org(store, org_hash, proposer, after):
        after = rows[-1]["id"]  # each page is read again before the next is asked for
        for in_corpus in (True, False):
            records = [
                stored_record(row)
                for row in rows
                if bool(row["in_corpus"]) == in_corpus and row["id"] not in read
            ]
            if not records:
                continue
            again = IngestReport()
            store_records(
                store, records, org, org_hash, settings, again, in_corpus=in_corpus, lock=lock
            )
            report.reread += again.stored
            report.proposed += again.proposed
            report.kept += again.kept
            report.rejected_facts.update(again.rejected_facts)
            report.rejected_detail += again.rejected_detail
            report.rejected += again.rejected
            report.warnings += again.warnings


def add_typed_record(store: Store, record: Record, settings: Settings) -> IngestReport:
    """A record typed by a person: always stored as chat, whatever kind it claims, then the
    same extraction and checks as everything else."""
    org = org_from_graph(store)
    if org is None:
        raise InputError("no organisation in this graph yet: ingest a corpus with org.yaml first")
    if not (record.author or "").strip():  # stored anonymously, as "typed-<time>-"
        raise InputError("a typed record needs the person id of who typed it")
    author = org.person(record.author or "")
    if author is None or author.former:
        raise InputError(f"unknown person id {record.author!r}")
    if not any(c.isprintable() and not c.isspace() for c in record.text):  # U+200B, U+FEFF
        raise InputError("the record's text is empty: there is nothing to store")
    for sid in record.about:  # what a corpus record's `about` must name too
        if org.service(sid) is None and org.project(sid) is None:
            raise InputError(f"field `about` names unknown service or project id {sid!r}")
    with IngestLock(store) as lock:  # no other run adds this id between check and write
        return _add_chat(store, record, org, settings, lock)


def _add_chat(
    store: Store, record: Record, org: Org, settings: Settings, lock: IngestLock
) -> IngestReport:
    # A typed record is chat: it must not replace what a record of more authority says.
    if records_q.source_states(store, [record.id]):
        raise InputError(
            f"a record with id {record.id!r} exists already; a typed record cannot replace "
            "it: choose another id"
        )
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
    store_records(store, [chat], org, org_digest(org), settings, report, in_corpus=False, lock=lock)
    return report


def finish(store: Store) -> None:
    """Derived structure, rebuilt once per run: edges named by ids in front matter, and the
    who-worked-with-whom graph, so that read-only connections (MCP, agents) find it ready."""
    records_q.relink(store)
    ask_q.refresh_worked_with(store)


def store_records(
    store: Store,
    records: Iterable[Record],
    org: Org,
    org_hash: str,
    settings: Settings,
    report: IngestReport,
    *,
    in_corpus: bool,
    progress: Progress | None = None,
    total: int | None = None,
    workers: int | None = None,
    pruning: Callable[[], int] | None = None,
    lock: IngestLock | None = None,
) -> None:
    """Write `records` (any iterable: it is consumed once, in batches), then the derived
    structure, with durability checkpoints along the way (ingest/writer.py). `pruning`, a
    callable returning how many records it removed, runs after the last batch. Takes the
    graph's ingest lock unless the caller holds it (`lock`)."""
    with ExitStack() as stack:
        if lock is None:
            lock = stack.enter_context(IngestLock(store))
        _store_locked(
            store, records, org, org_hash, settings, report, lock, in_corpus=in_corpus,
            progress=progress, total=total, workers=workers, pruning=pruning,
        )  # fmt: skip


def _store_locked(
    store: Store,
    records: Iterable[Record],
    org: Org,
    org_hash: str,
    settings: Settings,
    report: IngestReport,
    lock: IngestLock,
    *,
    in_corpus: bool,
    progress: Progress | None,
    total: int | None,
    workers: int | None,
    pruning: Callable[[], int] | None,
) -> None:
    store.ensure_schema()
    ctx = Context(
        org=org, org_hash=org_hash, proposer_name=proposer_name(settings), in_corpus=in_corpus
    )
    if isinstance(records, list):
        total = len(records)
    total = total or 0
    if workers is None:
        workers = default_workers() if total >= PARALLEL_FROM else 0
    if settings.proposer != "rules":
        workers = 0  # the model proposer talks to a server from this process
    writer = Writer(store, report, progress, lock)
    try:
        with store.long_queries():  # relinking a million records takes longer than a question
            previous = writer.begin(total)
            if progress:
                progress(0, total, "")
            run_batches(writer, records, ctx, get_proposer(settings), workers=workers)
            if pruning is not None:
                report.pruned = pruning()
            unfinished = previous is not None and previous.get("complete") is False
            if report.stored or report.pruned or unfinished or previous is None:
                finish(store)
                report.warnings += [
                    Problem(
                        r["record"],
                        f"it says it replaces {r['replaces']}, written after it ({r['written']}): "
                        f"a record cannot replace one not yet written; while {r['replaces']} "
                        "would decide who owns what, owner_of refuses CONFLICT (check the id "
                        "in `supersedes`)",
                        fatal=False,
                        record=r["record"],
                    )
                    for r in records_q.replacing_later(store)
                ]
            if previous is not None and unfinished and not in_corpus:
                # records stored on their own (typed, a file) do not finish a corpus run
                # that was cut short: the graph still lacks what it had yet to write
                writer.restore(previous)
            else:
                writer.checkpoint(complete=True)
    finally:
        writer.close()
    if progress:
        progress(writer.done, max(total, writer.done), "done")


def proposer_name(settings: Settings) -> str:
    """What a record is stored as read by: the proposer and the extraction rules' version."""
    proposer = settings.proposer if settings.proposer == "rules" else f"model:{settings.model}"
    return f"{proposer}@{EXTRACTION_VERSION}"


def prune_missing(store: Store, corpus: CorpusStream) -> int:
    """Remove records that have left the corpus (after it was read through)."""
    return records_q.delete_sources(store, missing_from(store, corpus))


def _gone(store: Store, corpus: CorpusStream, report: IngestReport) -> list[str]:
    """missing_from, read only when the graph holds more corpus records than this run
    found stored (the ids of a million records take seconds to read; their count does
    not)."""
    held = report.stored + report.unchanged + len(report.kept_stored)
    return missing_from(store, corpus) if records_q.corpus_source_count(store) > held else []


def missing_from(store: Store, corpus: CorpusStream) -> list[str]:
    """Records a whole-corpus ingest stored that the corpus, read through, no longer holds.
    A record whose file failed to read this time may still be there: it is not missing, nor
    is one a refusal names (its file renamed since it was stored)."""
    return _absent(store, corpus)[0]


def _absent(store: Store, corpus: CorpusStream) -> tuple[list[str], list[str]]:
    """Records stored from the corpus that this run, read through, did not read: those
    missing from it, and those from files (or folders) that failed to read."""
    present = corpus.ids | {p.record for p in corpus.rejected if p.record}
    broken = [_within(corpus.path, file_of(p.where)) for p in corpus.rejected]
    missing: list[str] = []
    unread: list[str] = []
    for sid, origin in sorted(records_q.corpus_sources(store).items()):
        if sid not in present:
            (unread if _in(file_of(origin), broken) else missing).append(sid)
    return missing, unread


def _within(folder: Path, file: str) -> tuple[str, ...]:
    """The parts of `file`'s path inside the corpus `folder`."""
    try:
        return Path(file).relative_to(folder).parts
    except ValueError:
        return Path(file).parts


def _in(file: str, broken: list[tuple[str, ...]]) -> bool:
    """Is `file` one of `broken`, or inside one of them (a folder that could not be read)?
    By the path within the corpus folder: a stored origin spells the folder as the run that
    stored it was given it ("corpus", "/home/kofi/corpus")."""
    parts = Path(file).parts
    return any(
        parts[end - len(b) : end] == b for b in broken for end in range(len(b), len(parts) + 1)
    )
