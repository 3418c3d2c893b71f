"""`brain board fill|run|status|retry`: the agent board that reads decision entries and
records into checked findings."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click
from rich.console import Console
from rich.progress import Progress, SpinnerColumn, TextColumn
from rich.table import Table
from rich.text import Text

from companybrain.board import status as board_status
from companybrain.board.fill import FILE_MODES, FillReport, fill
from companybrain.board.options import WORKER_KINDS, BoardOptions, board_graph
from companybrain.board.run import check_workers, run_board
from companybrain.graph.connection import Store
from companybrain.graph.queries import board_q
from companybrain.surfaces.cli.context import CliState, pass_state

_DEFAULTS = BoardOptions()


def _fill(
    state: CliState, options: BoardOptions, repo: Path | None, files: str, *, create: bool
) -> FillReport:
    # `board run` may create the graph (README); `board fill` only reads the brain, so a
    # mistyped --graph is one error naming it, not a new empty graph and board
    brain = (state.brain() if create else state.reader()).store
    board = brain.for_graph(board_graph(brain.graph_name))
    with Progress(
        SpinnerColumn(),
        TextColumn("{task.description}"),
        console=Console(stderr=True),
        transient=True,
    ) as bar:
        task = bar.add_task("filling the board from the brain", total=None)
        report = fill(
            brain,
            board,
            options,
            repo=repo,
            files=files,
            on_file=lambda path: bar.update(task, description=f"reading {path}"),
        )
    board.close()
    return report


def _print_fill(report: FillReport) -> None:
    click.echo(
        f"board: {report.created} items created ({report.entries} entries new or changed, "
        f"{report.files} files), {report.unchanged} unchanged, {report.removed} removed"
    )
    for note in report.skipped_files:
        click.echo(f"  skipped {note}", err=True)


@click.group()
def board() -> None:
    """The agent board: workers read decision entries and records into checked findings."""


@board.command("fill")
@click.option(
    "--repo",
    type=click.Path(exists=True, file_okay=False, path_type=Path),
    default=None,
    help="Repository to read files from for file summaries [default: the ingested one].",
)
@click.option(
    "--files",
    type=click.Choice(FILE_MODES),
    default="rationale",
    show_default=True,
    help="Which files get a summary: those decisions rest on, every file, or none.",
)
@click.option(
    "--max-chars",
    type=int,
    default=_DEFAULTS.max_chars,
    show_default=True,
    help="Longer entries are read section by section.",
)
@pass_state
def fill_cmd(state: CliState, repo: Path | None, files: str, max_chars: int) -> None:
    """Create work items from the brain's entries, records and files."""
    options = BoardOptions(max_chars=max_chars).validate()
    _print_fill(_fill(state, options, repo, files, create=False))


@board.command("run")
@click.option(  # checked by click, before the board is filled
    "--workers", "-n", type=click.IntRange(min=1), default=4, show_default=True, help="Processes."
)
@click.option(
    "--worker",
    "kind",
    type=click.Choice(WORKER_KINDS),
    default="rules",
    show_default=True,
    help="rules (offline, deterministic) or model (BRAIN_MODEL at BRAIN_MODEL_BASE_URL).",
)
@click.option(
    "--claim-ttl",
    type=float,
    default=_DEFAULTS.claim_ttl_s,
    show_default=True,
    help="Seconds before an unfinished claim is up for takeover.",
)
@click.option(
    "--max-attempts",
    type=int,
    default=_DEFAULTS.max_attempts,
    show_default=True,
    help="An item that keeps failing stops here and shows as failed.",
)
@click.option("--max-chars", type=int, default=_DEFAULTS.max_chars, show_default=True)
@click.option("--fill/--no-fill", default=True, show_default=True, help="Fill the board first.")
@click.option("--repo", type=click.Path(exists=True, file_okay=False, path_type=Path))
@click.option("--files", type=click.Choice(FILE_MODES), default="rationale", show_default=True)
@pass_state
def run_cmd(
    state: CliState,
    workers: int,
    kind: str,
    claim_ttl: float,
    max_attempts: int,
    max_chars: int,
    fill: bool,
    repo: Path | None,
    files: str,
) -> None:
    """Run N worker processes until the board is empty."""
    options = BoardOptions(
        claim_ttl_s=claim_ttl, max_attempts=max_attempts, max_chars=max_chars
    ).validate()
    check_workers(state.settings, workers, kind)
    if fill:
        _print_fill(_fill(state, options, repo, files, create=True))
    report = run_board(state.settings, options, workers, kind)
    states = report.states
    click.echo(
        f"{workers} {kind} worker(s) in {report.seconds:.1f} s: "
        + ", ".join(f"{s} {states.get(s, 0)}" for s in board_status.ITEM_STATES)
    )
    crashed = {a: c for a, c in report.exit_codes.items() if c}
    if crashed:
        click.echo(f"workers that exited with an error: {crashed}", err=True)
    left = states.get("pending", 0)
    if left and crashed:
        click.echo(
            f"{left} item(s) still pending: the workers stopped (their errors are above); "
            "`brain board run` again goes on from there",
            err=True,
        )
    elif left:
        click.echo(
            f"{left} item(s) still pending: handoffs wait for an agent other than the one that "
            "raised them (run with --workers 2 or more)",
            err=True,
        )
    if crashed:
        sys.exit(1)


@board.command("status")
@click.option("--json", "as_json", is_flag=True, help="Print the counts as JSON.")
@pass_state
def status_cmd(state: CliState, as_json: bool) -> None:
    """Counts per state, per agent, failed items with their errors and open handoffs."""
    state.reader()  # a mistyped --graph: one error naming it, not a new empty board's zeros
    board = Store(state.settings, board_graph(state.settings.graph))
    try:
        counts = board_status.counts(board)
        if as_json:
            click.echo(json.dumps(counts, indent=2))
            return
        more = board_status.details(board)
    finally:
        board.close()
    console = Console()
    console.print(f"[bold]board[/] [cyan]{board_graph(state.settings.graph)}[/]")
    for section in ("items", "findings", "handoffs"):
        parts = ", ".join(f"{k} {v}" for k, v in counts[section].items())
        console.print(f"{section + ':':10} {parts}")
    if counts["agents"]:
        table = Table("agent", "claims", "done", "kept", "rejected", title="agents")
        for agent, c in counts["agents"].items():
            table.add_row(agent, *(str(c[k]) for k in ("claims", "done", "kept", "rejected")))
        console.print(table)
    for item in more["failed"]:
        console.print(
            Text("failed ", style="red")
            + Text(f"{item['id']} after {item['attempts']} attempt(s):")
        )
        for error in item["errors"] or []:
            console.print(f"    {error}", markup=False)
    for h in more["open_handoffs"]:
        console.print(
            Text("open handoff ", style="yellow")
            + Text(
                f"{h['from_entry']} {h['relation']} {h['to_entry']} (raised by {h['raised_by']})"
            )
        )
        console.print(f"    {h['quote']!r}", markup=False)
        for agent in h["not_counted"]:
            console.print(f"    confirmed by {agent}, who raised it: does not count", markup=False)


@board.command("retry")
@pass_state
def retry_cmd(state: CliState) -> None:
    """Put failed items back to pending (their errors are kept)."""
    state.reader()  # a mistyped --graph: one error naming it, never a new empty board
    board = Store(state.settings, board_graph(state.settings.graph))
    try:
        n = board_q.retry_failed(board) if board.graph_exists() else 0  # a write creates it
    finally:
        board.close()
    click.echo(f"{n} failed item(s) back to pending")
