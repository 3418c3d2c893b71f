"""FalkorDB unreachable, killed, restarted or still loading: one clear line and bounded
retries, never a traceback, and the next command finds its data.

"Still loading" is real: a server replays a real append-only file (its base is an RDB
snapshot of 150 graphs plus the demo graph) with redis' own `key-load-delay` knob slowing
the load to a few seconds, and `loading-process-events-interval-bytes` making it answer
LOADING while it reads, as a big graph does while its full-text index is rebuilt."""

from __future__ import annotations

import json
import shutil
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from companybrain.brain import Brain
from companybrain.config import Settings
from companybrain.errors import StoreError
from companybrain.graph.connection import Store
from companybrain.graph.server import EmbeddedServer, binaries
from companybrain.ingest.pipeline import ingest
from tests.conftest import REPO_ROOT
from tests.security.faultkit import env_for, kill_server, wait_dead

DEMO = REPO_ROOT / "demo" / "corpus"
NOW = "2026-10-20T12:00:00Z"
QUESTION = "Who owns the billing gateway?"
PADDING_GRAPHS = 150
LOAD_DELAY_US = 40_000  # per key: 150 keys, about six seconds of loading (a CLI started on
# a busy machine took more than three to connect, and found the load already over)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _brain(env: dict[str, str], *args: str, timeout: float = 120) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "companybrain", *args],
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def _owner(stdout: str) -> str:
    return str(json.loads(stdout)["result"]["owner"]["id"])


@pytest.fixture
def own_home(tmp_path: Path) -> Iterator[Path]:
    home = tmp_path / "home"
    yield home
    EmbeddedServer(home).stop()


# -- unreachable --------------------------------------------------------------------------


def test_closed_port_is_one_clear_error(tmp_path: Path) -> None:
    port = _free_port()  # nothing listens there
    env = env_for(tmp_path, "brain")
    env["FALKORDB_URL"] = f"redis://127.0.0.1:{port}"
    result = _brain(env, "ask", "--json", QUESTION)
    assert result.returncode == 1
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith(f"error: cannot reach FalkorDB at redis://127.0.0.1:{port}")
    assert "tried 4 times" in lines[0]
    assert "Traceback" not in result.stderr
    # --json: the same error as JSON on standard output, and nothing else there
    assert json.loads(result.stdout) == {"error": lines[0].removeprefix("error: ")}


def test_store_error_names_the_server_and_hides_the_password() -> None:
    port = _free_port()
    with pytest.raises(StoreError) as caught:
        Store(Settings(falkordb_url=f"redis://:hunter2@127.0.0.1:{port}"))
    assert "cannot reach FalkorDB" in str(caught.value)
    assert "hunter2" not in str(caught.value)


def test_wrong_password_is_one_clear_error_without_retries(tmp_path: Path) -> None:
    port = _free_port()
    proc = _external(port, tmp_path / "data", "--requirepass", "right-one")
    try:
        with pytest.raises(StoreError) as caught:
            Store(Settings(falkordb_url=f"redis://:wrong-one@127.0.0.1:{port}"))
        message = str(caught.value)
        assert "refused the credentials" in message and "tried" not in message  # not retried
        assert "wrong-one" not in message and "\n" not in message
    finally:
        _stop(proc)


def test_a_plain_redis_without_the_module_is_named(tmp_path: Path) -> None:
    """FALKORDB_URL at a Redis without FalkorDB: every command said "FalkorDB rejected a
    query: unknown command 'GRAPH.RO_QUERY' ..." with the query text (or "cannot list
    graphs: unknown command 'GRAPH.LIST'" for `reset`)."""
    port = _free_port()
    server, _ = binaries()
    proc = subprocess.Popen(
        [server, "--port", str(port), "--bind", "127.0.0.1", "--dir", str(tmp_path),
         "--save", ""],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 20
        while socket.socket().connect_ex(("127.0.0.1", port)) != 0:
            assert time.monotonic() < deadline, "the plain server did not start"
            time.sleep(0.05)
        settings = Settings(falkordb_url=f"redis://127.0.0.1:{port}")
        for attempt in (lambda: Brain(settings=settings), Store(settings).delete_graph):
            with pytest.raises(StoreError) as caught:
                attempt()
            message = str(caught.value)
            assert message.startswith(f"the server at redis://127.0.0.1:{port} has no FalkorDB")
            assert "CYPHER" not in message and "\n" not in message
    finally:
        _stop(proc)


# -- killed or restarted -------------------------------------------------------------------


def test_embedded_server_killed_between_two_commands(own_home: Path) -> None:
    env = env_for(own_home, "demo")
    first = _brain(env, "ingest", str(DEMO))
    assert first.returncode == 0, first.stderr
    kill_server(own_home)
    again = _brain(env, "ask", "--json", "--now", NOW, QUESTION)
    assert again.returncode == 0, again.stderr
    assert _owner(again.stdout) == "kofi"
    assert "Traceback" not in again.stderr


def test_long_lived_brain_survives_kill_and_restart(own_home: Path) -> None:
    """A web or MCP server keeps one Brain for its whole life; the database under it is
    killed, then stopped cleanly and started again by someone else."""
    brain = Brain(settings=Settings(home=own_home, graph="demo"))
    try:
        ingest(brain.store, DEMO, brain.settings)
        before = brain.ask(QUESTION, now=NOW).to_dict()
        killed = kill_server(own_home)
        after_kill = brain.ask(QUESTION, now=NOW).to_dict()
        assert after_kill == before
        assert EmbeddedServer(own_home).pid() not in (None, killed)
        EmbeddedServer(own_home).stop()
        EmbeddedServer(own_home).ensure_running()
        assert brain.ask(QUESTION, now=NOW).to_dict() == before
    finally:
        brain.close()


def _external(port: int, data: Path, *extra: str) -> subprocess.Popen[bytes]:
    server, module = binaries()
    data.mkdir(parents=True, exist_ok=True)
    proc = subprocess.Popen(
        [server, "--port", str(port), "--bind", "127.0.0.1", "--dir", str(data),
         "--appendonly", "yes", "--save", "", *extra, "--loadmodule", module],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )  # fmt: skip
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return proc
        except OSError:
            time.sleep(0.05)
    proc.kill()
    raise AssertionError("the external server did not start")


def _stop(proc: subprocess.Popen[bytes]) -> None:
    proc.terminate()
    proc.wait(timeout=30)


def test_external_server_restarted_mid_session(tmp_path: Path) -> None:
    port = _free_port()
    proc = _external(port, tmp_path / "data")
    settings = Settings(falkordb_url=f"redis://127.0.0.1:{port}", graph="demo")
    brain = Brain(settings=settings)
    try:
        ingest(brain.store, DEMO, settings)
        before = brain.ask(QUESTION, now=NOW).to_dict()
        _stop(proc)
        with pytest.raises(StoreError, match="cannot reach FalkorDB"):
            brain.ask(QUESTION, now=NOW)  # down: one clear error, not a hang
        proc = _external(port, tmp_path / "data")
        assert brain.ask(QUESTION, now=NOW).to_dict() == before
    finally:
        brain.close()
        _stop(proc)


# -- still loading -------------------------------------------------------------------------


@pytest.fixture(scope="module")
def loaded_data(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A data folder whose append-only file holds the demo graph and many small graphs,
    rewritten so that its base is one RDB snapshot with a key per graph."""
    home = tmp_path_factory.mktemp("loading")
    settings = Settings(home=home, graph="demo")
    store = Store(settings)
    try:
        ingest(store, DEMO, settings)
        for i in range(PADDING_GRAPHS):
            pad = store.for_graph(f"pad{i:03d}")
            pad.query(
                "UNWIND range(1, 20) AS i CREATE (:Pad {i: i, text: $text})",
                {"text": "padding so that each graph key is larger than a kilobyte " * 2},
            )
            pad.close()
        store.command("BGREWRITEAOF")
        deadline = time.monotonic() + 60
        while _rewriting(store) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not _rewriting(store)
    finally:
        store.close()
        EmbeddedServer(home).stop()
    return home / "data"


def _rewriting(store: Store) -> bool:
    info = store.command("INFO", "persistence")
    return bool(info["aof_rewrite_in_progress"] or info["aof_rewrite_scheduled"])


SLOW_LOAD = (
    "--key-load-delay", str(LOAD_DELAY_US), "--loading-process-events-interval-bytes", "1024",
)  # fmt: skip


def _start_loading_embedded(home: Path) -> int:
    """Start the server of `home` the way EmbeddedServer does, but loading slowly."""
    server, module = binaries()
    args = [
        server, "--port", "0", "--unixsocket", str(home / "falkordb.sock"),
        "--unixsocketperm", "700", "--dir", str(home / "data"), "--appendonly", "yes",
        "--save", "", "--daemonize", "yes", "--pidfile", str(home / "falkordb.pid"),
        "--logfile", str(home / "falkordb.log"), *SLOW_LOAD, "--loadmodule", module,
    ]  # fmt: skip
    subprocess.run(args, check=True, capture_output=True)
    deadline = time.monotonic() + 10
    while not EmbeddedServer(home).is_loading() and time.monotonic() < deadline:
        time.sleep(0.01)
    assert EmbeddedServer(home).is_loading(), "the server never answered LOADING"
    pid = EmbeddedServer(home).pid()
    assert pid is not None
    return pid


def test_cli_warms_up_while_the_embedded_server_loads(own_home: Path, loaded_data: Path) -> None:
    shutil.copytree(loaded_data, own_home / "data")
    pid = _start_loading_embedded(own_home)
    result = _brain(env_for(own_home, "demo"), "ask", "--json", "--now", NOW, QUESTION)
    assert result.returncode == 0, result.stderr
    assert "warming up" in result.stderr and "Traceback" not in result.stderr
    assert _owner(result.stdout) == "kofi"
    assert EmbeddedServer(own_home).pid() == pid, "a loading server is waited for, not replaced"


def test_external_loading_server_warms_up_then_answers(
    tmp_path: Path, loaded_data: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    port = _free_port()
    shutil.copytree(loaded_data, tmp_path / "data")
    proc = _external(port, tmp_path / "data", *SLOW_LOAD)
    try:
        brain = Brain(settings=Settings(falkordb_url=f"redis://127.0.0.1:{port}", graph="demo"))
        answer = brain.ask(QUESTION, now=NOW)
        brain.close()
        assert answer.result == {"owner": {"id": "kofi", "name": "Kofi Mensah"}}
        err = capfd.readouterr().err
        assert "warming up" in err and "FalkorDB is ready after" in err
    finally:
        _stop(proc)
        wait_dead(proc.pid)


def test_restarted_long_lived_store_waits_for_the_load(
    own_home: Path, loaded_data: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    """A long-lived Store whose embedded server is restarted under it into a slow load: its
    next query waits with a status line, then reads the data."""
    shutil.copytree(loaded_data, own_home / "data")
    store = Store(Settings(home=own_home, graph="demo"))
    try:
        query = "MATCH (s:Source {id: $id}) RETURN s.kind AS kind"
        assert store.read(query, {"id": "CC-1047"}) == [{"kind": "change_control"}]
        capfd.readouterr()  # its own first start may say "warming up" too: not counted
        EmbeddedServer(own_home).stop()
        pid = _start_loading_embedded(own_home)
        assert store.read(query, {"id": "CC-1047"}) == [{"kind": "change_control"}]
        err = capfd.readouterr().err
        assert "warming up" in err and "FalkorDB is ready after" in err
        assert EmbeddedServer(own_home).pid() == pid
    finally:
        store.close()


# -- too busy ----------------------------------------------------------------------------------


def test_too_many_waiting_queries_is_busy_never_wrong(
    own_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A server that lets one query wait (MAX_QUEUED_QUERIES 1) and twelve slow queries at
    once: each gets its right answer or a BusyError; refused ones are tried again first."""
    from companybrain.errors import BusyError
    from companybrain.graph import connection

    settings = Settings(home=own_home, graph="busy", max_queued_queries=1)
    Store(settings).query("CREATE (:Seed)")
    slow = "UNWIND range(1, 2000000) AS x RETURN count(x) AS n"

    def burst() -> list[object]:
        outcomes: list[object] = []

        def one() -> None:
            store = Store(settings)
            try:
                outcomes.append(store.read(slow)[0]["n"])
            except BusyError as exc:
                outcomes.append(exc)
            finally:
                store.close()

        threads = [threading.Thread(target=one) for _ in range(12)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        return outcomes

    retried = burst()
    monkeypatch.setattr(connection, "BUSY_BACKOFF_S", ())
    at_once = burst()
    for outcome in [*retried, *at_once]:
        assert outcome == 2_000_000 or (
            isinstance(outcome, BusyError) and "the server is busy" in str(outcome)
        ), outcome
    assert len(retried) == len(at_once) == 12
    assert any(isinstance(o, BusyError) for o in at_once), "the queue limit never refused"
    assert any(o == 2_000_000 for o in retried)


def test_write_cut_off_in_flight_is_one_clear_error(own_home: Path) -> None:
    """The server dies while a write runs: the write is not sent again (it may or may not
    have been applied), the error says so in one line, and the graph holds all of the
    write or none of it."""
    settings = Settings(home=own_home, graph="inflight")
    store = Store(settings)
    store.query("CREATE (:Before {id: 1})")
    slow_write = (
        "UNWIND range(1, 10000000) AS x WITH count(x) AS n "
        "UNWIND range(1, 1000) AS i CREATE (:Cut {i: i, n: n})"
    )
    killer = threading.Timer(0.3, kill_server, args=(own_home,))
    killer.start()
    with pytest.raises(StoreError) as caught:
        store.query(slow_write)
    killer.join()
    message = str(caught.value)
    assert "during a write" in message and "run the command again" in message
    assert "\n" not in message
    after = Store(settings)  # starts the server again
    cut = after.read("MATCH (c:Cut) RETURN count(c) AS n")[0]["n"]
    assert cut == 0, "a write the server died in the middle of was applied (or half)"
    assert after.read("MATCH (b:Before) RETURN b.id AS id") == [{"id": 1}]
