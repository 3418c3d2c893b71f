"""The CLI, the web API and the MCP tools read the same inputs the same way: spaces around
a person's id are not part of it, and an empty as-of is no day (never "now")."""

from __future__ import annotations

import json
from typing import Any

import pytest
from fastapi.testclient import TestClient

from companybrain.ask.engine import parse_now
from companybrain.ask.registry import ReadOnlyStore, ToolContext, read_only_tools
from companybrain.config import Settings
from companybrain.errors import InputError
from companybrain.graph.connection import Store
from companybrain.ingest.pipeline import add_typed_record, ingest
from companybrain.model.records import Record
from companybrain.policy.time import clock_now
from companybrain.surfaces.web import create_app
from tests.conftest import REPO_ROOT

NOW = "2026-10-20T12:00:00Z"
QUESTION = "Who owns the audit log pipeline?"  # rafael may not see the restricted transfer


@pytest.fixture
def demo(store: Store, settings: Settings) -> Store:
    ingest(store, REPO_ROOT / "demo" / "corpus", settings)
    return store


def test_spaces_around_a_person_are_ignored_everywhere(
    demo: Store, settings: Settings, run_cli: Any
) -> None:
    """The web stripped them, `brain ask --as " rafael"` said there was no such person."""
    reference = json.loads(
        run_cli("ask", "--json", "--now", NOW, "--as", "rafael", QUESTION).output
    )
    spaced = run_cli("ask", "--json", "--now", NOW, "--as", " rafael ", QUESTION)
    assert spaced.exit_code == 0, spaced.output
    assert json.loads(spaced.output) == reference
    web = TestClient(create_app(settings))
    api = web.post("/api/ask", json={"question": QUESTION, "now": NOW, "as": " rafael "})
    assert api.json() == reference
    blank = run_cli("ask", "--as", "  ", QUESTION)
    assert isinstance(blank.exception, InputError) and "--as" in str(blank.exception)


def test_an_empty_as_of_is_refused_everywhere(
    demo: Store, settings: Settings, run_cli: Any
) -> None:
    """MCP answered `as_of: ""` for now, where the CLI and the web API refuse it."""
    question = "Who owns the billing gateway?"
    cli = run_cli("ask", "--now", NOW, "--as-of", "", question)
    assert isinstance(cli.exception, InputError) and "--as-of" in str(cli.exception)
    web = TestClient(create_app(settings))
    api = web.post("/api/ask", json={"question": question, "now": NOW, "as_of": ""})
    assert api.status_code == 400 and api.json()["error"].startswith("as_of: ")
    owner_of = next(t for t in read_only_tools() if t.name == "owner_of")
    ro = ReadOnlyStore(settings)
    try:
        ctx = ToolContext(ro, settings, now=parse_now(NOW))
        answer = owner_of(ctx, {"subject": "billing gateway", "as_of": ""}).to_dict()
        without = owner_of(ctx, {"subject": "billing gateway"}).to_dict()
    finally:
        ro.close()
    assert answer["status"] == "refused" and answer["refusal"]["code"] == "VAGUE_DATE"
    assert answer["refusal"]["message"].startswith('as_of: ""')
    assert without["status"] == "answered"  # left out, as_of is now


def test_spaces_around_the_author_of_a_typed_record_are_ignored(
    demo: Store, settings: Settings, run_cli: Any
) -> None:
    """`/api/records` with author " kofi " said "field `id` 'typed-...-  kofi ' starts or
    ends with white space" (an id the caller never gave); `brain add --as " kofi"` said
    there is no such person, while `brain ask --as " kofi"` reads kofi."""
    added = run_cli("add", "Hello from the CLI.", "--as", " kofi ", "--id", "T-CLI-1")
    assert added.exit_code == 0, (added.output, added.exception)
    web = TestClient(create_app(settings))
    stored = web.post(
        "/api/records", json={"text": "Hello from the web.", "author": " kofi ", "id": "T-WEB-1"}
    )
    assert stored.status_code == 200, stored.text
    generated = web.post("/api/records", json={"text": "And again.", "author": " kofi "})
    assert generated.status_code == 200, generated.text
    assert generated.json()["id"].endswith("-kofi")
    for rid in ("T-CLI-1", "T-WEB-1", generated.json()["id"]):
        record = web.get("/api/record", params={"id": rid}).json()["record"]
        assert record["author"] == "kofi"


@pytest.mark.parametrize("blank", ["", "   "])
def test_a_typed_record_without_its_author_is_refused_everywhere(
    demo: Store, settings: Settings, run_cli: Any, blank: str
) -> None:
    """`brain add "..." --as ""` (the option is required), `/api/records` with `"author":
    ""` and the Add record page without a person chosen stored an anonymous record, under
    an id ending in a dash ("typed-20261130T152833728000-")."""
    before = demo.read("MATCH (s:Source) RETURN count(s) AS n")[0]["n"]
    added = run_cli("add", "Hello from nobody.", "--as", blank)
    assert added.exit_code == 1 and "--as: no person id given" in str(added.exception)
    web = TestClient(create_app(settings))
    stored = web.post("/api/records", json={"text": "Hello from nobody.", "author": blank})
    assert (stored.status_code, stored.json()["error"]) == (
        400, "author: no person id given: a typed record is stored as theirs"
    )  # fmt: skip
    with pytest.raises(InputError, match="needs the person id of who typed it"):
        add_typed_record(demo, Record(id="T-X", kind="chat", at=clock_now(), text="hi"), settings)
    assert demo.read("MATCH (s:Source) RETURN count(s) AS n")[0]["n"] == before


@pytest.mark.parametrize(
    ("args", "option"),
    [
        (("ask", "--as", "kofi\udcff", QUESTION), "--as"),
        (("ask", "--as-of", "2026-09-25\udcff", QUESTION), "--as-of"),
        (("add", "Hello.", "--as", "kofi\udcff"), "--as"),
        (("mcp", "--as", "\udcff"), "--as"),
    ],
)
def test_undecodable_bytes_in_an_option_are_named_by_the_option(
    demo: Store, run_cli: Any, args: tuple[str, ...], option: str
) -> None:
    """A byte that is not UTF-8 in `--as` (on a command line, `$'kofi\\xff'`) was "the value
    given for $id is not valid Unicode text" (the database query's parameter), or "field
    `id`" for `brain add` (the id made from it); in `--as-of` it was dropped and the day
    before it answered for."""
    result = run_cli(*args)
    assert result.exit_code == 1
    assert str(result.exception) == f"{option}: is not valid Unicode text (surrogates not allowed)"
