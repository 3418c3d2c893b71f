"""The Review page's Sync button: it reads only the new commits, lets the board read what
changed, and shows the new decisions and the handoffs raised and settled."""

from __future__ import annotations

from fastapi.testclient import TestClient

from companybrain.surfaces.web import create_app
from tests.repo.gitrepo import GitRepo
from tests.surfaces.web.conftest import DECISIONS_V2, Site

NEW = "DECISIONS.md#2025-06-01: Stream the exporter after all"


def test_sync_reads_the_new_commit_and_shows_the_new_decision(site: Site) -> None:
    client = TestClient(create_app(site.settings))
    client.get("/review")
    csrf = client.cookies["brain_csrf"]
    git = GitRepo(site.repo, create=False)
    git.write(
        "DECISIONS.md",
        DECISIONS_V2
        + """
## 2025-06-01: Stream the exporter after all

Status: accepted

With the new driver, streaming rows from src/export.py measured 2x the batch throughput.
""",
    )
    git.commit("Stream the exporter after all", "2025-06-01T10:00:00Z")
    page = client.post("/review/sync", data={"csrf": csrf, "repo": "repo"})
    assert page.status_code == 200, page.text
    assert "incremental, 1 new commit(s)" in page.text
    assert "Stream the exporter after all" in page.text
    assert "Stream the exporter after all" in page.text.split('class="commits"')[1]
    again = client.post(
        "/api/sync", json={"repo": "repo"}, headers={"Origin": "http://testserver"}
    ).json()
    assert again["mode"] == "unchanged"
    assert again["new_decisions"] == []
    board = client.get("/api/board").json()
    assert f"entry:{NEW}" in {t["id"] for t in board["tiles"]}
    assert {t["status"] for t in board["tiles"]} == {"done"}
