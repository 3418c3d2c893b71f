"""The Graph page shows a record's node as if the records the person may not see did not
exist: nothing on it is derived from them."""

from __future__ import annotations

from pathlib import Path

from fastapi.testclient import TestClient

from companybrain.config import Settings
from companybrain.graph.connection import Store
from companybrain.ingest.pipeline import ingest
from companybrain.surfaces.web import create_app
from tests.ask.test_replaced_records import ANNOUNCED, cancelled
from tests.ingest.corpus_builder import write_corpus
from tests.ingest.test_pipeline import DIRECTORY


def test_a_record_replaced_by_a_restricted_one_does_not_show_it(
    store: Store, settings: Settings, tmp_path: Path
) -> None:
    """CC-2, which only the `sec` group may see, replaces CC-1. Ana (not in `sec`) opened
    CC-1 on the Graph page and read `replaced: true`: a record she may not see replaces
    it. A graph of only what she may see has no such mark, so it must not show."""
    files = {"dir.md": DIRECTORY, "cc1.md": ANNOUNCED, "cc2.md": cancelled(acl=["sec"])}
    ingest(store, write_corpus(tmp_path / "c", files), settings)
    client = TestClient(create_app(settings))
    node = client.get("/api/graph", params={"id": "CC-1", "as": "ana"}).json()
    assert node["properties"]["id"] == "CC-1"
    assert "replaced" not in node["properties"]
    assert "CC-2" not in str(node)
    insider = client.get("/api/graph", params={"id": "CC-1", "as": "bo"}).json()
    assert {"label": "Source", "id": "CC-2", "rel": "SUPERSEDES", "outgoing": False} in [
        {k: n[k] for k in ("label", "id", "rel", "outgoing")} for n in insider["neighbours"]
    ]


def test_hidden_neighbours_neither_crowd_out_visible_ones_nor_show_there_are_more(
    store: Store, settings: Settings, tmp_path: Path
) -> None:
    """45 chats only `sec` may see and 5 anyone may see, all about the billing gateway.
    The page read its first 41 neighbours and then left out the hidden ones: Ana saw the
    directory's claim and the project, none of the 5 public chats, and "cut", as if there
    were more she might see."""
    chats = [
        {"id": f"SEC-{i:03d}", "kind": "chat", "at": "2026-10-01T09:00:00Z", "author": "bo",
         "about": ["billing-gateway"], "acl": ["sec"], "text": f"Secret note {i}."}
        for i in range(45)
    ] + [
        {"id": f"Z-{i}", "kind": "chat", "at": "2026-10-01T09:00:00Z", "author": "cy",
         "about": ["billing-gateway"], "text": f"Public note {i}."}
        for i in range(5)
    ]  # fmt: skip
    ingest(store, write_corpus(tmp_path / "c", {"dir.md": DIRECTORY}, jsonl=chats), settings)
    client = TestClient(create_app(settings))
    ana = client.get("/api/graph", params={"id": "billing-gateway", "as": "ana"}).json()
    assert ana["cut"] is False
    assert {n["id"] for n in ana["neighbours"]} == {
        "dir-1|billing-gateway|ana", "orion", "dir-1", *(f"Z-{i}" for i in range(5))
    }  # fmt: skip
    everyone = client.get("/api/graph", params={"id": "billing-gateway"}).json()
    assert everyone["cut"] is True and len(everyone["neighbours"]) == 40
