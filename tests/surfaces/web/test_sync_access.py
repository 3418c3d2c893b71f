"""The Sync button lets the board read what is new, company records too: what it reports
holds nothing from a record the person may not see."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from companybrain.board.options import board_graph
from companybrain.config import Settings
from companybrain.graph.connection import Store
from companybrain.ingest.pipeline import ingest
from companybrain.repo.ingest import ingest_repo
from companybrain.surfaces.web import create_app
from tests.ingest.corpus_builder import write_corpus
from tests.repo.gitrepo import GitRepo
from tests.surfaces.web.test_board_access import RECORDS, SECRET

ORIGIN = {"Origin": "http://testserver"}


@pytest.fixture
def synced_site(base_settings: Settings, tmp_path: Path) -> Iterator[Settings]:
    """A repository read once, then company records ingested that no board has read: the
    public ADR-6 says it supersedes ADR-5, which only `sec` may see."""
    settings = base_settings.with_(graph=f"w_{uuid.uuid4().hex[:10]}")
    store = Store(settings)
    store.ensure_schema()
    git = GitRepo(tmp_path / "repo")
    git.write("src/app.py", "print('hi')\n")
    git.commit("First", "2025-03-01T10:00:00Z")
    ingest_repo(store, tmp_path / "repo")
    ingest(store, write_corpus(tmp_path / "c", RECORDS), settings)
    store.close()
    yield settings
    store = Store(settings)
    store.for_graph(board_graph(settings.graph)).delete_graph()
    store.delete_graph()
    store.close()


def test_sync_reports_no_handoff_to_a_record_the_person_may_not_see(
    synced_site: Settings,
) -> None:
    """On a server pinned to Ana (not in `sec`), Sync listed the handoff ADR-6 supersedes
    ADR-5 that the board raised and settled, with ADR-5's own quote (its title)."""
    client = TestClient(create_app(synced_site, as_person="ana"))
    reply = client.post("/api/sync", json={"repo": "repo"}, headers=ORIGIN)
    assert reply.status_code == 200, reply.text
    body = reply.json()
    assert SECRET not in reply.text
    assert body["handoffs_raised"] == body["handoffs_settled"] == []
    # the board's item counts cover ADR-5's items too: a person is given none
    assert body["board"]["created"] is None and body["board"]["states"] is None
    everyone = (
        TestClient(create_app(synced_site))
        .get("/api/board/item", params={"id": "record:ADR-6"})
        .json()
    )
    assert [h["quote_to"] for h in everyone["handoffs"]] == [SECRET]  # the board did read it


def test_the_sync_button_asks_as_the_person_the_page_is_for(synced_site: Settings) -> None:
    client = TestClient(create_app(synced_site))
    page = client.get("/review", params={"as": "ana"})
    assert '<input type="hidden" name="as" value="ana">' in page.text
    csrf = client.cookies["brain_csrf"]
    synced = client.post("/review/sync", data={"csrf": csrf, "repo": "repo", "as": "ana"})
    assert synced.status_code == 200, synced.text
    shown = synced.text.split('class="synced"')[1].split("</section>")[0]
    assert "ADR-5" not in shown and "item(s) created" not in shown
