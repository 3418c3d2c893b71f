"""The guards: an access token off loopback, cross-site requests refused, a pinned person
who cannot be swapped, loopback host names only, and `brain serve` refusing to start on a
public address without a token."""

from __future__ import annotations

import http.server
import os
import subprocess
import sys
import threading
import urllib.request
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from companybrain.surfaces.cli.serve import is_loopback
from companybrain.surfaces.web import create_app
from companybrain.surfaces.web.security import safe_next, session_value
from tests.surfaces.web.conftest import Site, free_port

TOKEN = "s3cret-token-for-tests"


@pytest.fixture(scope="module")
def guarded(site: Site) -> TestClient:
    return TestClient(create_app(site.settings, token=TOKEN))


@pytest.fixture(scope="module")
def open_app(site: Site) -> TestClient:
    return TestClient(create_app(site.settings))


def test_with_a_token_every_request_needs_it(guarded: TestClient) -> None:
    guarded.cookies.clear()
    assert guarded.get("/api/status").status_code == 401
    assert guarded.get("/api/owners").status_code == 401
    assert guarded.get("/openapi.json").status_code == 401
    wrong = guarded.get("/api/status", headers={"Authorization": "Bearer nope"})
    assert wrong.status_code == 401
    assert "Cy Park" not in guarded.get("/api/owners", headers={"Authorization": "Bearer x"}).text
    right = guarded.get("/api/status", headers={"Authorization": f"Bearer {TOKEN}"})
    assert right.status_code == 200
    ask = guarded.post(
        "/api/ask", json={"question": "Who owns the billing gateway?"},
        headers={"Authorization": f"Bearer {TOKEN}"},
    )  # fmt: skip
    assert ask.status_code == 200 and ask.json()["status"] == "answered"


def test_a_page_without_the_token_sends_the_browser_to_sign_in(guarded: TestClient) -> None:
    guarded.cookies.clear()
    page = guarded.get("/owners", headers={"Accept": "text/html"}, follow_redirects=False)
    assert page.status_code == 303
    assert page.headers["location"] == "/login?next=/owners"
    form = guarded.get("/login")
    assert form.status_code == 200
    csrf = guarded.cookies["brain_csrf"]
    wrong = guarded.post("/login", data={"csrf": csrf, "token": "nope", "next": "/owners"})
    assert wrong.status_code == 401
    assert "brain_session" not in guarded.cookies
    signed = guarded.post(
        "/login", data={"csrf": csrf, "token": TOKEN, "next": "/owners"}, follow_redirects=False
    )
    assert signed.status_code == 303 and signed.headers["location"] == "/owners"
    cookie = signed.headers["set-cookie"]
    assert "HttpOnly" in cookie and "SameSite=strict" in cookie.replace("Strict", "strict")
    assert TOKEN not in cookie and session_value(TOKEN) in cookie
    assert guarded.get("/owners").status_code == 200
    guarded.cookies.clear()


def test_sign_in_never_redirects_off_the_server() -> None:
    assert safe_next("//evil.example/x") == "/"
    assert safe_next("https://evil.example/") == "/"
    assert safe_next("/\\evil.example") == "/"
    assert safe_next("/review?sha=1") == "/review?sha=1"


def test_a_form_post_without_its_csrf_token_is_refused(open_app: TestClient) -> None:
    open_app.get("/records/new")
    csrf = open_app.cookies["brain_csrf"]
    form = {"text": "Ana Ruiz owns the billing gateway now.", "author": "ana"}
    assert open_app.post("/records/new", data=form).status_code == 403
    assert open_app.post("/records/new", data={**form, "csrf": "forged"}).status_code == 403
    cross = open_app.post(
        "/records/new", data={**form, "csrf": csrf}, headers={"Origin": "http://evil.example"}
    )
    assert cross.status_code == 403
    fetched = open_app.post(
        "/records/new", data={**form, "csrf": csrf}, headers={"Sec-Fetch-Site": "cross-site"}
    )
    assert fetched.status_code == 403
    # nothing was stored by any of them
    assert "typed-" not in str(open_app.get("/api/owners").json())
    sync = open_app.post("/review/sync", data={"repo": "repo"})
    assert sync.status_code == 403


def test_the_json_api_takes_json_from_this_origin_only(open_app: TestClient) -> None:
    question = '{"question": "Who owns the billing gateway?"}'
    plain = open_app.post("/api/ask", content=question, headers={"Content-Type": "text/plain"})
    assert plain.status_code == 415
    form = open_app.post("/api/ask", data={"question": "Who owns the billing gateway?"})
    assert form.status_code == 415
    cross = open_app.post(
        "/api/ask",
        content=question,
        headers={"Content-Type": "application/json", "Origin": "http://evil.example"},
    )
    assert cross.status_code == 403
    same = open_app.post(
        "/api/ask",
        content=question,
        headers={"Content-Type": "application/json", "Origin": "http://testserver"},
    )
    assert same.status_code == 200


def test_a_pinned_person_cannot_be_swapped(site: Site) -> None:
    pinned = TestClient(create_app(site.settings, as_person="ana"))
    assert pinned.get("/record", params={"id": "CC-2"}).status_code == 404
    assert pinned.get("/record", params={"id": "CC-2", "as": "bo"}).status_code == 400
    assert pinned.get("/api/graph", params={"id": "CC-2"}).status_code == 404
    page = pinned.get("/")
    assert "signed in as" in page.text and "ask as" not in page.text


def test_on_loopback_only_loopback_host_names_are_answered(site: Site) -> None:
    app = create_app(site.settings, allowed_hosts=["127.0.0.1", "localhost"])
    assert TestClient(app, base_url="http://127.0.0.1:8737").get("/api/status").status_code == 200
    rebound = TestClient(app, base_url="http://attacker.example").get("/api/status")
    assert rebound.status_code == 400


def test_serve_refuses_a_public_address_without_a_token(run_cli) -> None:  # type: ignore[no-untyped-def]
    refused = run_cli("serve", "--host", "0.0.0.0")
    assert refused.exit_code != 0
    assert "access token" in str(refused.exception)
    assert is_loopback("127.0.0.1") and is_loopback("::1") and is_loopback("localhost")
    assert not is_loopback("0.0.0.0") and not is_loopback("192.168.1.5")


def test_serve_in_the_background_and_stop_it(run_cli, store) -> None:  # type: ignore[no-untyped-def]
    """`store`: the graph served exists (serving one that does not is an error)."""
    port = free_port()
    started = run_cli("serve", "--background", "--port", str(port))
    assert started.exit_code == 0, started.output
    assert f"http://127.0.0.1:{port}/" in started.output
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/status", timeout=5) as reply:
            assert reply.status == 200
        again = run_cli("serve", "--background", "--port", str(port))
        assert "already serving" in again.output
    finally:
        stopped = run_cli("serve", "--stop")
    assert "stopped the web server" in stopped.output
    assert "no background server" in run_cli("serve", "--stop").output


def test_the_global_flags_hold_for_a_server_in_the_background(run_cli, store) -> None:  # type: ignore[no-untyped-def]
    """`brain --durable serve --background` started a server that had forgotten --durable:
    a database it started again (after a crash or `db stop`) fsynced once a second, and a
    record added on its pages was not written through at once."""
    port = free_port()
    started = run_cli("--durable", "--trace", "serve", "--background", "--port", str(port))
    assert started.exit_code == 0, started.output
    try:
        pid = int((store.settings.home / "web.pid").read_text().split()[0])
        environ = Path(f"/proc/{pid}/environ").read_bytes().split(b"\x00")
        assert b"BRAIN_DURABLE=1" in environ and b"BRAIN_TRACE=1" in environ
    finally:
        assert "stopped the web server" in run_cli("serve", "--stop").output


def test_a_web_pid_file_naming_another_program_is_stale(run_cli, store, settings) -> None:  # type: ignore[no-untyped-def]
    """A web.pid left by a server that was killed (or by a restart) whose pid the system gave
    to another program: `serve --stop` killed that program, and `serve --background` said
    "already serving" and started nothing."""
    other = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    pid_file = settings.home / "web.pid"
    try:
        pid_file.write_text(f"{other.pid} http://127.0.0.1:1/\n")
        assert run_cli("serve", "--stop").output == "no background server is running\n"
        assert other.poll() is None, "serve --stop killed another program"
        assert not pid_file.exists()
        pid_file.write_text(f"{other.pid} http://127.0.0.1:1/\n")
        port = free_port()
        started = run_cli("serve", "--background", "--port", str(port))
        assert started.output.startswith(f"serving http://127.0.0.1:{port}/"), started.output
        assert "stopped the web server" in run_cli("serve", "--stop").output
        assert other.poll() is None
    finally:
        other.kill()
        other.wait()


def test_serve_refuses_a_port_another_server_answers_on(run_cli, store) -> None:  # type: ignore[no-untyped-def]
    """`serve --background` on a port another web server (another data folder's `brain
    serve`) held said "serving http://127.0.0.1:PORT/": that server had answered its check,
    and the browser showed the other folder's records."""
    other = http.server.HTTPServer(("127.0.0.1", 0), http.server.BaseHTTPRequestHandler)
    port = other.server_address[1]
    threading.Thread(target=other.serve_forever, daemon=True).start()
    try:
        for args in (["--background"], []):
            refused = run_cli("serve", *args, "--port", str(port))
            assert refused.exit_code == 1, refused.output
            assert str(refused.exception).startswith(
                f"--port {port}: cannot listen on http://127.0.0.1:{port}/: it is already in use"
            )
            assert "serving" not in refused.output
        assert "no background server" in run_cli("serve", "--stop").output
    finally:
        other.shutdown()
        other.server_close()


def test_serve_refuses_a_port_out_of_range_before_serving(run_cli) -> None:  # type: ignore[no-untyped-def]
    """It printed 'serving http://127.0.0.1:99999/', then uvicorn's OverflowError."""
    for port in ("99999", "-1", "0"):
        refused = run_cli("serve", "--port", port)
        assert refused.exit_code == 2
        assert "Invalid value for '--port'" in refused.output and "serving" not in refused.output


def test_a_web_pid_file_copied_with_its_data_folder_names_no_server_of_the_copy(  # type: ignore[no-untyped-def]
    run_cli, store, settings, tmp_path
) -> None:
    """A data folder copied while its web server ran carried its web.pid: `serve --stop` on
    the copy stopped the original folder's server."""
    port = free_port()
    assert run_cli("serve", "--background", "--port", str(port)).exit_code == 0
    pid_file = settings.home / "web.pid"
    pid = int(pid_file.read_text().split()[0])
    copy = tmp_path / "copy"
    copy.mkdir()
    (copy / "web.pid").write_text(pid_file.read_text())
    try:
        stopped = run_cli("serve", "--stop", env={"BRAIN_HOME": str(copy)})
        assert stopped.output == "no background server is running\n", stopped.output
        os.kill(pid, 0)  # the original's server still runs
    finally:
        assert "stopped the web server" in run_cli("serve", "--stop").output
