"""Crash safety of ingestion: the embedded server SIGKILLed in the middle of an ingest (at
every kind of write of a small one, and at a random moment of a generated corpus of
1,500 records), the `brain ingest` process SIGKILLed instead, and recovery from the RDB
snapshot alone. After each: every record acknowledged before the crash is there, whole;
no record is half written; and running the ingest again gives the graph an uninterrupted
ingest gives (the same digest of every node and edge)."""

from __future__ import annotations

import contextlib
import json
import random
import shutil
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from companybrain.ask.engine import ask
from companybrain.config import Settings
from companybrain.errors import StoreError
from companybrain.graph.connection import Prepared, Store
from companybrain.graph.queries import digest_q, records_q
from companybrain.graph.server import EmbeddedServer
from companybrain.ingest import writer
from companybrain.ingest.lock import LOCK_NAME, Holder
from companybrain.ingest.pipeline import ingest
from companybrain.ingest.writer import CHECKPOINT_KEY
from tests.security.faultkit import Corpus, env_for, generate, kill_server, wait_dead

pytestmark = pytest.mark.slow

BIG = 1500
SMALL = 40
MIN_KILL_POINTS = 15
ASK_NOW = "2026-12-31T00:00:00Z"


class Crashed(Exception):
    """The ingest dies together with its server (a power cut, not a polite stop)."""


@pytest.fixture(scope="module")
def big(tmp_path_factory: pytest.TempPathFactory) -> Corpus:
    return generate(tmp_path_factory.mktemp("big") / "corpus", BIG)


@pytest.fixture(scope="module")
def reference(big: Corpus, base_settings: Settings) -> Iterator[dict[str, Any]]:
    """The graph an uninterrupted ingest of the big corpus builds, as digests."""
    store = Store(base_settings.with_(graph="crash_reference"))
    store.delete_graph()
    ingest(store, big.path, store.settings)
    yield {"graph": digest_q.graph_digest(store), "records": digest_q.record_digests(store)}
    store.delete_graph()
    store.close()


@pytest.fixture
def own_home(tmp_path: Path) -> Iterator[Path]:
    home = tmp_path / "home"
    yield home
    EmbeddedServer(home).stop()


def _half_written(store: Store, expected: dict[str, str]) -> list[str]:
    """Records in the graph whose own writes differ from an uninterrupted ingest's."""
    return sorted(
        rid for rid, digest in digest_q.record_digests(store).items() if expected[rid] != digest
    )


def _durable_point(store: Store) -> int:
    """How many records the ingestion's checkpoint says are on disk: it is written only
    after the server confirmed (WAITAOF) that the writes before it are in its AOF."""
    checkpoint = records_q.read_checkpoint(store, CHECKPOINT_KEY) or {}
    return int(checkpoint.get("durable") or 0)


def _check_truth(store: Store, corpus: Corpus, sample: int = 6) -> None:
    for sid in random.Random(3).sample(sorted(corpus.services), sample):
        answer = ask(
            store, store.settings, f"Who owns the {corpus.services[sid]}?", now=ASK_NOW
        ).to_dict()
        assert answer["status"] == "answered", answer
        assert answer["result"]["owner"]["id"] == corpus.owner[sid]


# -- the server killed before each kind of write of a small ingest --------------------------


_QUERY = Store.query


class KillBeforeWrite:
    """Counts the writes every store of this process sends (the ingestion writes its
    batches on a connection of its own) and SIGKILLs the server just before write `at`
    (None: only count), then fails the ingest as if it had died with it."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, home: Path, at: int | None) -> None:
        self.writes: list[str] = []
        self.at = at
        self.home = home
        killer = self

        def query(
            store: Store, cypher: str | Prepared, params: Any = None, *, read_only: bool = False
        ) -> list[dict[str, Any]]:
            if not read_only:
                text = cypher.cypher if isinstance(cypher, Prepared) else cypher
                killer.writes.append(" ".join(text.split())[:60])
                if len(killer.writes) == killer.at:
                    kill_server(killer.home)
                    raise Crashed(killer.writes[-1])
            return _QUERY(store, cypher, params, read_only=read_only)

        monkeypatch.setattr(Store, "query", query)


def test_server_killed_before_each_kind_of_write(
    own_home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    corpus = generate(tmp_path / "small", SMALL, seed=11)
    whole = Store(Settings(home=own_home, graph="whole"))
    counter = KillBeforeWrite(monkeypatch, own_home, None)
    ingest(whole, corpus.path, whole.settings)
    expected = {"graph": digest_q.graph_digest(whole), "records": digest_q.record_digests(whole)}
    # before the first index, and before every write that is not an index (organisation,
    # checkpoints, the record batch, derived links): one crash at each
    points = [1] + [
        at for at, text in enumerate(counter.writes, start=1) if not text.startswith("CREATE")
    ]
    assert any(text.startswith("UNWIND $sources") for text in counter.writes)
    seen: list[tuple[int, str, int]] = []
    for at in points:
        graph = f"cut{at}"
        store = Store(Settings(home=own_home, graph=graph))
        killer = KillBeforeWrite(monkeypatch, own_home, at)
        with pytest.raises(Crashed):
            ingest(store, corpus.path, store.settings)
        killer.at = None
        after = Store(Settings(home=own_home, graph=graph))  # starts the server again
        present = digest_q.record_digests(after)
        assert _half_written(after, expected["records"]) == [], f"cut before {killer.writes[-1]}"
        ingest(after, corpus.path, after.settings)
        assert digest_q.graph_digest(after) == expected["graph"], f"cut at write {at}"
        seen.append((at, killer.writes[at - 1], len(present)))
        after.delete_graph()
    assert len(seen) == len(points) >= MIN_KILL_POINTS
    cut = {text.split(" ")[0] + " " + text.split(" ")[1] for _, text, _ in seen}
    assert "UNWIND $sources" in cut, f"never cut at the record batch: {sorted(cut)}"
    _check_truth(whole, corpus)


# -- the server killed at a random moment of a big ingest -----------------------------------


def test_server_sigkill_mid_ingest_of_a_generated_corpus(
    own_home: Path, big: Corpus, reference: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    # a durability point after every batch (the writer's default is every few seconds,
    # longer than this whole ingest), so that the crash lands after some
    monkeypatch.setattr(writer, "CHECKPOINT_S", 0.0)
    settings = Settings(home=own_home, graph="big")
    store = Store(settings)
    state: dict[str, Any] = {"done": 0, "killed": False, "acked": 0}
    lock = threading.Lock()

    def progress(done: int, total: int, what: str) -> None:
        with lock:
            if state["killed"]:
                raise Crashed(what)
            state["done"] = done

    def killer() -> None:
        target = int(BIG * random.uniform(0.3, 0.6))
        deadline = time.monotonic() + 120
        while state["done"] < target and time.monotonic() < deadline:
            time.sleep(0.005)
        time.sleep(random.uniform(0, 0.02))  # somewhere inside a write
        with lock:
            state["acked"] = state["done"]
            kill_server(own_home)
            state["killed"] = True

    thread = threading.Thread(target=killer)
    thread.start()
    with contextlib.suppress(Crashed, StoreError):
        ingest(store, big.path, settings, progress=progress)
    thread.join()
    assert state["killed"] and state["acked"] > 0

    after = Store(settings)
    present = digest_q.record_digests(after)
    acked = [str(r["id"]) for r in big.records[: state["acked"]]]
    assert [rid for rid in acked if rid not in present] == [], "acknowledged records lost"
    durable = _durable_point(after)
    assert state["acked"] <= durable <= len(present), "the checkpoint survived, and was true"
    lost = [str(r["id"]) for r in big.records[:durable] if str(r["id"]) not in present]
    assert lost == [], "records before the last durability point lost"
    assert _half_written(after, reference["records"]) == []
    ingest(after, big.path, settings)
    assert digest_q.graph_digest(after) == reference["graph"]
    _check_truth(after, big)


# -- the brain process killed instead ---------------------------------------------------------


def test_brain_process_sigkill_mid_ingest(
    own_home: Path, big: Corpus, reference: dict[str, Any]
) -> None:
    env = env_for(own_home, "big")
    EmbeddedServer(own_home).ensure_running()
    watcher = Store(Settings(home=own_home, graph="big"))
    proc = subprocess.Popen(
        [sys.executable, "-m", "companybrain", "ingest", str(big.path)],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    target = int(BIG * random.uniform(0.3, 0.6))
    deadline = time.monotonic() + 180
    count = "MATCH (s:Source) RETURN count(s) AS n"
    try:
        while time.monotonic() < deadline and proc.poll() is None:
            if watcher.graph_exists() and watcher.read(count)[0]["n"] >= target:
                break
            time.sleep(0.05)
        assert proc.poll() is None, "the ingest ended before it could be killed"
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=30)
    wait_dead(proc.pid)

    present = digest_q.record_digests(watcher)
    assert target <= len(present) < BIG
    assert _half_written(watcher, reference["records"]) == []
    # The killed run's lock is still there, naming a process that is gone: `status` says
    # the run did not finish, and the next run takes the lock over at once.
    holder, _ = watcher.lock_holder(LOCK_NAME)
    assert holder is not None and Holder.parse(holder).pid == proc.pid
    status = subprocess.run(
        [sys.executable, "-m", "companybrain", "status", "--json"],
        env=env, capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert json.loads(status.stdout)["last_ingest"]["state"] == "interrupted", status.stdout
    again = subprocess.run(
        [sys.executable, "-m", "companybrain", "ingest", str(big.path)],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert again.returncode == 0, again.stderr
    assert digest_q.graph_digest(watcher) == reference["graph"]
    watcher.close()


# -- recovery from the RDB snapshot alone -----------------------------------------------------


def test_recovery_from_the_rdb_snapshot_alone(own_home: Path, tmp_path: Path) -> None:
    corpus = generate(tmp_path / "full", 600, seed=5)
    part = tmp_path / "part"
    part.mkdir()
    shutil.copy(corpus.path / "org.yaml", part / "org.yaml")
    (part / "records.jsonl").write_text(
        "".join((corpus.path / "records.jsonl").read_text().splitlines(keepends=True)[:250])
    )
    settings = Settings(home=own_home, graph="snap")
    store = Store(settings)
    ingest(store, part, settings)
    assert store.command("SAVE") in (True, "OK", b"OK")
    at_save = digest_q.graph_digest(store)
    ingest(store, corpus.path, settings)  # written after the snapshot: only in the AOF
    assert digest_q.graph_digest(store) != at_save
    store.close()

    EmbeddedServer(own_home).stop()
    shutil.rmtree(own_home / "data" / "appendonlydir")
    recovered = Store(settings)
    assert digest_q.graph_digest(recovered) == at_save, "data as of the snapshot"
    assert recovered.command("CONFIG", "GET", "appendonly")[1] == "yes"
    ingest(recovered, part, settings)
    assert digest_q.graph_digest(recovered) == at_save, "re-running changes nothing"

    # the append-only file is back: a write after the recovery survives a SIGKILL
    recovered.query("CREATE (:Probe {id: $id})", {"id": "after-recovery"})
    kill_server(own_home)
    rows = Store(settings).read("MATCH (p:Probe) RETURN p.id AS id")
    assert rows == [{"id": "after-recovery"}]
