"""A write FalkorDB refuses partway (here a unique constraint it breaks) is rolled back, but
the internal ids it handed out are not, and the append-only file never holds it: after a
SIGKILL the server replayed the later writes onto other ids. It loaded other data than was
written (here: which node a write picked), or, when a replayed change named an id that was
not there, crashed on every start (a data folder lost, found by the board's stress test).
The embedded server's append-only file is rewritten after such a write."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from companybrain.config import Settings
from companybrain.errors import StoreError
from companybrain.graph.connection import Store
from companybrain.graph.server import EmbeddedServer
from tests.security.faultkit import kill_server
from tests.support.aof import wait_rewritten


@pytest.fixture
def own_home(tmp_path: Path) -> Iterator[Path]:
    home = tmp_path / "home"
    yield home
    EmbeddedServer(home).stop()


def _state(store: Store) -> list[tuple[int, int, object]]:
    rows = store.read("MATCH (n:Item) RETURN id(n) AS nid, n.id AS id, n.picked AS picked")
    return sorted((r["nid"], r["id"], r["picked"]) for r in rows)


def test_a_write_refused_partway_leaves_a_log_that_replays_what_was_written(
    own_home: Path,
) -> None:
    settings = Settings(home=own_home, graph="replay")
    store = Store(settings)
    store.query("CREATE INDEX FOR (n:Item) ON (n.id)")
    store.command("GRAPH.CONSTRAINT", "CREATE", "replay", "UNIQUE", "NODE", "Item",
                  "PROPERTIES", "1", "id")  # fmt: skip
    time.sleep(0.5)
    store.query("UNWIND range(1, 10) AS i CREATE (:Item {id: i, o: 0})")
    store.query("MATCH (n:Item {id: 3}) DELETE n")
    with pytest.raises(StoreError, match="unique constraint"):
        store.query("UNWIND [100, 101, 102, 1] AS i CREATE (:Item {id: i, o: 0})")
    wait_rewritten(store)
    store.query("UNWIND [200, 201, 202] AS i CREATE (:Item {id: i, o: 0})")
    store.query("MATCH (n:Item) WHERE n.id >= 200 WITH n ORDER BY id(n) LIMIT 1 SET n.picked = 1")
    before = _state(store)
    store.close()

    kill_server(own_home)
    again = Store(settings)  # starts the server, which replays its log
    try:
        assert _state(again) == before
    finally:
        again.close()
