"""What the board drew from a record someone may not see stays out of every page they open:
a handoff between a visible record and a restricted one, and the findings read from a
restricted company ADR (kept under its decision, not under its record)."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from companybrain.board.fill import fill
from companybrain.board.options import BoardOptions, board_graph
from companybrain.board.run import run_board
from companybrain.config import Settings
from companybrain.graph.connection import Store
from companybrain.ingest.pipeline import ingest
from companybrain.surfaces.web import create_app
from tests.ingest.corpus_builder import md, write_corpus

SECRET = "Keep the hardware keystore for billing"
SECRET_TRIAL = "We tried moving billing gateway keys to the software keystore; it did not help."
RECORDS = {
    "adr5.md": md(
        {"id": "ADR-5", "kind": "adr", "at": "2026-09-01T09:00:00Z", "author": "bo",
         "status": "accepted", "title": SECRET, "acl": ["sec"]},
        f"# {SECRET}\n\n{SECRET_TRIAL} We will keep the hardware keystore for billing.",
    ),
    "adr6.md": md(
        {"id": "ADR-6", "kind": "adr", "at": "2026-09-02T09:00:00Z", "author": "ana",
         "status": "accepted", "title": "Cache billing lookups"},
        "# Cache billing lookups\n\nWe will cache billing gateway lookups for one minute. "
        "This supersedes ADR-5.",
    ),
    "adr7.md": md(
        {"id": "ADR-7", "kind": "adr", "at": "2026-09-03T09:00:00Z", "author": "ana",
         "status": "accepted", "title": "Use cloud KMS"},
        f'# Use cloud KMS\n\nWe will use cloud KMS for billing keys. This supersedes "{SECRET}".',
    ),
}  # fmt: skip


@pytest.fixture(scope="module")
def board_site(
    base_settings: Settings, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Settings]:
    """The two records read by two rules workers: one raises ADR-6 supersedes ADR-5, the
    other confirms it with a quote from each side."""
    settings = base_settings.with_(graph=f"w_{uuid.uuid4().hex[:10]}")
    store = Store(settings)
    store.ensure_schema()
    ingest(store, write_corpus(Path(tmp_path_factory.mktemp("c")) / "c", RECORDS), settings)
    board = store.for_graph(board_graph(settings.graph))
    options = BoardOptions(claim_ttl_s=30, poll_s=0.05)
    fill(store, board, options)
    run_board(settings, options, 2, show_progress=False)
    board.close()
    store.close()
    yield settings
    store = Store(settings)
    store.for_graph(board_graph(settings.graph)).delete_graph()
    store.delete_graph()
    store.close()


def test_a_visible_item_shows_no_handoff_to_a_record_the_person_may_not_see(
    board_site: Settings,
) -> None:
    """Ana (not in `sec`) opened ADR-6's tile: it listed the confirmed handoff to ADR-5
    with ADR-5's own quote (its title) beside it, so a restricted record's words and its
    existence showed."""
    client = TestClient(create_app(board_site))
    everyone = client.get("/api/board/item", params={"id": "record:ADR-6"}).json()
    assert [h["status"] for h in everyone["handoffs"]] == ["confirmed"]
    assert everyone["handoffs"][0]["quote_to"] == SECRET
    for path in ("/api/board/item", "/board/item"):
        seen = client.get(path, params={"id": "record:ADR-6", "as": "ana"})
        assert seen.status_code == 200
        assert SECRET not in seen.text
        assert "confirmed by" not in seen.text
    assert (
        client.get("/api/board/item", params={"id": "record:ADR-6", "as": "ana"}).json()["handoffs"]
        == []
    )
    assert (
        client.get("/api/board/item", params={"id": "record:ADR-6", "as": "bo"}).json()["handoffs"]
        == everyone["handoffs"]
    )


def test_a_finding_of_a_restricted_company_decision_is_not_found(board_site: Settings) -> None:
    """The board's findings from a company ADR hang on its decision: the graph view asked
    for the record behind a finding only under a record, found none, and showed the
    restricted ADR's experiment to anyone who opened it."""
    store = Store(board_site)
    try:
        [found] = store.read(  # test-only Cypher: the finding's id
            "MATCH (:Decision {id: 'ADR-5'})-[:HAS_FINDING]->(f:Finding {kind: 'experiment'}) "
            "RETURN f.id AS id"
        )
    finally:
        store.close()
    client = TestClient(create_app(board_site))
    assert SECRET_TRIAL in client.get("/api/graph", params={"id": found["id"]}).text
    assert client.get("/api/graph", params={"id": found["id"], "as": "bo"}).status_code == 200
    for path in ("/api/graph", "/graph"):
        hidden = client.get(path, params={"id": found["id"], "as": "ana"})
        assert hidden.status_code == 404
        assert SECRET_TRIAL not in hidden.text


def test_a_relation_to_a_record_the_person_may_not_see_is_not_shown(board_site: Settings) -> None:
    """ADR-7 (public) supersedes ADR-5 by quoting its title, and the board resolved the
    title to ADR-5: Ana saw "ADR-5" as the value of ADR-7's relation finding, on the board
    item page and on the finding's Graph node, which ADR-7's decision links to."""
    client = TestClient(create_app(board_site))
    everyone = client.get("/api/board/item", params={"id": "record:ADR-7"}).json()
    [relation] = [f for f in everyone["findings"] if f["kind"] == "relation"]
    assert relation["value"] == "ADR-5"
    ana = client.get("/api/board/item", params={"id": "record:ADR-7", "as": "ana"})
    assert "ADR-5" not in ana.text
    assert [f for f in everyone["findings"] if f != relation] == ana.json()["findings"]
    assert "ADR-5" not in client.get("/board/item", params={"id": "record:ADR-7", "as": "ana"}).text
    assert client.get("/api/graph", params={"id": relation["id"]}).status_code == 200
    assert client.get("/api/graph", params={"id": relation["id"], "as": "bo"}).status_code == 200
    assert client.get("/api/graph", params={"id": relation["id"], "as": "ana"}).status_code == 404
    decision = client.get("/api/graph", params={"id": "ADR-7", "label": "Decision", "as": "ana"})
    assert decision.status_code == 200 and relation["id"] not in decision.text
