"""The demo corpus loaded once per test module into its own graph (read-only tests), and a
fresh copy per test for the tests that add records."""

from __future__ import annotations

import uuid
from collections.abc import Iterator

import pytest

from companybrain.config import Settings
from companybrain.graph.connection import Store
from companybrain.ingest.pipeline import ingest
from tests.conftest import REPO_ROOT

DEMO = REPO_ROOT / "demo" / "corpus"
NOW = "2026-10-20T12:00:00Z"


@pytest.fixture(scope="module")
def demo_settings(base_settings: Settings) -> Settings:
    return base_settings.with_(graph=f"t_demo_{uuid.uuid4().hex[:12]}")


@pytest.fixture(scope="module")
def demo(demo_settings: Settings) -> Iterator[Store]:
    """The demo corpus, ingested once for the module. Tests must not write to it."""
    store = Store(demo_settings)
    ingest(store, DEMO, demo_settings)
    yield store
    store.delete_graph()
    store.close()


@pytest.fixture
def demo_copy(store: Store, settings: Settings) -> Store:
    """A fresh graph holding the demo corpus, for tests that add records."""
    ingest(store, DEMO, settings)
    return store
