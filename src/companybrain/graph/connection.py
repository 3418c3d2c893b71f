"""The one connection object the whole code base uses, and the only module that imports
`falkordb`. Embedded by default; `FALKORDB_URL` points it at a running server instead, with
the same code path from here on."""

from __future__ import annotations

import sys
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager, suppress
from typing import Any

import redis.exceptions
from falkordb import Edge, FalkorDB, Node, Path

from companybrain.config import Settings
from companybrain.errors import StoreError
from companybrain.graph.server import EmbeddedServer

Row = dict[str, Any]


def _plain(value: Any) -> Any:
    """Client objects to plain data, so nothing above this module sees falkordb types."""
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
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    return value


class Store:
    """A connection to one graph. Every query goes through `query` with parameters."""

    def __init__(self, settings: Settings, graph: str | None = None) -> None:
        self.settings = settings
        self.graph_name = graph or settings.graph
        self.embedded: EmbeddedServer | None = None
        try:
            if settings.falkordb_url:
                self._db = FalkorDB.from_url(settings.falkordb_url)
            else:
                self.embedded = EmbeddedServer(settings.home, durable=settings.durable)
                self.embedded.ensure_running()
                self._db = FalkorDB(unix_socket_path=self.embedded.socket_path)
            self._graph = self._db.select_graph(self.graph_name)
        except redis.exceptions.RedisError as exc:
            raise StoreError(f"cannot connect to FalkorDB at {self.where}: {exc}") from exc
        self._schema_ready = False

    @property
    def where(self) -> str:
        if self.settings.falkordb_url:
            return _redact(self.settings.falkordb_url)
        return str(self.settings.home.resolve() / "falkordb.sock")

    def for_graph(self, graph: str) -> Store:
        """Another graph on the same server (the board lives beside the brain)."""
        return Store(self.settings, graph)

    # -- queries -------------------------------------------------------------------------

    def query(
        self, cypher: str, params: Mapping[str, Any] | None = None, *, read_only: bool = False
    ) -> list[Row]:
        started = time.perf_counter()
        try:
            if read_only:
                result = self._graph.ro_query(cypher, dict(params or {}))
            else:
                result = self._graph.query(cypher, dict(params or {}))
        except redis.exceptions.ConnectionError as exc:
            raise StoreError(f"lost the connection to FalkorDB at {self.where}: {exc}") from exc
        except redis.exceptions.ResponseError as exc:
            if read_only and "empty key" in str(exc):
                return []  # the graph does not exist yet: nothing to read
            raise StoreError(f"FalkorDB rejected a query: {exc}") from exc
        header = [
            column[1] if isinstance(column, list | tuple) else column for column in result.header
        ]
        rows = [
            {str(name): _plain(value) for name, value in zip(header, row, strict=False)}
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
        return self.query(cypher, params, read_only=True)

    def command(self, *args: Any) -> Any:
        """A raw server command (GRAPH.CONSTRAINT, MODULE LIST, ...)."""
        try:
            return self._db.connection.execute_command(*args)
        except redis.exceptions.RedisError as exc:
            raise StoreError(f"FalkorDB command {args[0]} failed: {exc}") from exc

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

    def list_graphs(self) -> list[str]:
        try:
            return list(self._db.list_graphs())
        except redis.exceptions.RedisError as exc:
            raise StoreError(f"cannot list graphs: {exc}") from exc

    def delete_graph(self) -> bool:
        if not self.graph_exists():
            return False
        try:
            self._graph.delete()
        except redis.exceptions.RedisError as exc:
            raise StoreError(f"cannot delete graph {self.graph_name}: {exc}") from exc
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
        with suppress(redis.exceptions.RedisError):
            self._db.connection.close()


def _redact(url: str) -> str:
    """Hide a password in a URL before it reaches a message."""
    if "@" not in url or "://" not in url:
        return url
    scheme, rest = url.split("://", 1)
    creds, host = rest.rsplit("@", 1)
    user = creds.split(":", 1)[0] if ":" in creds else creds
    return f"{scheme}://{user}:***@{host}" if ":" in creds else f"{scheme}://{user}@{host}"
