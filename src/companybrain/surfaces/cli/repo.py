"""`brain ingest-repo PATH` and the repository tools as commands: `brain why`, `what-breaks`,
`disproven`, `who-knows`, `trace`, `origin`, `told` and `review`. Each prints the answer
envelope with --json, or a short readable answer with its sources."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import click
from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from companybrain.ask.engine import parse_now
from companybrain.ask.repo import connect, history_tools, review_markdown, told, tools
from companybrain.ask.repo.review import review as review_tool
from companybrain.model.answer import Answer
from companybrain.repo.ingest import IngestReport, ingest_repo
from companybrain.surfaces.cli.context import CliState, pass_state
from companybrain.surfaces.cli.params import TEXT

err = Console(stderr=True)


@contextmanager
def _progress() -> Iterator[Callable[[str, int, int | None], None]]:
    with Progress(
        TextColumn("[cyan]{task.fields[phase]}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=err,
        disable=not err.is_terminal,
        transient=True,
    ) as bar:
        task = bar.add_task("ingest-repo", total=None, phase="reading history")

        def update(phase: str, done: int, total: int | None) -> None:
            bar.update(task, completed=done, total=total, phase=phase)

        yield update


@click.command("ingest-repo")
@click.argument("path", type=click.Path(path_type=Path), default=".")
@click.option("--name", default=None, help="Repository name in the graph [default: folder name].")
@click.option("--rev", default="HEAD", show_default=True, help="Branch or commit to read.")
@click.option("--json", "as_json", is_flag=True, help="Print the summary as JSON.")
@pass_state
def ingest_repo_cmd(state: CliState, path: Path, name: str | None, rev: str, as_json: bool) -> None:
    """Read a git repository: history, decision records, agent instructions."""
    store = state.brain().store
    with _progress() as update:
        report = ingest_repo(store, path, name=name, rev=rev, progress=update)
    if as_json:
        click.echo(json.dumps(report.to_dict(), indent=2))
    else:
        _print_report(report)


SKIPPED_SHOWN = 10
SHOWN_CHARS = 200  # of a skipped path: one can be thousands of characters long


def _print_report(r: IngestReport) -> None:
    out = Console(soft_wrap=True, highlight=False)
    rate = f" ({r.commits_read / r.seconds:.0f}/s)" if r.seconds and r.commits_read else ""
    out.print(f"[bold]{escape(r.repo)}[/] at {r.head[:12]} · {r.mode} · {r.seconds:.1f} s")
    out.print(f"[bold]commits[/]   read {r.commits_read}{rate} · in graph {r.commits_total}")
    out.print(
        f"[bold]decisions[/] {r.decisions} in the tree · {r.decisions_removed} removed in history"
        f" · {r.decisions_changed} new or changed · {r.supersessions} supersessions"
    )
    out.print(f"[bold]agent instructions[/] {r.instruction_versions} new version(s)")
    for ref in r.unresolved_references:
        out.print(f"  [yellow]unresolved[/] {escape(ref)}")
    for why in r.not_utf8_decisions:
        out.print(f"  [yellow]left out[/] {escape(why)}")
    for why in r.decision_problems + r.instruction_problems:
        out.print(f"  [yellow]warning[/] {escape(why)}")
    if r.skipped_paths:
        out.print(
            f"  [yellow]skipped[/] {len(r.skipped_paths)} path(s) with surrounding space, a "
            "control character or over 1,000 bytes: their changes are not in the graph"
        )
    for skipped in r.skipped_paths[:SKIPPED_SHOWN]:
        path = skipped["path"]
        shown = repr(path[:SHOWN_CHARS]) + ("…" if len(path) > SHOWN_CHARS else "")
        out.print(f"    {shown} (first in {skipped['commit'][:12]})", markup=False)
    if len(r.skipped_paths) > SKIPPED_SHOWN:
        out.print(f"    … and {len(r.skipped_paths) - SKIPPED_SHOWN} more (--json lists them all)")
    for late in r.future_commits[:SKIPPED_SHOWN]:
        out.print(
            f"  [yellow]warning[/] commit {late['commit'][:12]} is dated "
            f"{escape(late['committed_at'])}, in the future (a clock set wrong?): answers "
            "about a day read the history by its dates"
        )
    if len(r.future_commits) > SKIPPED_SHOWN:
        out.print(f"    … and {len(r.future_commits) - SKIPPED_SHOWN} more (--json lists them all)")
    if r.swept:
        out.print("  rewritten history swept: " + ", ".join(f"{v} {k}" for k, v in r.swept.items()))


def _show(answer: Answer, as_json: bool) -> None:
    if as_json:
        click.echo(json.dumps(answer.to_dict(), indent=2, ensure_ascii=False))
        return
    out = Console(soft_wrap=True, highlight=False)
    if answer.status != "answered":
        assert answer.refusal is not None
        out.print(f"[yellow]{answer.refusal.code.value}[/] {escape(answer.refusal.message)}")
        return
    out.print(escape(answer.explanation))
    for line in result_lines(answer.tool or "", answer.result or {}):
        out.print("  " + escape(line))
    if answer.citations:
        out.print("[dim]sources[/]")
    for c in answer.citations:
        span = ""
        if c.lines:
            span = f" L{c.lines[0]}" + (f"-{c.lines[1]}" if c.lines[1] != c.lines[0] else "")
        quote = " ".join((c.quote or "").split())
        quote = quote if len(quote) <= 160 else quote[:157] + "..."
        out.print(f"  [cyan]{escape(c.record)}[/]{span}  “{escape(quote)}”")


def result_lines(tool: str, result: dict[str, Any]) -> list[str]:
    """The items of a repository tool's result, one line each (also used by `brain ask`,
    where a refusal's result is empty and `who_knows` may be the records tool, whose
    experts have no commits: no lines then)."""
    if tool in {"why", "what_breaks"}:
        lines = [
            f"{d['id']} · {'removed' if d.get('removed') else d.get('status') or 'recorded'}"
            f" · {d.get('date') or 'undated'}"
            for d in result.get("decisions", [])
        ]
        if result.get("more"):
            lines.append(f"… and {result['more']} more")
        return lines + [
            f"{e['verdict']}: “{e['quote']}” ({e['decision']})" for e in result.get("disproven", [])
        ]
    if tool == "disproven":
        return [
            f"{e['verdict']}: “{e['quote']}” ({e['decision']}"
            + (", superseded" if e.get("superseded_by") else "")
            + ")"
            for e in result.get("experiments", [])
        ]
    if tool == "who_knows":
        return [
            f"{e['score']:>6}  {e['name']} <{e['id']}>, {e['commits']} commit(s)"
            for e in result.get("experts", [])
            if "commits" in e
        ]
    if tool == "trace":
        return [" ← ".join(result["chain"])] if result.get("chain") else []
    if tool == "told":
        if result.get("disagree"):  # files that disagree: what each says, none first
            return [f"{d['file']} L{d['line']}: {d['quote']}" for d in result["disagree"]]
        return str(result.get("text") or "").splitlines()
    return []


@click.command("why")
@click.argument("subject", type=TEXT)
@click.option("--json", "as_json", is_flag=True, help="Print the answer envelope as JSON.")
@pass_state
def why_cmd(state: CliState, subject: str, as_json: bool) -> None:
    """The decisions behind a file, folder, symbol or topic."""
    _show(tools.why(state.reader().store, subject), as_json)


@click.command("what-breaks")
@click.argument("path", type=TEXT)
@click.option("--json", "as_json", is_flag=True, help="Print the answer envelope as JSON.")
@pass_state
def what_breaks_cmd(state: CliState, path: str, as_json: bool) -> None:
    """Decisions that rest on a file, and experiments already disproven against them."""
    _show(tools.what_breaks(state.reader().store, path), as_json)


@click.command("disproven")
@click.argument("topic", default="", type=TEXT)
@click.option("--json", "as_json", is_flag=True, help="Print the answer envelope as JSON.")
@pass_state
def disproven_cmd(state: CliState, topic: str, as_json: bool) -> None:
    """Experiments recorded as tried and disproven (about a topic or file)."""
    _show(tools.disproven(state.reader().store, topic), as_json)


@click.command("who-knows")
@click.argument("path", type=TEXT)
@click.option("--json", "as_json", is_flag=True, help="Print the answer envelope as JSON.")
@pass_state
def who_knows_cmd(state: CliState, path: str, as_json: bool) -> None:
    """People ranked by their history on a file or folder, with the bus factor."""
    _show(tools.who_knows(state.reader().store, path), as_json)


@click.command("trace")
@click.argument("decision", type=TEXT)
@click.option("--json", "as_json", is_flag=True, help="Print the answer envelope as JSON.")
@pass_state
def trace_cmd(state: CliState, decision: str, as_json: bool) -> None:
    """What replaced what: the supersession chain through a decision."""
    _show(history_tools.trace(state.reader().store, decision), as_json)


@click.command("origin")
@click.argument("subject", type=TEXT)
@click.option("--json", "as_json", is_flag=True, help="Print the answer envelope as JSON.")
@pass_state
def origin_cmd(state: CliState, subject: str, as_json: bool) -> None:
    """The commit and author that introduced a file or recorded a decision."""
    _show(history_tools.origin(state.reader().store, subject), as_json)


@click.command("connect")
@click.argument("a", type=TEXT)
@click.argument("b", type=TEXT)
@click.option("--json", "as_json", is_flag=True, help="Print the answer envelope as JSON.")
@pass_state
def connect_cmd(state: CliState, a: str, b: str, as_json: bool) -> None:
    """How two things are joined: files, decisions, commits, people (algo.SPpaths)."""
    _show(connect.connect(state.reader().store, a, b), as_json)


@click.command("told")
@click.argument("topic", default="", type=TEXT)
@click.option(
    "--at",
    "when",
    default=None,
    type=TEXT,
    help="A commit (sha, HEAD, a branch or tag), or one day (2026-03-01) [default: now].",
)
@click.option(
    "--file",
    default=None,
    type=TEXT,
    help="Only this instruction file (AGENTS.md, CLAUDE.md, ...).",
)
@click.option("--now", default=None, help="The clock dates are read against (ISO 8601).")
@click.option("--json", "as_json", is_flag=True, help="Print the answer envelope as JSON.")
@pass_state
def told_cmd(
    state: CliState, topic: str, when: str | None, file: str | None, now: str | None, as_json: bool
) -> None:
    """What an agent instruction file said at a commit or on a day (about TOPIC)."""
    clock = parse_now(now)
    _show(
        told.told(
            state.reader().store,
            when or clock.isoformat(timespec="seconds"),
            topic,
            file,
            now=clock,
        ),
        as_json,
    )


@click.command("review")
@click.argument("rev", type=TEXT)
@click.option(
    "--base", default=None, type=TEXT, help="Compare against this commit [default: REV's parent]."
)
@click.option(
    "--repo", type=click.Path(path_type=Path), default=None, help="The repository folder."
)
@click.option(
    "--format", "fmt", type=click.Choice(["text", "markdown", "json"]), default="text",
    show_default=True, help="markdown is ready to post as a pull-request comment.",
)  # fmt: skip
@pass_state
def review_cmd(state: CliState, rev: str, base: str | None, repo: Path | None, fmt: str) -> None:
    """Which recorded decisions a change touches, judged by the log as it stood then."""
    answer = review_tool(state.reader().store, rev, base, repo=repo)
    if fmt == "json":
        _show(answer, True)
    elif fmt == "markdown":
        click.echo(review_markdown.render(answer))
    else:
        click.echo(review_markdown.render(answer).split("\n", 1)[1])


COMMANDS = [
    ingest_repo_cmd, why_cmd, what_breaks_cmd, disproven_cmd, who_knows_cmd, trace_cmd,
    origin_cmd, told_cmd, review_cmd, connect_cmd,
]  # fmt: skip
