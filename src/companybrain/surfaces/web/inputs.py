"""What every request is checked for before a route reads it, each refusal one error naming
the field and never echoing its value:

- a body over `max_body_bytes` is refused (413) before it is read into the app: a record's
  text is at most BRAIN_MAX_RECORD_BYTES, and nothing else sent is near that;
- a NUL or a lone surrogate in a query parameter, a JSON body field or a form field is
  refused (400) before it can reach a query (FalkorDB's parse error would read as an
  outage) or a git command (no process takes a NUL).
"""

from __future__ import annotations

import json
from typing import Any

from fastapi.exceptions import RequestValidationError
from fastapi.routing import APIRoute
from starlette.datastructures import Headers
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from companybrain.config import Settings
from companybrain.errors import InputError
from companybrain.policy.text import UNSTORABLE, strings_in, unstorable

# Room beside the record's text: the other fields, and JSON's escapes of the text itself.
BODY_SLACK_BYTES = 64 * 1024


def max_body_bytes(settings: Settings) -> int:
    return settings.max_record_bytes + BODY_SLACK_BYTES


class BodyLimit:
    """ASGI middleware: a request body over `limit` bytes is answered 413 before the app
    sees it, from its Content-Length or, when sent in chunks, as soon as it passes."""

    def __init__(self, app: ASGIApp, limit: int) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        length = Headers(scope=scope).get("content-length", "")
        if length.isdigit() and int(length) > self.limit:
            await self._refuse(scope, receive, send)
            return
        chunks: list[bytes] = []
        size, more = 0, True
        while more:
            message = await receive()
            if message["type"] != "http.request":  # the client left: let the app see it
                await self.app(scope, _replay([], message, receive), send)
                return
            chunks.append(message.get("body", b""))
            size += len(chunks[-1])
            if size > self.limit:
                await self._refuse(scope, receive, send)
                return
            more = message.get("more_body", False)
        await self.app(scope, _replay(chunks, None, receive), send)

    async def _refuse(self, scope: Scope, receive: Receive, send: Send) -> None:
        message = f"the request body is over {self.limit:,} bytes (BRAIN_MAX_RECORD_BYTES)"
        await JSONResponse({"error": message}, status_code=413)(scope, receive, send)


def _replay(chunks: list[bytes], last: Message | None, receive: Receive) -> Receive:
    """A `receive` that hands the app the body already read, then the real one."""
    pending: list[Message] = [{"type": "http.request", "body": b"".join(chunks)}]
    if last is not None:
        pending = [last]

    async def replay() -> Message:
        return pending.pop(0) if pending else await receive()

    return replay


async def check_values(request: Request) -> None:
    """An app-wide dependency: every value a request carries is text a query or a git
    command can take, or one InputError (400) naming the field; and a query parameter an
    API call does not take is refused by name (422), as a body field it does not know is
    (a mistyped `as_of` or `as_person` would be dropped: answered for now, as everyone)."""
    _refuse_unknown_parameters(request)
    fields: list[tuple[str, Any]] = list(request.query_params.multi_items())
    fields += list(request.path_params.items())
    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if request.method in {"POST", "PUT", "PATCH"} and kind == "application/json":
        try:
            body = json.loads(await request.body(), object_pairs_hook=_once_each)
        except _GivenTwice as twice:
            raise InputError(f"{_printable(str(twice))}: given more than once") from None
        except (ValueError, UnicodeDecodeError, RecursionError):  # nested past the stack
            body = None  # not JSON: the route's own validation says so
        if isinstance(body, dict):
            fields += list(body.items())
    elif kind in {"application/x-www-form-urlencoded", "multipart/form-data"}:
        fields += list((await request.form()).multi_items())
    for name, value in fields:
        for text in (name, *strings_in(value)):
            if UNSTORABLE.search(text):
                raise InputError(f"{_printable(name)}: {unstorable(text)}")


class _GivenTwice(Exception):
    """A JSON object naming one key twice (its name)."""


def _once_each(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A JSON object's pairs as a dict, refused when a key comes twice: JSON readers keep
    the last, so `{"as_of": "2026-09-25", "as_of": null}` was answered for now."""
    seen: dict[str, Any] = {}
    for key, value in pairs:
        if key in seen:
            raise _GivenTwice(key)
        seen[key] = value
    return seen


def _refuse_unknown_parameters(request: Request) -> None:
    """Pages take any parameter (a link may carry its own); API calls only theirs."""
    route = request.scope.get("route")
    if not request.url.path.startswith("/api/") or not isinstance(route, APIRoute):
        return
    taken = {p.alias for p in route.dependant.query_params}
    unknown = [name for name in dict.fromkeys(request.query_params) if name not in taken]
    if unknown:
        raise RequestValidationError(
            [{"type": "extra_forbidden", "loc": ("query", _printable(n))} for n in unknown]
        )
    names = [name for name, _ in request.query_params.multi_items()]
    if twice := next((n for n in names if names.count(n) > 1), None):  # the last one was taken
        raise InputError(f"{_printable(twice)}: given more than once")


def _printable(name: str) -> str:
    """A field name fit for a message (a NUL in the name itself is shown escaped)."""
    return name if not UNSTORABLE.search(name) else name.encode("unicode_escape").decode()
