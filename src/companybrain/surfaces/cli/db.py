"""`brain status`, `brain db start|stop`, `brain reset`."""

from __future__ import annotations

import json

import click
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from companybrain.brain import status as status_of
from companybrain.errors import ConfigError
from companybrain.graph.connection import Store
from companybrain.graph.server import EmbeddedServer
from companybrain.surfaces.cli.context import CliState, pass_state


@click.command()
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@pass_state
def status(state: CliState, as_json: bool) -> None:
    """Where the data is, the server version, whether the last ingest finished and counts
    per label."""
    info = status_of(Store(state.settings))  # a graph that does not exist is not created
    if as_json:
        click.echo(json.dumps(info, indent=2))
        return
    console = Console()
    console.print(f"[bold]companybrain[/] graph [cyan]{info['graph']}[/] ({info['mode']})")
    if info["data"]:
        console.print(f"data:    {info['data']}")
    console.print(f"server:  {info['server']}")
    console.print(f"FalkorDB {info['falkordb_version']}")
    if info["missing"]:
        console.print(f"[bold yellow]warning:[/] {escape(info['missing'])}", soft_wrap=True)
    last = info["last_ingest"]
    if last and last["warning"]:
        # One line, never wrapped: scripts and people grep for it.
        console.print(f"[bold yellow]warning:[/] {escape(last['warning'])}", soft_wrap=True)
    elif last and last["state"] == "running":
        console.print(
            f"ingest running (run {last['run']}, {last['durable']} records durable so far)"
        )
    table = Table("label", "count", title="nodes")
    for label, n in info["labels"].items():
        table.add_row(label, str(n))
    if not info["labels"]:
        table.add_row("(none)", "0")
    console.print(table)
    if info["relationships"]:
        rels = Table("relationship", "count", title="relationships")
        for rel, n in info["relationships"].items():
            rels.add_row(rel, str(n))
        console.print(rels)


@click.group()
def db() -> None:
    """Start or stop the embedded database."""


def _embedded(state: CliState) -> EmbeddedServer:
    if state.settings.falkordb_url:
        raise ConfigError("FALKORDB_URL is set: the server is external, start and stop it there")
    return EmbeddedServer.from_settings(state.settings)


@db.command("start")
@pass_state
def db_start(state: CliState) -> None:
    """Start the embedded FalkorDB (or reuse the one serving this folder)."""
    server = _embedded(state)
    started = server.ensure_running()
    click.echo(f"{'started' if started else 'already running'}: {server.socket_path}")


@db.command("stop")
@pass_state
def db_stop(state: CliState) -> None:
    """Stop the embedded FalkorDB cleanly."""
    server = _embedded(state)
    click.echo("stopped" if server.stop() else "not running")


@click.command()
@click.option("--yes", is_flag=True, help="Really delete the graph.")
@pass_state
def reset(state: CliState, yes: bool) -> None:
    """Delete every node and edge of the graph (--graph)."""
    if not yes:
        raise click.UsageError("reset deletes the whole graph; pass --yes to confirm")
    from companybrain.board.options import board_graph
    from companybrain.ingest.lock import IngestLock

    store = Store(state.settings)
    # Under the graph's ingest lock: deleted under a running ingest, the graph was left
    # with the batches written after it and no organisation or schema, the run "complete"
    with IngestLock(store):
        deleted = store.delete_graph()
        # its agent board goes with it: work items about entries the graph no longer holds
        # (and no `--graph X_board` can name it: names ending in _board are refused)
        board = store.for_graph(board_graph(store.graph_name))
        board_deleted = board.delete_graph()
        board.close()
        if deleted or board_deleted:
            store.forget_deleted()  # else two restarts of the database bring it back empty
    click.echo(f"graph {store.graph_name!r} " + ("deleted" if deleted else "was already empty"))
    if board_deleted:
        click.echo(f"its agent board {board.graph_name!r} deleted")
