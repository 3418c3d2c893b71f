"""The web app (`brain serve`): HTML pages and a JSON API over one FalkorDB server.

Started `--as PERSON`, every page and call is that person's: their record access applies
and no request can ask as anyone else. Off loopback it needs an access token (see
security.py); on loopback it answers only to loopback host names, so that another site
cannot reach it through DNS rebinding."""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from fastapi import Depends, FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from fastapi_offline import FastAPIOffline
from starlette.exceptions import HTTPException
from starlette.middleware.trustedhost import TrustedHostMiddleware

from companybrain.config import Settings
from companybrain.errors import BrainError, BusyError
from companybrain.surfaces.web import api, inputs, pages, security
from companybrain.surfaces.web.context import NotFound, WebContext, http_status, shown

STATIC = Path(__file__).parent / "static"


def create_app(
    settings: Settings,
    as_person: str | None = None,
    *,
    token: str | None = None,
    allowed_hosts: list[str] | None = None,
) -> FastAPI:
    # one Brain per graph for the app's whole life: a frozen database must fail a request
    settings = settings.with_(bounded_replies=True)
    web = WebContext(settings=settings, pinned=as_person, token=token or None)

    @asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        yield
        web.close()

    # FastAPI's own /docs loads Swagger UI from a CDN; this one serves it from the package.
    app = FastAPIOffline(
        static_url="/docs-files",
        lifespan=lifespan,
        title="companybrain",
        version="1",
        description="Answers that cite their records or refuse. Pages at /, API under /api.",
        dependencies=[Depends(inputs.check_values)],
    )
    app.state.web = web
    html = pages.Pages(web)

    def _page(request: Request) -> bool:
        return not request.url.path.startswith("/api/")

    def _error_page(request: Request, status: int, message: str) -> Response:
        if not _page(request):
            return JSONResponse({"error": message}, status_code=status)
        return html.templates.TemplateResponse(
            request,
            "error.html",
            {
                "page": "error", "title": str(status), "graph": settings.graph, "graphs": [],
                "pinned": as_person, "as_person": None, "keep": {}, "status": status,
                "error": message, "url": html.url_maker(settings.graph, None),
            },
            status_code=status,
        )  # fmt: skip

    @app.exception_handler(NotFound)
    async def not_found(request: Request, exc: NotFound) -> Response:
        return _error_page(request, 404, shown(exc, settings))

    @app.exception_handler(BrainError)
    async def brain_error(request: Request, exc: BrainError) -> Response:
        response = _error_page(request, http_status(exc), shown(exc, settings))
        if isinstance(exc, BusyError):
            response.headers["Retry-After"] = "1"
        return response

    # Starlette's, which FastAPI's subclasses: its router raises it for an unknown address
    @app.exception_handler(HTTPException)
    async def http_error(request: Request, exc: HTTPException) -> Response:
        problem = body_problem(exc)
        if problem is not None:  # said as a body that is not JSON is (422)
            return _error_page(request, 422, problem)
        return _error_page(request, exc.status_code, str(exc.detail))

    @app.exception_handler(RequestValidationError)
    async def invalid(request: Request, exc: RequestValidationError) -> Response:
        # Where and what only: the input is never echoed (it may be megabytes, or not even
        # text that can be encoded in the reply).
        return _error_page(request, 422, validation_message(exc.errors()))

    app.middleware("http")(security.guard(web.token))
    app.add_middleware(inputs.BodyLimit, limit=inputs.max_body_bytes(settings))
    if allowed_hosts:
        app.add_middleware(TrustedHostMiddleware, allowed_hosts=allowed_hosts)
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    app.include_router(api.router(web))
    app.include_router(pages.router(web))

    @app.get("/favicon.ico", include_in_schema=False)
    def favicon() -> Response:
        return Response(status_code=204)

    return app


def body_problem(exc: HTTPException) -> str | None:
    """What FastAPI's "There was an error parsing the body" was, when its cause says: bytes
    that are not UTF-8, or JSON nested deeper than the parser goes."""
    cause = exc.__cause__
    if isinstance(cause, UnicodeDecodeError):
        return f"body: not valid JSON (not UTF-8 text at byte {cause.start})"
    if isinstance(cause, RecursionError):
        return "body: not valid JSON (nested too deeply to read)"
    return None


def validation_message(errors: Sequence[Any]) -> str:
    """One "field: problem" per problem, joined: the location after `body` or `query`."""
    found = []
    for e in errors:
        loc = tuple(e.get("loc", ())) or ("body",)
        if e.get("type") == "json_invalid":  # loc is ("body", offset)
            error = e.get("ctx", {}).get("error", "")
            found.append(f"body: not valid JSON ({error} at character {loc[-1]})")
            continue
        where = ".".join(str(p) for p in loc[1:]) or str(loc[0])
        if e.get("type") == "extra_forbidden":  # a mistyped name, most likely
            found.append(f"{where}: not a field of this call (its fields are at /docs)")
            continue
        found.append(f"{where}: {e.get('msg', 'not valid')}")
    return "; ".join(dict.fromkeys(found))
