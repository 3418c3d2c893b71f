"""The web API of spec/answers.md: `POST /api/ask` returns the same answer object as
`brain ask --json` and the MCP tools; `POST /api/records` stores a record typed by a person,
always as chat, whatever kind it claims. There is no authentication: bind to loopback, or
put it behind a proxy that does it, and start it `--as PERSON` to apply that person's
record access to everything served."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field

from companybrain.brain import Brain
from companybrain.config import Settings
from companybrain.errors import BrainError, InputError
from companybrain.model.records import Record


class AskBody(BaseModel):
    question: str = Field(min_length=1, max_length=2000)
    now: str | None = None
    as_of: str | None = None
    as_: str | None = Field(default=None, alias="as")


class RecordBody(BaseModel):
    text: str = Field(min_length=1, max_length=100_000)
    author: str
    id: str | None = None
    about: list[str] = Field(default_factory=list)
    kind: str = "chat"  # accepted, never honoured: typed records are chat


def create_app(settings: Settings, as_person: str | None = None) -> FastAPI:
    brain = Brain(settings=settings)
    app = FastAPI(title="companybrain", version="1")

    @app.exception_handler(BrainError)
    async def brain_error(_: Request, exc: BrainError) -> JSONResponse:
        return JSONResponse(status_code=400, content={"error": str(exc)})

    @app.get("/api/status")
    def status() -> dict[str, Any]:
        return brain.status()

    @app.post("/api/ask")
    def ask(body: AskBody) -> dict[str, Any]:
        if as_person and body.as_ and body.as_ != as_person:
            raise InputError(f"this server answers as {as_person!r} only")
        who = as_person or body.as_
        return brain.ask(body.question, now=body.now, as_of=body.as_of, as_person=who).to_dict()

    @app.post("/api/records")
    def add_record(body: RecordBody) -> dict[str, Any]:
        from companybrain.ingest.pipeline import add_typed_record

        at = datetime.now(UTC)
        rid = body.id or f"typed-{at.strftime('%Y%m%dT%H%M%S%f')}-{body.author}"
        record = Record(
            id=rid,
            kind="chat",
            at=at,
            text=body.text,
            author=body.author,
            about=tuple(body.about),
            origin="web",
        )
        report = add_typed_record(brain.store, record, settings)
        return {
            "id": rid,
            "kind": "chat",
            "kept": report.kept,
            "refused": sum(report.rejected_facts.values()),
        }

    return app
