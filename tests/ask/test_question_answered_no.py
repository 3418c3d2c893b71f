"""A record saying "Bo Lind owns the billing gateway? No, Kofi Mensah still does." named Bo
as the owner, citing its first sentence: a question worded as a statement still says what
it asks ("pretty sure Bo owns it now? not 100%"), and the "No" right after it was not read.
A question the record answers "no" to names no owner."""

from __future__ import annotations

from pathlib import Path

import pytest

from companybrain.ask.engine import ask
from companybrain.config import Settings
from companybrain.graph.connection import Store
from companybrain.ingest.pipeline import ingest
from tests.ask.handover import DIRECTORY, TEAM_ORG, change
from tests.ingest.corpus_builder import write_corpus

NOW = "2026-07-01T00:00:00Z"
WRITTEN = "2026-05-10T09:00:00Z"


def owner_then(store: Store, settings: Settings, tmp_path: Path, text: str) -> str | None:
    files = {"dir.md": DIRECTORY, "cc.md": change(text, at=WRITTEN)}
    ingest(store, write_corpus(tmp_path / "c", files, org=TEAM_ORG), settings)
    answer = ask(store, settings, "Who owns the billing gateway on 2026-05-20?", now=NOW)
    return answer.result["owner"]["id"] if answer.result else None


@pytest.mark.parametrize(
    "text",
    [
        "Bo Lind owns the billing gateway? No, Kofi Mensah still does.",
        "Bo Lind owns the billing gateway?\n\nNope.",
    ],
)
def test_a_question_answered_no_names_no_owner(
    store: Store, settings: Settings, tmp_path: Path, text: str
) -> None:
    assert owner_then(store, settings, tmp_path, text) == "kofi"


def test_an_unsure_statement_still_says_it(
    store: Store, settings: Settings, tmp_path: Path
) -> None:
    text = "Pretty sure Bo Lind owns the billing gateway now? not 100%"
    assert owner_then(store, settings, tmp_path, text) == "bo"
