"""The one connection object the whole code base uses, and the only module that imports
`falkordb`. Embedded by default; `FALKORDB_URL` points it at a running server instead, with
the same code path from here on."""

from __future__ import annotations

import sys
import time
import uuid
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from typing import Any, TypeVar

import redis.exceptions
from falkordb import Edge, FalkorDB, Node, Path
from falkordb.helpers import stringify_param_value
from redis.backoff import NoBackoff
from redis.retry import Retry

from companybrain.config import (
    SOCKET_NAME,
    Settings,
    graph_name_problem,
    missing_graph,
    redact_url,
)
from companybrain.cycles import no_cycle_collection
from companybrain.errors import BusyError, ConfigError, InputError, StoreError
from companybrain.graph.server import LOAD_TIMEOUT_S, EmbeddedServer
from companybrain.graph.url_options import unknown_options
from companybrain.policy.text import UNSTORABLE, strings_in, unstorable

Row = dict[str, Any]
T = TypeVar("T")

# Reaching the server: a few tries with a growing pause (an embedded server that died is
# started again in between), then one clear error.
CONNECT_BACKOFF_S = (0.2, 0.5, 1.0)
CONNECT_TIMEOUT_S = 5.0
# With `Settings.bounded_replies` (the web app and the MCP server, which hold one store for
# their whole life), a reply is waited for as long as the query may run on the server
# (BRAIN_QUERY_TIMEOUT_MS, or BRAIN_QUERY_TIMEOUT_MAX_MS inside `long_queries`) and this
# much more; a server silent for longer (stopped with SIGSTOP, a paused host, a network gone
# quiet) is one StoreError instead of a request that never ends.
REPLY_MARGIN_S = 10.0
# A server still loading its data rejects every command with LOADING: wait this long.
LOADING_WAIT_S = LOAD_TIMEOUT_S
_STATUS_EVERY_S = 5.0
# A query refused because too many wait (MAX_QUEUED_QUERIES) never ran: tried again after
# these pauses, then the caller gets a BusyError.
BUSY_BACKOFF_S = (0.05, 0.1, 0.2, 0.4, 0.8)
_CONNECTION_ERRORS = (redis.exceptions.ConnectionError, redis.exceptions.TimeoutError)
COMPACT_FROM_BYTES = 1 << 20  # writes that replay in well under a second are left as they are
FORGET_WAIT_S = 60.0  # the longest `forget_deleted` waits for its rewrite


# Compare-and-act on a lock key in one step (Lua runs atomically on the server).
_RENEW = (
    "if redis.call('get', KEYS[1]) == ARGV[1] then "
    "return redis.call('pexpire', KEYS[1], ARGV[2]) else return 0 end"
)
_DROP = (
    "if redis.call('get', KEYS[1]) == ARGV[1] then "
    "return redis.call('del', KEYS[1]) else return 0 end"
)

_SCALARS = frozenset((str, int, float, bool, type(None)))


def _plain(value: Any) -> Any:
    """Client objects to plain data, so nothing above this module sees falkordb types."""
    if type(value) in _SCALARS:  # most values: one lookup (a catalog read has 140,000)
        return value
    if isinstance(value, Node):
        return {"_labels": list(value.labels or []), **(value.properties or {})}
    if isinstance(value, Edge):
        return {"_type": value.relation, **(value.properties or {})}
    if isinstance(value, Path):
        return {
            "nodes": [_plain(n) for n in value.nodes()],
            "edges": [_plain(e) for e in value.edges()],
        }
    if isinstance(value, list):
        if all(type(v) in _SCALARS for v in value):
            return value  # the client built this list for this reply alone
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    return value


@dataclass(frozen=True)
class Prepared:
    """A query with its parameters already encoded into FalkorDB's `CYPHER name=value`
    header (the client's own encoding): made by `Store.prepare` where there is CPU to
    spare, sent by `Store.query` from a thread that then only waits on the socket, instead
    of encoding under the interpreter lock while another thread computes."""

    cypher: str
    text: str


class _WarmingUp:
    """The status line on stderr while the server loads its data: said when a wait begins,
    then every few seconds, and once more when it is ready."""

    def __init__(self, where: str) -> None:
        self.where = where
        self.said_at: float | None = None
        self.last: float | None = None
        self.since = 0.0

    def __call__(self, waited: float) -> None:
        # Two loops wait in turn (the server's start, then a query), each counting from
        # its own start: the line counts from the first, until `done`, so it never goes
        # back ("11 s so far", then "9 s so far").
        if self.last is None:  # a new wait
            self.said_at, self.since = None, time.monotonic() - waited
        self.last = waited
        total = time.monotonic() - self.since
        if self.said_at is None or total - self.said_at >= _STATUS_EVERY_S:
            print(
                f"FalkorDB at {self.where} is warming up (loading its data): "
                f"waiting, {total:.0f} s so far",
                file=sys.stderr,
                flush=True,
            )
            self.said_at = total

    def done(self) -> None:
        if self.said_at is not None:
            print(
                f"FalkorDB is ready after {time.monotonic() - self.since:.1f} s",
                file=sys.stderr,
                flush=True,
            )
        self.said_at = self.last = None


class Store:
    """A connection to one graph. Every query goes through `query` with parameters.

    Faults: a server that cannot be reached is tried a few times (an embedded one that died
    is started again), then one clear StoreError; a server still loading its data is waited
    for with a status line on stderr. A write whose connection broke after it was sent is
    never sent again: it may have been applied, so the error says to run it again."""

    def __init__(self, settings: Settings, graph: str | None = None) -> None:
        self.settings = settings
        self.graph_name = graph or settings.graph
        problem = graph_name_problem(self.graph_name)
        if problem:  # from --graph, the Python API or a page's graph=: checked here, once
            raise ConfigError(f"graph {self.graph_name[:80]!r} (--graph, BRAIN_GRAPH): {problem}")
        self._warming = _WarmingUp(self.where)
        self.embedded: EmbeddedServer | None = None
        if not settings.falkordb_url:
            self.embedded = EmbeddedServer.from_settings(settings, on_wait=self._warming)
        self._schema_ready = False
        self._aof_off = False  # an external server without appendonly: see wait_durable
        self._timeout_ms: int | None = None  # set by `long_queries`
        self._long = False  # inside `long_queries`
        self._clients: dict[float | None, FalkorDB] = {}  # by how long a reply is waited for
        self._max_rows: int | None = None  # the server's RESULTSET_SIZE, read by _open
        self._resilient(self._open, repeatable=True)

    @property
    def reply_limit_s(self) -> float | None:
        """How long a reply is waited for (None: as long as it takes)."""
        if not self.settings.bounded_replies:
            return None
        ms = self.settings.query_timeout_max_ms if self._long else self.settings.query_timeout_ms
        return ms / 1000 + REPLY_MARGIN_S

    def _open(self) -> None:
        # redis-py's own retries are off: the policy of `_resilient` is the only one.
        limit = self.reply_limit_s
        found = self._clients.get(limit)
        if found is not None:  # a client of this store that waits as long
            self._db, self._graph = found, found.select_graph(self.graph_name)
            return
        options: dict[str, Any] = {
            "retry": Retry(NoBackoff(), 0),
            "socket_connect_timeout": CONNECT_TIMEOUT_S,
            "socket_timeout": limit,
        }
        if self.embedded is None:
            assert self.settings.falkordb_url
            try:
                unknown = unknown_options(self.settings.falkordb_url)
                if unknown:  # before the client connects, which is where it would fail
                    raise ValueError("the client takes no option " + ", ".join(map(repr, unknown)))
                self._db = FalkorDB.from_url(self.settings.falkordb_url, **options)
            except ValueError as exc:  # what the settings' check left to the client (?options)
                raise ConfigError(f"FALKORDB_URL {self.where!r}: {exc}") from exc
        else:
            self.embedded.ensure_running()
            self._db = FalkorDB(unix_socket_path=self.embedded.socket_path, **options)
        self._graph = self._db.select_graph(self.graph_name)
        # (a server still loading refuses this too: the client is kept only once it answers)
        self._max_rows = self._server_row_limit()
        self._clients[limit] = self._db

    def _server_row_limit(self) -> int | None:
        """The server's RESULTSET_SIZE (None: no limit, or not told): it returns no more
        rows than that and says nothing, so a reply that long may have been cut short. An
        external server's is its operator's; the embedded one may have been started with
        another BRAIN_RESULTSET_SIZE than this command's."""
        try:
            reply = self._db.connection.execute_command("GRAPH.CONFIG", "GET", "RESULTSET_SIZE")
            limit = int(reply[1])
        except (redis.exceptions.ResponseError, TypeError, ValueError, IndexError):
            return None  # not allowed to ask (an ACL), or no module: its queries will say
        return limit if limit > 0 else None

    def _reconnect(self) -> None:
        """Drop pooled connections (they point at a server that went away) and start the
        embedded server again if it died; the next command connects afresh."""
        for client in self._clients.values():
            with suppress(AttributeError, redis.exceptions.RedisError):
                client.connection.connection_pool.disconnect()
        if self.embedded is not None:
            self.embedded.ensure_running()

    def _resilient(self, call: Callable[[], T], *, repeatable: bool) -> T:
        """Run `call` under the fault policy. `repeatable` calls (reads, connecting) are
        tried again after any connection error; others only when nothing was sent. A server
        still loading, or with too many queries waiting, ran nothing: always tried again."""
        tries = busy = 0
        loading_since: float | None = None
        while True:
            try:
                result = call()
            except redis.exceptions.BusyLoadingError:
                # LOADING rejects a command without running it: always safe to repeat.
                now = time.monotonic()
                loading_since = loading_since if loading_since is not None else now
                waited = now - loading_since
                if waited > LOADING_WAIT_S:
                    raise StoreError(
                        f"FalkorDB at {self.where} is still loading its data after "
                        f"{waited:.0f} s; try again later"
                    ) from None
                self._warming(waited)
                time.sleep(min(0.05 * 2 ** min(tries, 5), 1.0))
                tries += 1
                continue
            except redis.exceptions.ResponseError as exc:
                if "unknown command 'graph." in str(exc).lower():  # plain Redis, no module
                    raise StoreError(
                        f"the server at {self.where} has no FalkorDB module loaded (it does "
                        "not know the GRAPH commands): point FALKORDB_URL at a FalkorDB server"
                    ) from exc
                if "max pending queries" not in str(exc).lower() or busy >= len(BUSY_BACKOFF_S):
                    raise
                time.sleep(BUSY_BACKOFF_S[busy])
                busy += 1
                continue
            except (
                redis.exceptions.AuthenticationError,
                redis.exceptions.AuthorizationError,
            ) as exc:
                raise StoreError(
                    f"FalkorDB at {self.where} refused the credentials: {_one_line(exc)}"
                ) from exc
            except _CONNECTION_ERRORS as exc:
                if _silent(exc):  # sent, and the server said nothing for that long
                    unsure = not repeatable and "reading" in str(exc)
                    raise StoreError(
                        f"FalkorDB at {self.where} did not answer within "
                        f"{self.reply_limit_s or 0:g} s (the query time limit and "
                        f"{REPLY_MARGIN_S:g} s more): it is stopped or overloaded"
                        + ("; the write may or may not have been applied" if unsure else "")
                    ) from exc
                if not repeatable and not _never_sent(exc):
                    raise StoreError(
                        f"lost the connection to FalkorDB at {self.where} during a write "
                        f"({_one_line(exc)}); it may or may not have been applied: run the "
                        "command again"
                    ) from exc
                if tries >= len(CONNECT_BACKOFF_S):
                    raise StoreError(
                        f"cannot reach FalkorDB at {self.where}: {_one_line(exc)} "
                        f"(tried {tries + 1} times)"
                    ) from exc
                time.sleep(CONNECT_BACKOFF_S[tries])
                tries += 1
                self._reconnect()
                continue
            self._warming.done()
            return result

    @property
    def where(self) -> str:
        if self.settings.falkordb_url:
            return redact_url(self.settings.falkordb_url)
        return str(self.settings.home.resolve() / SOCKET_NAME)

    def for_graph(self, graph: str) -> Store:
        """Another graph on the same server (the board lives beside the brain)."""
        return Store(self.settings, graph)

    # -- queries -------------------------------------------------------------------------

    @staticmethod
    def prepare(cypher: str, params: Mapping[str, Any]) -> Prepared:
        """`cypher` with `params` encoded as the client encodes them (see Prepared). A NUL
        or lone surrogate survives the encoding, so one search of the encoded text finds
        it (a batch's values walked one by one in Python cost more than the write)."""
        header = "".join(f"{name}={stringify_param_value(v)} " for name, v in params.items())
        if UNSTORABLE.search(header):
            check_params(params)  # names the parameter
        return Prepared(cypher, f"CYPHER {header}{cypher}")

    def query(
        self,
        cypher: str | Prepared,
        params: Mapping[str, Any] | None = None,
        *,
        read_only: bool = False,
    ) -> list[Row]:
        started = time.perf_counter()
        args: dict[str, Any] | None = dict(params or {})
        text = cypher
        if not isinstance(cypher, Prepared):
            cypher = self.prepare(cypher, args or {})  # checked there, sent as text
        args, text, cypher = None, cypher.text, cypher.cypher
        try:
            run = self._graph.ro_query if read_only else self._graph.query
            timeout = self._timeout_ms
            result = self._resilient(lambda: run(text, args, timeout), repeatable=read_only)
        except redis.exceptions.ResponseError as exc:
            if read_only and "empty key" in str(exc):
                return []  # the graph does not exist yet: nothing to read
            if not read_only:
                self._realign_log()
            raise _query_error(exc) from exc
        except StoreError:
            if not read_only:  # a write cut off in flight may have been applied
                with suppress(StoreError, redis.exceptions.RedisError):
                    self.mark_changed()
            raise
        if not read_only:
            self.mark_changed()
        if self._max_rows is not None and len(result.result_set) >= self._max_rows:
            # the rest was cut off: answering from part of the evidence could name the
            # wrong owner, and an ingest reading part of what is stored writes it twice
            raise StoreError(
                f"a query returned {len(result.result_set):,} rows, the most FalkorDB at "
                f"{self.where} returns (its RESULTSET_SIZE), so the rest may have been cut "
                "off; raise RESULTSET_SIZE (BRAIN_RESULTSET_SIZE for the embedded server)"
            )
        header = [
            str(column[1] if isinstance(column, list | tuple) else column)
            for column in result.header
        ]
        scalars = _SCALARS.issuperset  # a row of plain values (most) is zipped as it is
        rows = [
            dict(zip(header, row if scalars(map(type, row)) else map(_plain, row), strict=False))
            for row in result.result_set
        ]
        if self.settings.trace:
            elapsed = (time.perf_counter() - started) * 1000
            one_line = " ".join(cypher.split())
            print(
                f"[cypher {elapsed:.1f} ms, {len(rows)} rows] {one_line} {dict(params or {})}",
                file=sys.stderr,
            )
        return rows

    def read(self, cypher: str, params: Mapping[str, Any] | None = None) -> list[Row]:
        # Without cyclic collection: reads are short (the query timeout bounds them), while
        # a write may run for minutes with the reading thread allocating beside it.
        with no_cycle_collection():
            return self.query(cypher, params, read_only=True)

    def compact_log(self) -> None:
        """Rewrite the embedded server's append-only file as a snapshot, in the background,
        when the writes it holds after its snapshot outweigh the snapshot (and 1 MiB). Left
        as the list of every write, it is replayed query by query at the next start: 24 s
        for a graph of 10,000 records that loads from a snapshot in 0.2 s. Called at the end
        of a run that wrote (an ingest, a board run); one record added to a large graph
        does not rewrite it."""
        if self.embedded is None:
            return
        with suppress(redis.exceptions.RedisError):
            info = self._db.connection.info("persistence")
            base = int(info.get("aof_base_size") or 0)
            since = int(info.get("aof_current_size") or 0) - base
            if since > max(base, COMPACT_FROM_BYTES):
                self._realign_log()

    def _realign_log(self) -> None:
        """After a write the server refused partway (a constraint it broke, memory it ran
        out of): FalkorDB rolls the write back, but not the internal ids it handed out, and
        the append-only file (which never holds the failed write) replays later writes onto
        other ids: a restart then loaded other data than was written, or crashed replaying
        it. A rewrite of the append-only file (a snapshot of the data as it is, in the
        background) makes the replay start from the ids as they are. The embedded server
        only: an external one's persistence is its operator's."""
        if self.embedded is None:
            return
        with suppress(redis.exceptions.RedisError):  # one already under way: as good
            self._db.connection.execute_command("BGREWRITEAOF")

    def forget_deleted(self) -> None:
        """After deleting graphs: an append-only file that still holds a graph's creation
        and its deletion brings the graph back, empty, at the second start after (replaying
        the file, the pinned FalkorDB finishes building its constraints after the deletion
        and appends their creation to the file again, so the next replay creates the graph
        anew). Rewritten, the file starts from the graphs as they are; waited for, so that
        a `brain db stop` right after cannot cut the rewrite short."""
        if self.embedded is None:
            return
        self._realign_log()
        deadline = time.monotonic() + FORGET_WAIT_S
        with suppress(redis.exceptions.RedisError):
            while time.monotonic() < deadline:
                info = self._db.connection.info("persistence")
                if not (info.get("aof_rewrite_in_progress") or info.get("aof_rewrite_scheduled")):
                    return
                time.sleep(0.05)

    # -- change marker -------------------------------------------------------------------
    # A key beside the graph, set to a fresh random value after every write sent through
    # here (and when the graph is deleted). A long-lived reader that remembers the value
    # knows with one GET whether the graph may have changed since (ask/catalog.py). Random,
    # not a counter: a server that lost its last second of writes in a crash can never hand
    # back a value a reader saw before with other data behind it.

    @property
    def _marker_key(self) -> str:
        return f"companybrain:changed:{self.graph_name}"

    def mark_changed(self) -> None:
        """Tell long-lived readers the graph may have changed (every write here does)."""
        value = uuid.uuid4().hex
        self._resilient(lambda: self._db.connection.set(self._marker_key, value), repeatable=True)

    def change_marker(self) -> str | None:
        """The graph's change marker; None when nothing has written through this code."""
        value = self._resilient(lambda: self._db.connection.get(self._marker_key), repeatable=True)
        return value.decode() if isinstance(value, bytes) else value

    # -- locks ---------------------------------------------------------------------------
    # A key beside the graph, like the change marker: plain redis commands, so it works on
    # the embedded and an external server alike. The value names the holder; only the
    # holder may renew or drop it (compared and acted on in one script, so a lock that
    # expired and was taken by another run is never touched).

    def _lock_key(self, name: str) -> str:
        return f"companybrain:lock:{name}:{self.graph_name}"

    def take_lock(self, name: str, holder: str, ttl_ms: int) -> bool:
        """Take the lock `name` of this graph for `holder` unless someone holds it."""
        key = self._lock_key(name)
        taken = self._resilient(
            lambda: self._db.connection.set(key, holder, nx=True, px=ttl_ms), repeatable=True
        )
        # Tried again after a lost reply, the SET finds the key its first try set.
        return bool(taken) or self.lock_holder(name)[0] == holder

    def lock_holder(self, name: str) -> tuple[str | None, int]:
        """Who holds the lock `name` of this graph (None: nobody) and its ms left."""
        key = self._lock_key(name)
        conn = self._db.connection
        value, left = self._resilient(
            lambda: conn.pipeline(transaction=True).get(key).pttl(key).execute(),
            repeatable=True,
        )
        holder = value.decode() if isinstance(value, bytes) else value
        return holder, max(int(left), 0) if holder is not None else 0

    def renew_lock(self, name: str, holder: str, ttl_ms: int) -> bool:
        """Push the lock's expiry out; False when `holder` no longer holds it."""
        key = self._lock_key(name)
        done = self._resilient(
            lambda: self._db.connection.eval(_RENEW, 1, key, holder, ttl_ms), repeatable=True
        )
        return bool(done)

    def drop_lock(self, name: str, holder: str) -> bool:
        """Release the lock if `holder` still holds it."""
        key = self._lock_key(name)
        done = self._resilient(
            lambda: self._db.connection.eval(_DROP, 1, key, holder), repeatable=True
        )
        return bool(done)

    def command(self, *args: Any) -> Any:
        """A raw server command (GRAPH.CONSTRAINT, MODULE LIST, ...)."""
        try:
            return self._resilient(
                lambda: self._db.connection.execute_command(*args), repeatable=False
            )
        except redis.exceptions.RedisError as exc:
            raise StoreError(f"FalkorDB command {args[0]} failed: {exc}") from exc

    def explain(self, cypher: str, params: Mapping[str, Any] | None = None) -> list[str]:
        """The execution plan of a query (GRAPH.EXPLAIN, nothing runs), one operation a line."""
        try:
            plan = self._resilient(
                lambda: self._graph.explain(cypher, dict(params or {})), repeatable=True
            )
        except redis.exceptions.ResponseError as exc:
            raise _query_error(exc) from exc
        return [line.strip() for line in str(plan).splitlines() if line.strip()]

    def wait_durable(self, timeout_ms: int) -> bool:
        """Block until every write so far is in the server's append-only file on disk
        (`WAITAOF 1 0`), so that a crash cannot lose it. True when confirmed. The embedded
        server always runs with appendonly; an external server without AOF cannot confirm
        anything, so this is a no-op there (False) and durability is that server's own
        configuration (docs/performance.md)."""
        if self._aof_off:
            return False
        try:
            local, _ = self._resilient(
                lambda: self._db.connection.execute_command("WAITAOF", 1, 0, timeout_ms),
                repeatable=True,
            )
        except redis.exceptions.ResponseError as exc:
            if self.embedded is None and "appendonly" in str(exc).lower():
                self._aof_off = True
                return False
            raise StoreError(f"FalkorDB could not confirm durability: {exc}") from exc
        if int(local) < 1:
            raise StoreError(
                f"FalkorDB did not write to its append-only file within {timeout_ms} ms"
            )
        return True

    @contextmanager
    def long_queries(self) -> Iterator[None]:
        """Queries inside may run up to the longest time the server allows (TIMEOUT_MAX)
        instead of its default: for ingestion steps that walk the whole graph."""
        previous, was_long = self._timeout_ms, self._long
        if self.embedded is not None:  # an external server's limits are its own
            self._timeout_ms = self.settings.query_timeout_max_ms
        self._long = True
        if self.settings.bounded_replies:  # replies are waited for as long
            self._resilient(self._open, repeatable=True)
        try:
            yield
        finally:
            self._timeout_ms, self._long = previous, was_long
            if self.settings.bounded_replies:
                self._resilient(self._open, repeatable=True)

    @contextmanager
    def traced(self) -> Iterator[None]:
        previous = self.settings
        self.settings = previous.with_(trace=True)
        try:
            yield
        finally:
            self.settings = previous

    # -- graph lifecycle -----------------------------------------------------------------

    def graph_exists(self) -> bool:
        return self.graph_name in self.list_graphs()

    def require_graph(self) -> None:
        """For what only reads: a graph that does not exist is one InputError naming it and
        those that do. Reading must not create it (a query does), nor answer from it empty."""
        graphs = self.list_graphs()
        if self.graph_name not in graphs:
            raise InputError(missing_graph(self.graph_name, graphs))

    def list_graphs(self) -> list[str]:
        try:
            return list(self._resilient(self._db.list_graphs, repeatable=True))
        except redis.exceptions.RedisError as exc:
            raise StoreError(f"cannot list graphs: {exc}") from exc

    def delete_graph(self) -> bool:
        if not self.graph_exists():
            return False
        try:
            self._resilient(self._graph.delete, repeatable=False)
        except redis.exceptions.RedisError as exc:
            raise StoreError(f"cannot delete graph {self.graph_name}: {exc}") from exc
        finally:
            with suppress(StoreError, redis.exceptions.RedisError):
                self.mark_changed()
        self._schema_ready = False
        return True

    def ensure_schema(self) -> None:
        """Create indexes and constraints on first use; check the schema version."""
        if self._schema_ready:
            return
        from companybrain.graph import schema

        schema.ensure(self)
        self._schema_ready = True

    def server_version(self) -> str:
        """The FalkorDB module version, e.g. '4.16.3'."""
        for module in self.command("MODULE", "LIST"):
            # RESP2 gives a flat [key, value, ...] list, RESP3 a map
            info = (
                module
                if isinstance(module, dict)
                else dict(zip(module[::2], module[1::2], strict=False))
            )
            info = {k.decode() if isinstance(k, bytes) else k: v for k, v in info.items()}
            name = info.get("name")
            if isinstance(name, bytes):
                info["name"] = name.decode()
            if info.get("name") == "graph":
                ver = int(info["ver"])
                return f"{ver // 10000}.{ver // 100 % 100}.{ver % 100}"
        raise StoreError("the server has no FalkorDB module loaded")

    def close(self) -> None:
        for client in self._clients.values():
            with suppress(redis.exceptions.RedisError):
                client.connection.close()


def check_params(params: Mapping[str, Any]) -> None:
    """Every string a query is given is text FalkorDB can take: a NUL would end the query
    text early and the server would answer with a parse error (shown as an outage), a lone
    surrogate cannot be encoded at all. The surfaces check their fields first and name
    them; this is the one place every value passes, so nothing slips by."""
    for name, value in params.items():
        if type(value) in _SCALARS and type(value) is not str:
            continue
        for leaf in strings_in(value):
            if UNSTORABLE.search(leaf):
                raise InputError(f"the value given for ${name} {unstorable(leaf)}")


def _query_error(exc: redis.exceptions.ResponseError) -> StoreError:
    """One clear error for a query the server refused or stopped."""
    text = str(exc)
    lower = text.lower()
    if "timed out" in lower:
        return BusyError(
            "the query ran past the server's time limit and was stopped "
            f"(TIMEOUT_DEFAULT / TIMEOUT_MAX, see docs/performance.md): {text}"
        )
    if "mem consumption exceeded" in lower:
        return StoreError(
            f"the query needed more memory than the server allows (QUERY_MEM_CAPACITY): {text}"
        )
    if "max pending queries" in lower:
        return BusyError(
            f"the server is busy: too many queries waiting (MAX_QUEUED_QUERIES): {text}"
        )
    return StoreError(f"FalkorDB rejected a query: {text}")


def _never_sent(exc: Exception) -> bool:
    """Whether the error came before the command left (connecting, or a connect timeout)."""
    return (
        isinstance(exc, redis.exceptions.TimeoutError) and not _silent(exc)
    ) or "connecting to" in str(exc)


def _silent(exc: Exception) -> bool:
    """A socket timeout after connecting (`Settings.bounded_replies`): the server took no
    more of the command, or sent no reply, for as long as a query may run."""
    text = str(exc)
    return isinstance(exc, redis.exceptions.TimeoutError) and (
        "reading from" in text or "writing to" in text
    )


def _one_line(exc: Exception) -> str:
    return " ".join(str(exc).split()) or type(exc).__name__
