"""`brain ask --agent`: each tool call printed as it happens, then the answer with what code
checked, the prose labelled model-written, or the evidence and the reason it was withheld."""

from __future__ import annotations

import json

import click
from rich.console import Console
from rich.markup import escape

from companybrain.ask.agent import DEFAULT_MAX_STEPS, AgentAnswer, Step, ask_agent
from companybrain.ingest.status import answer_warning
from companybrain.surfaces.cli.context import CliState


def run_agent_cli(
    state: CliState,
    question: str,
    *,
    now: str | None,
    as_of: str | None,
    as_person: str | None,
    as_json: bool,
    max_steps: int = DEFAULT_MAX_STEPS,
) -> None:
    out = Console(highlight=False, soft_wrap=True)
    # with --json, stdout carries only the JSON: the calls stream to stderr
    live = Console(stderr=True, highlight=False, soft_wrap=True) if as_json else out
    brain = state.reader()
    if not brain.settings.model_configured:
        live.print("[yellow]--agent: no model is configured; showing the routed answer[/]")

    def on_step(step: Step) -> None:
        live.print(f"[dim]→ step {step.step}[/] {escape(step.line())}")

    answer = ask_agent(
        brain.store,
        brain.settings,
        question,
        now=now,
        as_of=as_of,
        as_person=as_person,
        max_steps=max_steps,
        on_step=on_step,
    )
    if warning := answer_warning(brain.store):  # as `brain ask` says it
        click.echo(f"warning: {warning}", err=True)
    if as_json:
        click.echo(json.dumps(answer.to_dict(), indent=2, ensure_ascii=False))
    elif answer.routed is not None:
        from companybrain.surfaces.cli.ask import show

        show(answer.routed, out)
    else:
        show_agent(answer, out)


def show_agent(answer: AgentAnswer, console: Console) -> None:
    if answer.status == "withheld":
        console.print(f"[bold red]Withheld[/]: {escape(answer.reason or '')}")
        console.print(escape(answer.text))
    else:
        label = "Answer" if answer.status == "answered" else "Abstained"
        console.print(f"[bold green]{label}[/] [dim](model-written)[/]")
        console.print(escape(answer.text))
    console.print(f"[dim]checked by code: {escape(answer.checks_line)}[/]")
    if answer.citations:
        console.print("[bold]Sources[/]")
        for c in answer.citations:
            quote = f' "{escape(c.quote)}"' if c.quote else ""
            lines = f" lines {c.lines[0]}-{c.lines[1]}" if c.lines else ""
            console.print(f"  [cyan]{escape(c.record)}[/]{lines}{quote}")
    if answer.outranked:
        console.print("[bold]Outranked[/] (shown, not used)")
        for o in answer.outranked:
            console.print(f"  [yellow]outranked[/] [cyan]{escape(o.record)}[/]: {escape(o.why)}")
