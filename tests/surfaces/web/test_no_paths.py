"""Where the data folder and the repositories are on the server's disk is no business of
whoever can reach the web app or the MCP server: `/api/status` gave the data folder and the
database's socket, `/api/repos` each repository's folder, and an MCP `review` of a commit
that is not there named the repository's folder."""

from __future__ import annotations

from typing import Any

import anyio
from fastapi.testclient import TestClient
from mcp import Client

from companybrain.ask.registry import ReadOnlyStore, ToolContext, read_only_tools
from companybrain.surfaces.mcp.server import build_server
from companybrain.surfaces.web import create_app
from tests.surfaces.web.conftest import Site


def _folders(site: Site) -> list[str]:
    return [str(site.settings.home.resolve()), str(site.repo.resolve()), str(site.repo)]


def test_the_status_and_repository_calls_name_no_folder(site: Site) -> None:
    client = TestClient(create_app(site.settings))
    status = client.get("/api/status")
    assert status.status_code == 200
    body = status.json()
    assert "data" not in body and "server" not in body
    assert body["graph"] == site.settings.graph and body["labels"]["Decision"] >= 1
    repos = client.get("/api/repos").json()
    assert [set(r) for r in repos] == [{"repo", "head"}]
    for reply in (status, client.get("/api/repos")):
        assert not [f for f in _folders(site) if f in reply.text], reply.text


def test_an_mcp_tool_error_names_the_repository_not_its_folder(site: Site) -> None:
    store = ReadOnlyStore(site.settings)
    server = build_server(ToolContext(store, site.settings), read_only_tools())

    async def session() -> Any:
        async with Client(server) as client:
            return await client.call_tool("review", {"rev": "nope"})

    try:
        result = anyio.run(session)
    finally:
        store.close()
    text = result.content[0].text
    assert result.is_error
    assert not [f for f in _folders(site) if f in text], text
    assert text == f"'nope' is not a commit in {site.repo.name}"
