"""After a run that wrote much, the embedded server's append-only file is rewritten as a
snapshot: left as every write, it was replayed query by query at the next start (24 s for a
generated company of 10,000 records, which loads from a snapshot in 0.2 s). A run that wrote
little next to the snapshot leaves its writes in the log: a snapshot of a large graph for
one record would cost seconds of a forked server's time."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from companybrain.config import Settings
from companybrain.graph.connection import Store
from companybrain.graph.server import EmbeddedServer
from companybrain.ingest.pipeline import ingest
from tests.security.faultkit import generate
from tests.support.aof import wait_rewritten


@pytest.fixture
def own_home(tmp_path: Path) -> Iterator[Path]:
    home = tmp_path / "home"
    yield home
    EmbeddedServer(home).stop()


def _renamed(line: str) -> str:
    record = json.loads(line)
    record["id"] += "-more"
    return json.dumps(record)


def _log(home: Path) -> tuple[int, int]:
    """Bytes of the snapshot the log starts from, and of the writes after it."""
    folder = next(home.rglob("appendonlydir"))
    base = sum(f.stat().st_size for f in folder.glob("*.base.*"))
    incr = sum(f.stat().st_size for f in folder.glob("*.incr.aof"))
    return base, incr


def test_an_ingest_leaves_a_snapshot_to_load_not_its_writes_to_replay(
    own_home: Path, tmp_path: Path
) -> None:
    settings = Settings(home=own_home)
    store = Store(settings)
    corpus = generate(tmp_path / "corpus", 3_000).path
    try:
        assert ingest(store, corpus, settings).stored == 3_000
        time.sleep(0.2)
        wait_rewritten(store)
        base, incr = _log(own_home)
        assert base > 500_000, "the graph is in the snapshot"
        assert incr < 5_000, f"{incr} bytes of writes left to replay"
        # A few records more: their writes are left in the log, not a snapshot made again.
        more = tmp_path / "more.jsonl"
        lines = (corpus / "records.jsonl").read_text().splitlines()[:5]
        more.write_text("".join(_renamed(line) + "\n" for line in lines))
        assert ingest(store, more, settings).stored == 5
        time.sleep(0.2)
        wait_rewritten(store)
        again_base, again_incr = _log(own_home)
        assert again_base == base and again_incr > incr
    finally:
        store.close()
