"""The embedded server: start, reuse, crash recovery without losing data, clean stop."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from companybrain.config import Settings
from companybrain.errors import ConfigError, StoreError
from companybrain.graph.connection import Store
from companybrain.graph.server import EmbeddedServer, _is_alive


@pytest.fixture
def own_home(tmp_path: Path) -> Iterator[Path]:
    """A folder with its own server, stopped however the test ends."""
    yield tmp_path
    EmbeddedServer(tmp_path).stop()


def test_start_then_reuse(own_home: Path) -> None:
    server = EmbeddedServer(own_home)
    assert server.ensure_running() is True
    pid = server.pid()
    assert pid is not None
    assert EmbeddedServer(own_home).ensure_running() is False
    assert server.pid() == pid


def test_persistence_is_append_only_file(own_home: Path) -> None:
    Store(Settings(home=own_home)).command("PING")
    store = Store(Settings(home=own_home))
    assert store.command("CONFIG", "GET", "appendonly")[1] == "yes"
    assert store.command("CONFIG", "GET", "appendfsync")[1] == "everysec"


def test_durable_setting_fsyncs_every_write(own_home: Path) -> None:
    store = Store(Settings(home=own_home, durable=True))
    assert store.command("CONFIG", "GET", "appendfsync")[1] == "always"


def test_durable_on_a_running_server_fsyncs_every_write(own_home: Path) -> None:
    """`brain --durable ingest` against a server already started without it kept its
    once-a-second fsync: the writes this command reported stored could be lost in a crash."""
    Store(Settings(home=own_home)).command("PING")
    store = Store(Settings(home=own_home, durable=True))
    assert store.command("CONFIG", "GET", "appendfsync")[1] == "always"


def test_sigkill_then_recover_without_losing_data(own_home: Path) -> None:
    settings = Settings(home=own_home, graph="crash")
    store = Store(settings)
    store.ensure_schema()
    store.query("CREATE (:Person {id: $id, name: $name})", {"id": "p1", "name": "Before Crash"})
    time.sleep(1.5)  # beyond the one-second fsync window
    pid = EmbeddedServer(own_home).pid()
    assert pid is not None
    os.kill(pid, signal.SIGKILL)
    deadline = time.monotonic() + 5
    while _is_alive(pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert (own_home / "falkordb.sock").exists(), "a crash leaves the stale socket behind"
    assert (own_home / "falkordb.pid").exists(), "and the stale pid file"

    recovered = Store(settings)
    rows = recovered.read("MATCH (p:Person {id: $id}) RETURN p.name AS name", {"id": "p1"})
    assert rows == [{"name": "Before Crash"}]
    assert EmbeddedServer(own_home).pid() not in (None, pid)


def test_brain_status_recovers_after_sigkill(own_home: Path) -> None:
    env = {**os.environ, "BRAIN_HOME": str(own_home)}
    env.pop("FALKORDB_URL", None)
    first = subprocess.run(
        [sys.executable, "-m", "companybrain", "status", "--json"],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert first.returncode == 0, first.stderr
    pid = EmbeddedServer(own_home).pid()
    assert pid is not None
    os.kill(pid, signal.SIGKILL)
    again = subprocess.run(
        [sys.executable, "-m", "companybrain", "status"],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert again.returncode == 0, again.stderr
    assert "FalkorDB" in again.stdout


def test_two_processes_share_one_server(own_home: Path) -> None:
    env = {**os.environ, "BRAIN_HOME": str(own_home)}
    env.pop("FALKORDB_URL", None)
    procs = [
        subprocess.Popen(
            [sys.executable, "-m", "companybrain", "db", "start"],
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(2)
    ]
    outputs = [p.communicate(timeout=60) for p in procs]
    assert all(p.returncode == 0 for p in procs), outputs
    said = sorted(out.split(":")[0] for out, _ in outputs)
    assert said == ["already running", "started"]
    running = subprocess.run(
        ["pgrep", "-f", f"{own_home}/falkordb.sock"], capture_output=True, text=True
    )
    assert len(running.stdout.split()) == 1


def test_stop_cleans_up(own_home: Path) -> None:
    server = EmbeddedServer(own_home)
    server.ensure_running()
    pid = server.pid()
    assert server.stop() is True
    assert pid is not None and not _is_alive(pid)
    assert not (own_home / "falkordb.sock").exists()
    assert server.stop() is False


def test_a_data_folder_that_cannot_be_used_is_one_error_naming_brain_home(
    tmp_path: Path,
) -> None:
    """A file, a folder under a file, or a folder where the lock cannot be created raised
    FileExistsError, NotADirectoryError or PermissionError from deep inside."""
    a_file = tmp_path / "file"
    a_file.write_text("not a folder")
    locked_out = tmp_path / "home"
    (locked_out / "server.lock").mkdir(parents=True)  # root may write anywhere; a folder not
    for home, says in (
        (a_file, " is a file, not a folder"),
        (a_file / "sub", ": cannot create the folder (Not a directory)"),
        (locked_out, " is not writable: cannot create server.lock"),
    ):
        message = re.escape(f"BRAIN_HOME {home}{says}")
        with pytest.raises(ConfigError, match=f"^{message}"):
            EmbeddedServer(home).ensure_running()
        with pytest.raises(ConfigError, match=f"^{message}"):
            EmbeddedServer(home).stop()
    assert not any(locked_out.glob("falkordb.*"))
    taken = tmp_path / "taken"
    taken.mkdir()
    (taken / "data").write_text("someone's file")  # was "unexpected FileExistsError"
    message = re.escape(f"BRAIN_HOME {taken}: cannot use {taken / 'data'} as the database's")
    with pytest.raises(ConfigError, match=f"^{message}"):
        EmbeddedServer(taken).ensure_running()
    assert (taken / "data").read_text() == "someone's file"


def test_a_pid_file_naming_another_folders_server_is_stale(own_home: Path, tmp_path: Path) -> None:
    """A folder copied with its pid file (or a pid reused by another folder's server) made
    `db stop` stop that other server, and a start kill it as hung."""
    theirs = EmbeddedServer(own_home)
    theirs.ensure_running()
    pid = theirs.pid()
    assert pid is not None
    copy = tmp_path / "copy"
    copy.mkdir()
    (copy / "falkordb.pid").write_text((own_home / "falkordb.pid").read_text())
    ours = EmbeddedServer(copy)
    assert ours.pid() is None
    ours.stop()
    assert _is_alive(pid) and theirs.is_running()
    try:
        assert ours.ensure_running()  # a server of its own, the other left alone
        assert ours.pid() not in (None, pid) and theirs.is_running()
    finally:
        ours.stop()


def test_a_server_that_dies_at_start_is_said_at_once_with_its_reason(own_home: Path) -> None:
    """A damaged append-only file: redis exits at once, but the start waited the whole 30 s
    and then said only "the database did not come up; see LOG"."""
    store = Store(Settings(home=own_home))
    store.query("CREATE (:Source {id: 'x'})")
    store.close()
    EmbeddedServer(own_home).stop()
    manifest = next((own_home / "data" / "appendonlydir").glob("*.manifest"))
    manifest.write_text("garbage\n")
    started = time.monotonic()
    with pytest.raises(StoreError) as caught:
        EmbeddedServer(own_home).ensure_running()
    assert time.monotonic() - started < 15
    assert str(caught.value).startswith(
        "the database did not come up: Invalid AOF manifest file format; see "
    )


def test_a_folder_renamed_under_its_server_keeps_that_one_server(tmp_path: Path) -> None:
    """`mv .brain .brain-old` while the database ran: its command line names the old socket
    path, so the next command took it for stale and started a second server on the same
    append-only file, and `brain db stop` said "not running" and left it running."""
    before, after = tmp_path / "a", tmp_path / "b"
    Store(Settings(home=before, graph="moved")).query("CREATE (:Person {id: 'x'})")
    pid = EmbeddedServer(before).pid()
    assert pid is not None
    before.rename(after)
    server = EmbeddedServer(after)
    try:
        assert server.pid() == pid
        assert server.ensure_running() is False
        rows = Store(Settings(home=after, graph="moved")).read("MATCH (p:Person) RETURN p.id AS id")
        assert rows == [{"id": "x"}]
        found = subprocess.run(
            ["pgrep", "-f", "redis-server.*" + str(tmp_path)], capture_output=True
        )
        assert found.stdout.split() == [str(pid).encode()], "a second server on the same files"
    finally:
        stopped = server.stop()
    assert stopped and not _is_alive(pid)
