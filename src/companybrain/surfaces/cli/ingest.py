"""`brain ingest PATH` and `brain add`: records into verified claims."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import click
from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from companybrain.errors import InputError
from companybrain.ingest.pipeline import IngestReport, add_typed_record, ingest
from companybrain.ingest.pipeline import Progress as ProgressFn
from companybrain.model.records import Record
from companybrain.policy.text import unstorable
from companybrain.surfaces.cli.context import CliState, pass_state

err = Console(stderr=True)


@contextmanager
def progress_bar(label: str) -> Iterator[ProgressFn]:
    """A progress bar on stderr; quiet when stderr is not a terminal."""
    with Progress(
        TextColumn(f"{label} [cyan]{{task.fields[what]}}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=err,
        disable=not err.is_terminal,
        transient=True,
    ) as bar:
        task = bar.add_task(label, total=None, what="")

        def update(done: int, total: int, what: str) -> None:
            bar.update(task, completed=done, total=total, what=what)

        yield update


def _is_git_repo(path: Path) -> bool:
    return path.is_dir() and (path / ".git").exists() and not (path / "org.yaml").exists()


@click.command("ingest")
@click.argument("path", type=click.Path(path_type=Path))
@click.option("--strict", is_flag=True, help="Exit non-zero if any file or line was rejected.")
@click.option(
    "--prune", is_flag=True, help="Remove records that have left the corpus, with their facts."
)
@click.option("--json", "as_json", is_flag=True, help="Print the summary as JSON.")
@click.pass_context
def ingest_cmd(ctx: click.Context, path: Path, strict: bool, prune: bool, as_json: bool) -> None:
    """Read a corpus folder, a folder of records or one record file (.md, .jsonl)."""
    state: CliState = ctx.obj
    if _is_git_repo(path):
        group = ctx.parent.command if ctx.parent else None
        repo_cmd = group.get_command(ctx, "ingest-repo") if isinstance(group, click.Group) else None
        if repo_cmd is None:
            raise InputError(f"{path} is a git repository; repository ingestion is not available")
        ctx.invoke(repo_cmd, path=path)
        return

    store = state.brain().store
    with progress_bar("ingesting") as update:
        report = ingest(store, path, state.settings, prune=prune, progress=update)
    if as_json:
        click.echo(json.dumps(report.to_dict(), indent=2))
    else:
        print_report(report)
    if strict and report.rejected:
        sys.exit(2)


def print_report(report: IngestReport) -> None:
    out = Console(soft_wrap=True)
    out.print(
        f"[bold]records[/] read {report.read} · stored {report.stored} · "
        f"unchanged {report.unchanged} · rejected {len(report.rejected)}"
        + (f" · pruned {report.pruned}" if report.pruned else "")
        + (
            f" · read again {report.reread} (stored earlier, for the changed organisation)"
            if report.reread
            else ""
        )
    )
    by_check = ", ".join(f"{n} {check}" for check, n in sorted(report.rejected_facts.items()))
    out.print(
        f"[bold]facts[/]   proposed {report.proposed} · kept {report.kept} · "
        f"rejected {sum(report.rejected_facts.values())}" + (f" ({by_check})" if by_check else "")
    )
    for problem in report.rejected:
        out.print(f"  [red]rejected[/] {problem.where}: {problem.message}", highlight=False)
    for problem in report.warnings:
        out.print(f"  [yellow]warning[/]  {problem.where}: {problem.message}", highlight=False)
    if report.gone:
        shown = ", ".join(report.gone[:10]) + (" ..." if len(report.gone) > 10 else "")
        out.print(
            f"  [yellow]gone[/]     {len(report.gone)} record(s) stored from this corpus are no "
            "longer in it and answers still cite them; `brain ingest --prune` removes them: "
            + escape(shown),
            highlight=False,
        )
    if report.kept_stored:
        shown = ", ".join(report.kept_stored[:10]) + (
            " ..." if len(report.kept_stored) > 10 else ""
        )
        out.print(
            f"  [yellow]kept[/]     the stored version of {len(report.kept_stored)} record(s) "
            "refused this time, which answers still cite, with a note saying so, until the "
            "file is fixed: " + escape(shown),
            highlight=False,
        )
    for item in report.rejected_detail:
        out.print(
            f"  [dim]refused fact[/] {item['record']} ({item['check']}): {item['reason']}",
            highlight=False,
        )


@click.command("add")
@click.argument("text")
@click.option("--as", "author", required=True, help="Person id of who is typing the record.")
@click.option("--id", "record_id", default=None, help="Record id [default: derived from time].")
@click.option("--about", multiple=True, help="Service or project id it is about (repeatable).")
@click.option("--kind", default="chat", help="Ignored beyond chat: typed records are always chat.")
@click.option(
    "--now", default=None, help="When it was written (ISO 8601 with offset) [default: now]."
)
@pass_state
def add_cmd(
    state: CliState,
    text: str,
    author: str,
    record_id: str | None,
    about: tuple[str, ...],
    kind: str,
    now: str | None,
) -> None:
    """Store a record typed by a person. It is always stored as chat (authority of chat),
    whatever kind it claims, then checked like everything else."""
    from companybrain.ingest.records import check_typed
    from companybrain.ingest.times import TimeProblem, parse_instant
    from companybrain.policy.time import clock_now

    try:
        at = parse_instant(now, "--now") if now else clock_now()
    except TimeProblem as exc:
        raise InputError(str(exc)) from exc
    author = author.strip()  # as `ask --as` reads it (engine.viewer_for): no id has spaces
    if not author:
        raise InputError("--as: no person id given: a typed record is stored as theirs")
    if problem := unstorable(author):  # else named as the `id` made from it
        raise InputError(f"--as: {problem}")
    rid = record_id or f"typed-{at.strftime('%Y%m%dT%H%M%S%f')}-{author}"  # as the web app's
    record = Record(
        id=rid, kind="chat", at=at, text=text, author=author, about=about, origin="brain add"
    )
    check_typed(record)
    report = add_typed_record(state.brain().store, record, state.settings)
    note = "" if kind == "chat" else f" (asked for {kind!r}; typed records are stored as chat)"
    click.echo(
        f"stored {rid} as chat{note}: {report.kept} fact(s) kept, "
        f"{sum(report.rejected_facts.values())} refused"
    )
