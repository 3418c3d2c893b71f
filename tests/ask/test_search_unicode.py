"""search_records over words written with letters beyond ASCII."""

from __future__ import annotations

from pathlib import Path

from companybrain.ask.engine import ask
from companybrain.config import Settings
from companybrain.graph.connection import Store
from companybrain.ingest.pipeline import ingest
from companybrain.policy.search_rank import terms
from tests.ask.conftest import NOW
from tests.ingest.corpus_builder import write_corpus


def test_a_search_keeps_accented_letters_in_its_words(
    store: Store, settings: Settings, tmp_path: Path
) -> None:
    """ "Search for Zürich" searched for "Z rich" and listed W-2, "Rich text editing ...",
    with its text as the snippet, and not W-1 about the Zürich datacenter; "Search for
    café" searched for "caf" and found nothing."""
    wiki = [
        {"id": "W-1", "kind": "wiki", "at": "2026-02-01T10:00:00Z", "title": "Zürich office",
         "text": "The Zürich datacenter hosts the café menu service."},
        {"id": "W-2", "kind": "wiki", "at": "2026-02-01T10:00:00Z", "title": "Rich text",
         "text": "Rich text editing in the wiki is slow."},
    ]  # fmt: skip
    ingest(store, write_corpus(tmp_path / "c", {}, jsonl=wiki), settings)
    for question, query in (
        ("Search for Zürich", "Zürich"),
        ("Search for café", "café"),
        ("Search for ZÜRICH", "ZÜRICH"),
        ("Find records about the zürich datacenter", "zürich datacenter"),
    ):
        a = ask(store, settings, question, now=NOW).to_dict()
        assert a["status"] == "answered", (question, a["refusal"])
        assert a["result"]["query"] == query
        assert [h["record"] for h in a["result"]["hits"]] == ["W-1"], (question, a["result"])
    assert terms("Zürich café") == ["zürich", "café"]
