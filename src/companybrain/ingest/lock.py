"""One ingest at a time per graph. Two runs writing the same graph at once race on the same
claims and refusals (each batch replaces a record's facts) and one fails with a unique
constraint violation halfway; so every run that writes records holds a lock key beside the
graph (`Store.take_lock`), with its run id as the value.

The lock expires unless renewed, so a run killed without a chance to release it (SIGKILL,
a power cut) blocks the next one for at most LOCK_TTL_S. A thread of its own renews it every
LOCK_RENEW_S for as long as the process lives: a run may go minutes without writing (a
model proposer reading a batch, relinking a million records), and none of that may let
the lock lapse.

The lock's value also names the holder's machine and process (`Holder`). A run on the same
machine whose holder's process is gone takes the lock over at once instead of waiting out
the expiry, and `brain status` calls that run interrupted, not running. A holder on another
machine, or one written in another form, is waited out: its process cannot be looked at."""

from __future__ import annotations

import math
import os
import socket
import threading
import uuid
from dataclasses import dataclass
from pathlib import Path
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


@dataclass(frozen=True)
class Holder:
    """Who holds the lock, as its value says: `RUN HOST PID` (older values: `RUN` alone)."""

    run: str
    host: str | None = None
    pid: int | None = None

    @classmethod
    def here(cls, run: str) -> Holder:
        return cls(run, socket.gethostname(), os.getpid())

    @classmethod
    def parse(cls, value: str) -> Holder:
        run, _, rest = value.partition(" ")
        host, _, pid = rest.rpartition(" ")
        if host and pid.isdigit():
            return cls(run, host, int(pid))
        return cls(value)

    def value(self) -> str:
        return " ".join([self.run, self.host or "", str(self.pid)]) if self.pid else self.run

    def gone(self) -> bool:
        """True only when the holder ran on this machine and its process has ended."""
        if self.host != socket.gethostname() or self.pid is None:
            return False
        return not process_alive(self.pid)


def process_alive(pid: int) -> bool:
    """Whether process `pid` exists and has not ended (a zombie, killed but not yet reaped
    by its parent, has ended: it will never release a lock)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # someone else's process: it exists
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return True  # no /proc to tell a zombie by: alive, as the signal said
    return stat.rpartition(")")[2].split()[:1] != ["Z"]


class IngestLock:
    """`with IngestLock(store):` holds the graph's ingest lock, or raises BusyError at once
    naming the run that holds it. `check()` raises when the lock was lost meanwhile (the
    process was paused past the expiry), so that the run stops before writing more."""

    def __init__(self, store: Store, run: str | None = None, what: str = "ingest") -> None:
        self.store = store
        self.run = run or new_run_id()
        self.what = what  # what the lock keeps to one at a time, for its messages
        self.value = Holder.here(self.run).value()
        self._stop = threading.Event()
        self._lost = False
        self._thread: threading.Thread | None = None

    def __enter__(self) -> IngestLock:
        ttl_ms = int(LOCK_TTL_S * 1000)
        taken = self.store.take_lock(LOCK_NAME, self.value, ttl_ms)
        if not taken:
            value, left_ms = self.store.lock_holder(LOCK_NAME)
            holder = Holder.parse(value) if value is not None else None
            if holder is not None and holder.gone():
                # Dropped only if still that value: of two runs taking over, one wins.
                self.store.drop_lock(LOCK_NAME, holder.value())
                holder = None
            # Released, expired or taken over since: free to take after all.
            taken = holder is None and self.store.take_lock(LOCK_NAME, self.value, ttl_ms)
            if not taken:
                raise BusyError(busy_message(self.store.graph_name, holder, left_ms, self.what))
        self._thread = threading.Thread(target=self._renew, name="brain-ingest-lock", daemon=True)
        self._thread.start()
        return self

    def _renew(self) -> None:
        ttl_ms = int(LOCK_TTL_S * 1000)
        while not self._stop.wait(LOCK_RENEW_S):
            try:
                held = self.store.renew_lock(LOCK_NAME, self.value, ttl_ms)
            except StoreError:
                continue  # the server is away: the writes will say so; try again later
            if not held:
                self._lost = True
                return

    def check(self) -> None:
        if self._lost:
            raise StoreError(
                f"this {self.what} of graph {self.store.graph_name!r} (run {self.run}) lost its "
                f"lock: it was not renewed for {LOCK_TTL_S:.0f} s (the process was paused?) "
                "and another run may be writing; stopped. Run it again"
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
            self.store.drop_lock(LOCK_NAME, self.value)
        except StoreError:
            if kind is None:
                raise  # otherwise the error that ended the run is the one to see
            # left behind, the lock expires within LOCK_TTL_S


def busy_message(graph: str, holder: Holder | None, left_ms: int, what: str = "ingest") -> str:
    run = f"run {holder.run}" if holder else "run unknown"
    if holder and holder.pid is not None:
        run += f", process {holder.pid} on {holder.host}"
    return (
        f"another {what} of graph {graph!r} is running ({run}); wait for it to finish, or, "
        f"if it was killed, its lock expires within {math.ceil(max(left_ms, 0) / 1000)} s "
        f"(at most {LOCK_TTL_S:.0f} s after it stopped) and you can run it again"
    )
