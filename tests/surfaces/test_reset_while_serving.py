"""`brain reset` while `brain serve` or `brain mcp` runs: the server was not told. The web
app answered "names no service the graph knows" as if the company had none (and its next
request could create the graph again, empty); an MCP client got the same refusal. Now every
request finds the graph gone, as the reading commands do, and a new ingest is answered from."""

from __future__ import annotations

import copy
import sys
from pathlib import Path
from typing import Any

import anyio
from fastapi.testclient import TestClient
from mcp import Client, StdioServerParameters

from companybrain.config import Settings
from companybrain.graph.connection import Store
from companybrain.ingest.pipeline import ingest
from companybrain.surfaces.web import create_app
from tests.conftest import REPO_ROOT
from tests.ingest.corpus_builder import ORG, md, write_corpus

NOW = "2026-10-20T12:00:00Z"
QUESTION = "Who owns the billing gateway?"


def _before(root: Path) -> Path:
    return write_corpus(root, {
        "cc.md": md({"id": "CC-1", "kind": "change_control", "at": "2026-10-13T09:12:00Z"},
                    "Ownership of the billing gateway transfers from Ana Ruiz to Bo Lind."),
    })  # fmt: skip


def _after(root: Path) -> Path:
    """Another company's records: a new person and a new service, the gateway to her."""
    org = copy.deepcopy(ORG)
    org["people"].append({"id": "dee", "name": "Dee Vance", "team": "ops"})
    org["services"].append({"id": "ledger", "name": "Ledger"})
    return write_corpus(root, {
        "cc.md": md({"id": "CC-9", "kind": "change_control", "at": "2026-10-13T09:12:00Z"},
                    "Ownership of the billing gateway transfers from Ana Ruiz to Dee Vance."),
        "dir.md": md({"id": "DIR-9", "kind": "service_directory", "at": "2026-10-01T09:00:00Z"},
                     "Cy Park owns the ledger."),
    }, org=org)  # fmt: skip


def test_the_web_app_says_the_graph_is_gone_then_answers_from_the_new_ingest(
    tmp_path: Path, settings: Settings, run_cli: Any
) -> None:
    store = Store(settings)
    store.ensure_schema()
    ingest(store, _before(tmp_path / "before"), settings)
    client = TestClient(create_app(settings))
    ask = {"question": QUESTION, "now": NOW}
    assert client.post("/api/ask", json=ask).json()["result"]["owner"]["id"] == "bo"

    assert run_cli("reset", "--yes").exit_code == 0
    gone = (404, {"error": f"no graph named {settings.graph!r}"})
    for reply in (client.post("/api/ask", json=ask), client.get("/api/owners")):
        assert (reply.status_code, reply.json()) == gone
    page = client.get("/", params={"q": QUESTION})
    assert page.status_code == 404 and f"no graph named &#39;{settings.graph}&#39;" in page.text
    assert not store.graph_exists(), "a request created the reset graph again"

    store.ensure_schema()
    ingest(store, _after(tmp_path / "after"), settings)
    answers = {
        q: client.post("/api/ask", json={"question": q, "now": NOW}).json()
        for q in (QUESTION, "Who owns the ledger?", "Who is Dee Vance?")
    }
    assert answers[QUESTION]["result"]["owner"]["id"] == "dee"
    assert [c["record"] for c in answers[QUESTION]["citations"]] == ["CC-9"]
    assert answers["Who owns the ledger?"]["result"]["owner"]["id"] == "cy"
    assert answers["Who is Dee Vance?"]["status"] == "answered"
    store.close()


def test_an_mcp_client_is_told_the_graph_is_gone_then_answered_from_the_new_ingest(
    tmp_path: Path, settings: Settings, cli_env: dict[str, str]
) -> None:
    store = Store(settings)
    store.ensure_schema()
    ingest(store, _before(tmp_path / "before"), settings)
    server = StdioServerParameters(
        command=sys.executable, args=["-m", "companybrain", "mcp", "--now", NOW],
        env=cli_env, cwd=str(REPO_ROOT),
    )  # fmt: skip
    owner_of = {"subject": "billing gateway"}

    async def session() -> list[Any]:
        async with Client(server, read_timeout_seconds=60) as client:
            first = await client.call_tool("owner_of", owner_of)
            store.delete_graph()  # what `brain reset` does
            gone = await client.call_tool("owner_of", owner_of)
            recreated = store.graph_exists()
            store.ensure_schema()
            ingest(store, _after(tmp_path / "after"), settings)
            again = await client.call_tool("owner_of", owner_of)
            ledger = await client.call_tool("owner_of", {"subject": "ledger"})
            return [first, gone, recreated, again, ledger]

    try:
        first, gone, recreated, again, ledger = anyio.run(session)
    finally:
        store.delete_graph()
        store.close()
    assert first.structured_content["result"]["owner"]["id"] == "bo"
    assert gone.is_error, gone.structured_content
    assert gone.content[0].text.startswith(f"no graph named {settings.graph!r}: ")
    assert not recreated
    assert again.structured_content["result"]["owner"]["id"] == "dee"
    assert ledger.structured_content["result"]["owner"]["id"] == "cy"
