"""A topic question in other forms of a decision's own words was refused, or answered by
another decision: "Why is FalkorDB pinned?" refused, "Pin FalkorDB to one version" being
"about something else" ("pinned" stemmed to "pinn", "pin" to "pin"); so did "Why JSON
logging?" ("logg" against "log"), and "Why do the exporters retry queries?" matched nothing
("exporters" stemmed to "exporter" but "exporter" to "export", "retries" to "retr" and
"retry" to "retry"). Plural and singular, "-ing" and "-ed" forms now meet, and a name
still has to be in the decision, with the question's other words."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from companybrain.ask.engine import ask
from companybrain.ask.repo.topic import stem
from companybrain.config import Settings
from companybrain.graph.connection import Store
from companybrain.repo.ingest import ingest_repo
from tests.repo.gitrepo import GitRepo

NOW = datetime(2026, 1, 1, tzinfo=UTC)
PIN = "DECISIONS.md#Pin FalkorDB to one version"
LOGS = "DECISIONS.md#Structured logs"
RETRY = "DECISIONS.md#Retry failed queries"
LOG = (
    "# Decisions\n\n## Pin FalkorDB to one version\n\nWe pin FalkorDB to one exact version "
    "after an upgrade changed a result silently.\n\n## Structured logs\n\nAll services log "
    "JSON lines.\n\n## Retry failed queries\n\nThe exporter retries failed queries three "
    "times.\n"
)


@pytest.mark.parametrize(
    ("word", "other"),
    [("pinned", "pin"), ("logging", "logs"), ("retries", "retry"), ("retried", "retry"),
     ("exporters", "exporter"), ("replies", "replying"), ("classes", "class"),
     ("files", "file"), ("batches", "batching"), ("writes", "writing"), ("adding", "add")],
)  # fmt: skip
def test_word_forms_meet(word: str, other: str) -> None:
    assert stem(word) == stem(other)


def test_other_forms_of_a_decisions_words_answer(
    store: Store, settings: Settings, tmp_path: Path
) -> None:
    r = GitRepo(tmp_path / "r")
    r.write("DECISIONS.md", LOG)
    r.commit("Decide", "2025-02-01T09:00:00Z")
    ingest_repo(store, r.root)

    for question, wanted in (
        ("Why is FalkorDB pinned?", PIN),
        ("Why JSON logging?", LOGS),
        ("Why do the exporters retry queries?", RETRY),
        # a word after "to" that no decision writes is taken for a name: "logging" is "log"
        ("Why switch to logging JSON lines?", LOGS),
    ):
        a = ask(store, settings, question, now=NOW)
        assert a.status == "answered", (question, a.refusal)
        assert [d["id"] for d in a.result["decisions"]] == [wanted], question
    for question in ("Why is Kafka pinned?", "Why JSON caching?", "Why is FalkorDB retried?"):
        a = ask(store, settings, question, now=NOW)
        assert a.status == "refused", (question, a.result)
