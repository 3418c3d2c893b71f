"""The HTML pages: Ask, Record, Owners, Add record, Board, Review, Graph and the sign-in
form. Every page works without JavaScript; only live updates need it. Record text reaches
a page only through Jinja's autoescaping, and never as a link target."""

from __future__ import annotations

from contextlib import suppress
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import jinja2
from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response, StreamingResponse
from fastapi.routing import APIRoute
from fastapi.templating import Jinja2Templates
from starlette.concurrency import run_in_threadpool

from companybrain.errors import BrainError, InputError, StoreError
from companybrain.graph.queries import ask_q
from companybrain.ingest.status import answer_warning
from companybrain.surfaces.web import board_view, company, graph_view, live, review_view
from companybrain.surfaces.web.context import Asker, WebContext, http_status, now_utc, shown
from companybrain.surfaces.web.security import (
    SESSION_COOKIE,
    check_form,
    csrf_token,
    safe_next,
    session_value,
)

TEMPLATES = Path(__file__).parent / "templates"
STARTS = 30  # nodes offered on the Graph page before one is chosen
STREAMS = {"/ask/stream", "/board/events"}  # GET only: a HEAD would run the question or poll


def templates() -> Jinja2Templates:
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(TEMPLATES), autoescape=True, undefined=jinja2.Undefined
    )
    return Jinja2Templates(env=env)


class Pages:
    def __init__(self, web: WebContext) -> None:
        self.web = web
        self.templates = templates()

    def url_maker(self, graph: str, person: str | None) -> Any:
        def url(path: str, **params: Any) -> str:
            query = {k: v for k, v in params.items() if v not in (None, "")}
            if graph != self.web.default_graph:
                query["graph"] = graph
            if person and not self.web.pinned:
                query["as"] = person
            return path + ("?" + urlencode(query) if query else "")

        return url

    def render(
        self,
        request: Request,
        name: str,
        page: str,
        title: str,
        graph: str,
        person: str | None,
        status_code: int = 200,
        **data: Any,
    ) -> HTMLResponse:
        keep = {k: v for k, v in request.query_params.items() if k not in {"graph", "as"}}
        context = {
            "ingest_warning": self.ingest_warning(graph, person),
            "page": page,
            "title": title,
            "graph": graph,
            "graphs": self.web.graphs(),
            "pinned": self.web.pinned,
            "as_person": person,
            "csrf": csrf_token(request),
            "keep": keep,
            "url": self.url_maker(graph, person),
            **data,
        }
        return self.templates.TemplateResponse(request, name, context, status_code=status_code)

    def ingest_warning(self, graph: str, person: str | None) -> str | None:
        """The banner of every page while the last ingest of `graph` is unfinished: what
        it shows is from the records stored so far. A person sees no count of records."""
        with suppress(BrainError):  # a page that shows why the database failed still shows
            store = self.web.brain(graph).store
            return answer_warning(store, counts=person is None, shown="what this page shows")
        return None

    def render_answer(
        self, request: Request, graph: str, person: str | None, view: dict[str, Any]
    ) -> str:
        template = self.templates.get_template("_answer.html")
        return template.render(a=view, url=self.url_maker(graph, person))


def _graph(request: Request, web: WebContext) -> str:
    return request.query_params.get("graph") or web.default_graph


def router(web: WebContext) -> APIRouter:
    pages = Pages(web)
    r = APIRouter(include_in_schema=False)

    def setup(request: Request, chosen: str | None = None) -> tuple[str, Any, Asker]:
        graph = _graph(request, web)
        brain = web.brain(graph)
        asker = web.asker(
            brain.store, chosen if chosen is not None else request.query_params.get("as")
        )
        return graph, brain, asker

    # -- ask -------------------------------------------------------------------------

    @r.get("/", response_class=HTMLResponse)
    def ask_page(request: Request, q: str = "", as_of: str = "", now: str = "") -> Response:
        graph, brain, asker = setup(request)
        people = ask_q.people(brain.store) if not web.pinned else []
        view, error, status = None, None, 200
        steps: list[str] = []
        if q.strip():
            try:
                view = live.run_ask(
                    brain, asker, live.AskInput(q, as_of or None, now or None), steps.append
                )
            except BrainError as exc:  # the status `/api/ask` gives the same error
                error, status = shown(exc, web.settings), http_status(exc)
        return pages.render(
            request, "ask.html", "ask", "Ask", graph, asker.person, status,
            q=q, as_of=as_of, now=now, people=people, answer=view, steps=steps, error=error,
        )  # fmt: skip

    @r.get("/ask/stream")
    def ask_stream(request: Request, q: str, as_of: str = "", now: str = "") -> Response:
        try:
            graph, brain, asker = setup(request)
        except StoreError as exc:  # said in the stream, as when it stops mid-question
            events = live.failed_events(shown(exc, web.settings))
        else:
            given = live.AskInput(q, as_of or None, now or None)
            events = live.ask_events(
                brain,
                asker,
                given,
                lambda view: pages.render_answer(request, graph, asker.person, view),
            )
        return StreamingResponse(
            events, media_type="text/event-stream", headers={"Cache-Control": "no-store"}
        )

    # -- records and owners ----------------------------------------------------------

    @r.get("/record", response_class=HTMLResponse)
    def record_page(request: Request, id: str) -> Response:
        graph, brain, asker = setup(request)
        if not company.is_record(brain.store, id, asker):
            # a decision, commit or file: its node on the Graph page (which checks access);
            # a record the person may not see goes there too, as one that does not exist
            return RedirectResponse(pages.url_maker(graph, asker.person)("/graph", id=id), 303)
        view = company.record_view(brain.store, id, asker)
        return pages.render(
            request, "record.html", "record", f"Record {id}", graph, asker.person, v=view
        )

    @r.get("/owners", response_class=HTMLResponse)
    def owners_page(request: Request) -> Response:
        graph, brain, asker = setup(request)
        now = now_utc()
        found = company.owners(brain.store, brain.settings, asker, now)
        return pages.render(
            request, "owners.html", "owners", "Owners", graph, asker.person,
            owners=found, now=now.isoformat(timespec="seconds"),
        )  # fmt: skip

    @r.get("/records/new", response_class=HTMLResponse)
    def add_page(request: Request) -> Response:
        graph, brain, asker = setup(request)
        return pages.render(
            request, "add.html", "add", "Add record", graph, asker.person,
            people=ask_q.people(brain.store), result=None,
        )  # fmt: skip

    @r.post("/records/new", response_class=HTMLResponse)
    async def add_post(request: Request) -> Response:
        form = await request.form()
        check_form(request, form)
        # off the event loop, which serves every other request meanwhile
        return await run_in_threadpool(add_record, request, form)

    def add_record(request: Request, form: Any) -> Response:
        graph = str(form.get("graph") or web.default_graph)
        brain = web.brain(graph)
        asker = web.asker(brain.store, str(form.get("as") or "") or None)
        text = str(form.get("text") or "").strip()
        author = web.pinned or str(form.get("author") or "")
        result, error, status = None, None, 200
        try:
            if not text:
                raise InputError("text: the record is empty")
            result = company.add_record(
                brain.store,
                brain.settings,
                asker,
                text=text,
                author=author,
                about=[],
                now=now_utc(),
            )
        except BrainError as exc:  # the status `/api/records` gives the same error
            error, status = shown(exc, web.settings), http_status(exc)
        return pages.render(
            request, "add.html", "add", "Add record", graph, asker.person, status,
            people=ask_q.people(brain.store), result=result, error=error,
        )  # fmt: skip

    # -- board -----------------------------------------------------------------------

    @r.get("/board", response_class=HTMLResponse)
    def board_page(request: Request) -> Response:
        graph, brain, asker = setup(request)
        board = web.board(graph)
        try:
            view = board_view.board_view(brain.store, board, asker.viewer)
        finally:
            if board is not None:
                board.close()
        return pages.render(
            request, "board.html", "board", "Board", graph, asker.person,
            v=view, board_name=f"{brain.store.graph_name}_board",
        )  # fmt: skip

    @r.get("/board/events")
    def board_stream(request: Request) -> Response:
        graph, brain, asker = setup(request)

        def read() -> dict[str, Any]:
            board = web.board(graph)
            try:
                return board_view.board_statuses(brain.store, board, asker.viewer)
            finally:
                if board is not None:
                    board.close()

        events = live.board_events(read, request.is_disconnected)
        return StreamingResponse(
            events, media_type="text/event-stream", headers={"Cache-Control": "no-store"}
        )

    @r.get("/board/item", response_class=HTMLResponse)
    def board_item_page(request: Request, id: str) -> Response:
        graph, brain, asker = setup(request)
        board = web.board(graph)
        try:
            view = board_view.board_item(brain.store, board, id, asker.viewer)
        finally:
            if board is not None:
                board.close()
        return pages.render(
            request, "board_item.html", "board", f"Item {id}", graph, asker.person, v=view
        )

    # -- review ----------------------------------------------------------------------

    def review_render(
        request: Request,
        graph: str,
        brain: Any,
        asker: Asker,
        repo: str,
        sha: str,
        synced: Any = None,
        error: str | None = None,
        status: int = 200,
    ) -> Response:
        repos = review_view.repositories(brain.store)
        known = repos and (repo in {x["repo"] for x in repos} or not repo)
        if repos and not repo:
            repo = repos[0]["repo"]
        commits = review_view.commit_list(brain.store, repo) if known else []
        heads = review_view.branches(brain.store, repo) if known else []
        review = None
        if repos and not known:
            # Never another repository's history under the name asked for.
            error, status = review_view.unknown_repo(repo), 404
        elif repos and sha:
            try:
                review = review_view.commit_review(brain.store, repo, sha)
            except BrainError as exc:
                error, status = shown(exc, web.settings), http_status(exc)
        return pages.render(
            request, "review.html", "review", "Review", graph, asker.person, status,
            repos=repos, repo=repo, commits=commits, heads=heads, sha=sha, r=review,
            synced=synced, error=error,
        )  # fmt: skip

    @r.get("/review", response_class=HTMLResponse)
    def review_page(request: Request, repo: str = "", sha: str = "") -> Response:
        graph, brain, asker = setup(request)
        return review_render(request, graph, brain, asker, repo, sha)

    @r.post("/review/sync", response_class=HTMLResponse)
    async def sync_post(request: Request) -> Response:
        form = await request.form()
        check_form(request, form)
        # off the event loop, which serves every other request meanwhile
        return await run_in_threadpool(sync_repo, request, form)

    def sync_repo(request: Request, form: Any) -> Response:
        graph = str(form.get("graph") or web.default_graph)
        brain = web.brain(graph)
        asker = web.asker(brain.store, str(form.get("as") or "") or None)
        repo = str(form.get("repo") or "")
        synced, error, status = None, None, 200
        try:
            synced = review_view.sync(web.settings, brain.store, repo or None, viewer=asker.viewer)
        except BrainError as exc:
            error, status = shown(exc, web.settings), http_status(exc)
        return review_render(
            request, graph, brain, asker, repo, "", synced=synced, error=error, status=status
        )

    # -- graph -----------------------------------------------------------------------

    @r.get("/graph", response_class=HTMLResponse)
    def graph_page(request: Request, id: str = "", label: str = "") -> Response:
        graph, brain, asker = setup(request)
        view, starts = None, []
        if id:
            view = graph_view.neighbourhood(brain.store, id, label or None, asker.viewer)
        else:
            starts = graph_view.starting_points(brain.store, asker.viewer, STARTS)
        return pages.render(
            request, "graph.html", "graph", "Graph", graph, asker.person,
            v=view, node_id=id, starts=starts,
        )  # fmt: skip

    # -- sign in ---------------------------------------------------------------------

    @r.get("/login", response_class=HTMLResponse)
    def login_page(request: Request, next: str = "/") -> Response:
        return pages.templates.TemplateResponse(
            request,
            "login.html",
            {"csrf": csrf_token(request), "next": safe_next(next), "error": None},
        )

    @r.post("/login", response_class=HTMLResponse)
    async def login_post(request: Request) -> Response:
        form = await request.form()
        check_form(request, form)
        target = safe_next(str(form.get("next") or "/"))
        given = str(form.get("token") or "")
        if not web.token or not _same(given, web.token):
            return pages.templates.TemplateResponse(
                request, "login.html",
                {"csrf": csrf_token(request), "next": target, "error": "wrong token"},
                status_code=401,
            )  # fmt: skip
        response = RedirectResponse(target, 303)
        response.set_cookie(
            SESSION_COOKIE, session_value(web.token), httponly=True, samesite="strict", path="/"
        )
        return response

    for route in r.routes:  # HEAD of a page, as of any web page (a link checker's, uptime's)
        if not isinstance(route, APIRoute) or route.path in STREAMS:
            continue
        methods = route.methods or set()  # the route's own set: adding to it adds HEAD
        if "GET" in methods:
            methods.add("HEAD")
    return r


def _same(a: str, b: str) -> bool:
    import hmac

    return hmac.compare_digest(a.encode(), b.encode())
