"""A decision named by its id, unquoted, in a question: "Where did DECISIONS.md#Batch writes
(2) come from?" was refused "the question matches DECISIONS.md#Batch writes and
DECISIONS.md#Batch writes (2) equally well: name the decision", although it names one
exactly. The longest run of the question's words from `PATH#` that is a decision id is the
decision asked about."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from companybrain.ask.engine import ask
from companybrain.config import Settings
from companybrain.graph.connection import Store
from companybrain.repo.ingest import ingest_repo
from tests.repo.gitrepo import GitRepo

NOW = datetime(2026, 1, 1, tzinfo=UTC)


def test_a_repeated_heading_named_by_its_id(
    store: Store, settings: Settings, tmp_path: Path
) -> None:
    r = GitRepo(tmp_path / "r")
    r.write("src/db.py", "x = 1\n")
    r.write(
        "DECISIONS.md",
        "# Decisions\n\n## Batch writes\n\nsrc/db.py batches writes.\n\n"
        "## Batch writes\n\nsrc/db.py batches reads too.\n",
    )
    r.commit("Start", "2025-01-10T09:00:00Z")
    ingest_repo(store, r.root)
    for question, decision in (
        ("Where did DECISIONS.md#Batch writes (2) come from?", "DECISIONS.md#Batch writes (2)"),
        ("Where did DECISIONS.md#Batch writes come from?", "DECISIONS.md#Batch writes"),
        ("What replaced DECISIONS.md#batch writes (2)?", "DECISIONS.md#Batch writes (2)"),
    ):
        a = ask(store, settings, question, now=NOW)
        assert a.status == "answered", (question, a.refusal)
        assert a.result is not None and a.result["decision"] == decision, question
