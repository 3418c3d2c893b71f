"""The MCP server end to end with the SDK's own client: over stdio (`python -m companybrain
mcp` in a child process) and over streamable HTTP on loopback, on the ingested demo corpus.
Nothing served can write."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import time
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import Client, StdioServerParameters

from companybrain.ask.registry import ReadOnlyStore, read_only_tools
from companybrain.config import Settings
from companybrain.errors import StoreError
from companybrain.graph.connection import Store
from companybrain.graph.queries import records_q
from companybrain.ingest import writer
from companybrain.ingest.pipeline import ingest
from tests.conftest import REPO_ROOT

NOW = "2026-10-20T12:00:00Z"
UNFINISHED = {"run": "r1a2b3c4d5e6", "complete": False, "durable": 3500, "last": "CC-9"}
TOOLS = {
    "owner_of", "who_knows", "trace_decision", "person_or_team", "search_records",
    "why", "what_breaks", "disproven", "trace", "origin", "told", "review",
}  # fmt: skip
# One call per tool, so that the write test touches every one of them.
CALLS: dict[str, dict[str, Any]] = {
    "owner_of": {"subject": "billing-gw"},
    "who_knows": {"subject": "search index"},
    "trace_decision": {"decision": "ADR-004"},
    "person_or_team": {"name": "Kofi"},
    "search_records": {"query": "outbox table bloat"},
    "why": {"subject": "ledger events"},
    "what_breaks": {"path": "src/ledger/outbox.py"},
    "disproven": {"topic": "kafka"},
    "trace": {"decision": "ADR-004"},
    "origin": {"subject": "ADR-004"},
    "told": {"when": "2026-10-01", "topic": "tests"},
    "review": {"rev": "HEAD"},
}


@pytest.fixture
def demo(store: Store, settings: Settings) -> Store:
    ingest(store, REPO_ROOT / "demo" / "corpus", settings)
    return store


@pytest.fixture
def env(cli_env: dict[str, str]) -> dict[str, str]:
    return {**cli_env, "PYTHONUNBUFFERED": "1"}


def _run(session: Callable[[Client], Awaitable[Any]], server: Any) -> Any:
    async def main() -> Any:
        async with Client(server, read_timeout_seconds=60) as client:
            return await session(client)

    return anyio.run(main)


def _stdio(env: dict[str, str], *extra: str) -> StdioServerParameters:
    return StdioServerParameters(
        command=sys.executable,
        args=["-m", "companybrain", "mcp", "--now", NOW, *extra],
        env=env,
        cwd=str(REPO_ROOT),
    )


def _counts(store: Store) -> tuple[int, int, list[Any]]:
    nodes = store.read("MATCH (n) RETURN count(n) AS n")[0]["n"]
    rels = store.read("MATCH ()-[r]->() RETURN count(r) AS n")[0]["n"]
    meta = store.read("MATCH (m:Meta) RETURN m.key AS k, m.fingerprint AS f ORDER BY k")
    return nodes, rels, meta


def test_the_registry_offers_every_read_only_tool() -> None:
    tools = read_only_tools()
    assert {t.name for t in tools} == TOOLS
    for t in tools:
        assert t.description.strip() and "\n" not in t.description
        assert t.parameters["type"] == "object"
        assert set(t.parameters.get("required", [])) <= set(t.parameters["properties"])


def test_stdio_lists_the_tools_and_answers_with_the_envelope(
    demo: Store, env: dict[str, str]
) -> None:
    async def session(client: Client) -> Any:
        listed = await client.list_tools()
        owner = await client.call_tool("owner_of", {"subject": "billing-gw"})
        past = await client.call_tool(
            "owner_of", {"subject": "billing gateway", "as_of": "2026-09-25"}
        )
        zeus = await client.call_tool("owner_of", {"subject": "Project Zeus"})
        bad = await client.call_tool("owner_of", {"service": "billing-gw"})
        return listed, owner, past, zeus, bad

    listed, owner, past, zeus, bad = _run(session, _stdio(env))
    by_name = {t.name: t for t in listed.tools}
    assert set(by_name) == TOOLS
    schema = by_name["owner_of"].input_schema
    assert schema["required"] == ["subject"] and "as_of" in schema["properties"]
    assert by_name["owner_of"].annotations.read_only_hint is True
    assert by_name["owner_of"].output_schema["properties"]["status"]["enum"] == [
        "answered",
        "refused",
    ]

    data = owner.structured_content
    assert not owner.is_error
    assert data["status"] == "answered" and data["tool"] == "owner_of"
    assert data["result"]["owner"]["id"] == "kofi"
    assert [c["record"] for c in data["citations"]] == ["CC-1047"]
    assert data["as_of"] == "2026-10-20T12:00:00Z"  # --now is the clock
    assert past.structured_content["result"]["owner"]["id"] == "ines"
    assert zeus.structured_content["status"] == "refused"
    assert zeus.structured_content["refusal"]["code"] == "NOT_IN_GRAPH"
    assert bad.is_error and "'subject' is a required property" in bad.content[0].text


def test_as_person_applies_record_access_to_everything_served(
    demo: Store, env: dict[str, str]
) -> None:
    async def session(client: Client) -> Any:
        return await client.call_tool("owner_of", {"subject": "audit log pipeline"})

    everyone = _run(session, _stdio(env)).structured_content
    rafael = _run(session, _stdio(env, "--as", "rafael")).structured_content
    # CC-1038 is restricted; rafael may not see it, so it changes nothing in his answer
    assert everyone["result"]["owner"]["id"] == "amara"
    assert "CC-1038" in [c["record"] for c in everyone["citations"]]
    assert rafael["result"]["owner"]["id"] == "viktor"
    assert "CC-1038" not in str(rafael)


def test_a_tool_result_says_when_the_last_ingest_did_not_finish(
    demo: Store, env: dict[str, str]
) -> None:
    """After a killed ingest, `brain ask` warned and `/api/status` said so, but a tool result
    was an answer like any other: an agent trusted an owner from half-loaded records. The
    envelope has no field for it, so a text of its own follows the answer's JSON."""

    async def session(client: Client) -> Any:
        return await client.call_tool("owner_of", {"subject": "billing-gw"})

    finished = _run(session, _stdio(env))
    assert len(finished.content) == 1
    records_q.write_checkpoint(demo, writer.CHECKPOINT_KEY, UNFINISHED)
    result = _run(session, _stdio(env))
    assert not result.is_error
    assert result.structured_content == finished.structured_content  # the same envelope
    assert json.loads(result.content[0].text) == finished.structured_content
    assert [c.text for c in result.content[1:]] == [
        "warning: last ingest did not finish (run r1a2b3c4d5e6, 3500 records durable): run "
        "`brain ingest` again to complete it; this answer is from the records it stored"
    ]
    # a person is told no count of records: it covers records hidden from them
    rafael = _run(session, _stdio(env, "--as", "rafael"))
    assert [c.text for c in rafael.content[1:]] == [
        "warning: last ingest did not finish: run `brain ingest` again; "
        "this answer is from the records it stored"
    ]


def test_the_repository_tools_never_show_a_restricted_company_decision(
    demo: Store, env: dict[str, str]
) -> None:
    """ADR-017 is a company ADR only the security group may see. The repository tools read
    decisions by id and supersession edges; they named it (title, chain, "in force") to
    rafael, who the company tools refuse it to."""
    calls = [
        ("why", {"subject": "ADR-017"}),
        ("trace", {"decision": "ADR-017"}),
        ("trace", {"decision": "ADR-016"}),
        ("origin", {"subject": "ADR-017"}),
    ]

    async def session(client: Client) -> list[Any]:
        return [await client.call_tool(name, args) for name, args in calls]

    for (name, args), result in zip(
        calls, _run(session, _stdio(env, "--as", "rafael")), strict=True
    ):
        shown = str(result.structured_content) + result.content[0].text
        assert "Thales" not in shown, (name, args, shown)
        chain = (result.structured_content or {}).get("result") or {}
        assert "ADR-017" not in chain.get("chain", []), (name, args, shown)
        if args != {"decision": "ADR-016"}:
            assert result.structured_content["status"] == "refused", (name, args, shown)


def test_nothing_through_mcp_writes(demo: Store, env: dict[str, str]) -> None:
    before = _counts(demo)

    async def session(client: Client) -> list[Any]:
        return [await client.call_tool(name, args) for name, args in CALLS.items()]

    results = _run(session, _stdio(env))
    assert len(results) == len(TOOLS)
    assert _counts(demo) == before
    answered = [r for r in results if not r.is_error]
    assert len(answered) >= 5  # the company tools answer on the demo corpus


def test_the_read_only_store_refuses_writes(demo: Store, settings: Settings) -> None:
    ro = ReadOnlyStore(settings)
    try:
        with pytest.raises(StoreError):
            ro.query("CREATE (:Intruder {id: 'x'})")
        with pytest.raises(StoreError):
            ro.delete_graph()
    finally:
        ro.close()
    assert demo.read("MATCH (n:Intruder) RETURN count(n) AS n")[0]["n"] == 0


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture
def http_server(demo: Store, env: dict[str, str], tmp_path: Path) -> Iterator[str]:
    port = _free_port()
    log = (tmp_path / "mcp-http.log").open("w")
    proc = subprocess.Popen(
        [sys.executable, "-m", "companybrain", "mcp", "--now", NOW, "--http", f"127.0.0.1:{port}"],
        env=env,
        cwd=REPO_ROOT,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    try:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            assert proc.poll() is None, (tmp_path / "mcp-http.log").read_text()
            with socket.socket() as s:
                if s.connect_ex(("127.0.0.1", port)) == 0:
                    break
            time.sleep(0.1)
        else:
            pytest.fail("the MCP HTTP server did not start within 30 s")
        yield f"http://127.0.0.1:{port}/mcp"
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        log.close()


def test_streamable_http_lists_and_calls_tools(http_server: str) -> None:
    async def session(client: Client) -> Any:
        listed = await client.list_tools()
        found = await client.call_tool("search_records", {"query": "outbox table bloat"})
        chain = await client.call_tool("trace_decision", {"decision": "ADR-004"})
        return listed, found, chain

    listed, found, chain = _run(session, http_server)
    assert {t.name for t in listed.tools} == TOOLS
    hits = found.structured_content["result"]["hits"]
    assert hits[0]["record"] == "LED-52"
    assert chain.structured_content["result"]["chain"] == ["ADR-015", "ADR-009", "ADR-004"]


def test_http_address_must_be_host_and_port(run_cli: Any) -> None:
    result = run_cli("mcp", "--http", "localhost")
    assert result.exit_code != 0
    assert "--http: expected HOST:PORT" in str(result.exception or result.output)


def test_http_on_a_port_in_use_is_one_clear_error(demo: Store, run_cli: Any) -> None:
    """It printed "serving MCP on http://127.0.0.1:PORT/mcp", then uvicorn's "[Errno 98]"."""
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = run_cli("mcp", "--http", f"127.0.0.1:{port}")
    assert result.exit_code == 1 and "serving" not in result.output
    assert str(result.exception).startswith(
        f"--http: cannot listen on http://127.0.0.1:{port}/: it is already in use"
    )


def test_as_an_unknown_person_is_one_clear_error(demo: Store, run_cli: Any) -> None:
    result = run_cli("mcp", "--as", "nobody")
    assert result.exit_code != 0
    assert "--as: no person with id 'nobody'" in str(result.exception or result.output)


def test_registry_tools_refuse_a_writable_store(demo: Store, settings: Settings) -> None:
    from companybrain.ask.registry import ToolContext

    owner_of = next(t for t in read_only_tools() if t.name == "owner_of")
    with pytest.raises(StoreError, match="runs only on a read-only store"):
        owner_of(ToolContext(demo, settings), {"subject": "billing-gw"})
    ro = ReadOnlyStore(settings)
    try:
        answer = owner_of(ToolContext(ro, settings), {"subject": "billing-gw"})
    finally:
        ro.close()
    assert answer.status == "answered"


NUL_CALLS: dict[str, dict[str, Any]] = {
    "why": {"subject": "\x00"},
    "what_breaks": {"path": "src/\x00"},
    "origin": {"subject": "\x00"},
    "trace": {"decision": "ADR-004\x00"},
    "who_knows": {"subject": "kofi\x00"},
    "owner_of": {"subject": "billing-gw", "as_of": "2026-10-01\x00"},
    "review": {"rev": "\x00"},
}


def test_a_nul_in_an_argument_is_one_tool_error_naming_it(demo: Store, env: dict[str, str]) -> None:
    """A NUL would end the query text early (FalkorDB's parse error) or stop a git command
    from starting (a traceback, and a bare "Internal server error" for the client)."""

    async def session(client: Client) -> list[Any]:
        calls = [*NUL_CALLS.items(), ("review", {"rev": "HEAD", "base": "\x00"})]
        return [await client.call_tool(name, args) for name, args in calls]

    results = _run(session, _stdio(env))
    expected = [
        f"{name}: {next(k for k, v in args.items() if chr(0) in v)}: contains a NUL character"
        for name, args in NUL_CALLS.items()
    ] + ["review: base: contains a NUL character"]
    assert [(r.is_error, r.content[0].text) for r in results] == [(True, e) for e in expected]


def test_a_huge_argument_is_refused_at_once_without_echoing_it(
    demo: Store, env: dict[str, str]
) -> None:
    """The subject readers are not linear in their text (a 1 MB subject kept the server busy
    for many minutes): a tool argument is held to the length of a question, as `brain ask`
    and the web's are, and the refusal names the field, not the value."""
    huge = "billing gateway " * 6_250  # 100,000 characters

    async def session(client: Client) -> Any:
        listed = await client.list_tools()
        return listed, await client.call_tool("owner_of", {"subject": huge})

    listed, result = _run(session, _stdio(env))
    assert result.is_error
    assert result.content[0].text == "owner_of: subject: 100,000 characters; at most 2,000"
    owner_of = next(t for t in listed.tools if t.name == "owner_of")
    assert owner_of.input_schema["properties"]["subject"]["maxLength"] == 2_000


def test_the_review_tool_says_it_takes_one_commit_not_a_range() -> None:
    review = next(t for t in read_only_tools() if t.name == "review")
    properties = review.parameters["properties"]
    assert "range" not in review.description.replace("not a range", "")
    assert "not a range" in properties["rev"]["description"]
    assert "base" in properties


@pytest.mark.parametrize(
    ("tool", "args", "question"),
    [
        ("person_or_team", {"name": "Quentin Marlowe"}, "Who is Quentin Marlowe?"),
        ("owner_of", {"subject": "Project Zeus"}, "Who owns Project Zeus?"),
    ],
)
def test_a_not_in_graph_refusal_is_explained_and_dated_as_the_cli_does(
    demo: Store, settings: Settings, tool: str, args: dict[str, str], question: str
) -> None:
    from companybrain.ask.engine import ask, parse_now
    from companybrain.ask.registry import ToolContext

    spec = next(t for t in read_only_tools() if t.name == tool)
    ro = ReadOnlyStore(settings)
    try:
        answer = spec(ToolContext(ro, settings, now=parse_now(NOW)), args).to_dict()
    finally:
        ro.close()
    cli = ask(demo, settings, question, now=NOW).to_dict()
    assert answer["refusal"]["code"] == cli["refusal"]["code"] == "NOT_IN_GRAPH"
    assert answer["as_of"] == cli["as_of"] is not None
    assert answer["explanation"] and answer["explanation_by"] == cli["explanation_by"]
