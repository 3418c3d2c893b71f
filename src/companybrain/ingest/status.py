"""What `brain status` says about the last ingest: finished, still running, or interrupted
(its checkpoint says not complete and no live run holds the lock), read from the checkpoint
(ingest/writer.py) and the lock (ingest/lock.py)."""

from __future__ import annotations

from typing import Any

from companybrain.graph.connection import Store
from companybrain.graph.queries import records_q
from companybrain.ingest.lock import LOCK_NAME, Holder
from companybrain.ingest.writer import CHECKPOINT_KEY


def last_ingest(store: Store) -> dict[str, Any] | None:
    """The last ingest of the graph (None: never ingested)."""
    mark = records_q.read_checkpoint(store, CHECKPOINT_KEY)
    value, _ = store.lock_holder(LOCK_NAME)
    holder = Holder.parse(value) if value is not None else None
    # A lock whose process is gone holds nothing: that run was killed.
    return summarize(mark, holder.run if holder and not holder.gone() else None)


def answer_warning(store: Store, *, counts: bool = True, shown: str = "this answer") -> str | None:
    """What every answer surface says beside an answer when the last ingest did not finish,
    or one is still running (None: it finished): the answer may cite a record that a later,
    unwritten one changes, and one read while batches land may mix two states of the data.
    `counts=False` for someone who may not see every record: without how many records are
    durable (that count covers records hidden from them, as in /api/status)."""
    last = last_ingest(store)
    if last is None or last["state"] == "complete":
        return None
    if last["state"] == "running":
        told = "an ingest is running"
        if counts:
            told += f" (run {last['run']}, {last['durable']} records durable so far)"
        return f"{told}; {shown} is from the records stored so far and may change when it ends"
    told = last["warning"] if counts else "last ingest did not finish: run `brain ingest` again"
    return f"{told}; {shown} is from the records it stored"


def summarize(mark: dict[str, Any] | None, holder: str | None) -> dict[str, Any] | None:
    """The checkpoint and the lock's holder as `state` (complete, running, interrupted) with
    the line to show people (`warning`, None when all is well)."""
    if mark is None and holder is None:
        return None
    mark = mark or {}  # a first run writes the organisation before its first checkpoint
    run = mark.get("run")
    durable = int(mark.get("durable") or 0)
    # A live holder is a run going on, whatever the checkpoint says: before its own first
    # checkpoint the last one is the previous run's, complete, while it writes already.
    if holder is not None:
        state, warning = "running", None
        if run != holder:  # nothing of this run is counted durable yet
            durable, mark = 0, {}
    elif mark.get("complete") is True:
        state, warning = "complete", None
    else:
        state = "interrupted"
        warning = (
            f"last ingest did not finish (run {run}, {durable} records durable): "
            "run `brain ingest` again to complete it"
        )
    return {
        "state": state,
        "run": holder if state == "running" else run,
        "durable": durable,
        "last": mark.get("last") or None,
        "at_ms": mark.get("at_ms") or mark.get("started_ms"),
        "warning": warning,
    }
