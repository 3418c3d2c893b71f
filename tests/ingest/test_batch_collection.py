"""Ingestion reads, extracts and encodes each batch with the cyclic garbage collector
paused (ingest/writer.py, companybrain/cycles.py): a collection or so per batch instead of
one every few hundred new objects, and the collector is back on afterwards, also when a
batch fails."""

from __future__ import annotations

import gc
from pathlib import Path

import pytest

from companybrain.config import Settings
from companybrain.graph.connection import Store
from companybrain.ingest import writer
from companybrain.ingest.pipeline import ingest
from companybrain.synth.write import generate
from tests.support.collector import collections_while

RECORDS = 2500


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("collection") / "company"
    generate(out, people=30, records=RECORDS, seed=9, questions=5)
    return out


def test_ingestion_collects_about_once_a_batch(
    corpus: Path,
    store: Store,
    settings: Settings,
    collector_on: None,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    paused = collections_while(lambda: ingest(store, corpus, settings, workers=0))
    assert gc.isenabled()
    # The same run with the pause taken out: the collector starts many times a batch.
    monkeypatch.setattr(writer, "no_cycle_collection", _not_paused)
    other = store.for_graph(f"{settings.graph}_on")
    try:
        other.ensure_schema()
        on = collections_while(
            lambda: ingest(other, corpus, settings.with_(graph=other.graph_name), workers=0)
        )
    finally:
        other.delete_graph()
        other.close()
    batches = -(-RECORDS // writer.BATCH)
    assert on > 3 * paused, (on, paused)
    # Measured: 10 against 57 for 5 batches (the phases around the batches collect too).
    assert paused <= 2 * batches + 10, paused


def test_a_failing_batch_leaves_the_collector_on(
    corpus: Path,
    store: Store,
    settings: Settings,
    collector_on: None,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(writer, "extract_batch", _failing)
    with pytest.raises(RuntimeError, match="extraction broke"):
        ingest(store, corpus, settings, workers=0)
    assert gc.isenabled()


def _failing(*args: object) -> object:
    raise RuntimeError("extraction broke")


class _not_paused:
    def __enter__(self) -> None:
        return None

    def __exit__(self, *exc: object) -> None:
        return None
