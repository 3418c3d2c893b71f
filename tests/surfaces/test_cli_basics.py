from __future__ import annotations

import json
import os
import subprocess
import sys

from companybrain.graph.connection import Store


def test_help_lists_the_commands(run_cli) -> None:  # type: ignore[no-untyped-def]
    result = run_cli("--help")
    assert result.exit_code == 0
    for command in ("status", "db", "reset"):
        assert command in result.output


def test_status_shows_where_the_data_is_and_counts(run_cli, settings) -> None:  # type: ignore[no-untyped-def]
    result = run_cli("status", "--json")
    assert result.exit_code == 0, result.output
    info = json.loads(result.output)
    assert info["graph"] == settings.graph
    assert info["falkordb_version"] == "4.16.3"
    assert info["labels"] == {}
    Store(settings).query("CREATE (:Person {id: 'x'}), (:Person {id: 'y'})")
    info = json.loads(run_cli("status", "--json").output)
    assert info["labels"] == {"Person": 2}


def test_reset_needs_yes_and_deletes_the_graph(run_cli, settings) -> None:  # type: ignore[no-untyped-def]
    Store(settings).query("CREATE (:Person {id: 'x'})")
    refused = run_cli("reset")
    assert refused.exit_code != 0
    assert Store(settings).graph_exists()
    assert run_cli("reset", "--yes").exit_code == 0
    assert not Store(settings).graph_exists()


def test_reset_deletes_the_graph_s_agent_board_too(run_cli, settings) -> None:  # type: ignore[no-untyped-def]
    """The board of graph X is X_board, a name no --graph may give: left behind by
    `reset`, its work items about entries the graph no longer held stayed for good."""
    Store(settings).query("CREATE (:Person {id: 'x'})")
    board = Store(settings).for_graph(f"{settings.graph}_board")
    board.query("CREATE (:Item {id: 'i'})")
    result = run_cli("reset", "--yes")
    assert result.exit_code == 0, result.output
    assert "agent board" in result.output
    assert not board.graph_exists()


def _brain(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "companybrain", *args],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_an_error_is_one_line_and_debug_shows_the_traceback(cli_env) -> None:  # type: ignore[no-untyped-def]
    env = {**cli_env, "BRAIN_ROW_CAP": "many"}
    plain = _brain(env, "status")
    assert plain.returncode == 1
    assert plain.stderr.strip().splitlines() == [
        "error: BRAIN_ROW_CAP must be a whole number, got 'many'"
    ]
    debug = _brain(env, "--debug", "status")
    assert debug.returncode == 1
    assert "Traceback" in debug.stderr


def test_external_url_that_cannot_be_reached_is_one_clear_line(cli_env) -> None:  # type: ignore[no-untyped-def]
    env = {**cli_env, "FALKORDB_URL": "redis://:secret@127.0.0.1:1"}
    result = _brain(env, "status")
    assert result.returncode == 1
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "cannot" in lines[0] and "127.0.0.1:1" in lines[0]
    assert "secret" not in result.stderr


def test_db_stop_refuses_when_the_server_is_external(cli_env) -> None:  # type: ignore[no-untyped-def]
    env = {**cli_env, "FALKORDB_URL": "redis://127.0.0.1:1"}
    result = _brain(env, "db", "stop")
    assert result.returncode == 1 and "external" in result.stderr
    assert os.environ.get("FALKORDB_URL") != env["FALKORDB_URL"]


def test_a_setting_the_command_cannot_use_is_one_line_naming_it(cli_env, tmp_path) -> None:  # type: ignore[no-untyped-def]
    a_file = tmp_path / "file"
    a_file.write_text("")
    for change, named in (
        ({"BRAIN_HOME": str(a_file)}, f"error: BRAIN_HOME {a_file} is a file, not a folder"),
        ({"BRAIN_ROW_CAP": "9223372036854775807"}, "error: BRAIN_ROW_CAP must be from 1 to"),
        ({"FALKORDB_URL": "redis://:pw@host:notaport"}, "error: FALKORDB_URL 'redis://:***@"),
    ):
        env = {**cli_env, **change}
        if "BRAIN_HOME" in change:  # also when the suite runs against an external server
            env.pop("FALKORDB_URL", None)
        result = _brain(env, "status")
        assert result.returncode == 1
        lines = result.stderr.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith(named), lines


def test_a_reset_graph_stays_gone_after_the_database_restarts(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """Replaying its append-only file, the pinned FalkorDB appends the creation of the
    constraints of a graph created and deleted in that file again: at the second start after
    `brain reset`, the graph was back, empty, and `brain ask` refused NOT_IN_GRAPH ("names no
    service") instead of saying there is no such graph."""
    from click.testing import CliRunner

    from companybrain.config import Settings
    from companybrain.graph.server import EmbeddedServer
    from companybrain.surfaces.cli.main import cli

    home = tmp_path / "h"
    # the embedded server's own file, even when the run is against an external one (CliRunner
    # adds `env` to the process's environment: None takes a variable out)
    env: dict[str, str | None] = {
        "BRAIN_HOME": str(home),
        "BRAIN_GRAPH": "gone",
        "FALKORDB_URL": None,
    }
    settings = Settings(home=home, graph="gone")
    server = EmbeddedServer(home)
    try:
        store = Store(settings)
        store.ensure_schema()
        store.query("CREATE (:Person {id: 'x'})")
        store.close()
        assert CliRunner().invoke(cli, ["reset", "--yes"], env=env).exit_code == 0
        for _ in range(2):
            server.stop()
            server.ensure_running()
        assert Store(settings).list_graphs() == []
    finally:
        server.stop()
