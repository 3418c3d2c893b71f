"""`brain ask --agent`: a plain tool-calling loop over the read-only tools of the registry.

The model chooses tools and writes the final prose; code runs the tools, streams each call
to a callback as it happens, stops at a step limit, and checks the final answer
(policy/answer_checks.py). An answer that fails a check is replaced by the evidence and the
reason; the unchecked text never reaches the user."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from companybrain.ask.catalog import PERSON, PROJECT, SERVICE, TEAM, load_catalog
from companybrain.ask.registry import ReadOnlyStore, ToolContext, ToolSpec, read_only_tools
from companybrain.config import Settings
from companybrain.errors import BrainError, InputError, ModelError
from companybrain.graph.connection import Store
from companybrain.llm.client import ModelClient, ToolCall, refused
from companybrain.model.answer import Answer, Citation, Outranked
from companybrain.policy.answer_checks import (
    CheckReport,
    check_answer,
    evidence_from_answers,
    withheld,
)
from companybrain.policy.explanation import Named
from companybrain.policy.time import VagueDate

DEFAULT_MAX_STEPS = 8
# Tool calls run per model turn; more in one turn are answered with an error, not run.
MAX_CALLS_PER_TURN = 8
# What a tool result may take of the conversation; the rest is cut with a marker.
MAX_TOOL_RESULT_CHARS = 12_000

SYSTEM_PROMPT = """\
You answer questions about a company's records and its code repositories. You know nothing \
yourself: find everything with the tools, then reply with a short answer in plain text.

Rules for the final answer:
- Right after each claim, put the id of the item it rests on in square brackets, exactly as \
a tool returned it: [CC-1047], [DECISIONS.md#Use FalkorDB for the board], [a3f9c2e...].
- Use square brackets for nothing else.
- Every number, fraction or date you write must appear in the evidence of the item you cite \
right after it.
- If the tools found nothing that answers the question, say "I don't know" and assert \
nothing else.
"""


@dataclass(frozen=True)
class Step:
    """One tool call, as it happened."""

    step: int  # which model turn asked for it (1-based)
    tool: str
    arguments: dict[str, Any]
    answer: Answer | None = None
    error: str | None = None

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"step": self.step, "tool": self.tool, "arguments": self.arguments}
        if self.error is not None:
            out["error"] = self.error
        if self.answer is not None:
            out["status"] = self.answer.status
            out["refusal"] = self.answer.refusal.to_dict() if self.answer.refusal else None
            out["citations"] = [c.record for c in self.answer.citations]
        return out

    def line(self) -> str:
        """One line for a terminal: the call and what came back."""
        args = ", ".join(f"{k}={v!r}" for k, v in self.arguments.items())
        if self.error is not None:
            return f"{self.tool}({args}) · error: {self.error}"
        assert self.answer is not None
        n = len(self.answer.citations)
        what = self.answer.status
        if self.answer.refusal:
            what += f" {self.answer.refusal.code.value}"
        return f"{self.tool}({args}) · {what} · {n} citation{'s' if n != 1 else ''}"


@dataclass
class AgentAnswer:
    """What the user sees. `status` is `answered` (the model's prose passed every check),
    `abstained` (it said it does not know and asserted nothing else) or `withheld` (a check
    failed or the loop did not finish: the evidence and the reason instead)."""

    question: str
    status: str
    text: str  # the checked prose, or the evidence and the reason
    text_by: str  # "model" when the prose is the model's, "template" otherwise
    checks: CheckReport | None
    reason: str | None
    steps: list[Step] = field(default_factory=list)
    citations: list[Citation] = field(default_factory=list)
    outranked: list[Outranked] = field(default_factory=list)
    now: str | None = None
    routed: Answer | None = None  # the routed answer: no model configured, or a vague date
    note: str | None = None

    @property
    def checks_line(self) -> str:
        return self.checks.summary() if self.checks else "no model answer to check"

    def to_dict(self) -> dict[str, Any]:
        if self.routed is not None:
            return {**self.routed.to_dict(), "mode": "routed", "note": self.note}
        return {
            "question": self.question,
            "mode": "agent",
            "status": self.status,
            "now": self.now,
            "answer": self.text,
            "answer_by": self.text_by,
            "reason": self.reason,
            "checks": self.checks.to_dict() if self.checks else None,
            "citations": [c.to_dict() for c in self.citations],
            "outranked": [o.to_dict() for o in self.outranked],
            "steps": [s.to_dict() for s in self.steps],
        }


OnStep = Callable[[Step], None]


def run_agent(
    question: str,
    ctx: ToolContext,
    tools: Sequence[ToolSpec],
    *,
    client: ModelClient | None = None,
    max_steps: int = DEFAULT_MAX_STEPS,
    on_step: OnStep | None = None,
    system_prompt: str = SYSTEM_PROMPT,
) -> AgentAnswer:
    """Run the loop until the model answers in prose or `max_steps` model turns pass."""
    if max_steps < 1:
        raise BrainError("the agent's step limit must be at least 1")
    client = client or ModelClient(ctx.settings)
    by_name = {t.name: t for t in tools}
    chat_tools = [t.chat_tool() for t in tools]
    messages: list[dict[str, Any]] = [
        {"role": "system", "content": system_prompt},
        {"role": "user", "content": _user_turn(question, ctx.now)},
    ]
    steps: list[Step] = []
    answers: list[Answer] = []
    now = ctx.now.isoformat() if ctx.now else None

    for turn in range(1, max_steps + 1):
        try:
            reply = client.chat(messages, chat_tools)
        except ModelError as exc:  # what the tools returned so far is still shown
            reason = f"the model failed at step {turn}: {exc}"
            return _withheld(question, answers, steps, now, reason, None)
        if not reply.tool_calls:
            if not (reply.content or "").strip() and (refusal := refused(reply)):
                return _withheld(question, answers, steps, now, refusal, None)
            known = _known(ctx) if answers else []
            return _finish(question, (reply.content or "").strip(), answers, steps, now, known)
        messages.append(reply.as_message())
        for n, call in enumerate(reply.tool_calls):
            if n < MAX_CALLS_PER_TURN:
                step = _run_call(turn, call, by_name, ctx)
            else:
                limit = f"not run: at most {MAX_CALLS_PER_TURN} tool calls per turn"
                step = Step(turn, call.name, dict(call.arguments), error=limit)
            steps.append(step)
            if step.answer is not None:
                answers.append(step.answer)
            if on_step:
                on_step(step)
            messages.append(
                {"role": "tool", "tool_call_id": call.id, "content": _tool_content(step)}
            )
    reason = f"the model did not give a final answer within {max_steps} steps"
    return _withheld(question, answers, steps, now, reason, None)


def _user_turn(question: str, now: datetime | None) -> str:
    if now is None:
        return question
    return f"{question}\n\n(The question is asked at {now.isoformat()}.)"


def _run_call(turn: int, call: ToolCall, by_name: dict[str, ToolSpec], ctx: ToolContext) -> Step:
    spec = by_name.get(call.name)
    args = {k: v for k, v in call.arguments.items() if k != "__invalid_json__"}
    if spec is None:
        known = ", ".join(sorted(by_name))
        return Step(turn, call.name, args, error=f"no tool named {call.name!r} (tools: {known})")
    try:
        return Step(turn, call.name, args, answer=spec(ctx, call.arguments))
    except BrainError as exc:  # a bad argument or a failed query goes back to the model
        return Step(turn, call.name, args, error=str(exc))


def _tool_content(step: Step) -> str:
    if step.error is not None:
        return json.dumps({"error": step.error})
    assert step.answer is not None
    text = json.dumps(step.answer.to_dict(), ensure_ascii=False, default=str)
    if len(text) > MAX_TOOL_RESULT_CHARS:
        text = text[:MAX_TOOL_RESULT_CHARS] + " …[cut]"
    return text


def _known(ctx: ToolContext) -> list[Named]:
    """The people, services, projects and teams the graph knows, for the answer's names."""
    catalog = load_catalog(ctx.store)
    return [Named(e.id, e.names) for e in catalog.of(PERSON, SERVICE, PROJECT, TEAM)]


def _finish(
    question: str,
    text: str,
    answers: list[Answer],
    steps: list[Step],
    now: str | None,
    known: list[Named],
) -> AgentAnswer:
    if not text:
        return _withheld(question, answers, steps, now, "the model's answer was empty", None)
    report = check_answer(text, evidence_from_answers(answers), known, question)
    if not report.passed:
        return _withheld(question, answers, steps, now, None, report)
    cited = set(report.cited)
    return AgentAnswer(
        question=question,
        status="abstained" if report.abstained else "answered",
        text=text,
        text_by="model",
        checks=report,
        reason=None,
        steps=steps,
        citations=_unique_citations(
            a for ans in answers for a in ans.citations if a.record in cited
        ),
        outranked=_unique_outranked(
            o for ans in answers for o in ans.outranked if o.record in cited
        ),
        now=now,
    )


def _withheld(
    question: str,
    answers: list[Answer],
    steps: list[Step],
    now: str | None,
    reason: str | None,
    report: CheckReport | None,
) -> AgentAnswer:
    why = reason or "; ".join(report.failures if report else ()) or "it did not pass the checks"
    empty = CheckReport(False, False, 0, 0, (), (why,))
    return AgentAnswer(
        question=question,
        status="withheld",
        text=withheld(report or empty, answers, why),
        text_by="template",
        checks=report,
        reason=why,
        steps=steps,
        citations=_unique_citations(c for a in answers for c in a.citations),
        outranked=_unique_outranked(o for a in answers for o in a.outranked),
        now=now,
    )


def _unique_citations(items: Any) -> list[Citation]:
    seen: dict[tuple[str, str | None], Citation] = {}
    for c in items:
        seen.setdefault((c.record, c.quote), c)
    return list(seen.values())


def _unique_outranked(items: Any) -> list[Outranked]:
    seen: dict[tuple[str, str | None], Outranked] = {}
    for o in items:
        seen.setdefault((o.record, o.quote), o)
    return list(seen.values())


NO_MODEL_NOTE = (
    "no model is configured (set BRAIN_MODEL and BRAIN_MODEL_BASE_URL): "
    "this is the routed answer instead"
)


def ask_agent(
    store: Store,
    settings: Settings,
    question: str,
    *,
    now: str | datetime | None = None,
    as_of: str | None = None,
    as_person: str | None = None,
    max_steps: int = DEFAULT_MAX_STEPS,
    on_step: OnStep | None = None,
) -> AgentAnswer:
    """The agent loop over every read-only tool, as `brain ask --agent` and the API run it.
    Without a model it says so and falls back to the routed answer. The time is code's to
    read, as for a routed question: every company tool answers for the question's date
    (or `as_of`, else the clock), whatever date the model passes, and a question whose
    time is vague gets the routed answer, its VAGUE_DATE refusal."""
    from companybrain.ask.engine import ask, parse_now, question_time, viewer_for

    question = question.strip()
    if not question:
        raise InputError("the question is empty")
    clock = parse_now(now)
    viewer = viewer_for(store, as_person)  # an unknown --as is one clear error, model or not
    configured = settings.model_configured
    when = question_time(store, question, clock, as_of, viewer) if configured else None
    if when is None or isinstance(when, VagueDate):
        routed = ask(store, settings, question, now=clock, as_of=as_of, as_person=as_person)
        return AgentAnswer(
            question=question,
            status=routed.status,
            text=routed.explanation,
            text_by=routed.explanation_by,
            checks=None,
            reason=None,
            citations=list(routed.citations),
            outranked=list(routed.outranked),
            now=clock.isoformat(),
            routed=routed,
            note=None if configured else NO_MODEL_NOTE,
        )
    asked = question if as_of is None else f"{question}\n\n(The question is about {as_of}.)"
    ro = ReadOnlyStore(settings, store.graph_name)
    try:
        ctx = ToolContext(ro, settings, now=clock, as_person=as_person, time=when)
        out = run_agent(asked, ctx, read_only_tools(), max_steps=max_steps, on_step=on_step)
    finally:
        ro.close()
    out.question = question
    return out
