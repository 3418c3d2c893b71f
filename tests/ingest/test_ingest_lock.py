"""One ingest of a graph at a time: a second run (whole corpus or `brain add`) is refused at
once naming the first; the lock is renewed while the first runs, released at its end, and
one left by a killed run expires."""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time
from datetime import UTC, datetime
from pathlib import Path

import pytest

from companybrain.config import Settings
from companybrain.errors import BusyError
from companybrain.graph.connection import Store
from companybrain.graph.queries import records_q
from companybrain.ingest import lock, writer
from companybrain.ingest.pipeline import add_typed_record, ingest
from companybrain.model.records import Record
from tests.ingest.corpus_builder import write_corpus
from tests.ingest.test_pipeline import CHAT, DIRECTORY, TRANSFER


@pytest.fixture
def corpus(tmp_path: Path) -> Path:
    return write_corpus(tmp_path / "corpus", {"dir.md": DIRECTORY, "cc.md": TRANSFER}, jsonl=[CHAT])


def typed(rid: str) -> Record:
    at = datetime(2026, 10, 15, 10, tzinfo=UTC)
    return Record(id=rid, kind="chat", at=at, text="Cy owns search index", author="bo")


def test_a_second_ingest_is_refused_while_the_first_runs_and_the_first_completes(
    corpus: Path, store: Store, settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A lock that lapses in a second unless renewed: the pause below outlasts it.
    monkeypatch.setattr(lock, "LOCK_TTL_S", 1.0)
    monkeypatch.setattr(lock, "LOCK_RENEW_S", 0.1)
    inside, go = threading.Event(), threading.Event()
    failed: list[BaseException] = []

    def held(done: int, total: int, last: str) -> None:
        if not inside.is_set():  # the first call: the run has begun, nothing written yet
            inside.set()
            go.wait(30)

    def first() -> None:
        other = Store(settings)  # its own connection, as another process would have
        try:
            ingest(other, corpus, settings, progress=held, workers=0)
        except BaseException as exc:  # handed to the test's thread
            failed.append(exc)
        finally:
            other.close()

    thread = threading.Thread(target=first)
    thread.start()
    try:
        assert inside.wait(30)
        time.sleep(1.5)  # past the lock's expiry: only renewal keeps it
        mark = records_q.read_checkpoint(store, writer.CHECKPOINT_KEY)
        assert mark is not None and mark["complete"] is False
        run = mark["run"]
        value = store.lock_holder(lock.LOCK_NAME)[0]
        assert value is not None and lock.Holder.parse(value) == lock.Holder.here(run)
        started = time.monotonic()
        with pytest.raises(BusyError) as refused:
            ingest(store, corpus, settings, workers=0)
        assert time.monotonic() - started < 5, "refused at once, not after waiting"
        message = str(refused.value)
        assert (
            f"another ingest of graph {settings.graph!r} is running (run {run}, process "
            f"{os.getpid()} on {socket.gethostname()})"
        ) in message
        assert "expires within 1 s" in message
        with pytest.raises(BusyError, match="another ingest"):
            add_typed_record(store, typed("typed-9"), settings)
    finally:
        go.set()
        thread.join(60)
    assert not failed, failed
    mark = records_q.read_checkpoint(store, writer.CHECKPOINT_KEY)
    assert mark is not None and mark["complete"] is True and mark["run"] == run
    assert store.lock_holder(lock.LOCK_NAME) == (None, 0), "released at the end"
    assert ingest(store, corpus, settings).unchanged == 3  # the next run is free to go


def test_a_lock_left_by_a_killed_run_expires(
    corpus: Path, store: Store, settings: Settings
) -> None:
    # What a SIGKILLed run leaves: its key, with no one left to renew or release it.
    assert store.take_lock(lock.LOCK_NAME, "killedrun123", 600)
    with pytest.raises(BusyError, match=r"\(run killedrun123\).*expires within 1 s"):
        ingest(store, corpus, settings)
    assert not store.drop_lock(lock.LOCK_NAME, "someoneelse"), "only its holder releases it"
    time.sleep(0.8)
    assert ingest(store, corpus, settings).stored == 3
    assert add_typed_record(store, typed("typed-1"), settings).stored == 1
    assert store.lock_holder(lock.LOCK_NAME) == (None, 0)


def test_a_lock_whose_process_is_gone_is_taken_over_at_once(
    corpus: Path, store: Store, settings: Settings
) -> None:
    # A run on this machine SIGKILLed while holding the lock: its process is gone (reaped).
    dead = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    dead.send_signal(signal.SIGKILL)
    dead.wait(10)
    value = lock.Holder("killedrun456", socket.gethostname(), dead.pid).value()
    assert store.take_lock(lock.LOCK_NAME, value, 60_000)
    started = time.monotonic()
    assert ingest(store, corpus, settings).stored == 3
    assert time.monotonic() - started < 30, "not after the lock's minute"
    assert store.lock_holder(lock.LOCK_NAME) == (None, 0)


def test_a_lock_whose_process_lives_or_is_elsewhere_is_waited_for(
    corpus: Path, store: Store, settings: Settings
) -> None:
    alive = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        for holder in (
            lock.Holder("liverun0001", socket.gethostname(), alive.pid),
            lock.Holder("farrun00001", "another-machine.invalid", 999_999_999),
        ):
            assert store.take_lock(lock.LOCK_NAME, holder.value(), 60_000)
            with pytest.raises(BusyError, match=f"run {holder.run}, process {holder.pid} on"):
                ingest(store, corpus, settings)
            assert store.drop_lock(lock.LOCK_NAME, holder.value())
    finally:
        alive.kill()
        alive.wait(10)
    assert store.read("MATCH (s:Source) RETURN count(s) AS n") == [{"n": 0}]


def test_holder_values_read_back() -> None:
    here = lock.Holder.here("abc")
    assert lock.Holder.parse(here.value()) == here
    assert lock.Holder.parse("abc") == lock.Holder("abc")  # a run id alone: no process
    assert lock.Holder.parse("abc my host 12") == lock.Holder("abc", "my host", 12)
    assert not lock.Holder("abc").gone() and not here.gone()


def test_a_failed_run_releases_its_lock(corpus: Path, store: Store, settings: Settings) -> None:
    (corpus / "org.yaml").write_text("not: [valid")
    with pytest.raises(Exception):  # noqa: B017 - whichever error, the lock must go
        ingest(store, corpus, settings)
    assert store.lock_holder(lock.LOCK_NAME) == (None, 0)


def test_the_cli_says_another_ingest_is_running_in_one_line(  # type: ignore[no-untyped-def]
    cli_env, corpus: Path, store: Store, settings: Settings
) -> None:
    ingest(store, corpus, settings)  # `brain add` needs the organisation
    assert store.take_lock(lock.LOCK_NAME, "otherrun0001", 60_000)
    try:
        for args in (("ingest", str(corpus)), ("add", "--as", "bo", "Cy owns search index")):
            done = subprocess.run(
                [sys.executable, "-m", "companybrain", *args],
                env=cli_env, capture_output=True, text=True, timeout=60,
            )  # fmt: skip
            assert done.returncode == 1
            lines = done.stderr.strip().splitlines()
            assert len(lines) == 1 and lines[0].startswith(
                f"error: another ingest of graph {store.graph_name!r} is running "
                "(run otherrun0001); wait for it"
            ), done.stderr
            assert re.search(r"expires within \d+ s \(at most 60 s after it stopped\)", lines[0])
        assert store.read("MATCH (s:Source) RETURN count(s) AS n") == [{"n": 3}]
    finally:
        store.drop_lock(lock.LOCK_NAME, "otherrun0001")


def test_reset_waits_for_a_running_ingest(
    run_cli, corpus: Path, store: Store, settings: Settings
) -> None:  # type: ignore[no-untyped-def]
    """`brain reset --yes` under a running ingest deleted the graph between two batches: the
    run went on to say "stored" every record and "complete", leaving only the later
    batches, with no organisation or schema."""
    ingest(store, corpus, settings)
    holder = lock.IngestLock(store)
    with holder:  # a running ingest
        result = run_cli("reset", "--yes")
        assert isinstance(result.exception, BusyError)
        assert str(result.exception).startswith(
            f"another ingest of graph {store.graph_name!r} is running (run {holder.run}"
        )
        assert store.read("MATCH (s:Source) RETURN count(s) AS n") == [{"n": 3}]
    result = run_cli("reset", "--yes")
    assert result.exit_code == 0 and "deleted" in result.output
    assert not store.graph_exists()
    assert store.lock_holder(lock.LOCK_NAME) == (None, 0)
