"""The JSON API: one call for every action of the pages, documented at /docs. `POST
/api/ask` returns exactly the answer object of spec/answers.md (as `brain ask --json`).
Every call takes `graph` and, unless the server is pinned to a person, `as`."""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import APIRouter, Query, Response
from pydantic import BaseModel, ConfigDict, Field

from companybrain.ask.engine import parse_now
from companybrain.brain import Brain
from companybrain.ingest.status import answer_warning
from companybrain.surfaces.web import board_view, company, graph_view, review_view
from companybrain.surfaces.web.context import Asker, WebContext, now_utc

GRAPH = Query(default=None, description="The graph to read [default: the server's].")
# `brain status` lines a caller of the web app is not told: paths and the database's address
PRIVATE_STATUS = ("data", "server")
AS = Query(default=None, alias="as", description="Ask as this person (their record access).")
# Beside an answer from a graph whose last ingest did not finish: the answer object is the
# one of spec/answers.md, which has no field for it, so it is said in this header
WARNING_HEADER = "X-Brain-Warning"


class Body(BaseModel):
    """A request body: a field it does not know is refused by name (422), never dropped: a
    mistyped `asOf` or `as_person` was answered for today, or for everyone."""

    model_config = ConfigDict(extra="forbid")


class AskBody(Body):
    question: str = Field(max_length=2000)  # empty, or only spaces: 400 from `ask`
    now: str | None = None
    as_of: str | None = None
    as_: str | None = Field(default=None, alias="as")
    graph: str | None = None


class RecordBody(Body):
    text: str = Field(max_length=company.TYPED_TEXT_MAX)  # empty or blank: 400 from the ingest
    author: str
    id: str | None = Field(default=None, max_length=200, pattern=r"^[A-Za-z0-9][A-Za-z0-9._:-]*$")
    about: list[str] = Field(default_factory=list)
    kind: str = "chat"  # accepted, never honoured: typed records are chat
    as_: str | None = Field(default=None, alias="as")
    graph: str | None = None


class SyncBody(Body):
    repo: str | None = None
    as_: str | None = Field(default=None, alias="as")
    graph: str | None = None


def router(web: WebContext) -> APIRouter:
    r = APIRouter(prefix="/api", tags=["api"])

    def asker(graph: str | None, person: str | None) -> tuple[Any, Any]:
        brain = web.brain(graph)
        return brain, web.asker(brain.store, person)

    @r.get("/status")
    def status(graph: str | None = GRAPH, as_: str | None = AS) -> dict[str, Any]:
        """What `brain status` says about the graph (mode, FalkorDB version, counts, the last
        ingest), but where the data folder and the database are on the server's machine.
        Asked as a person, without the counts and the last record written (the ingest's
        state stays): they cover records the person may not see."""
        brain, who = asker(graph, as_)
        found = {k: v for k, v in brain.status().items() if k not in PRIVATE_STATUS}
        if who.viewer.restricted:
            found["labels"] = found["relationships"] = None
            if found.get("last_ingest"):
                counted = dict.fromkeys(("durable", "last", "warning"))
                found["last_ingest"] = {**found["last_ingest"], **counted}
        return found

    def warn(response: Response, brain: Brain, who: Asker) -> None:
        warning = answer_warning(brain.store, counts=not who.viewer.restricted)
        if warning:
            response.headers[WARNING_HEADER] = warning

    @r.post("/ask")
    def ask(body: AskBody, response: Response) -> dict[str, Any]:
        """The answer object of spec/answers.md. After an ingest that did not finish, the
        `X-Brain-Warning` header says the answer is from the records it stored."""
        brain, who = asker(body.graph, body.as_)
        now = parse_now(body.now, "now") if body.now is not None else None  # 400 naming it
        answer = brain.ask(
            body.question, now=now, as_of=body.as_of, as_person=who.person, as_of_field="as_of"
        )
        warn(response, brain, who)
        return answer.to_dict()

    @r.post("/records")
    def add_record(body: RecordBody) -> dict[str, Any]:
        """Store a typed record (always chat, authority 35) and say what it did to the owner
        answers of the services and projects it names."""
        brain, who = asker(body.graph, body.as_)
        return company.add_record(
            brain.store, brain.settings, who, text=body.text, author=web.pinned or body.author,
            about=body.about, now=now_utc(), record_id=body.id,
        )  # fmt: skip

    @r.get("/record")
    def record(id: str, graph: str | None = GRAPH, as_: str | None = AS) -> dict[str, Any]:
        """A record with its quoted spans and the facts kept and rejected (404 if unseen)."""
        brain, who = asker(graph, as_)
        view = company.record_view(brain.store, id, who)
        view["spans"] = [{"text": p.text, "quoted": p.marked} for p in view.pop("pieces")]
        return view

    @r.get("/owners")
    def owners(
        response: Response, graph: str | None = GRAPH, as_: str | None = AS
    ) -> list[dict[str, Any]]:
        """Every service and project: its owner now, or why none, and its claims (with the
        `X-Brain-Warning` header of `/api/ask`)."""
        brain, who = asker(graph, as_)
        found = company.owners(brain.store, brain.settings, who, now_utc())
        warn(response, brain, who)
        return found

    @r.get("/graph")
    def graph_node(
        id: str, label: str | None = None, graph: str | None = GRAPH, as_: str | None = AS
    ) -> dict[str, Any]:
        """A node and its neighbours (404 for a node the person may not see)."""
        brain, who = asker(graph, as_)
        return graph_view.neighbourhood(brain.store, id, label, who.viewer)

    @r.get("/board")
    def board(graph: str | None = GRAPH, as_: str | None = AS) -> dict[str, Any]:
        """The board's tiles and handoffs."""
        brain, who = asker(graph, as_)
        store = web.board(graph)
        try:
            return board_view.board_view(brain.store, store, who.viewer)
        finally:
            if store is not None:
                store.close()

    @r.get("/board/item")
    def board_item(id: str, graph: str | None = GRAPH, as_: str | None = AS) -> dict[str, Any]:
        """What one work item produced."""
        brain, who = asker(graph, as_)
        store = web.board(graph)
        try:
            return board_view.board_item(brain.store, store, id, who.viewer)
        finally:
            if store is not None:
                store.close()

    @r.get("/repos")
    def repos(graph: str | None = GRAPH) -> list[dict[str, Any]]:
        """The repositories read into the graph, by name (not by folder), with their head."""
        found = review_view.repositories(web.brain(graph).store)
        return [{k: v for k, v in r.items() if k != "path"} for r in found]

    @r.get("/commits")
    def commits(repo: str, graph: str | None = GRAPH) -> list[dict[str, Any]]:
        """A repository's commits, newest first."""
        return review_view.commit_list(web.brain(graph).store, repo)

    @r.get("/review")
    def review(sha: str, repo: str | None = None, graph: str | None = GRAPH) -> dict[str, Any]:
        """One commit: its diff and the decisions it touches (as `brain review`)."""
        return review_view.commit_review(web.brain(graph).store, repo, sha)

    @r.post("/sync")
    async def sync(body: SyncBody) -> dict[str, Any]:
        """Read the repository's new commits, run the board, say what changed."""

        def run() -> dict[str, Any]:  # off the event loop, as every database call
            brain, who = asker(body.graph, body.as_)
            return review_view.sync(web.settings, brain.store, body.repo, viewer=who.viewer)

        return await asyncio.to_thread(run)

    return r
