"""One ingest at a time per graph. Two runs writing the same graph at once race on the same
claims and refusals (each batch replaces a record's facts) and one fails with a unique
constraint violation halfway; so every run that writes records holds a lock key beside the
graph (`Store.take_lock`), with its run id as the value.

The lock expires unless renewed, so a run killed without a chance to release it (SIGKILL,
a power cut) blocks the next one for at most LOCK_TTL_S. A thread of its own renews it every
LOCK_RENEW_S for as long as the process lives: a run may go minutes without writing (a
model proposer reading a batch, relinking a million records), and none of that may let
the lock lapse."""

from __future__ import annotations

import math
import threading
import uuid
from types import TracebackType

from companybrain.errors import BusyError, StoreError
from companybrain.graph.connection import Store

LOCK_NAME = "ingest"
# Renewals run on their own thread and connection, so neither a long write nor a slow
# durability wait (DURABLE_TIMEOUT_MS, 10 s) delays them; what can is the renewal itself
# waiting out a reconnect (CONNECT_BACKOFF_S with a connect timeout a try, about 22 s).
# Sixty seconds outlasts that twice over, and is all a killed run makes the next one wait.
LOCK_TTL_S = 60.0
LOCK_RENEW_S = 10.0


def new_run_id() -> str:
    return uuid.uuid4().hex[:12]


class IngestLock:
    """`with IngestLock(store):` holds the graph's ingest lock, or raises BusyError at once
    naming the run that holds it. `check()` raises when the lock was lost meanwhile (the
    process was paused past the expiry), so that the run stops before writing more."""

    def __init__(self, store: Store, run: str | None = None) -> None:
        self.store = store
        self.run = run or new_run_id()
        self._stop = threading.Event()
        self._lost = False
        self._thread: threading.Thread | None = None

    def __enter__(self) -> IngestLock:
        ttl_ms = int(LOCK_TTL_S * 1000)
        taken = self.store.take_lock(LOCK_NAME, self.run, ttl_ms)
        if not taken:
            holder, left_ms = self.store.lock_holder(LOCK_NAME)
            # Released (or expired) between the two commands: free to take after all.
            taken = holder is None and self.store.take_lock(LOCK_NAME, self.run, ttl_ms)
            if not taken:
                raise BusyError(busy_message(self.store.graph_name, holder, left_ms))
        self._thread = threading.Thread(target=self._renew, name="brain-ingest-lock", daemon=True)
        self._thread.start()
        return self

    def _renew(self) -> None:
        ttl_ms = int(LOCK_TTL_S * 1000)
        while not self._stop.wait(LOCK_RENEW_S):
            try:
                held = self.store.renew_lock(LOCK_NAME, self.run, ttl_ms)
            except StoreError:
                continue  # the server is away: the writes will say so; try again later
            if not held:
                self._lost = True
                return

    def check(self) -> None:
        if self._lost:
            raise StoreError(
                f"this ingest of graph {self.store.graph_name!r} (run {self.run}) lost its "
                f"lock: it was not renewed for {LOCK_TTL_S:.0f} s (the process was paused?) "
                "and another run may be writing; stopped. Run `brain ingest` again"
            )

    def __exit__(
        self,
        kind: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join()
        try:
            self.store.drop_lock(LOCK_NAME, self.run)
        except StoreError:
            if kind is None:
                raise  # otherwise the error that ended the run is the one to see
            # left behind, the lock expires within LOCK_TTL_S


def busy_message(graph: str, holder: str | None, left_ms: int) -> str:
    run = f"run {holder}" if holder else "run unknown"
    return (
        f"another ingest of graph {graph!r} is running ({run}); wait for it to finish, or, "
        f"if it was killed, its lock expires within {math.ceil(max(left_ms, 0) / 1000)} s "
        f"(at most {LOCK_TTL_S:.0f} s after it stopped) and you can run it again"
    )
