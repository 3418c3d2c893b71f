"""The web API returns the same answer object as `brain ask --json`, and typed records are
always chat."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from companybrain.brain import Brain
from companybrain.config import Settings
from companybrain.graph.connection import Store
from companybrain.ingest.pipeline import ingest
from companybrain.surfaces.web import create_app
from tests.ingest.corpus_builder import md, write_corpus

SPEC_KEYS = {
    "question",
    "tool",
    "subject",
    "as_of",
    "status",
    "refusal",
    "result",
    "citations",
    "outranked",
    "explanation",
    "explanation_by",
}
NOW = "2026-10-20T12:00:00Z"


@pytest.fixture
def corpus(tmp_path: Path, store: Store, settings: Settings) -> Path:
    root = write_corpus(tmp_path / "c", {
        "cc.md": md({"id": "CC-1", "kind": "change_control", "at": "2026-10-13T09:12:00Z",
                     "effective_at": "2026-10-14T11:00:00Z"},
                    "Ownership of the billing gateway transfers from Ana Ruiz to Bo Lind."),
        "sec.md": md({"id": "CC-2", "kind": "change_control", "at": "2026-10-15T09:00:00Z",
                      "acl": ["sec"]}, "The search index is owned by Cy Park."),
    })  # fmt: skip
    ingest(store, root, settings)
    return root


def test_ask_returns_the_answer_object_of_the_spec(corpus: Path, settings: Settings) -> None:
    client = TestClient(create_app(settings))
    reply = client.post("/api/ask", json={"question": "Who owns the billing gateway?", "now": NOW})
    assert reply.status_code == 200
    body = reply.json()
    assert set(body) == SPEC_KEYS
    assert body["result"] == {"owner": {"id": "bo", "name": "Bo Lind"}}
    assert body == Brain(settings=settings).ask("Who owns the billing gateway?", now=NOW).to_dict()


def test_typed_records_are_stored_as_chat_and_cannot_outrank(
    corpus: Path, settings: Settings, store: Store
) -> None:
    client = TestClient(create_app(settings))
    stored = client.post("/api/records", json={
        "text": "Cy Park owns the billing gateway now.", "author": "cy", "kind": "change_control",
        "id": "web-1"})  # fmt: skip
    assert stored.status_code == 200, stored.text
    body = stored.json()
    assert {k: body[k] for k in ("id", "kind", "authority", "kept", "refused")} == {
        "id": "web-1", "kind": "chat", "authority": 35, "kept": 1, "refused": 0}  # fmt: skip
    # it names the billing gateway: its owner answer is asked before and after, unchanged
    [effect] = body["effects"]
    assert effect["subject"]["id"] == "billing-gateway"
    assert effect["before"] == effect["after"]
    assert effect["after"]["lines"] == ["owner: Bo Lind (bo)"]
    assert effect["changed"] is False
    assert store.read("MATCH (s:Source {id: 'web-1'}) RETURN s.kind AS k, s.authority AS a") == [
        {"k": "chat", "a": 35}
    ]
    # Typed now, so asked as of now (the record is later than NOW).
    body = client.post("/api/ask", json={"question": "Who owns the billing gateway?"})
    assert body.json()["result"]["owner"]["id"] == "bo"
    assert "web-1" in [o["record"] for o in body.json()["outranked"]]


def test_access_rules_apply_and_a_pinned_identity_cannot_be_overridden(
    corpus: Path, settings: Settings
) -> None:
    question = {"question": "Who owns the search index?", "now": NOW}
    open_view = TestClient(create_app(settings)).post("/api/ask", json={**question, "as": "bo"})
    assert open_view.json()["result"]["owner"]["id"] == "cy"
    pinned = TestClient(create_app(settings, as_person="ana"))
    hidden = pinned.post("/api/ask", json=question).json()
    assert hidden["status"] == "refused"
    assert "CC-2" not in str(hidden)
    override = pinned.post("/api/ask", json={**question, "as": "bo"})
    assert override.status_code == 400
    assert override.json() == {"error": "this server answers as 'ana' only"}


def test_status_names_and_counts_no_record_the_person_may_not_see(
    corpus: Path, settings: Settings
) -> None:
    """`brain serve --as ana` served /api/status as for everyone: the ingest's last record
    written was CC-2, which only `sec` may see, named by its id, and the counts of records
    and claims included the hidden ones."""
    everyone = TestClient(create_app(settings)).get("/api/status").json()
    assert everyone["last_ingest"]["last"] == "CC-2"
    assert everyone["labels"]["Source"] == 2
    for client, params in (
        (TestClient(create_app(settings, as_person="ana")), {}),
        (TestClient(create_app(settings)), {"as": "ana"}),
    ):
        status = client.get("/api/status", params=params)
        assert status.status_code == 200
        body = status.json()
        assert "CC-2" not in status.text
        assert body["labels"] is None and body["relationships"] is None
        assert body["last_ingest"]["state"] == "complete"
        assert body["last_ingest"]["durable"] is None  # a count of records
        assert body["graph"] == everyone["graph"]
    bo = TestClient(create_app(settings)).get("/api/status", params={"as": "bo"}).json()
    assert bo["labels"] is None and "CC-2" not in str(bo)


def test_bad_requests_get_one_clear_error(corpus: Path, settings: Settings) -> None:
    client = TestClient(create_app(settings))
    assert client.post("/api/ask", json={}).status_code == 422
    unknown = client.post("/api/records", json={"text": "hi", "author": "nobody"})
    assert unknown.status_code == 400
    assert unknown.json() == {"error": "unknown person id 'nobody'"}
    for now in ("0001-01-01T00:00:00+01:00", "9999-12-31T23:59:59-01:00"):  # overflowed: 500
        off = client.post("/api/ask", json={"question": "Who owns BGW?", "now": now})
        assert off.status_code == 400
        assert off.json() == {"error": f"now: {now}: it is outside the years 0002 to 9998 (UTC)"}
    bad = client.post("/api/ask", json={"question": "Who owns BGW?", "now": "soon"})
    assert bad.status_code == 400 and bad.json()["error"].startswith("now: ")


def test_an_unreachable_database_is_503_with_one_line(tmp_path: Path) -> None:
    """A client must tell 'try again later' from 'your question is wrong'."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]  # closed again when the block ends: nothing listens
    settings = Settings.from_env(
        {"BRAIN_HOME": str(tmp_path), "FALKORDB_URL": f"redis://127.0.0.1:{port}"}
    )
    client = TestClient(create_app(settings), base_url="http://127.0.0.1")
    response = client.post("/api/ask", json={"question": "Who owns the billing gateway?"})
    assert response.status_code == 503
    assert "cannot reach" in response.json()["error"]
    assert "\n" not in response.json()["error"]


def test_a_person_cannot_learn_which_record_ids_exist_by_adding_one(
    corpus: Path, settings: Settings
) -> None:
    """`brain serve --as ana`: adding a record with the id CC-2, which only `sec` may see,
    answered "a record with id 'CC-2' exists already", and an unused id was stored: every
    id could be probed. Asked as a person, a record's id is not chosen at all."""
    for client, extra in (
        (TestClient(create_app(settings, as_person="ana")), {}),
        (TestClient(create_app(settings)), {"as": "ana"}),
    ):
        replies = [
            client.post("/api/records", json={"text": "hello", "author": "ana", "id": rid, **extra})
            for rid in ("CC-2", "CC-unused")
        ]
        assert [r.status_code for r in replies] == [400, 400]
        assert replies[0].json() == replies[1].json()
        assert "CC-2" not in replies[0].text and "exists" not in replies[0].text
    made = TestClient(create_app(settings, as_person="ana")).post(
        "/api/records", json={"text": "hello", "author": "ana"}
    )
    assert made.status_code == 200
    chosen = TestClient(create_app(settings)).post(
        "/api/records", json={"text": "hello", "author": "ana", "id": "CC-unused"}
    )
    assert chosen.status_code == 200  # asked for everyone (no person), the id is kept
    assert Store(settings).read("MATCH (s:Source {id: 'CC-unused'}) RETURN s.id AS id")
