"""A name the decision log writes capitalised (Postgres, Kafka: no capital inside it), asked
about in lower case: "Why do we cache pages in postgres?" answered with "Cache the rendered
pages" (cached in memory) and its quote, a decision that never mentions Postgres, because
only names with a capital inside (FalkorDB, SQLite) were known in lower case. A word the
log writes capitalised inside a sentence and never in lower case is a name: a decision
found for the question must name it."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from companybrain.ask.engine import ask
from companybrain.config import Settings
from companybrain.graph.connection import Store
from companybrain.repo.ingest import ingest_repo
from tests.repo.gitrepo import GitRepo

NOW = datetime(2026, 1, 1, tzinfo=UTC)
PG = "DECISIONS.md#Use Postgres for the exporter"
CACHE = "DECISIONS.md#Cache the rendered pages"
LOG = (
    "# Decisions\n\n## Use Postgres for the exporter\n\nThe exporter stores its checkpoints "
    "in Postgres.\n\n## Cache the rendered pages\n\nRendered pages are cached in memory for "
    "60 seconds. Caching them elsewhere was slower.\n"
)


def test_a_capitalised_name_asked_in_lower_case_must_be_in_the_decision(
    store: Store, settings: Settings, tmp_path: Path
) -> None:
    r = GitRepo(tmp_path / "r")
    r.write("DECISIONS.md", LOG)
    r.commit("Decide", "2025-02-01T09:00:00Z")
    ingest_repo(store, r.root)

    wrong = ask(store, settings, "Why do we cache pages in postgres?", now=NOW)
    assert wrong.status == "refused" and wrong.refusal is not None, wrong.result
    assert wrong.citations == []
    assert PG in wrong.refusal.message  # it names postgres, for something else
    for question, wanted in (
        ("Why postgres for the exporter?", PG),
        ("Why do we use postgres?", PG),
        ("Why do we cache rendered pages?", CACHE),  # "Rendered" starts a sentence
    ):
        a = ask(store, settings, question, now=NOW)
        assert a.status == "answered", (question, a.refusal)
        assert [d["id"] for d in a.result["decisions"]] == [wanted], question
