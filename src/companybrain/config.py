"""One typed settings object, read from the environment once and overridable in tests."""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from companybrain.errors import ConfigError

DEFAULT_GRAPH = "brain"
DEFAULT_ROW_CAP = 50
DEFAULT_MAX_RECORD_BYTES = 1_000_000
# Reasoning models can spend a small budget thinking before they call a tool.
DEFAULT_MODEL_MAX_TOKENS = 2048
MIN_MODEL_MAX_TOKENS = 2048  # a proposal for a long section needs this much room
# More than any model writes in one reply; past it an endpoint refuses every request, and
# the error would come at the first batch instead of at the start.
MAX_MODEL_MAX_TOKENS = 1_000_000
# One model call; the client tries three more times, so a hung endpoint holds a command
# for four times this before the error (a slow local model may need the full minute).
DEFAULT_MODEL_TIMEOUT_S = 60.0
MAX_MODEL_TIMEOUT_S = 3600.0
DEFAULT_MODEL_EXTRA = {"chat_template_kwargs": {"enable_thinking": False}}


# What FalkorDB takes: past these it wraps or fails to load (and the server never comes up),
# so a setting beyond one is refused here, naming it.
_UINT32_MAX = 2**32 - 1  # TIMEOUT_DEFAULT, TIMEOUT_MAX, MAX_QUEUED_QUERIES
_INT64_MAX = 2**63 - 1  # RESULTSET_SIZE, QUERY_MEM_CAPACITY
# An evidence query asks for LIMIT cap + 1 rows, and FalkorDB's LIMIT wraps past 2**32 - 1
# (a cap of 2**32 read one row: a wrong owner). Kept well inside it.
MAX_ROW_CAP = 2**31 - 1
# Linux keeps a unix socket's path in 108 bytes with the closing NUL.
MAX_SOCKET_PATH_BYTES = 107
SOCKET_NAME = "falkordb.sock"
URL_SCHEMES = ("redis", "rediss", "unix", "falkor", "falkors")
# A graph is a key on the server, beside the keys kept for it (`companybrain:changed:NAME`,
# `companybrain:lock:ingest:NAME`) and the graphs named after it (`NAME_board`): a name
# from this alphabet can never be one of those keys, nor carry what a key cannot.
BOARD_SUFFIX = "_board"  # the board of graph X is the graph X_board
GRAPH_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,199}")


def _flag(env: dict[str, str], name: str) -> bool:
    """An on/off setting. Anything else is refused: "ture" or "always" read as off would
    leave BRAIN_DURABLE's fsync of every write silently off."""
    value = (env.get(name) or "").strip().lower()
    if value in {"1", "true", "yes", "on"}:
        return True
    if value in {"", "0", "false", "no", "off"}:
        return False
    raise ConfigError(f"{name} must be 1, true, yes or on (or 0, false, no, off), got {value!r}")


def _seconds(env: dict[str, str], name: str, default: float) -> float:
    raw = env.get(name)
    if raw is None or raw == "":
        return default
    try:
        value = float(raw)
    except ValueError as exc:
        raise ConfigError(f"{name} must be a number of seconds, got {raw!r}") from exc
    if not 0 < value <= MAX_MODEL_TIMEOUT_S:  # also NaN and inf
        raise ConfigError(f"{name} must be above 0 and at most {MAX_MODEL_TIMEOUT_S:,.0f}")
    return value


def _int(env: dict[str, str], name: str, default: int) -> int:
    raw = env.get(name)
    if raw is None or raw == "":
        return default
    try:
        return int(raw)
    except ValueError as exc:
        raise ConfigError(f"{name} must be a whole number, got {raw!r}") from exc


@dataclass(frozen=True)
class Settings:
    home: Path = Path(".brain")
    falkordb_url: str | None = None
    graph: str = DEFAULT_GRAPH
    durable: bool = False
    trace: bool = False
    row_cap: int = DEFAULT_ROW_CAP
    max_record_bytes: int = DEFAULT_MAX_RECORD_BYTES
    model: str | None = None
    model_base_url: str | None = None
    model_api_key: str = "not-needed"
    model_max_tokens: int = DEFAULT_MODEL_MAX_TOKENS
    model_extra: dict[str, Any] = field(default_factory=lambda: dict(DEFAULT_MODEL_EXTRA))
    model_timeout: float = DEFAULT_MODEL_TIMEOUT_S  # a call; the client tries 3 more times
    proposer: str = "rules"
    router: str = "rules"
    web_token: str | None = None  # `brain serve` off loopback requires it
    # Limits the embedded FalkorDB starts with (docs/performance.md): a runaway query is
    # stopped with one clear error instead of holding the server.
    query_timeout_ms: int = 60_000  # TIMEOUT_DEFAULT: reads and writes
    query_timeout_max_ms: int = 600_000  # TIMEOUT_MAX: what a long ingestion step may ask
    resultset_size: int = 10_000_000  # RESULTSET_SIZE: rows a query may return
    query_mem_bytes: int = 2 * 1024**3  # QUERY_MEM_CAPACITY: memory one query may use
    max_queued_queries: int = 1_000  # MAX_QUEUED_QUERIES: waiting queries before refusing
    # Long-lived servers (web, MCP) wait for a reply only as long as a query may run, plus a
    # margin (graph/connection.py): a frozen database is one clear error, not a hung page.
    bounded_replies: bool = False

    @property
    def model_configured(self) -> bool:
        return bool(self.model and self.model_base_url)

    def with_(self, **changes: Any) -> Settings:
        return replace(self, **changes)

    @classmethod
    def from_env(cls, env: dict[str, str] | None = None) -> Settings:
        env = dict(os.environ if env is None else env)
        extra_raw = env.get("BRAIN_MODEL_EXTRA")
        try:
            extra = json.loads(extra_raw) if extra_raw else dict(DEFAULT_MODEL_EXTRA)
        except json.JSONDecodeError as exc:
            raise ConfigError(f"BRAIN_MODEL_EXTRA is not valid JSON: {exc}") from exc
        if not isinstance(extra, dict):
            raise ConfigError("BRAIN_MODEL_EXTRA must be a JSON object")
        settings = cls(
            # `~` too: an MCP client's JSON config has no shell to expand it, and the data
            # folder was then `./~/.brain` beside wherever the client started the server
            home=Path(env.get("BRAIN_HOME") or ".brain").expanduser(),
            falkordb_url=env.get("FALKORDB_URL") or None,
            graph=env.get("BRAIN_GRAPH") or DEFAULT_GRAPH,
            durable=_flag(env, "BRAIN_DURABLE"),
            trace=_flag(env, "BRAIN_TRACE"),
            row_cap=_int(env, "BRAIN_ROW_CAP", DEFAULT_ROW_CAP),
            max_record_bytes=_int(env, "BRAIN_MAX_RECORD_BYTES", DEFAULT_MAX_RECORD_BYTES),
            model=env.get("BRAIN_MODEL") or None,
            model_base_url=env.get("BRAIN_MODEL_BASE_URL") or env.get("OPENAI_BASE_URL") or None,
            model_api_key=env.get("BRAIN_MODEL_API_KEY")
            or env.get("OPENAI_API_KEY")
            or "not-needed",
            model_max_tokens=_int(env, "BRAIN_MODEL_MAX_TOKENS", DEFAULT_MODEL_MAX_TOKENS),
            model_extra=extra,
            model_timeout=_seconds(env, "BRAIN_MODEL_TIMEOUT_S", DEFAULT_MODEL_TIMEOUT_S),
            proposer=env.get("BRAIN_PROPOSER") or "rules",
            router=env.get("BRAIN_ROUTER") or "rules",
            web_token=env.get("BRAIN_WEB_TOKEN") or None,
            query_timeout_ms=_int(env, "BRAIN_QUERY_TIMEOUT_MS", 60_000),
            query_timeout_max_ms=_int(env, "BRAIN_QUERY_TIMEOUT_MAX_MS", 600_000),
            resultset_size=_int(env, "BRAIN_RESULTSET_SIZE", 10_000_000),
            query_mem_bytes=_int(env, "BRAIN_QUERY_MEM_BYTES", 2 * 1024**3),
            max_queued_queries=_int(env, "BRAIN_MAX_QUEUED_QUERIES", 1_000),
        )
        settings.validate()
        return settings

    def validate(self) -> None:
        for name, value, low, high in (
            ("BRAIN_QUERY_TIMEOUT_MS", self.query_timeout_ms, 1, _UINT32_MAX),
            ("BRAIN_QUERY_TIMEOUT_MAX_MS", self.query_timeout_max_ms, 1, _UINT32_MAX),
            ("BRAIN_RESULTSET_SIZE", self.resultset_size, 1, _INT64_MAX),
            ("BRAIN_QUERY_MEM_BYTES", self.query_mem_bytes, 1, _INT64_MAX),
            ("BRAIN_MAX_QUEUED_QUERIES", self.max_queued_queries, 1, _UINT32_MAX),
            ("BRAIN_ROW_CAP", self.row_cap, 1, MAX_ROW_CAP),
            ("BRAIN_MAX_RECORD_BYTES", self.max_record_bytes, 1, _INT64_MAX),
        ):
            if not low <= value <= high:
                raise ConfigError(f"{name} must be from {low} to {high:,}, got {value}")
        if self.query_timeout_max_ms < self.query_timeout_ms:
            raise ConfigError("BRAIN_QUERY_TIMEOUT_MAX_MS must be at least BRAIN_QUERY_TIMEOUT_MS")
        if self.row_cap >= self.resultset_size:  # cut short silently, ROW_CAP never said
            raise ConfigError(
                f"BRAIN_ROW_CAP ({self.row_cap}) must be below BRAIN_RESULTSET_SIZE "
                f"({self.resultset_size}): the server returns no more rows than that"
            )
        if self.proposer not in {"rules", "model"}:
            raise ConfigError(f"BRAIN_PROPOSER must be 'rules' or 'model', got {self.proposer!r}")
        if self.router not in {"rules", "model"}:
            raise ConfigError(f"BRAIN_ROUTER must be 'rules' or 'model', got {self.router!r}")
        if not MIN_MODEL_MAX_TOKENS <= self.model_max_tokens <= MAX_MODEL_MAX_TOKENS:
            raise ConfigError(
                f"BRAIN_MODEL_MAX_TOKENS must be from {MIN_MODEL_MAX_TOKENS} to "
                f"{MAX_MODEL_MAX_TOKENS:,}, got {self.model_max_tokens}"
            )
        graph_problem = graph_name_problem(self.graph)
        if not graph_problem and self.graph.endswith(BOARD_SUFFIX):
            # else `brain --graph X board fill` wrote X's work items into it, and the web
            # app, which shows no board, never showed it
            graph_problem = f"a name ending in {BOARD_SUFFIX} is the agent board of a graph"
        if graph_problem:
            raise ConfigError(f"BRAIN_GRAPH / --graph {self.graph[:80]!r}: {graph_problem}")
        if self.falkordb_url is not None:
            url_problem = falkordb_url_problem(self.falkordb_url)
            if url_problem:
                raise ConfigError(f"FALKORDB_URL {redact_url(self.falkordb_url)!r}: {url_problem}")
        else:
            socket = os.fsencode(self.home.resolve() / SOCKET_NAME)  # as the server uses it
            if len(socket) > MAX_SOCKET_PATH_BYTES:
                raise ConfigError(
                    f"BRAIN_HOME {self.home} is too long: the database's socket path would be "
                    f"{len(socket)} bytes, and a unix socket takes at most "
                    f"{MAX_SOCKET_PATH_BYTES}; use a shorter folder"
                )


def graph_name_problem(name: str) -> str | None:
    """Why `name` cannot be a graph's name, or None."""
    if GRAPH_NAME.fullmatch(name):
        return None
    return (
        "a graph name is 1 to 200 letters, digits, '.', '_' or '-', starting with a letter or digit"
    )


def missing_graph(name: str, existing: list[str]) -> str:
    """The error of a command that reads a graph that does not exist: it names the graph and
    those that do (boards are read through their graph, so they are left out)."""
    graphs = sorted(g for g in existing if not g.endswith("_board"))
    where = (
        "the graphs are " + ", ".join(graphs)
        if graphs
        else "there are no graphs yet (`brain ingest` or `brain ingest-repo` creates one)"
    )
    return f"no graph named {name!r}: {where}; choose one with --graph or BRAIN_GRAPH"


def falkordb_url_problem(url: str) -> str | None:
    """Why the client could not read `url`, or None (its own rules, read without it)."""
    if not url.strip():
        return "it is blank; unset it to use the embedded database"
    scheme = url.split("://", 1)[0].lower() if "://" in url else ""
    if scheme not in URL_SCHEMES:
        return "it must start with " + ", ".join(f"{s}://" for s in URL_SCHEMES)
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError as exc:  # "Port out of range 0-65535", "Invalid IPv6 URL", ...
        return f"{exc}"
    if scheme != "unix" and port == 0:
        return "port 0 is not a port a server listens on"
    if scheme == "unix" and not parts.path:
        return "a unix:// URL needs the socket's path, e.g. unix:///path/to/falkordb.sock"
    return None


def redact_url(url: str) -> str:
    """Hide a password in a URL before it reaches a message."""
    url = re.sub(r"(?i)([?&]password=)[^&]*", r"\1***", url)
    if "@" not in url:
        return url
    scheme, sep, rest = url.partition("://") if "://" in url else ("", "", url)
    creds, host = rest.rsplit("@", 1)
    user = creds.split(":", 1)[0]
    return f"{scheme}{sep}{user}:***@{host}" if ":" in creds else url
