"""Bad input to the web app is one clear error naming the field: never a 500, never the
database's own message shown as an outage, never the input echoed back. A NUL would cut a
query's text short and is refused before any query or git command; a lone surrogate is not
text; a body past the size limit is refused before it is read."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from companybrain.surfaces.web import create_app
from tests.surfaces.web.conftest import Site


@pytest.fixture(scope="module")
def client(site: Site) -> TestClient:
    return TestClient(create_app(site.settings), raise_server_exceptions=False)


def _graph(site: Site) -> str:
    return site.settings.graph


def _one_error(reply: object, status: int, field: str) -> str:
    assert reply.status_code == status, reply.text  # type: ignore[attr-defined]
    message = reply.json()["error"]  # type: ignore[attr-defined]
    assert isinstance(message, str) and message.startswith(f"{field}:"), message
    assert "FalkorDB" not in message and "Traceback" not in message
    return message


@pytest.mark.parametrize(
    ("url", "field"),
    [
        ("/api/record?id=%00", "id"),
        ("/api/record?id=CC-1%00x", "id"),
        ("/api/graph?id=bo%00", "id"),
        ("/api/owners?as=bo%00", "as"),
        ("/api/board/item?id=%00", "id"),
        ("/api/commits?repo=%00", "repo"),
        ("/api/review?sha=%00", "sha"),
        ("/api/review?sha=HEAD&repo=%00", "repo"),
    ],
)
def test_a_nul_in_a_query_parameter_is_one_error_naming_it(
    client: TestClient, site: Site, url: str, field: str
) -> None:
    reply = client.get(f"{url}&graph={_graph(site)}")
    assert "NUL" in _one_error(reply, 400, field)


def test_a_nul_in_a_page_parameter_is_an_error_page(client: TestClient, site: Site) -> None:
    page = client.get(f"/review?graph={_graph(site)}&sha=%00", headers={"Accept": "text/html"})
    assert page.status_code == 400
    assert "sha" in page.text and "NUL" in page.text and "Traceback" not in page.text


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"question": "Who owns the billing gateway?", "as": "bo\x00"}, "as"),
        ({"question": "Who owns the billing gateway?", "as_of": "2026-10-01\x00"}, "as_of"),
        ({"question": "Who owns the billing gateway?", "graph": "\x00"}, "graph"),
    ],
)
def test_a_nul_in_a_body_field_is_one_error_naming_it(
    client: TestClient, body: dict[str, str], field: str
) -> None:
    assert "NUL" in _one_error(client.post("/api/ask", json=body), 400, field)


@pytest.mark.parametrize("path", ["/api/ask", "/api/records"])
def test_a_lone_surrogate_in_a_body_is_refused_without_echoing_it(
    client: TestClient, path: str
) -> None:
    raw = '{"question": "Who owns the billing gateway? \\ud800", "text": "x \\ud800"}'
    reply = client.post(path, content=raw, headers={"content-type": "application/json"})
    assert 400 <= reply.status_code < 500, reply.text
    assert "\\ud800" not in reply.text and "billing" not in reply.text
    assert reply.json()["error"]


def test_validation_errors_name_the_field_and_never_echo_the_input(client: TestClient) -> None:
    reply = client.post("/api/ask", json={"question": "Q" * 5_000, "now": 5})
    assert reply.status_code == 422
    message = reply.json()["error"]
    assert "question:" in message and "now:" in message
    assert "QQQQ" not in reply.text
    broken = client.post(
        "/api/ask", content='{"question": ', headers={"content-type": "application/json"}
    )
    assert broken.status_code == 422
    assert broken.json()["error"].startswith("body: not valid JSON")


@pytest.mark.parametrize(
    ("path", "body", "field"),
    [
        ("/api/ask", {"question": "Who owns the billing gateway?", "asOf": "2026-09-25"}, "asOf"),
        ("/api/ask", {"question": "Who owns the billing gateway?", "as-of": "2026-09-25"}, "as-of"),
        ("/api/ask", {"question": "Who owns the search index?", "as_person": "ana"}, "as_person"),
        ("/api/ask", {"question": "Who owns the search index?", "as_": "ana"}, "as_"),
        ("/api/records", {"text": "Bo owns it.", "author": "bo", "title": "Note"}, "title"),
        ("/api/sync", {"repository": "repo"}, "repository"),
    ],
)
def test_an_unknown_body_field_is_one_error_naming_it(
    client: TestClient, path: str, body: dict[str, object], field: str
) -> None:
    """A mistyped field was dropped without a word: `"asOf": "2026-09-25"` was answered for
    today (Bo Lind, citing CC-1) where that day's owner was Ana Ruiz; `"as_person": "ana"`
    answered as everyone, with the record only `sec` may see."""
    reply = client.post(path, json=body, headers={"Origin": "http://testserver"})
    message = _one_error(reply, 422, field)
    assert message == f"{field}: not a field of this call (its fields are at /docs)"


@pytest.mark.parametrize(
    ("url", "field"),
    [
        ("/api/owners?as_of=2026-09-25", "as_of"),
        ("/api/owners?as_person=ana", "as_person"),
        ("/api/record?id=CC-2&person=ana", "person"),
        ("/api/status?asOf=2026-09-25", "asOf"),
        ("/api/ask?as=ana", "as"),
    ],
)
def test_an_unknown_query_parameter_of_an_api_call_is_one_error_naming_it(
    client: TestClient, url: str, field: str
) -> None:
    """`/api/owners?as_of=2026-09-25` gave today's owners, each with its citations, and
    `/api/record?id=CC-2&person=ana` showed ana a record only `sec` may see: a parameter the
    call does not take was dropped without a word."""
    if url.startswith("/api/ask"):
        reply = client.post(url, json={"question": "Who owns the search index?"})
    else:
        reply = client.get(url)
    message = _one_error(reply, 422, field)
    assert message == f"{field}: not a field of this call (its fields are at /docs)"


def test_pages_take_parameters_they_do_not_read(client: TestClient) -> None:
    """A link may carry its own (a tracker's `utm_source`): a page is shown all the same."""
    assert client.get("/owners?utm_source=mail").status_code == 200
    assert client.get("/api/owners?graph=&as=").status_code == 404  # its own: read as ever


BIG = "x" * 500_000


@pytest.mark.parametrize(
    ("path", "body", "status", "start"),
    [
        ("/api/ask", {"question": "Who owns it?", "as": BIG}, 400, "as: no person with id 'xxx"),
        ("/api/ask", {"question": "Who owns it?", "graph": BIG}, 404, "no graph named 'xxx"),
        ("/api/ask", {"question": "Who owns it?", "now": BIG}, 400, "now: 'xxx"),
        ("/api/records", {"text": "hi", "author": "cy", "about": [BIG]}, 400, "field `about`"),
        (f"/api/record?id={BIG[:60_000]}", None, 404, "no record 'xxx"),
    ],
)
def test_an_error_quoting_a_huge_value_is_cut_short(
    client: TestClient, path: str, body: dict[str, object] | None, status: int, start: str
) -> None:
    """Under the body limit, a value of half a megabyte in `as`, `graph`, `now` or a
    record's `about` came back whole in the error ("no person with id 'xxx...'"): 500 KB
    of reply to say one field was wrong."""
    if body is None:
        reply = client.get(path)
    else:
        reply = client.post(path, json=body, headers={"Origin": "http://testserver"})
    assert reply.status_code == status
    message = reply.json()["error"]
    assert message.startswith(start) and len(message) < 1_100, message[:200]
    assert message.endswith("characters)")


def test_a_body_over_the_limit_is_refused_before_it_is_read(client: TestClient, site: Site) -> None:
    from companybrain.surfaces.web.inputs import max_body_bytes

    limit = max_body_bytes(site.settings)
    assert limit > site.settings.max_record_bytes
    big = '{"question": "' + "Q" * limit + '"}'
    json_type = {"content-type": "application/json"}
    reply = client.post("/api/ask", content=big, headers=json_type)
    assert reply.status_code == 413
    assert "bytes" in reply.json()["error"] and len(reply.content) < 1_000
    # sent in chunks, without a Content-Length: refused as it passes the limit
    chunks = (big[i : i + 65_536].encode() for i in range(0, len(big), 65_536))
    chunked = client.post("/api/records", content=chunks, headers=json_type)
    assert chunked.status_code == 413, chunked.text[:200]
    # under the limit, the body reaches the route (here its own validation)
    near = '{"question": "' + "Q" * (limit - 100) + '"}'
    assert client.post("/api/ask", content=near, headers=json_type).status_code == 422


def test_an_unknown_repository_is_not_found(client: TestClient, site: Site) -> None:
    graph = _graph(site)
    review = client.get(f"/api/review?sha=HEAD&repo=nope&graph={graph}")
    assert "'nope'" in _one_error(review, 404, "repo")
    commits = client.get(f"/api/commits?repo=nope&graph={graph}")
    assert "'nope'" in _one_error(commits, 404, "repo")  # not [], an empty history
    sync = client.post("/api/sync", json={"graph": graph, "repo": "nope"})
    assert "'nope'" in _one_error(sync, 404, "repo")


def test_errors_name_the_web_fields_not_cli_options(client: TestClient) -> None:
    question = "Who owns the billing gateway?"
    nobody = client.post("/api/ask", json={"question": question, "as": "nobody"})
    assert "--" not in _one_error(nobody, 400, "as")
    vague = client.post("/api/ask", json={"question": question, "as_of": "3 weeks ago"})
    assert "--" not in _one_error(vague, 400, "as_of")
    owners = client.get("/api/owners?as=nobody")
    assert "--" not in _one_error(owners, 400, "as")


def test_a_page_showing_an_error_gives_the_status_the_api_gives(
    client: TestClient, site: Site
) -> None:
    """The Add record page answered 400 ("bad input") to a busy database, where
    `/api/records` answered 503 (try again later)."""
    from companybrain.graph.connection import Store
    from companybrain.ingest.lock import LOCK_NAME

    store = Store(site.settings)
    client.get("/records/new")  # sets the CSRF cookie
    form = {"csrf": client.cookies["brain_csrf"], "text": "Hello there.", "author": "cy"}
    assert store.take_lock(LOCK_NAME, "r1a2b3c4d5e6", 60_000)  # an ingest is running
    try:
        api = client.post("/api/records", json={"text": "Hello there.", "author": "cy"})
        page = client.post("/records/new", data=form)
    finally:
        store.drop_lock(LOCK_NAME, "r1a2b3c4d5e6")
    assert api.status_code == 503, api.text
    assert page.status_code == 503 and "r1a2b3c4d5e6" in page.text
    bad = {"q": "Who owns the billing gateway?", "now": "yesterday"}
    assert client.get("/", params=bad).status_code == 400  # as /api/ask, not 200
    api_ask = client.post("/api/ask", json={"question": bad["q"], "now": "yesterday"})
    assert api_ask.status_code == 400


@pytest.mark.parametrize("blank", ["", "   "])
def test_an_empty_question_or_record_is_one_error_however_empty(
    client: TestClient, blank: str
) -> None:
    """ "" was 422 "String should have at least 1 character", "   " 400 "the question is
    empty": one problem, two statuses and two wordings."""
    ask = client.post("/api/ask", json={"question": blank})
    assert (ask.status_code, ask.json()) == (400, {"error": "the question is empty"})
    record = client.post("/api/records", json={"text": blank, "author": "cy"})
    assert record.status_code == 400
    assert record.json()["error"].startswith("the record's text is empty")


def test_a_body_that_is_not_utf8_or_nested_too_deep_is_named(client: TestClient) -> None:
    """Both were "There was an error parsing the body" (400); deep JSON sent to a form's
    address was a 500 (RecursionError in the check of every request's values)."""
    json_type = {"content-type": "application/json"}
    deep = b"[" * 100_000 + b"]" * 100_000
    for body, said in (
        (b'{"question": "\xff"}', "body: not valid JSON (not UTF-8 text at byte 14)"),
        (b'{"question": ' + deep + b"}", "body: not valid JSON (nested too deeply to read)"),
    ):
        reply = client.post("/api/ask", content=body, headers=json_type)
        assert (reply.status_code, reply.json()) == (422, {"error": said})
    form = client.post("/records/new", content=deep, headers=json_type)
    assert form.status_code == 403, form.text  # no CSRF token: refused, not a crash


def test_an_empty_graph_is_no_graph_not_the_default(client: TestClient) -> None:
    """`"graph": ""` answered from the server's default graph, citing its records."""
    question = {"question": "Who owns the billing gateway?", "graph": ""}
    for reply in (client.post("/api/ask", json=question), client.get("/api/owners?graph=")):
        assert (reply.status_code, reply.json()) == (404, {"error": "no graph named ''"})


def test_the_add_record_page_takes_no_longer_a_text_than_the_api(
    client: TestClient, site: Site
) -> None:
    """`/api/records` refused a text of more than 100,000 characters; the Add record page
    stored one of 170,000."""
    from companybrain.graph.connection import Store
    from companybrain.surfaces.web.company import TYPED_TEXT_MAX

    store = Store(site.settings)
    before = store.read("MATCH (s:Source) RETURN count(s) AS n")[0]["n"]
    long = "Hello there. " * (TYPED_TEXT_MAX // 13 + 1)
    client.get("/records/new")  # sets the CSRF cookie
    form = {"csrf": client.cookies["brain_csrf"], "text": long, "author": "cy"}
    page = client.post("/records/new", data=form)
    assert page.status_code == 400 and "longer than 100,000 characters" in page.text
    api = client.post("/api/records", json={"text": long, "author": "cy"})
    assert api.status_code == 422
    assert store.read("MATCH (s:Source) RETURN count(s) AS n")[0]["n"] == before


def test_a_field_given_twice_is_one_error_naming_it(client: TestClient) -> None:
    """JSON readers and query strings keep the last of a name given twice:
    `{"as_of": "2026-09-25", "as_of": null}` was answered for now, `?as=ana&as=` as
    everyone."""
    twice = '{"question": "Who owns the search index?", "as_of": "2026-09-25", "as_of": null}'
    reply = client.post(
        "/api/ask", content=twice.encode(), headers={"content-type": "application/json"}
    )
    assert _one_error(reply, 400, "as_of") == "as_of: given more than once"
    owners = client.get("/api/owners?as=ana&as=sec")
    assert _one_error(owners, 400, "as") == "as: given more than once"
    once = client.get("/api/owners?as=ana")
    assert once.status_code == 200
