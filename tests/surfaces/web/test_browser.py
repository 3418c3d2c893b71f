"""The pages in a real browser: Debian's chromium, headless, driven by Playwright, against
the app served on a free loopback port. Each page is saved as a screenshot under
BRAIN_SCREENSHOTS (default .brain/screenshots in the repository), which `make test` prints."""

from __future__ import annotations

import contextlib
import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from companybrain.board.options import board_graph
from companybrain.graph.connection import Store
from companybrain.surfaces.web import create_app
from tests.conftest import REPO_ROOT
from tests.surfaces.web.conftest import CC_QUOTE, DECISION, Served, Site

pytestmark = pytest.mark.browser

CHROMIUM = os.environ.get("BRAIN_CHROMIUM", "/usr/bin/chromium")
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking"]
TOKEN = "browser-test-token"
QUESTION = "Who owns the billing gateway?"


def shots() -> Path:
    folder = Path(os.environ.get("BRAIN_SCREENSHOTS") or REPO_ROOT / ".brain" / "screenshots")
    folder.mkdir(parents=True, exist_ok=True)
    return folder


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    if not shutil.which(CHROMIUM) and not Path(CHROMIUM).exists():
        pytest.skip(f"no chromium at {CHROMIUM} (make test installs it with apt-get)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
        yield b
        b.close()


@pytest.fixture(scope="module")
def app_url(site: Site) -> Iterator[str]:
    with Served(create_app(site.settings)) as served:
        yield served.url


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    p = context.new_page()
    p.set_default_timeout(15_000)
    yield p
    context.close()


def _ask(page: Any, url: str, question: str) -> None:
    page.goto(f"{url}/")
    page.fill("input[name=q]", question)
    page.click("#ask-form button[type=submit]")
    page.wait_for_selector("#answer-body")


def test_ask_shows_the_tool_calls_and_the_cited_quote(page: Any, app_url: str) -> None:
    _ask(page, app_url, QUESTION)
    assert page.inner_text(".citation blockquote.quote") == CC_QUOTE
    assert "Bo Lind" in page.inner_text(".result")
    steps = page.locator("#steps li").all_inner_texts()
    assert steps[-1].startswith("owner_of(billing-gateway) · answered")
    assert page.locator(".outranked-claim").count() == 2
    # answered live (server-sent events): the page never navigated, yet its address now
    # asks the same question again without JavaScript
    loaded = page.evaluate("performance.getEntriesByType('navigation')[0].name")
    assert loaded == f"{app_url}/"
    assert "q=Who+owns" in page.url
    page.screenshot(path=str(shots() / "ask.png"), full_page=True)


def test_a_citation_opens_its_record_with_the_quote_marked(page: Any, app_url: str) -> None:
    _ask(page, app_url, QUESTION)
    page.click(".citation a")
    page.wait_for_url("**/record?id=CC-1")
    assert page.inner_text("mark") == CC_QUOTE
    assert "previous_owner" in page.inner_text(".rejected")
    page.screenshot(path=str(shots() / "record.png"), full_page=True)


def test_a_typed_record_is_chat_and_does_not_change_the_answer(page: Any, app_url: str) -> None:
    page.goto(f"{app_url}/records/new")
    page.select_option("select[name=author]", "cy")
    page.select_option("select[name=kind]", "change_control")
    page.fill("textarea[name=text]", "Cy Park owns the billing gateway from today.")
    page.click("form.add button[type=submit]")
    page.wait_for_selector("#added")
    assert "as chat (authority 35)" in page.inner_text("#added h2")
    row = page.inner_text(".effects tbody tr")
    assert "Billing Gateway" in row and "unchanged" in row and "Bo Lind" in row
    page.screenshot(path=str(shots() / "add-record.png"), full_page=True)
    _ask(page, app_url, QUESTION)
    assert "Bo Lind" in page.inner_text(".result")
    assert "typed-" in page.inner_text(".outranked")


def test_owners_and_review_pages(page: Any, app_url: str) -> None:
    page.goto(f"{app_url}/owners")
    assert "Bo Lind" in page.inner_text("#owner-billing-gateway")
    assert page.locator("#owner-billing-gateway .timeline tbody tr").count() >= 3
    page.screenshot(path=str(shots() / "owners.png"), full_page=True)
    page.goto(f"{app_url}/review")
    page.click("text=fix: stream exporter rows")
    page.wait_for_selector("#commit-review")
    review = page.inner_text("#commit-review")
    assert "Batch the exporter" in review and "src/export.py" in review
    page.screenshot(path=str(shots() / "review.png"), full_page=True)


def test_the_api_docs_render_with_no_network(page: Any, app_url: str) -> None:
    """The browser has no network here: Swagger UI must come from the app itself."""
    page.goto(f"{app_url}/docs")
    page.get_by_text("/api/ask", exact=True).first.wait_for(timeout=15_000)
    page.screenshot(path=str(shots() / "api-docs.png"), full_page=True)


def test_board_and_graph_pages(page: Any, app_url: str) -> None:
    page.goto(f"{app_url}/board")
    tiles = page.locator("g.tile")
    assert tiles.count() >= 5
    assert page.locator("g.tile.st-done").count() == tiles.count()
    page.screenshot(path=str(shots() / "board.png"), full_page=True)
    page.click(f'g.tile[data-item="entry:{DECISION}"]')
    page.wait_for_url("**/board/item?**")
    assert "What it produced" in page.content()
    page.screenshot(path=str(shots() / "board-item.png"), full_page=True)
    page.goto(f"{app_url}/graph?id=billing-gateway")
    assert page.locator("svg.graph-svg a").count() >= 3
    page.screenshot(path=str(shots() / "graph.png"), full_page=True)
    page.click('svg.graph-svg a[href*="id=orion"]')
    page.wait_for_url("**id=orion**")
    assert "Project" in page.inner_text("h2")


def test_a_record_that_holds_script_runs_nothing(page: Any, app_url: str) -> None:
    dialogs: list[str] = []
    errors: list[str] = []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.goto(f"{app_url}/record?id=XSS-1")
    text = page.inner_text("#record-text")
    assert "<script>alert('xss')</script>" in text
    assert "javascript:alert('link')" in text
    assert page.locator('a[href^="javascript:"]').count() == 0
    assert page.locator("#record-text img, #record-text script").count() == 0
    page.screenshot(path=str(shots() / "record-script.png"), full_page=True)
    _ask(page, app_url, "search billing gateway notes")
    page.wait_for_timeout(300)
    assert page.locator('a[href^="javascript:"]').count() == 0
    assert dialogs == []


def test_without_javascript_the_ask_form_still_answers(browser: Any, app_url: str) -> None:
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    try:
        page.goto(f"{app_url}/")
        page.fill("input[name=q]", QUESTION)
        page.click("#ask-form button[type=submit]")
        page.wait_for_selector("#answer-body")
        assert page.inner_text(".citation blockquote.quote") == CC_QUOTE
        page.screenshot(path=str(shots() / "ask-no-js.png"), full_page=True)
    finally:
        context.close()


def test_a_cross_site_form_is_refused(page: Any, app_url: str) -> None:
    page.set_content(
        f'<form method="post" action="{app_url}/records/new">'
        '<input name="text" value="Cy Park owns the billing gateway.">'
        '<input name="author" value="cy">'
        '<button type="submit">go</button></form>'
    )
    with page.expect_navigation():
        page.click("button")
    assert "403" in page.inner_text("body") or "refused" in page.inner_text("body")
    owners = page.request.get(f"{app_url}/api/owners").json()
    assert all("Cy Park owns the billing gateway." not in str(o) for o in owners)


def test_with_a_token_the_browser_signs_in_first(browser: Any, site: Site) -> None:
    with Served(create_app(site.settings, token=TOKEN)) as served:
        context = browser.new_context()
        page = context.new_page()
        try:
            page.goto(f"{served.url}/owners")
            assert "/login" in page.url
            page.screenshot(path=str(shots() / "login.png"))
            page.fill("input[name=token]", "wrong")
            page.click("form.login button")
            assert "wrong token" in page.inner_text(".error")
            page.fill("input[name=token]", TOKEN)
            page.click("form.login button")
            page.wait_for_url("**/owners")
            assert "Bo Lind" in page.inner_text("#owner-billing-gateway")
            cookie = next(c for c in context.cookies() if c["name"] == "brain_session")
            assert cookie["httpOnly"] and cookie["sameSite"] == "Strict"
        finally:
            context.close()


def _set_status(site: Site, item: str, status: str) -> None:
    """Test-only Cypher: move one board item, as a worker would."""
    board = Store(site.settings, board_graph(site.settings.graph))
    try:
        board.query(
            "MATCH (s:Item {id: $id}) SET s.status = $status", {"id": item, "status": status}
        )
    finally:
        board.close()


def test_the_board_refreshes_live(page: Any, app_url: str, site: Site) -> None:
    item = f"entry:{DECISION}"
    page.goto(f"{app_url}/board")
    tile = page.locator(f'g.tile[data-item="{item}"]')
    assert tile.get_attribute("class") == "tile st-done"
    page.wait_for_timeout(300)  # the event stream is open
    _set_status(site, item, "claimed")
    try:
        page.wait_for_selector(f'g.tile.st-claimed[data-item="{item}"]', timeout=10_000)
        assert page.inner_text('[data-count="claimed"]') == "1"
        assert page.evaluate("performance.getEntriesByType('navigation').length") == 1
    finally:
        _set_status(site, item, "done")


def test_a_second_question_is_never_answered_with_the_first_ones_answer(
    page: Any, app_url: str
) -> None:
    """Asked twice before the first answer came (a slow first question, a double submit):
    both streams wrote into the page, and whichever answer came last stayed, under the
    other question. Held here: the first question's stream answers only after the second."""
    held: list[Any] = []
    page.route("**/ask/stream?*search*", lambda route: held.append(route))
    page.goto(f"{app_url}/")
    page.fill("input[name=q]", "search billing gateway notes")
    page.click("#ask-form button[type=submit]")
    page.wait_for_timeout(300)
    _ask_here(page, QUESTION)
    assert "Bo Lind" in page.inner_text(".result")
    assert len(held) == 1
    # the first question's answer arrives late, whole (unless the page dropped the request)
    with contextlib.suppress(Exception):
        held[0].fulfill(response=held[0].fetch())
    page.wait_for_timeout(500)
    assert page.locator("#answer-body").count() == 1
    assert page.inner_text("#answer-body .tool") == "owner_of"
    assert "Bo Lind" in page.inner_text(".result")
    assert page.locator("#steps li").all_inner_texts()[-1].startswith("owner_of(")
    assert "q=Who+owns" in page.url


def test_a_question_the_server_cannot_take_says_so(browser: Any, site: Site) -> None:
    """The server went away while the page was open: the answer was cleared and nothing
    said why. Now the page says so, with a link that asks the same question without live
    updates (which shows the server's own reason when it answers with an error)."""
    context = browser.new_context()
    page = context.new_page()
    page.set_default_timeout(15_000)
    try:
        with Served(create_app(site.settings)) as served:
            url = served.url
            _ask(page, url, QUESTION)
        _ask_here(page, "Who is Bo Lind?", wait="#answer .error")
        error = page.locator("#answer .error")
        assert "could not reach the server" in error.inner_text()
        link = error.locator("a").get_attribute("href") or ""
        assert link.startswith("/?") and "q=Who+is+Bo+Lind" in link
        page.screenshot(path=str(shots() / "ask-server-gone.png"), full_page=True)
    finally:
        context.close()


def _ask_here(page: Any, question: str, wait: str = "#answer-body") -> None:
    page.fill("input[name=q]", question)
    page.click("#ask-form button[type=submit]")
    page.wait_for_selector(wait)


def test_a_team_lists_its_members_by_name(page: Any, app_url: str) -> None:
    """The members line printed each member as a Python dict: {'id': 'ana', 'name': ...}."""
    _ask(page, app_url, "Who is on the Payments team?")
    result = page.inner_text(".result")
    assert "members: Ana Ruiz (ana), Bo Lind (bo)" in result
    assert "{" not in result


def test_a_citation_without_authority_shows_no_empty_authority(page: Any, app_url: str) -> None:
    """Search hits carry no authority: the citation said "authority" with nothing after it."""
    _ask(page, app_url, "search billing gateway notes")
    assert page.locator(".citation").count() >= 1
    assert page.locator(".citation .authority").count() == 0


def test_a_mistyped_page_address_is_the_app_s_not_found_page(page: Any, app_url: str) -> None:
    """An address no page has answered with raw JSON ({"detail":"Not Found"})."""
    response = page.goto(f"{app_url}/owner")
    assert response is not None and response.status == 404
    assert page.locator("header nav a", has_text="Owners").count() == 1
    assert "Not Found" in page.inner_text("main")
    assert page.request.get(f"{app_url}/api/nope").json() == {"error": "Not Found"}
