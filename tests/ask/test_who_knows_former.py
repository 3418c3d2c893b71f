"""who_knows when the people who did the work have left the organisation (dropped from
org.yaml): they are no one to ask, and the answer says that they did it."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

from companybrain.ask.engine import ask
from companybrain.config import Settings
from companybrain.graph.connection import Store
from companybrain.ingest.pipeline import ingest
from tests.ask.conftest import NOW
from tests.ingest.corpus_builder import ORG, write_corpus


def _ticket(rid: str, resolver: str) -> dict[str, Any]:
    return {"id": rid, "kind": "ticket", "at": "2026-05-01T10:00:00Z", "author": resolver,
            "resolved_by": resolver, "status": "resolved", "about": ["search-index"],
            "title": rid, "text": f"{rid}: reindex fixed."}  # fmt: skip


def test_experts_who_left_are_named_as_gone_not_passed_over(
    store: Store, settings: Settings, tmp_path: Path
) -> None:
    """Cy resolved both tickets about the search index, Ana wrote one chat line about it.
    Once Cy left, "Who knows the search index?" answered Ana alone, with "bus factor 1:
    only Ana Ruiz appears in the records about Search Index": false (Cy's two tickets are
    there) and silent about who did the work."""
    chat = {"id": "m-1", "kind": "chat", "at": "2026-05-02T10:00:00Z", "author": "ana",
            "text": "the search index is slow again"}  # fmt: skip
    records = [_ticket("T-1", "cy"), _ticket("T-2", "cy"), chat]
    corpus = write_corpus(tmp_path / "c", {}, jsonl=records, org=ORG)
    ingest(store, corpus, settings)
    before = ask(store, settings, "Who knows the search index?", now=NOW).to_dict()
    assert [e["id"] for e in before["result"]["experts"]] == ["cy", "ana"]
    assert "former" not in before["result"]

    org = copy.deepcopy(ORG)
    org["people"] = [p for p in org["people"] if p["id"] != "cy"]
    write_corpus(tmp_path / "c", {}, jsonl=records, org=org)
    ingest(store, corpus, settings)
    a = ask(store, settings, "Who knows the search index?", now=NOW).to_dict()
    assert a["status"] == "answered" and [e["id"] for e in a["result"]["experts"]] == ["ana"]
    assert a["result"]["former"] == ["Cy Park"]
    assert "only Ana Ruiz appears" not in a["result"]["warning"], a["result"]["warning"]
    assert "only Ana Ruiz of the people in the organisation" in a["result"]["warning"]
    assert "work by Cy Park, no longer in the organisation" in a["explanation"]
    assert [c["record"] for c in a["citations"]] == ["m-1"]
