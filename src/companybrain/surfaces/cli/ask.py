"""`brain ask "QUESTION"`: the answer with its records and quotes, outranked claims marked
as outranked (never hidden), or a refusal with its reason. `--json` prints the envelope of
spec/answers.md."""

from __future__ import annotations

import json

import click
from rich.console import Console
from rich.markup import escape

from companybrain.ask.agent import DEFAULT_MAX_STEPS
from companybrain.ask.engine import check_inputs
from companybrain.ask.explain import PATH_WORDS, chain_text, motivations
from companybrain.ingest.status import answer_warning
from companybrain.model.answer import Answer
from companybrain.surfaces.cli.agent import run_agent_cli
from companybrain.surfaces.cli.context import CliState, pass_state
from companybrain.surfaces.cli.repo import result_lines

REPO_TOOLS = {"why", "what_breaks", "disproven", "who_knows", "trace", "told", "origin", "review"}


@click.command("ask")
@click.argument("question")
@click.option(
    "--now",
    default=None,
    help="The clock the question is read against, ISO 8601 with offset. [default: now]",
)
@click.option(
    "--as-of",
    "as_of",
    default=None,
    help="The day or instant the question is about; overrides a date in the question.",
)
@click.option(
    "--as",
    "as_person",
    default=None,
    metavar="PERSON",
    help="Ask as this person id: only records their groups may see count.",
)
@click.option("--json", "as_json", is_flag=True, help="Print the answer as JSON.")
@click.option(
    "--agent",
    is_flag=True,
    help="Let a model call the read-only tools in a loop; code checks its final answer.",
)
@click.option(
    "--max-steps", default=DEFAULT_MAX_STEPS, show_default=True, help="The agent's step limit."
)
@click.option("--graph", default=None, help="Graph to ask (same as the global --graph).")
@pass_state
def ask_cmd(
    state: CliState,
    question: str,
    now: str | None,
    as_of: str | None,
    as_person: str | None,
    as_json: bool,
    graph: str | None,
    agent: bool = False,
    max_steps: int = DEFAULT_MAX_STEPS,
) -> None:
    """Ask a question; get the record and the quote, or a refusal with its reason."""
    if graph is not None:  # `--graph ""` is refused by name, as the global --graph's is
        state.settings = state.settings.with_(graph=graph)
        state.settings.validate()
    check_inputs(question, now, as_of)  # the question and the flags first, then the graph
    if agent:
        run_agent_cli(
            state, question, now=now, as_of=as_of, as_person=as_person, as_json=as_json,
            max_steps=max_steps,
        )  # fmt: skip
        return
    reader = state.reader()
    answer = reader.ask(question, now=now, as_of=as_of, as_person=as_person)
    if warning := answer_warning(reader.store):  # as status says, and every other surface
        click.echo(f"warning: {warning}", err=True)
    if as_json:
        click.echo(json.dumps(answer.to_dict(), indent=2, ensure_ascii=False))
    else:
        show(answer, Console(highlight=False, soft_wrap=True))


def show(answer: Answer, console: Console) -> None:
    subject = (answer.subject or {}).get("name") or (answer.subject or {}).get("id") or "-"
    console.print(
        f"[dim]{answer.tool or 'no question type'} · {escape(str(subject))} · as of "
        f"{answer.as_of or '-'}[/]"
    )
    if answer.status == "refused" and answer.refusal:
        console.print(
            f"[bold red]Refused ({answer.refusal.code.value})[/]: {escape(answer.refusal.message)}"
        )
    else:
        console.print("[bold green]Answer[/]")
    result = answer.result or {}
    lines = result_lines(answer.tool or "", result) if answer.tool in REPO_TOOLS else []
    for line in lines or _result_lines(result):
        console.print(f"  {escape(line)}")
    if answer.citations:
        console.print("[bold]Sources[/]")
        for c in answer.citations:
            meta = ", ".join(
                str(x)
                for x in (
                    c.kind,
                    f"authority {c.authority}" if c.authority is not None else None,
                    f"effective {c.effective_at}" if c.effective_at else None,
                )
                if x
            )
            quote = f' "{escape(c.quote)}"' if c.quote else ""
            console.print(f"  [cyan]{escape(c.record)}[/] ({escape(meta)}){quote}")
    if answer.outranked:
        console.print("[bold]Outranked[/] (shown, not used)")
        for o in answer.outranked:
            console.print(
                f"  [yellow]outranked[/] [cyan]{escape(o.record)}[/] ({o.kind}, authority "
                f"{o.authority})"
                + (f" names {escape(o.owner)}" if o.owner else "")  # else the quote says
                + f": {escape(o.why)}"
                + (f' "{escape(o.quote)}"' if o.quote else "")
            )
    console.print(
        f"[bold]Explanation[/] [dim]({answer.explanation_by})[/]: {escape(answer.explanation)}"
    )


def _result_lines(result: dict[str, object]) -> list[str]:
    lines: list[str] = []
    owner = result.get("owner")
    if isinstance(owner, dict):
        lines.append(f"owner: {owner.get('name')} ({owner.get('id')})")
    for item in result.get("owners", []) or []:  # type: ignore[attr-defined]
        lines.append(f"{item['service']}: {item['owner']['name']} ({item['owner']['id']})")
    if result.get("approval"):
        lines.append("approval authority: not recorded (ask the owners for review)")
    for e in result.get("experts", []) or []:  # type: ignore[attr-defined]
        how = ", ".join(PATH_WORDS[p].format(n=n) for p, n in (e.get("paths") or {}).items())
        lines.append(f"{e['name']} ({e['id']}): score {e['score']}" + (f" ({how})" if how else ""))
    if "bus_factor" in result:
        lines.append(f"bus factor: {result['bus_factor']}")
    if result.get("warning"):
        lines.append(f"warning: {result['warning']}")
    if "chain" in result:
        lines.append("chain, newest first: " + chain_text(result, " <- "))
        each = [f"{', '.join(ms)} ({d})" for d, ms in motivations(result)]  # per decision
        lines.append("motivated by: " + ("; ".join(each) or "-"))
    lines += _person_or_team_lines(result)
    for h in result.get("hits", []) or []:  # type: ignore[attr-defined]
        lines.append(f"{h['record']}: {h['title']} ... {h['snippet']} ...")
    return lines


def _person_or_team_lines(result: dict[str, object]) -> list[str]:
    """What org.yaml says of a person or team, field by field (the JSON's `result`)."""
    person, team = result.get("person"), result.get("team")
    lines: list[str] = []
    if isinstance(person, dict):
        lines.append(f"person: {person.get('name')} ({person.get('id')})")
        if isinstance(person.get("team"), dict):
            lines.append(f"team: {person['team'].get('name')} ({person['team'].get('id')})")
        if person.get("email"):
            lines.append(f"email: {person['email']}")
        if person.get("leads"):
            lines.append("leads: " + ", ".join(f"{t['name']} ({t['id']})" for t in person["leads"]))
    if isinstance(team, dict):
        lines.append(f"team: {team.get('name')} ({team.get('id')})")
        if isinstance(team.get("lead"), dict):
            lines.append(f"lead: {team['lead'].get('name')} ({team['lead'].get('id')})")
        members = team.get("members") or []
        lines.append(
            "members: " + (", ".join(f"{m['name']} ({m['id']})" for m in members) or "none listed")
        )
    return lines
