"""`brain eval ...`: evaluations of the brain on a corpus. Each evaluation is a command of the
`eval` group; add one with `@eval_group.command("NAME")`."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import click
from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

from companybrain.errors import InputError
from companybrain.evals import extraction as extraction_eval
from companybrain.evals import questions as questions_eval
from companybrain.evals.questions import QuestionsReport
from companybrain.surfaces.cli.context import CliState, pass_state
from companybrain.surfaces.cli.eval_ab import ab_cmd

DEFAULT_CORPUS = Path("demo/corpus")


@click.group("eval")
def eval_group() -> None:
    """Measure the brain against a corpus's expected answers."""


@contextmanager
def progress_bar(label: str) -> Iterator[extraction_eval.Progress]:
    """A progress bar on stderr (hidden when stderr is not a terminal)."""
    err = Console(stderr=True)
    with Progress(
        TextColumn(f"{label} [cyan]{{task.fields[what]}}"),
        BarColumn(),
        MofNCompleteColumn(),
        console=err,
        disable=not err.is_terminal,
        transient=True,
    ) as bar:
        task = bar.add_task(label, total=None, what="")
        yield lambda done, total, what: bar.update(task, completed=done, total=total, what=what)


@eval_group.command("extraction")
@click.argument("corpus", type=click.Path(path_type=Path), default=DEFAULT_CORPUS)
@click.option(
    "--expected",
    type=click.Path(path_type=Path),
    default=None,
    help="The facts the corpus must yield. [default: CORPUS/expected.json]",
)
@click.option(
    "--proposer",
    type=click.Choice(["rules", "model"]),
    default=None,
    help="Which proposer to evaluate. [default: BRAIN_PROPOSER, else rules]",
)
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
@click.option(
    "--strict", is_flag=True, help="Exit non-zero if recall is below 100% or any fact is false."
)
@pass_state
def extraction(
    state: CliState,
    corpus: Path,
    expected: Path | None,
    proposer: str | None,
    as_json: bool,
    strict: bool,
) -> None:
    """Precision and recall of extraction on CORPUS, and every proposal the checks refused."""
    settings = state.settings.with_(proposer=proposer) if proposer else state.settings
    with progress_bar("extracting") as update:
        report = extraction_eval.run(corpus, settings, expected_path=expected, progress=update)
    if as_json:
        click.echo(json.dumps(report.to_dict(), indent=2, ensure_ascii=False))
    else:
        print_extraction(report)
    if strict and not report.passed:
        sys.exit(1)


def print_extraction(report: extraction_eval.ExtractionReport) -> None:
    out = Console(soft_wrap=True, highlight=False)
    out.print(
        f"[bold]extraction[/] {report.corpus} · proposer {report.proposer} · "
        f"{report.records} records"
    )
    for name, score in (("ownership", report.ownership), ("decisions", report.decisions)):
        out.print(
            f"  {name:<10} precision {score.precision:7.1%} ({score.correct}/{score.kept})   "
            f"recall {score.recall:7.1%} ({score.correct}/{score.expected})"
        )
        for key in score.missed:
            out.print(f"    [red]missed[/] {escape(' · '.join(key))}")
        for key in score.false:
            out.print(f"    [red]false fact[/] {escape(' · '.join(key))}")
    out.print(f"[bold]refused by the checks[/] {len(report.rejected)}")
    for r in report.rejected:
        quote = r["fact"].get("quote") or r["fact"].get("item") or ""
        out.print(
            f"  {escape(r['record'])} [yellow]{r['check']}[/]: {escape(r['reason'])}"
            + (f"\n      “{escape(str(quote)[:160])}”" if quote else "")
        )
    if report.expected_rejections:
        held = sum(1 for e in report.expected_rejections if not e["kept"])
        out.print(
            f"[bold]must not be kept[/] {held}/{len(report.expected_rejections)} held "
            "(from expected.json)"
        )
        for e in report.expected_rejections:
            how = (
                "[red]KEPT[/]"
                if e["kept"]
                else f"refused ({e['refused_by']})"
                if e["refused_by"]
                else "never proposed"
            )
            out.print(f"  {escape(str(e.get('record')))} {how}: {escape(str(e.get('why', '')))}")
    for p in report.problems:
        out.print(f"[yellow]not read[/] {escape(p['where'])}: {escape(p['problem'])}")
    out.print("[green]passed[/]" if report.passed else "[red]failed[/]: recall or false facts")


@eval_group.command("questions")
@click.argument("questions", type=click.Path(path_type=Path), default=Path("demo/questions.jsonl"))
@click.option(
    "--corpus",
    type=click.Path(path_type=Path),
    default=None,
    help="Corpus to load into a scratch graph first. [default: corpus/ beside QUESTIONS]",
)
@click.option(
    "--no-ingest", is_flag=True, help="Ask the configured graph as it is (no scratch graph)."
)
@click.option(
    "--router",
    type=click.Choice(["rules", "model"]),
    default=None,
    help="Which router to evaluate. [default: BRAIN_ROUTER, else rules]",
)
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
@click.option("--strict", is_flag=True, help="Exit non-zero unless every question passes.")
@pass_state
def questions_cmd(
    state: CliState,
    questions: Path,
    corpus: Path | None,
    no_ingest: bool,
    router: str | None,
    as_json: bool,
    strict: bool,
) -> None:
    """Ask every question of QUESTIONS and score the answers per question type."""
    settings = state.settings.with_(router=router) if router else state.settings
    if corpus is not None and not no_ingest and not corpus.is_dir():
        # else the configured graph was asked instead, and scored as if it were CORPUS
        raise InputError(f"--corpus {corpus}: not a folder (a corpus is a folder)")
    corpus = corpus or questions.parent / "corpus"
    with progress_bar("asking") as update:
        if no_ingest or not corpus.is_dir():
            brain = state.brain()
            report = questions_eval.run(
                brain.store,
                settings,
                questions_eval.load_questions(questions),
                source=str(questions),
                progress=update,
            )
        else:
            report = questions_eval.run_on_corpus(corpus, questions, settings, progress=update)
    if as_json:
        click.echo(json.dumps(report.to_dict(), indent=2, ensure_ascii=False))
    else:
        print_questions(report)
    if strict and report.passed != len(report.results):
        sys.exit(1)


def print_questions(report: QuestionsReport) -> None:
    out = Console(soft_wrap=True, highlight=False)
    out.print(f"[bold]questions[/] {report.source} · router {report.router}")
    for kind, (ok, total) in report.by_type().items():
        out.print(f"  {kind:<16} {ok:>3}/{total:<3} {ok / total:7.1%}")
    for r in report.results:
        if not r.passed:
            out.print(f"  [red]failed[/] {escape(r.id)} {escape(r.question)}")
            for problem in r.problems:
                out.print(f"      {escape(problem)}")
    out.print(f"[bold]score[/] {report.passed}/{len(report.results)} ({report.score:.1%})")


eval_group.add_command(ab_cmd)
