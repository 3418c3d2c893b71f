"""`brain serve`: the web API (POST /api/ask, POST /api/records)."""

from __future__ import annotations

import click

from companybrain.surfaces.cli.context import CliState, pass_state


@click.command("serve")
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to bind.")
@click.option("--port", default=8737, show_default=True, help="Port to listen on.")
@click.option(
    "--as",
    "as_person",
    default=None,
    metavar="PERSON",
    help="Answer every request as this person (their record access applies).",
)
@pass_state
def serve_cmd(state: CliState, host: str, port: int, as_person: str | None) -> None:
    """Serve the web API: POST /api/ask (the answer object of `brain ask --json`) and
    POST /api/records (a typed record, always stored as chat)."""
    import uvicorn

    from companybrain.surfaces.web import create_app

    uvicorn.run(create_app(state.settings, as_person), host=host, port=port, log_level="warning")
