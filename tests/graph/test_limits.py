"""Server limits: the embedded server starts with the configured FalkorDB limits, and a
runaway query is stopped and reported as one clear error."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from companybrain.config import Settings
from companybrain.errors import ConfigError, StoreError
from companybrain.graph.connection import Store
from companybrain.graph.server import EmbeddedServer


@pytest.fixture
def tight(tmp_path: Path) -> Iterator[Store]:
    """A server of its own with a 50 ms query time limit."""
    settings = Settings(
        home=tmp_path, graph="limits", query_timeout_ms=50, query_timeout_max_ms=600_000,
        resultset_size=5_000, query_mem_bytes=512 * 1024**2, max_queued_queries=64,
    )  # fmt: skip
    store = Store(settings)
    yield store
    store.close()
    EmbeddedServer(tmp_path).stop()


def _config(store: Store, name: str) -> int:
    reply = store.command("GRAPH.CONFIG", "GET", name)
    return int(reply[1])


def test_the_server_starts_with_the_configured_limits(tight: Store) -> None:
    assert _config(tight, "TIMEOUT_DEFAULT") == 50
    assert _config(tight, "TIMEOUT_MAX") == 600_000
    assert _config(tight, "RESULTSET_SIZE") == 5_000
    assert _config(tight, "QUERY_MEM_CAPACITY") == 512 * 1024**2
    assert _config(tight, "MAX_QUEUED_QUERIES") == 64


def test_a_runaway_query_is_stopped_with_one_clear_error(tight: Store) -> None:
    tight.query("UNWIND range(1, 3000) AS i CREATE (:Source {id: toString(i)})")
    with pytest.raises(StoreError, match="time limit") as info:
        tight.read("MATCH (a:Source), (b:Source), (c:Source) RETURN count(*) AS n")
    assert "TIMEOUT_DEFAULT" in str(info.value)
    # the server is still there for the next question
    assert tight.read("MATCH (s:Source {id: '7'}) RETURN s.id AS id") == [{"id": "7"}]


def test_limits_come_from_the_environment_and_are_checked() -> None:
    settings = Settings.from_env({"BRAIN_QUERY_TIMEOUT_MS": "2500", "BRAIN_RESULTSET_SIZE": "90"})
    assert (settings.query_timeout_ms, settings.resultset_size) == (2500, 90)
    with pytest.raises(ConfigError, match="BRAIN_MAX_QUEUED_QUERIES"):
        Settings.from_env({"BRAIN_MAX_QUEUED_QUERIES": "0"})
    with pytest.raises(ConfigError, match="BRAIN_QUERY_TIMEOUT_MAX_MS"):
        Settings.from_env({"BRAIN_QUERY_TIMEOUT_MS": "10", "BRAIN_QUERY_TIMEOUT_MAX_MS": "5"})


def test_the_highest_limits_accepted_are_ones_the_server_takes(tmp_path: Path) -> None:
    """Past these FalkorDB failed to load (after a 30 s wait) or wrapped them: a queue of
    2**32 refused every query, a row cap of 2**32 read one row."""
    highest = {
        "BRAIN_QUERY_TIMEOUT_MS": 2**32 - 1, "BRAIN_QUERY_TIMEOUT_MAX_MS": 2**32 - 1,
        "BRAIN_MAX_QUEUED_QUERIES": 2**32 - 1, "BRAIN_RESULTSET_SIZE": 2**63 - 1,
        "BRAIN_QUERY_MEM_BYTES": 2**63 - 1, "BRAIN_ROW_CAP": 2**31 - 1,
    }  # fmt: skip
    env = {"BRAIN_HOME": str(tmp_path), "BRAIN_GRAPH": "highest"}
    settings = Settings.from_env({**env, **{k: str(v) for k, v in highest.items()}})
    store = Store(settings)
    try:
        assert _config(store, "TIMEOUT_MAX") == 2**32 - 1
        assert _config(store, "MAX_QUEUED_QUERIES") == 2**32 - 1
        assert _config(store, "RESULTSET_SIZE") == 2**63 - 1
        with store.long_queries():  # sends TIMEOUT_MAX with the query
            store.query("UNWIND range(1, 3) AS i CREATE (:Source {id: toString(i)})")
        rows = store.read("MATCH (s:Source) RETURN s.id AS id LIMIT $n", {"n": 2**31})
        assert len(rows) == 3
    finally:
        store.close()
        EmbeddedServer(tmp_path).stop()


def test_db_start_starts_the_server_with_the_configured_limits(tmp_path: Path) -> None:
    """`brain db start` started the server with the default limits whatever was set, and
    every later command reused it: BRAIN_QUERY_TIMEOUT_MS and the rest did nothing."""
    from click.testing import CliRunner

    from companybrain.surfaces.cli.main import cli

    env = {"BRAIN_HOME": str(tmp_path), "BRAIN_QUERY_TIMEOUT_MS": "1234",
           "BRAIN_MAX_QUEUED_QUERIES": "7", "BRAIN_RESULTSET_SIZE": "5000"}  # fmt: skip
    try:
        result = CliRunner().invoke(cli, ["db", "start"], env=env)
        assert result.exit_code == 0, result.output
        assert result.output.startswith("started")
        store = Store(Settings(home=tmp_path))  # reuses the running server
        assert _config(store, "TIMEOUT_DEFAULT") == 1234
        assert _config(store, "MAX_QUEUED_QUERIES") == 7
        assert _config(store, "RESULTSET_SIZE") == 5000
        store.close()
    finally:
        EmbeddedServer(tmp_path).stop()


def test_a_reply_cut_at_the_servers_row_limit_is_an_error_not_an_answer(tmp_path: Path) -> None:
    """FalkorDB returns at most RESULTSET_SIZE rows and says nothing: on a server whose
    operator set it low, "Who owns the billing gateway?" answered Ines (an old directory
    row, cited) instead of Kofi, `status` listed two labels, and a second ingest failed on
    a unique constraint after reading part of what was stored."""
    from companybrain.brain import Brain
    from companybrain.ingest.pipeline import ingest
    from tests.conftest import REPO_ROOT

    settings = Settings(home=tmp_path, graph="cut")
    try:
        brain = Brain(settings=settings)
        ingest(brain.store, REPO_ROOT / "demo" / "corpus", settings)
        question, now = "Who owns the billing gateway?", "2026-10-20T12:00:00Z"
        assert brain.ask(question, now=now).to_dict()["result"]["owner"]["id"] == "kofi"
        brain.store.command("GRAPH.CONFIG", "SET", "RESULTSET_SIZE", "2")  # as an operator may
        brain.close()
        with pytest.raises(StoreError, match=r"returned 2 rows, the most .* RESULTSET_SIZE"):
            Brain(settings=settings).ask(question, now=now)
        store = Store(settings)  # a reply within the limit is read as before
        assert store.read("MATCH (p:Person {id: 'kofi'}) RETURN p.id AS id") == [{"id": "kofi"}]
        store.close()
    finally:
        EmbeddedServer(tmp_path).stop()
