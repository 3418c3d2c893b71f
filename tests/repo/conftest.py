"""A scenario repository, built once per module, ingested into its own graph, with the
experiments a board would have read out of its decision log."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from companybrain.config import Settings
from companybrain.graph.connection import Store
from companybrain.graph.queries import findings_q
from companybrain.model.findings import Finding, FindingKind, Verdict
from companybrain.repo.ingest import IngestReport, ingest_repo
from tests.repo import scenario

ROUTER = "DECISIONS.md#2025-03-01: Keep the wrong router rule"
BATCH = "DECISIONS.md#2025-03-01: Batch exporter writes"
ROUTER_EXPERIMENT = (
    'with the corrected text the 7B routed "remember this" to memory 0 times out of 20'
)
BATCH_EXPERIMENT = "Tried streaming each row first: throughput fell to a third."


@dataclass
class Scenario:
    root: Path
    shas: dict[str, str]
    store: Store
    report: IngestReport


def board_findings(store: Store) -> None:
    """What the board's workers would store for the scenario's decision log."""
    findings_q.add_findings(
        store,
        ROUTER,
        [
            Finding(ROUTER, FindingKind.EXPERIMENT, ROUTER_EXPERIMENT,
                    "corrected router text fixes memory routing", Verdict.DISPROVEN),
            Finding(ROUTER, FindingKind.MEASUREMENT, "0 times out of 20", "0/20"),
        ],
    )  # fmt: skip
    findings_q.add_findings(
        store,
        BATCH,
        [Finding(BATCH, FindingKind.EXPERIMENT, BATCH_EXPERIMENT, "stream each row",
                 Verdict.DISPROVEN)],
    )  # fmt: skip


@pytest.fixture(scope="module")
def built(base_settings: Settings, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Scenario]:
    root = tmp_path_factory.mktemp("scenario") / "demo"
    shas = scenario.build(root)
    store = Store(base_settings, f"t_repo_{uuid.uuid4().hex[:10]}")
    store.ensure_schema()
    report = ingest_repo(store, root)
    board_findings(store)
    yield Scenario(root, shas, store, report)
    store.delete_graph()
    store.close()
