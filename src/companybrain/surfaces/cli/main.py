"""Entry point of the `brain` command: global flags, command wiring, error translation."""

from __future__ import annotations

import json
import sys

import click

from companybrain.config import Settings
from companybrain.errors import BrainError
from companybrain.surfaces.cli import board, db, gen, ingest, repo, serve
from companybrain.surfaces.cli.ask import ask_cmd
from companybrain.surfaces.cli.context import CliState
from companybrain.surfaces.cli.evals import eval_group
from companybrain.surfaces.mcp.command import mcp_cmd


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.option(
    "--graph", default=None, help="Graph to use: one per corpus or repository. [default: brain]"
)
@click.option(
    "--durable",
    is_flag=True,
    default=None,
    help="fsync every write (appendfsync always) instead of once a second.",
)
@click.option(
    "--trace", is_flag=True, default=None, help="Print every Cypher query with its timing."
)
@click.option("--debug", is_flag=True, help="Show the traceback of an error.")
@click.version_option(package_name="companybrain")
@click.pass_context
def cli(
    ctx: click.Context, graph: str | None, durable: bool | None, trace: bool | None, debug: bool
) -> None:
    """companybrain: answers about your company with the record and the quote, or refuses."""
    settings = Settings.from_env()
    changes: dict[str, object] = {
        k: v for k, v in {"durable": durable, "trace": trace}.items() if v
    }
    if graph is not None:  # `--graph ""` is refused by name, never the default graph
        changes["graph"] = graph
    settings = settings.with_(**changes)
    if graph is not None:
        settings.validate()  # the graph's name, as BRAIN_GRAPH's is
    ctx.obj = CliState(settings=settings, debug=debug)


cli.add_command(db.status)
cli.add_command(db.db)
cli.add_command(db.reset)
cli.add_command(ingest.ingest_cmd)
cli.add_command(ingest.add_cmd)
cli.add_command(ask_cmd)
cli.add_command(board.board)
cli.add_command(eval_group)
cli.add_command(mcp_cmd)
cli.add_command(serve.serve_cmd)
cli.add_command(gen.gen_corpus_cmd)
for _repo_command in repo.COMMANDS:
    cli.add_command(_repo_command)


def main(argv: list[str] | None = None) -> None:
    args = sys.argv[1:] if argv is None else argv
    debug = "--debug" in args
    try:
        cli.main(args=args, prog_name="brain", standalone_mode=False)
    except click.exceptions.Abort:
        click.echo("aborted", err=True)
        sys.exit(130)
    except click.ClickException as exc:
        _json_error(args, exc.format_message())
        exc.show()
        sys.exit(exc.exit_code)
    except BrainError as exc:
        if debug:
            raise
        _json_error(args, str(exc))
        click.echo(f"error: {exc}", err=True)
        sys.exit(1)
    except Exception as exc:  # an unexpected failure is still one line, unless --debug
        if debug:
            raise
        _json_error(args, f"unexpected {type(exc).__name__}: {exc}")
        click.echo(
            f"error: unexpected {type(exc).__name__}: {exc} (run with --debug for the traceback)",
            err=True,
        )
        sys.exit(1)


def _json_error(args: list[str], message: str) -> None:
    """With --json, a script reading standard output gets the error as JSON there too
    (`{"error": ...}`), not an empty output; the line on standard error stays for people."""
    if "--json" in args:
        click.echo(json.dumps({"error": message}, ensure_ascii=False))
