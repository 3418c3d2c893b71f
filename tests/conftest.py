"""One real FalkorDB for the whole run (embedded, or FALKORDB_URL when it is set), a fresh
graph for every test, and a scripted chat-completions server for model paths."""

from __future__ import annotations

import gc
import os
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from companybrain.config import Settings
from companybrain.graph.connection import Store
from companybrain.graph.server import EmbeddedServer
from tests.support.model_server import ScriptedModelServer

REPO_ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="session")
def brain_home(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """The data folder of the run's server. The server is stopped at the end, so that a
    test run leaves no process behind."""
    home = tmp_path_factory.mktemp("brain-home")
    server = None if os.environ.get("FALKORDB_URL") else EmbeddedServer(home)
    if server:
        server.ensure_running()
    yield home
    if server:
        server.stop()


@pytest.fixture(scope="session")
def base_settings(brain_home: Path) -> Settings:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("BRAIN_", "OPENAI_"))}
    env["BRAIN_HOME"] = str(brain_home)
    return Settings.from_env(env)


@pytest.fixture
def graph_name() -> str:
    return f"t_{uuid.uuid4().hex[:12]}"


@pytest.fixture
def settings(base_settings: Settings, graph_name: str) -> Settings:
    return base_settings.with_(graph=graph_name)


@pytest.fixture
def store(settings: Settings) -> Iterator[Store]:
    """A fresh, schema-ready graph, deleted after the test."""
    s = Store(settings)
    s.ensure_schema()
    yield s
    s.delete_graph()
    s.close()


@pytest.fixture
def cli_env(settings: Settings) -> dict[str, str]:
    """Environment for running `brain` against the test's graph."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("BRAIN_", "OPENAI_"))}
    env["BRAIN_HOME"] = str(settings.home)
    env["BRAIN_GRAPH"] = settings.graph
    return env


@pytest.fixture
def run_cli(cli_env: dict[str, str], settings: Settings):  # type: ignore[no-untyped-def]
    """Run `brain ARGS` in-process against the test's graph; returns click's Result."""
    from companybrain.surfaces.cli.main import cli

    def run(*args: str, env: dict[str, str] | None = None) -> Result:
        runner = CliRunner()
        merged = {**cli_env, **(env or {})}
        return runner.invoke(cli, list(args), env=merged, catch_exceptions=True)

    yield run
    Store(settings).delete_graph()


@pytest.fixture
def model_server() -> Iterator[ScriptedModelServer]:
    server = ScriptedModelServer().start()
    yield server
    server.stop()
    server.assert_done()


@pytest.fixture
def model_settings(settings: Settings, model_server: ScriptedModelServer) -> Settings:
    return settings.with_(
        model="scripted", model_base_url=model_server.base_url, model_api_key="test"
    )


@pytest.fixture
def collector_on() -> Iterator[None]:
    """Python's cyclic garbage collector switched on for the test, as it was afterwards."""
    was_on = gc.isenabled()
    gc.enable()
    yield
    if not was_on:
        gc.disable()
