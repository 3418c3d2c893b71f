"""The web app's guards, in one place:

- an access token: when the server has one (it must, off loopback), every request needs
  it, as `Authorization: Bearer TOKEN` or the HttpOnly, SameSite=Strict session cookie the
  login form sets;
- cross-site requests: a state-changing request from another origin is refused; forms
  carry a double-submit token checked against a cookie; the JSON API takes JSON only (a
  cross-site page cannot send that without a CORS preflight, which is never granted);
- a Content-Security-Policy that allows no inline script, so that even text that slipped
  past escaping could run nothing.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Awaitable, Callable
from typing import Any
from urllib.parse import quote, urlsplit

from fastapi import HTTPException, Request
from fastapi.responses import JSONResponse, RedirectResponse, Response

SESSION_COOKIE = "brain_session"
CSRF_COOKIE = "brain_csrf"
CSRF_FIELD = "csrf"
UNSAFE = {"POST", "PUT", "PATCH", "DELETE"}
OPEN_PATHS = ("/login", "/static/")  # reachable without the token
CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'"
)
NO_CSP_PATHS = ("/docs", "/redoc")  # the OpenAPI pages start themselves with inline script


def session_value(token: str) -> str:
    """What the session cookie holds: derived from the token, never the token itself."""
    return hmac.new(token.encode(), b"companybrain-web-session", hashlib.sha256).hexdigest()


def _equal(a: str | None, b: str | None) -> bool:
    return bool(a) and bool(b) and hmac.compare_digest(str(a), str(b))


def authorised(request: Request, token: str) -> bool:
    header = request.headers.get("authorization", "")
    if header.lower().startswith("bearer ") and _equal(header[7:].strip(), token):
        return True
    return _equal(request.cookies.get(SESSION_COOKIE), session_value(token))


def same_origin(request: Request) -> bool:
    """A browser names the page a request came from; another site's page is refused. Tools
    that send no Origin (curl, scripts) are not browsers and carry no cookies of ours."""
    if request.headers.get("sec-fetch-site") == "cross-site":
        return False
    origin = request.headers.get("origin")
    if origin is None:
        referer = request.headers.get("referer")
        if not referer:
            return True
        parts = urlsplit(referer)
        origin = f"{parts.scheme}://{parts.netloc}"
    if origin == "null":
        return False
    host = request.headers.get("host", "")
    return origin in {f"http://{host}", f"https://{host}"}


def csrf_token(request: Request) -> str:
    """The double-submit token of this browser (set as a cookie by the middleware)."""
    return str(getattr(request.state, "csrf", "") or request.cookies.get(CSRF_COOKIE, ""))


def check_form(request: Request, form: Any) -> None:
    """A form post must carry the token its page was rendered with."""
    sent = form.get(CSRF_FIELD)
    if not _equal(str(sent) if sent else None, request.cookies.get(CSRF_COOKIE)):
        raise HTTPException(status_code=403, detail="the form's CSRF token is missing or wrong")


def safe_next(target: str | None) -> str:
    """Only a path on this server (no scheme, no host, no `//`)."""
    if not target or not target.startswith("/") or target.startswith("//") or "\\" in target:
        return "/"
    return target


Handler = Callable[[Request], Awaitable[Response]]


def guard(token: str | None) -> Callable[[Request, Handler], Awaitable[Response]]:
    async def middleware(request: Request, call_next: Handler) -> Response:
        path = request.url.path
        if token and not path.startswith(OPEN_PATHS) and not authorised(request, token):
            wants_html = "text/html" in request.headers.get("accept", "")
            if request.method == "GET" and wants_html:
                return RedirectResponse(f"/login?next={quote(safe_next(path), safe='/')}", 303)
            return JSONResponse({"error": "an access token is required"}, status_code=401)
        if request.method in UNSAFE:
            if not same_origin(request):
                return JSONResponse({"error": "cross-site request refused"}, status_code=403)
            if path.startswith("/api/"):
                kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
                if kind != "application/json":
                    return JSONResponse(
                        {"error": "the API takes application/json only"}, status_code=415
                    )
        fresh = None
        if not request.cookies.get(CSRF_COOKIE):
            fresh = secrets.token_urlsafe(32)
            request.state.csrf = fresh
        response = await call_next(request)
        if fresh:
            response.set_cookie(CSRF_COOKIE, fresh, httponly=True, samesite="strict", path="/")
        if not path.startswith(NO_CSP_PATHS):
            response.headers.setdefault("Content-Security-Policy", CSP)
        response.headers.setdefault("X-Content-Type-Options", "nosniff")
        response.headers.setdefault("Referrer-Policy", "same-origin")
        response.headers.setdefault("X-Frame-Options", "DENY")
        return response

    return middleware
