"""Live updates as server-sent events: the tool calls of a question as they happen, then
its answer rendered on the server; and the board's tiles as their state changes. Pages do
not need these: without JavaScript the same question is asked by a plain GET."""

from __future__ import annotations

import asyncio
import json
import queue
import threading
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from typing import Any

from companybrain.ask.engine import parse_now
from companybrain.brain import Brain
from companybrain.errors import BrainError
from companybrain.ingest.status import answer_warning
from companybrain.surfaces.web.company import answer_view
from companybrain.surfaces.web.context import Asker, shown

BOARD_POLL_S = 1.0
BOARD_STREAM_S = 600.0  # a board page stops listening after ten minutes (reload to resume)


@dataclass(frozen=True)
class AskInput:
    question: str
    as_of: str | None = None
    now: str | None = None


def run_ask(
    brain: Brain, asker: Asker, given: AskInput, on_step: Callable[[str], None]
) -> dict[str, Any]:
    """Ask, telling `on_step` each tool call as it happens. With a model configured, the
    model calls the read-only tools in a loop and code checks its answer; without one, the
    router picks one tool and code answers. `warning`: that the last ingest did not finish,
    so the answer is from the records it stored (None: it did)."""
    view = _answer(brain, asker, given, on_step)
    view["warning"] = answer_warning(brain.store, counts=not asker.viewer.restricted)
    return view


def _answer(
    brain: Brain, asker: Asker, given: AskInput, on_step: Callable[[str], None]
) -> dict[str, Any]:
    store = brain.store
    now = parse_now(given.now, "now") if given.now else None  # errors name the form's fields
    if brain.settings.model_configured:
        agent = brain.ask_agent(
            given.question, now=now, as_of=given.as_of, as_person=asker.person,
            on_step=lambda step: on_step(step.line()),
        )  # fmt: skip
        if agent.routed is not None:
            return answer_view(store, agent.routed, asker)
        data: dict[str, Any] = {
            "question": given.question,
            "tool": "agent",
            "subject": None,
            "as_of": None,
            "status": agent.status,
            "refusal": {"code": agent.status.upper(), "message": agent.reason}
            if agent.reason
            else None,
            "result": None,
            "citations": [c.to_dict() for c in agent.citations],
            "outranked": [o.to_dict() for o in agent.outranked],
            "explanation": agent.text,
            "explanation_by": agent.text_by,
            "lines": [],
            "checked": [{"ok": None, "text": agent.checks_line}],
        }
        return data
    on_step("routing the question (rules)")
    answer = brain.ask(
        given.question, now=now, as_of=given.as_of, as_person=asker.person, as_of_field="as_of"
    )
    subject = answer.subject["id"] if answer.subject else ""
    what = answer.status + (f" {answer.refusal.code.value}" if answer.refusal else "")
    n = len(answer.citations)
    on_step(f"{answer.tool or 'no tool'}({subject}) · {what} · {n} citation{'s' if n != 1 else ''}")
    return answer_view(store, answer, asker)


def _event(name: str, data: Any) -> str:
    return f"event: {name}\ndata: {json.dumps(data, ensure_ascii=False)}\n\n"


async def ask_events(
    brain: Brain, asker: Asker, given: AskInput, render: Callable[[dict[str, Any]], str]
) -> AsyncIterator[str]:
    """Run the question in a thread; stream its steps, then the rendered answer."""
    events: queue.Queue[tuple[str, Any]] = queue.Queue()

    def work() -> None:
        try:
            view = run_ask(brain, asker, given, lambda line: events.put(("step", line)))
            events.put(("answer", {"html": render(view)}))
        except BrainError as exc:
            events.put(("failed", {"error": shown(exc, brain.settings)}))
        except Exception as exc:  # the page shows one line, never a traceback
            events.put(
                ("failed", {"error": f"the question could not be answered: {type(exc).__name__}"})
            )
        events.put(("done", None))

    threading.Thread(target=work, name="ask", daemon=True).start()
    while True:
        try:
            name, data = events.get_nowait()
        except queue.Empty:
            await asyncio.sleep(0.05)
            continue
        yield _event(name, data)
        if name == "done":
            return


async def failed_events(error: str) -> AsyncIterator[str]:
    """A question that could not start (the database did not answer): the page's reason."""
    yield _event("failed", {"error": error})
    yield _event("done", None)


async def board_events(
    read: Callable[[], dict[str, Any]], disconnected: Callable[[], Any]
) -> AsyncIterator[str]:
    """The board's states each second, sent only when they changed."""
    last = None
    waited = 0.0
    while waited < BOARD_STREAM_S:
        if await disconnected():
            return
        now = await asyncio.to_thread(read)
        if now != last:
            yield _event("status", now)
            last = now
        await asyncio.sleep(BOARD_POLL_S)
        waited += BOARD_POLL_S
