"""`brain mcp` (stdio) and `brain mcp --http HOST:PORT` (streamable HTTP at /mcp)."""

from __future__ import annotations

import click

from companybrain.ask.engine import parse_now
from companybrain.ask.registry import ReadOnlyStore, ToolContext, check_person, read_only_tools
from companybrain.errors import InputError
from companybrain.surfaces.cli.context import CliState, pass_state
from companybrain.surfaces.cli.serve import port_problem
from companybrain.surfaces.mcp.server import build_server, serve_http, serve_stdio


def parse_address(value: str) -> tuple[str, int]:
    host, sep, port = value.rpartition(":")
    if not sep or not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise InputError(f"--http: expected HOST:PORT such as 127.0.0.1:8765, got {value!r}")
    return host.strip("[]"), int(port)


@click.command("mcp")
@click.option("--http", "http_address", metavar="HOST:PORT", help="Serve streamable HTTP at /mcp.")
@click.option("--as", "as_person", metavar="PERSON", help="Serve only what this person may see.")
@click.option("--now", metavar="TIME", help="The clock questions are read against (ISO 8601).")
@pass_state
def mcp_cmd(
    state: CliState, http_address: str | None, as_person: str | None, now: str | None
) -> None:
    """Serve every read-only tool over MCP (stdio by default). Nothing served can write."""
    address = parse_address(http_address) if http_address else None
    settings = state.settings.with_(bounded_replies=True)  # a frozen database fails a call
    store = ReadOnlyStore(settings)
    clock = parse_now(now) if now else None  # without --now: the real time of each call
    store.require_graph()  # else every call would be refused as if the graph knew nothing
    ctx = ToolContext(store, settings, now=clock, as_person=as_person)
    if as_person is not None:
        check_person(ctx)
    server = build_server(ctx, read_only_tools())
    try:
        if address is None:
            serve_stdio(server)
        else:
            host, port = address
            problem = port_problem(host, port)
            if problem:  # said before "serving", not as uvicorn's errno after it
                raise InputError(f"--http: {problem}")
            click.echo(f"serving MCP on http://{host}:{port}/mcp", err=True)
            serve_http(server, host, port)
    finally:
        store.close()
