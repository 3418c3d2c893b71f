"""`brain eval ab QUESTIONS.jsonl`: the graph tools against plain keyword search."""

from __future__ import annotations

import json
from pathlib import Path

import click

from companybrain.ask.agent import DEFAULT_MAX_STEPS
from companybrain.ask.engine import parse_now, viewer_for
from companybrain.ask.registry import ReadOnlyStore, ToolContext, read_only_tools
from companybrain.errors import InputError
from companybrain.evals.ab import (
    AbQuestion,
    compare_answers,
    compare_retrieval,
    read_questions,
    write_sheet,
)
from companybrain.graph.queries import schema_q
from companybrain.llm.client import ModelClient
from companybrain.model.answer import Answer
from companybrain.policy.access import Viewer
from companybrain.surfaces.cli.context import CliState, pass_state
from companybrain.surfaces.cli.ingest import progress_bar


@click.command("ab")
@click.argument("questions", type=click.Path(path_type=Path))
@click.option(
    "--out",
    type=click.Path(path_type=Path),
    default=None,
    help="Folder for the A/B sheet of the full comparison. [default: ab-<questions file name>]",
)
@click.option(
    "--no-model", is_flag=True, help="Compare retrieval only, even with a model configured."
)
@click.option("--seed", default=0, show_default=True, help="Seed of the A/B order on the sheet.")
@click.option(
    "--max-steps", default=DEFAULT_MAX_STEPS, show_default=True, help="The agent's step limit."
)
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
@pass_state
def ab_cmd(
    state: CliState,
    questions: Path,
    out: Path | None,
    no_model: bool,
    seed: int,
    max_steps: int,
    as_json: bool,
) -> None:
    """How often the graph tools and keyword search (BM25, top 5) retrieve the record each
    frozen question must rest on, and how long each takes. With a model configured, also
    the same model with either, and an anonymised A/B sheet for judging."""
    asked = read_questions(questions)
    brain = state.brain()
    counts = schema_q.label_counts(brain.store)
    if not any(counts.get(label) for label in ("Source", "Decision", "Commit")):
        raise InputError(
            f"graph {brain.store.graph_name!r} holds no records: ingest the corpus or repository "
            "the questions are about first (brain ingest / brain ingest-repo)"
        )

    for q in asked:  # before anything is asked, naming the question
        if q.as_person:
            viewer_for(brain.store, q.as_person, f"{questions}: question {q.id!r}: `as`")

    def graph_answer(q: AbQuestion) -> Answer:
        return brain.ask(q.question, now=q.now, as_person=q.as_person)

    def viewer_of(q: AbQuestion) -> Viewer | None:
        return viewer_for(brain.store, q.as_person) if q.as_person else None

    with progress_bar("retrieval") as progress:
        report, index = compare_retrieval(
            questions.name, asked, brain.store, graph_answer, viewer_of, progress
        )
    result = {"retrieval": report.to_dict()}
    lines = report.lines()
    if brain.settings.model_configured and not no_model:
        ro = ReadOnlyStore(brain.settings, brain.store.graph_name)
        try:

            def ctx_of(q: AbQuestion) -> ToolContext:
                return ToolContext(ro, brain.settings, parse_now(q.now), q.as_person)

            with progress_bar("full comparison") as progress:
                full = compare_answers(
                    asked,
                    ctx_of,
                    read_only_tools(),
                    index,
                    viewer_of,
                    client=ModelClient(brain.settings),
                    max_steps=max_steps,
                    seed=seed,
                    progress=progress,
                )
        finally:
            ro.close()
        folder = out or Path(f"ab-{questions.stem}")
        paths = write_sheet(full, folder)
        result["full"] = full.to_dict()
        result["files"] = {k: str(v) for k, v in paths.items()}
        lines += full.lines()
        lines.append(f"  sheet for the judge: {paths['sheet']} (key: {paths['key']})")
    elif not brain.settings.model_configured:
        lines.append("no model configured: retrieval only (set BRAIN_MODEL for the full A/B)")
    if as_json:
        click.echo(json.dumps(result, indent=2))
    else:
        for line in lines:
            click.echo(line)
