"""`brain gen-corpus`: a synthetic company of any size, with the truth to check answers by."""

from __future__ import annotations

from pathlib import Path

import click

from companybrain.errors import InputError
from companybrain.surfaces.cli.ingest import progress_bar
from companybrain.synth.write import generate


@click.command("gen-corpus")
@click.argument("out", type=click.Path(path_type=Path))
@click.option("--people", default=200, show_default=True, help="How many people.")
@click.option("--records", default=10_000, show_default=True, help="How many records.")
@click.option("--seed", default=1, show_default=True, help="Same seed, same corpus.")
@click.option(
    "--services", default=None, type=int, help="How many services [default: one per 100 records]."
)
@click.option(
    "--snapshots",
    default=None,
    type=int,
    help="Service directory snapshots per team [default: one a quarter, at most 8].",
)
@click.option(
    "--questions",
    default=100,
    show_default=True,
    help="Ownership questions in truth/ (at most one a service).",
)
def gen_corpus_cmd(
    out: Path,
    people: int,
    records: int,
    seed: int,
    services: int | None,
    snapshots: int | None,
    questions: int,
) -> None:
    """Write a synthetic company to OUT (org.yaml, records.jsonl, records/adr/*.md) with
    expected.json and truth/questions.jsonl: what the generator knows to be true."""
    if out.exists() and not out.is_dir():
        raise InputError(f"{out} is a file; give a new folder")
    if out.exists() and any(out.iterdir()):
        raise InputError(f"{out} is not empty; give a new folder")
    if people < 2 or records < 1 or any(n is not None and n < 1 for n in (services, snapshots)):
        raise InputError(
            "--people must be at least 2, --records, --services and --snapshots at least 1"
        )
    if questions < 0:  # found only after the whole corpus was written, leaving it half done
        raise InputError("--questions must be at least 0")
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise InputError(f"{out}: cannot create the folder ({exc.strerror})") from None
    try:
        with progress_bar("generating") as update:
            made = generate(
                out, people=people, records=records, seed=seed, services=services,
                snapshots=snapshots, questions=questions,
                progress=lambda done, total: update(done, total, ""),
            )  # fmt: skip
    except ValueError as exc:
        if services is None and "services" in str(exc):  # the default, one per 100 records
            raise InputError(
                f"{exc}: --records {records:,} asks for one per 100 records; give --services"
            ) from exc
        raise InputError(str(exc)) from exc
    kinds = ", ".join(f"{n} {k}" for k, n in sorted(made.counts.items()))
    click.echo(
        f"wrote {made.records} records ({kinds}) for {made.people} people and "
        f"{made.services} services to {out}; {made.claims} ownership statements; "
        f"check answers with: brain eval questions {out / 'truth' / 'questions.jsonl'}"
    )
    asked = ", ".join(f"{n} {tool}" for tool, n in made.questions.items())
    click.echo(f"truth: {asked} questions")
    if made.questions.get("owner_of", 0) < questions:  # one question a service at most
        click.echo(
            f"note: {made.questions.get('owner_of', 0)} ownership questions, not {questions}: "
            f"one a service, and there are {made.services} services"
        )
