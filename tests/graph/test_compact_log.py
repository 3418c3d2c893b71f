"""After a run that wrote much, the embedded server's append-only file is rewritten as a
snapshot: left as every write, it was replayed query by query at the next start (24 s for a
generated company of 10,000 records, which loads from a snapshot in 0.2 s)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from companybrain.config import Settings
from companybrain.graph.connection import Store
from companybrain.graph.server import EmbeddedServer
from companybrain.ingest.pipeline import ingest
from tests.support.aof import wait_rewritten

DEMO = Path(__file__).resolve().parents[2] / "demo" / "corpus"


@pytest.fixture
def own_home(tmp_path: Path) -> Iterator[Path]:
    home = tmp_path / "home"
    yield home
    EmbeddedServer(home).stop()


def _log(home: Path) -> tuple[int, int]:
    """Bytes of the snapshot the log starts from, and of the writes after it."""
    folder = next(home.rglob("appendonlydir"))
    base = sum(f.stat().st_size for f in folder.glob("*.base.*"))
    incr = sum(f.stat().st_size for f in folder.glob("*.incr.aof"))
    return base, incr


def test_an_ingest_leaves_a_snapshot_to_load_not_its_writes_to_replay(own_home: Path) -> None:
    settings = Settings(home=own_home)
    store = Store(settings)
    try:
        assert ingest(store, DEMO, settings).stored > 100
        time.sleep(0.2)
        wait_rewritten(store)
        base, incr = _log(own_home)
        assert base > 50_000, "the graph is in the snapshot"
        assert incr < 5_000, f"{incr} bytes of writes left to replay"
        assert ingest(store, DEMO, settings).stored == 0
        assert _log(own_home)[1] < 5_000 + incr, "an unchanged run rewrites nothing"
    finally:
        store.close()
