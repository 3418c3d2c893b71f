"""After an ingest that did not finish (killed mid-run), or while one runs, the web app says
that what it answers is from the records stored so far: `POST /api/ask` and `/api/owners` in the
`X-Brain-Warning` header (the answer object stays the one of spec/answers.md, which has no
field for it), the Ask page beside the answer, every other page in a banner. Before, only
`brain ask` (on standard error) and `/api/status` said so: an answer citing a directory
that a later, unwritten change control replaces looked as final as any other."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from companybrain.brain import Brain
from companybrain.config import Settings
from companybrain.graph.connection import Store
from companybrain.graph.queries import records_q
from companybrain.ingest import lock, writer
from companybrain.ingest.pipeline import ingest
from companybrain.surfaces.web import create_app
from tests.ingest.corpus_builder import md, write_corpus
from tests.surfaces.web.conftest import Served
from tests.surfaces.web.test_browser import ARGS, CHROMIUM

NOW = "2026-10-20T12:00:00Z"
QUESTION = "Who owns the billing gateway?"
# What a run killed after 3500 durable records leaves: its checkpoint, and no lock.
UNFINISHED = {"run": "r1a2b3c4d5e6", "complete": False, "durable": 3500, "last": "CC-9"}
WARNING = (
    "last ingest did not finish (run r1a2b3c4d5e6, 3500 records durable): "
    "run `brain ingest` again to complete it; this answer is from the records it stored"
)
# A person is not told a count of records: it covers records hidden from them.
PERSON_WARNING = (
    "last ingest did not finish: run `brain ingest` again; "
    "this answer is from the records it stored"
)
HEADER = "X-Brain-Warning"


@pytest.fixture
def corpus(tmp_path: Path, store: Store, settings: Settings) -> Path:
    root = write_corpus(tmp_path / "c", {
        "dir.md": md({"id": "DIR-1", "kind": "service_directory", "at": "2026-09-01T09:00:00Z"},
                     "Ana Ruiz owns the billing gateway."),
    })  # fmt: skip
    ingest(store, root, settings)
    return root


def _interrupt(store: Store) -> None:
    records_q.write_checkpoint(store, writer.CHECKPOINT_KEY, UNFINISHED)


def test_the_api_says_in_a_header_that_the_last_ingest_did_not_finish(
    corpus: Path, store: Store, settings: Settings
) -> None:
    client = TestClient(create_app(settings))
    ask = {"question": QUESTION, "now": NOW}
    finished = client.post("/api/ask", json=ask)
    assert finished.status_code == 200 and HEADER not in finished.headers
    assert HEADER not in client.get("/api/owners").headers

    _interrupt(store)
    reply = client.post("/api/ask", json=ask)
    assert reply.status_code == 200
    assert reply.headers[HEADER] == WARNING
    # the answer object is untouched: the one `brain ask --json` prints
    assert reply.json() == finished.json()
    assert reply.json() == Brain(settings=settings).ask(QUESTION, now=NOW).to_dict()
    assert client.get("/api/owners").headers[HEADER] == WARNING
    as_ana = client.post("/api/ask", json={**ask, "as": "ana"})
    assert as_ana.headers[HEADER] == PERSON_WARNING
    pinned = TestClient(create_app(settings, as_person="ana"))
    assert pinned.post("/api/ask", json=ask).headers[HEADER] == PERSON_WARNING
    assert "3500" not in pinned.get("/api/owners").headers[HEADER]


def test_the_pages_say_it_beside_the_answer_and_in_a_banner(
    corpus: Path, store: Store, settings: Settings
) -> None:
    client = TestClient(create_app(settings))
    assert "did not finish" not in client.get("/", params={"q": QUESTION, "now": NOW}).text
    assert "did not finish" not in client.get("/owners").text

    _interrupt(store)
    asked = client.get("/", params={"q": QUESTION, "now": NOW}).text
    assert asked.count("did not finish") == 1  # beside the answer, not twice
    assert f"warning: {WARNING}" in asked
    streamed = client.get("/ask/stream", params={"q": QUESTION, "now": NOW}).text
    assert "this answer is from the records it stored" in streamed
    owners = client.get("/owners").text
    assert "what this page shows is from the records it stored" in owners
    assert "3500 records durable" in owners
    as_ana = client.get("/owners", params={"as": "ana"}).text
    assert "did not finish" in as_ana and "3500" not in as_ana


def test_an_answer_read_while_an_ingest_runs_says_so(
    corpus: Path, store: Store, settings: Settings
) -> None:
    """While a run wrote its batches, answers came from whatever had landed (a project's
    services read before and after a batch, in one answer) and said nothing of it."""
    client = TestClient(create_app(settings))
    ask = {"question": QUESTION, "now": NOW}
    _interrupt(store)
    assert store.take_lock(lock.LOCK_NAME, "r1a2b3c4d5e6", 60_000)  # the run is alive
    try:
        reply = client.post("/api/ask", json=ask)
        assert reply.headers[HEADER] == (
            "an ingest is running (run r1a2b3c4d5e6, 3500 records durable so far); this "
            "answer is from the records stored so far and may change when it ends"
        )
        as_ana = client.post("/api/ask", json={**ask, "as": "ana"}).headers[HEADER]
        assert as_ana.startswith("an ingest is running; this answer") and "3500" not in as_ana
    finally:
        store.drop_lock(lock.LOCK_NAME, "r1a2b3c4d5e6")
    records_q.write_checkpoint(store, writer.CHECKPOINT_KEY, {**UNFINISHED, "complete": True})
    assert HEADER not in client.post("/api/ask", json=ask).headers


@pytest.fixture
def browser() -> Iterator[Any]:
    if not shutil.which(CHROMIUM) and not Path(CHROMIUM).exists():
        pytest.skip(f"no chromium at {CHROMIUM} (make test installs it with apt-get)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
        yield b
        b.close()


@pytest.mark.browser
def test_the_ask_page_in_a_browser_says_it_with_the_live_answer(
    corpus: Path, store: Store, settings: Settings, browser: Any
) -> None:
    with Served(create_app(settings)) as served:
        page = browser.new_page()
        page.set_default_timeout(15_000)
        page.goto(f"{served.url}/")
        _interrupt(store)  # after the page loaded: the answer itself must say it
        page.fill("input[name=q]", QUESTION)
        page.click("#ask-form button[type=submit]")
        page.wait_for_selector("#answer-body")
        assert page.inner_text("#answer-body .warning") == f"warning: {WARNING}"
        assert "Ana Ruiz" in page.inner_text(".result")
        page.goto(f"{served.url}/owners")
        assert "did not finish" in page.inner_text(".banner")
        page.close()
