"""search_records fetches at most a fixed number of full-text hits before ranking them. For a
viewer who may see everything, the index's score picks them, so the best match is never
cut off by its id; for anyone else they are taken by id, because the score weighs words by
hidden records too."""

from __future__ import annotations

from pathlib import Path

from companybrain.config import Settings
from companybrain.graph.connection import Store
from companybrain.graph.queries import ask_q
from companybrain.ingest.pipeline import ingest
from companybrain.policy.access import Viewer, query_scope
from tests.ingest.corpus_builder import md, write_corpus

FILLER = "Notes from the weekly sync about many unrelated things. " * 20


def _corpus(tmp_path: Path) -> Path:
    records = {
        f"a{i}.md": md(
            {"id": f"a{i}", "kind": "wiki", "at": "2026-10-01T10:00:00Z", "title": f"Sync {i}"},
            f"{FILLER} The kestrel came up once.",
        )
        for i in range(6)
    }
    records["z9.md"] = md(
        {"id": "z9", "kind": "wiki", "at": "2026-10-01T10:00:00Z", "title": "Kestrel kestrel"},
        "Kestrel: the kestrel rollout, all about the kestrel.",
    )
    return write_corpus(tmp_path / "c", records)


def test_everyone_gets_the_best_scored_hits_first(
    store: Store, settings: Settings, tmp_path: Path
) -> None:
    ingest(store, _corpus(tmp_path), settings)
    everyone = ask_q.search_sources(store, "kestrel", 3, query_scope(Viewer.everyone()))
    assert len(everyone) == 3
    assert everyone[0]["record"] == "z9"  # by id it would come last and be cut off


def test_a_restricted_viewer_gets_hits_by_id(
    store: Store, settings: Settings, tmp_path: Path
) -> None:
    ingest(store, _corpus(tmp_path), settings)
    viewer = Viewer(person="cy", groups=frozenset())
    rows = ask_q.search_sources(store, "kestrel", 3, query_scope(viewer))
    assert [r["record"] for r in rows] == ["a0", "a1", "a2"]
