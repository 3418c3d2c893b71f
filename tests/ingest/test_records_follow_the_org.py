"""Records ingested on their own (a file, not the corpus folder) are read against the stored
organisation. When a corpus ingest then changes the organisation (a new person, an authority
table), those records must follow it as the corpus's own records do; and the same
organisation, read from org.yaml or from the graph, is the same organisation."""

from __future__ import annotations

from pathlib import Path

from companybrain.config import Settings
from companybrain.graph.connection import Store
from companybrain.ingest.pipeline import ingest
from tests.ingest.corpus_builder import write_corpus
from tests.ingest.test_pipeline import DIRECTORY


def test_a_corpus_record_ingested_on_its_own_is_unchanged(
    store: Store, settings: Settings, tmp_path: Path
) -> None:
    """The organisation read back from the graph (in order of id, `former` null) hashed
    differently from the same org.yaml, so a record read one way was "changed" the other:
    re-ingesting one unchanged file of the corpus re-wrote it."""
    corpus = write_corpus(tmp_path / "c", {"dir.md": DIRECTORY})
    ingest(store, corpus, settings)
    alone = ingest(store, corpus / "records" / "dir.md", settings)
    assert (alone.stored, alone.unchanged) == (0, 1)
