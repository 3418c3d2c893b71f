"""The single writer: records in, batches of rows out to the graph, with extraction in a pool
of worker processes while the writer writes.

Flow, for each batch of BATCH records (read from a stream, never a whole list):

1. one read asks the graph for the stored hash of every record in the batch;
2. a worker hashes each record, skips those the graph holds as they are, and proposes and
   verifies the rest (pure code: `ingest/extract.py`);
3. the rows are encoded into ONE `GRAPH.QUERY` (`records_q.sources_write`) in this thread,
   and a writer thread sends it on a connection of its own while the next batch is read
   and extracted: a batch is applied whole or not at all.

At most `workers * 2` batches are being extracted and IN_FLIGHT waiting to be written, so
memory stays flat in the size of the input.

Durability and the checkpoint. After each group of batches (CHECKPOINT_S seconds of
writing) the writer asks the server to confirm that everything written so far is in its
append-only file on disk (`Store.wait_durable`: `WAITAOF 1 0`), and only then records the
checkpoint: the `Meta {key: 'ingest'}` node with how many records are durable (`durable`),
the id of the last one (`last`), the run's id and whether the run finished (`complete`).
The append-only file keeps writes in order, so a checkpoint that survives a crash never
claims more than what came before it; the wait is what lets the writer say so while it
runs. A run shorter than one group (a typed record, a small corpus) records its final
checkpoint without waiting, which with `appendfsync everysec` would cost up to a second.

So after a crash (the server killed at any moment) the graph holds every batch written
before the last checkpoint, no batch is half-applied (each is one query), and running the
same ingestion again converges: each record's stored hash says whether it needs writing,
and an unfinished run (`complete: false`) makes the next one rebuild the derived
structure even when no record changed."""

from __future__ import annotations

import os
import time
from collections import deque
from collections.abc import Iterable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor, ThreadPoolExecutor
from itertools import islice
from multiprocessing import get_context
from typing import Any

from companybrain.cycles import no_cycle_collection
from companybrain.graph.connection import Prepared, Store
from companybrain.graph.queries import records_q
from companybrain.ingest.extract import Context, Extracted, extract_batch, init_worker, work
from companybrain.ingest.lock import IngestLock
from companybrain.ingest.report import IngestReport, Progress
from companybrain.model.records import Record
from companybrain.proposers import Proposer

BATCH = 500  # records a write: one query carrying their rows (the source rows alone are 500)
CHECKPOINT_S = 5.0  # seconds of writing between durability points
IN_FLIGHT = 16  # batches handed to the writer thread and not yet written (memory bound)
DURABLE_TIMEOUT_MS = 10_000
CHECKPOINT_KEY = "ingest"
# Starting processes costs about a second: worth it only for inputs bigger than this.
PARALLEL_FROM = 4 * BATCH


def default_workers() -> int:
    """Extraction processes beside the writer: one core is the writer's and one the
    database's, so on two cores or fewer extraction stays in this process (measured: the
    pool's start and the records' trip through pickling cost more than they save there)."""
    cores = os.cpu_count() or 1
    return 0 if cores <= 2 else min(4, cores - 2)


def batches(records: Iterable[Record], size: int = BATCH) -> Iterator[list[Record]]:
    it = iter(records)
    while chunk := list(islice(it, size)):
        yield chunk


class Writer:
    """Writes batches and keeps the checkpoint; see the module docstring. Writes go through
    a connection of their own (`out`), from one thread: `WAITAOF` confirms the writes of
    the connection it is sent on, and the reads of the next batch go on beside them.
    The run holds the graph's ingest `lock` (ingest/lock.py) and its id is the run's."""

    def __init__(
        self, store: Store, report: IngestReport, progress: Progress | None, lock: IngestLock
    ) -> None:
        self.store = store
        self.out = store.for_graph(store.graph_name)
        self.report = report
        self.progress = progress
        self.lock = lock
        self.run = lock.run
        self.done = 0
        self.last = ""
        self.total = 0
        self.since = time.monotonic()  # the last durability point
        self.waited = False
        self.empty = False  # the graph held no record when the run began

    def begin(self, total: int) -> dict[str, Any] | None:
        """Mark the run started; returns the previous run's checkpoint."""
        self.total = total
        # Ids are unique within a run (the corpus refuses duplicates), so a graph that held
        # no record when the run began has no state to read for any batch of it.
        self.empty = not records_q.holds_sources(self.store)
        previous = records_q.read_checkpoint(self.store, CHECKPOINT_KEY)
        records_q.write_checkpoint(
            self.out,
            CHECKPOINT_KEY,
            {"run": self.run, "complete": False, "durable": 0, "last": "",
             "started_ms": int(time.time() * 1000)},
        )  # fmt: skip
        return previous

    def states(self, records: list[Record]) -> dict[str, dict[str, Any]]:
        if self.empty:
            return {}
        return records_q.source_states(self.store, [r.id for r in records])

    def prepare(self, states: dict[str, Any], got: Extracted) -> Prepared | None:
        """The batch's write, encoded (in the reading thread: see graph.connection.Prepared).
        Rows whose record the graph held when its state was read replace it: their old
        facts go first, in the same query."""
        if not got.rows and not got.moved:
            return None
        replaced = [row["source"]["id"] for row in got.rows if row["source"]["id"] in states]
        return records_q.sources_write(got.rows, replaced, got.moved)

    def write(self, records: list[Record], got: Extracted, prepared: Prepared | None) -> None:
        report = self.report
        report.unchanged += got.unchanged
        report.proposed += got.proposed
        report.kept += got.kept
        report.rejected_facts.update(got.rejected_facts)
        report.rejected_detail += got.rejected_detail
        report.rejected += got.failed
        report.warnings += got.warnings
        if prepared is not None:
            self.lock.check()  # a run that lost its lock writes no more
            records_q.send(self.out, prepared)
            report.stored += len(got.rows)
        self.done += len(records)
        self.last = records[-1].id if records else self.last
        if time.monotonic() - self.since >= CHECKPOINT_S:
            self.checkpoint(complete=False)
        if self.progress:
            self.progress(self.done, max(self.total, self.done), self.last)

    def checkpoint(self, *, complete: bool) -> None:
        """Everything written so far reaches the disk, then the checkpoint says so."""
        if not complete or self.waited or time.monotonic() - self.since >= CHECKPOINT_S:
            self.out.wait_durable(DURABLE_TIMEOUT_MS)
            self.waited = True
        self.since = time.monotonic()
        records_q.write_checkpoint(
            self.out,
            CHECKPOINT_KEY,
            {"run": self.run, "durable": self.done, "last": self.last, "complete": complete,
             "at_ms": int(time.time() * 1000)},
        )  # fmt: skip

    def restore(self, previous: dict[str, Any]) -> None:
        """Put back the checkpoint this run found: a run cut short, which this one does not
        complete (it claims less than what is written, so it needs no durability point)."""
        records_q.write_checkpoint(self.out, CHECKPOINT_KEY, previous)

    def close(self) -> None:
        self.out.close()


class _WriteBehind:
    """One writer thread and up to IN_FLIGHT batches queued for it: reading and extraction
    go on while the database applies a batch, and while the writer waits at a durability
    point (up to a second, until the server's next fsync). Batches are written in order;
    after a failed one, none of those queued behind it is written."""

    def __init__(self, writer: Writer) -> None:
        self.writer = writer
        self.thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="brain-writer")
        self.pending: deque[Future[None]] = deque()
        self.failed = False

    def submit(self, records: list[Record], states: dict[str, Any], got: Extracted) -> None:
        prepared = self.writer.prepare(states, got)
        while len(self.pending) >= IN_FLIGHT:
            self.pending.popleft().result()  # a failed write raises here
        self.pending.append(self.thread.submit(self._write, records, got, prepared))

    def _write(self, records: list[Record], got: Extracted, prepared: Prepared | None) -> None:
        if self.failed:
            return  # an earlier batch failed: the checkpoint must not count past it
        try:
            self.writer.write(records, got, prepared)
        except BaseException:
            self.failed = True
            raise

    def wait(self) -> None:
        while self.pending:
            self.pending.popleft().result()

    def close(self) -> None:
        try:
            self.wait()  # what was handed over is written, even when the reading failed
        finally:
            self.thread.shutdown(wait=True)


def run_batches(
    writer: Writer,
    records: Iterable[Record],
    ctx: Context,
    propose: Proposer,
    *,
    workers: int,
) -> None:
    """Extract in `workers` processes (0: in this process) while a thread writes."""
    behind = _WriteBehind(writer)
    try:
        if workers <= 0:
            chunks = batches(records)
            while True:
                # A batch read, extracted and encoded: many objects, few cycles (cycles.py).
                with no_cycle_collection():
                    chunk = next(chunks, None)
                    if chunk is None:
                        break
                    states = writer.states(chunk)
                    behind.submit(chunk, states, extract_batch(chunk, states, ctx, propose))
        else:
            _in_pool(behind, records, ctx, workers)
    finally:
        behind.close()


def _in_pool(behind: _WriteBehind, records: Iterable[Record], ctx: Context, workers: int) -> None:
    pool = ProcessPoolExecutor(
        max_workers=workers,
        mp_context=get_context("forkserver"),  # no inherited sockets to the database
        initializer=init_worker,
        initargs=(ctx,),
    )
    pending: deque[tuple[list[Record], dict[str, Any], Future[Extracted]]] = deque()
    try:
        for chunk in batches(records):
            states = behind.writer.states(chunk)
            pending.append((chunk, states, pool.submit(work, chunk, states)))
            if len(pending) >= workers * 2:
                done_chunk, done_states, future = pending.popleft()
                behind.submit(done_chunk, done_states, future.result())
        while pending:
            done_chunk, done_states, future = pending.popleft()
            behind.submit(done_chunk, done_states, future.result())
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
