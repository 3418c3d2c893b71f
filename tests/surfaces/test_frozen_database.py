"""A database that stops answering (SIGSTOP, a paused host, a network gone quiet) under the
long-lived servers: every web request and MCP tool call fails within the query time limit
and a margin, with one clear error, and answers again once the server does. A long
ingestion step (inside `long_queries`) is waited for as long as the server lets it run."""

from __future__ import annotations

import os
import signal
import sys
import threading
import time
import urllib.parse
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from http.cookiejar import CookieJar
from pathlib import Path
from typing import Any, TypeVar

import anyio
import pytest
from fastapi.testclient import TestClient
from mcp import Client, StdioServerParameters

from companybrain.config import Settings
from companybrain.errors import StoreError
from companybrain.graph import connection
from companybrain.graph.connection import Store
from companybrain.graph.server import EmbeddedServer
from companybrain.ingest.pipeline import ingest
from companybrain.surfaces.web import create_app
from tests.conftest import REPO_ROOT
from tests.surfaces.web.conftest import Served

NOW = "2026-10-20T12:00:00Z"
ASK = {"question": "Who owns the billing gateway?", "now": NOW}
T = TypeVar("T")


@pytest.fixture
def own_home(tmp_path: Path) -> Iterator[Path]:
    home = tmp_path / "h"
    yield home
    EmbeddedServer(home).stop()


@contextmanager
def frozen(home: Path) -> Iterator[None]:
    pid = EmbeddedServer(home).pid()
    assert pid is not None
    os.kill(pid, signal.SIGSTOP)
    try:
        yield
    finally:
        os.kill(pid, signal.SIGCONT)


def within(seconds: float, call: Callable[[], T]) -> T:
    """`call()` run in a thread: its result, or a failure if it has not returned in time
    (the thread is left to finish once the server answers again)."""
    done: list[Any] = []

    def run() -> None:
        try:
            done.append(call())
        except Exception as exc:  # handed to the test
            done.append(exc)

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(seconds)
    assert done, f"still waiting after {seconds} s: a frozen database hangs the request"
    if isinstance(done[0], Exception):
        raise done[0]
    return done[0]  # type: ignore[no-any-return]


def _demo(home: Path, **limits: int) -> Settings:
    settings = Settings(home=home, graph="demo", **limits)  # type: ignore[arg-type]
    store = Store(settings)
    ingest(store, REPO_ROOT / "demo" / "corpus", settings)
    store.close()
    return settings


def test_a_frozen_database_fails_a_web_request_in_bounded_time(
    own_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(connection, "REPLY_MARGIN_S", 1.0, raising=False)
    settings = _demo(own_home, query_timeout_ms=1000)
    with TestClient(create_app(settings), base_url="http://127.0.0.1") as client:
        before = client.post("/api/ask", json=ASK).json()
        assert before["result"]["owner"]["id"] == "kofi"
        with frozen(own_home):
            api = within(30, lambda: client.post("/api/ask", json=ASK))
            page = within(30, lambda: client.get("/owners"))
            live = within(30, lambda: client.get("/ask/stream", params={"q": ASK["question"]}))
        assert api.status_code == 503
        assert api.json() == {  # where the data lives on the server's disk is not shown
            "error": "FalkorDB at $BRAIN_HOME/falkordb.sock did not answer within 2 s (the "
            "query time limit and 1 s more): it is stopped or overloaded"
        }
        assert page.status_code == 503 and "did not answer within 2 s" in page.text
        assert "event: failed" in live.text and "did not answer within 2 s" in live.text
        for shown in (page.text, live.text):
            assert str(own_home.resolve()) not in shown and "Traceback" not in shown
        assert client.post("/api/ask", json=ASK).json() == before  # answering again


def test_a_frozen_database_fails_an_mcp_tool_call_in_bounded_time(own_home: Path) -> None:
    settings = _demo(own_home, query_timeout_ms=1000)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("BRAIN_", "OPENAI_"))}
    env.update(BRAIN_HOME=str(settings.home), BRAIN_GRAPH="demo", BRAIN_QUERY_TIMEOUT_MS="1000")
    server = StdioServerParameters(
        command=sys.executable, args=["-m", "companybrain", "mcp", "--now", NOW], env=env,
        cwd=str(REPO_ROOT),
    )  # fmt: skip

    async def session() -> tuple[Any, Any, Any]:
        async with Client(server, read_timeout_seconds=120) as client:
            args = {"subject": "billing gateway"}
            before = await client.call_tool("owner_of", args)
            with frozen(own_home):
                with anyio.move_on_after(60) as waited:
                    during = await client.call_tool("owner_of", args)
                assert not waited.cancelled_caught, "a frozen database hangs the tool call"
            return before, during, await client.call_tool("owner_of", args)

    before, during, after = anyio.run(session)
    assert before.structured_content["result"]["owner"]["id"] == "kofi"
    assert during.is_error
    assert "did not answer within 11 s" in during.content[0].text
    assert str(own_home.resolve()) not in during.content[0].text  # "$BRAIN_HOME/falkordb.sock"
    assert after.structured_content == before.structured_content


SLOW_READ = "UNWIND range(1, 8000000) AS x WITH x WHERE x % 7 = 100 RETURN count(x) AS n"


def test_a_long_ingestion_step_is_waited_for_and_a_slow_write_never_sent_twice(
    store: Store, settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The reply limit follows the time the server gives the query: inside `long_queries`
    (ingestion) its TIMEOUT_MAX. A write given up on is not sent again: it may have run."""
    monkeypatch.setattr(connection, "REPLY_MARGIN_S", 0.0, raising=False)
    bounded = Store(settings.with_(bounded_replies=True, query_timeout_ms=100))
    try:
        with bounded.long_queries():
            assert bounded.read(SLOW_READ) == [{"n": 0}]
        with pytest.raises(StoreError, match=r"did not answer within 0\.1 s"):
            bounded.read(SLOW_READ)
        slow_write = (
            "UNWIND range(1, 8000000) AS x WITH count(x) AS n "
            "UNWIND range(1, 10) AS i CREATE (:Slow {i: i})"
        )
        with pytest.raises(StoreError, match="the write may or may not have been applied"):
            bounded.query(slow_write)
        deadline = time.monotonic() + 60
        while store.read("MATCH (s:Slow) RETURN count(s) AS n") == [{"n": 0}]:
            assert time.monotonic() < deadline, "the write never ran"
            time.sleep(0.1)
        time.sleep(1)  # a write sent again would have run by now
        assert store.read("MATCH (s:Slow) RETURN count(s) AS n") == [{"n": 10}]
    finally:
        bounded.close()


def test_a_record_being_added_never_holds_up_the_other_requests(
    own_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Add record and Sync wait on the database in a thread, as every other page does: a
    slow or stopped database under one of them keeps no one else waiting."""
    monkeypatch.setattr(connection, "REPLY_MARGIN_S", 1.0, raising=False)
    settings = _demo(own_home, query_timeout_ms=5000)
    jar = CookieJar()
    browser = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
    with Served(create_app(settings)) as served:
        browser.open(f"{served.url}/records/new", timeout=30).read()
        csrf = next(c.value for c in jar if c.name == "brain_csrf")
        form = urllib.parse.urlencode({"csrf": csrf, "author": "kofi", "text": "a note"})
        adding = threading.Thread(
            target=lambda: browser.open(f"{served.url}/records/new", form.encode(), timeout=60)
        )
        with frozen(own_home):
            adding.start()
            time.sleep(0.5)  # the record is being added: its reads wait on the database
            started = time.monotonic()
            css = urllib.request.urlopen(f"{served.url}/static/app.css", timeout=30)
            waited = time.monotonic() - started
        adding.join(60)
    assert css.status == 200
    assert waited < 2, f"a page that needs no database waited {waited:.1f} s for another"
