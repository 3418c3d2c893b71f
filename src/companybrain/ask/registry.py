"""The one list of read-only tools that the agent loop and the MCP server offer: a name, a
one-line description a model can act on, a JSON schema for the arguments, and a function
from (context, arguments) to the answer envelope.

Read-only is enforced, not promised: every tool runs against a `ReadOnlyStore`, which sends
each query as GRAPH.RO_QUERY, so the server itself rejects a write."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

import jsonschema

from companybrain.ask import engine, explain, tools
from companybrain.ask.catalog import DECISION, Catalog, Entity, load_catalog
from companybrain.ask.repo import answers as repo_answers
from companybrain.ask.repo import history_tools, told
from companybrain.ask.repo import review as repo_review
from companybrain.ask.repo import tools as repo_tools
from companybrain.ask.repo.then import Then, log_for_decision, stood
from companybrain.ask.router import (
    MIN_DECISION_OVERLAP,
    Route,
    decisions_naming,
    named_as,
    names_written,
    unknown_beside,
)
from companybrain.config import Settings
from companybrain.errors import InputError, StoreError
from companybrain.graph.connection import Prepared, Row, Store
from companybrain.graph.queries import ask_q
from companybrain.model.answer import Answer, RefusalCode
from companybrain.policy.text import unstorable
from companybrain.policy.time import QuestionTime, VagueDate, format_instant, parse_as_of


class ReadOnlyStore(Store):
    """A store whose every query runs read-only on the server (GRAPH.RO_QUERY)."""

    def query(
        self,
        cypher: str | Prepared,
        params: Mapping[str, Any] | None = None,
        *,
        read_only: bool = False,
    ) -> list[Row]:
        return super().query(cypher, params, read_only=True)

    def command(self, *args: Any) -> Any:
        if str(args[0]).upper() not in {"MODULE", "GRAPH.LIST", "PING"}:
            raise StoreError(f"{args[0]} is not allowed on a read-only store")
        return super().command(*args)

    def delete_graph(self) -> bool:
        raise StoreError("cannot delete a graph through a read-only store")

    def ensure_schema(self) -> None:
        self._schema_ready = True  # creating indexes is a write; readers use what exists

    def for_graph(self, graph: str) -> Store:
        return ReadOnlyStore(self.settings, graph)


@dataclass(frozen=True)
class ToolContext:
    """What every tool call is answered against: the graph (read-only), settings, the clock
    the question is read against (None: the real time) and who is asking (None: the
    unrestricted CLI view)."""

    store: Store
    settings: Settings
    now: datetime | None = None
    as_person: str | None = None
    # The time code read from the question (the agent's): company tools answer for it and
    # ignore the `as_of` a model passes. None: each call's own `as_of` (an MCP client's).
    time: QuestionTime | None = None


ToolFn = Callable[[ToolContext, dict[str, Any]], Answer]


@dataclass(frozen=True)
class ToolSpec:
    name: str
    description: str
    parameters: dict[str, Any]
    run: ToolFn = field(repr=False)

    def check_arguments(self, arguments: Mapping[str, Any]) -> dict[str, Any]:
        """The arguments, validated against the schema; one clear error naming the field."""
        args = dict(arguments)
        if "__invalid_json__" in args:
            raise InputError(f"{self.name}: the arguments are not a JSON object")
        try:
            jsonschema.validate(args, self.parameters)
        except jsonschema.ValidationError as exc:
            where = ".".join(str(p) for p in exc.absolute_path) or "arguments"
            if exc.validator == "maxLength":  # its message would echo the whole value
                limit = f"{len(exc.instance):,} characters; at most {exc.validator_value:,}"
                raise InputError(f"{self.name}: {where}: {limit}") from None
            raise InputError(f"{self.name}: {where}: {exc.message}") from None
        for key, value in args.items():  # the schemas take strings: one level to look at
            if isinstance(value, str) and (problem := unstorable(value)):
                raise InputError(f"{self.name}: {key}: {problem}")
        return args

    def __call__(self, ctx: ToolContext, arguments: Mapping[str, Any]) -> Answer:
        return self.run(ctx, self.check_arguments(arguments))

    def chat_tool(self) -> dict[str, Any]:
        """The definition in the chat-completions format."""
        return {
            "type": "function",
            "function": {
                "name": self.name,
                "description": self.description,
                "parameters": self.parameters,
            },
        }


def schema(
    required: Mapping[str, str], optional: Mapping[str, str] | None = None
) -> dict[str, Any]:
    """An object schema of string arguments, each with its description, and each no longer
    than a question (the readers of subjects and topics are not linear in their text)."""
    limit = engine.MAX_QUESTION_CHARS
    props = {
        k: {"type": "string", "description": v, "maxLength": limit}
        for k, v in {**required, **(optional or {})}.items()
    }
    return {
        "type": "object",
        "properties": props,
        "required": list(required),
        "additionalProperties": False,
    }


# -- the tools --------------------------------------------------------------------------------
# Company tools resolve their subject by id, name or alias through the catalog of what the
# viewer may see, read the time from `as_of` (or the clock), and run the same functions as
# `brain ask`. Repository tools take paths, decision ids, topics and commits as given.


def _clock(ctx: ToolContext) -> datetime:
    return ctx.now or datetime.now(UTC)


def _company(
    ctx: ToolContext, tool: str, what: str, types: tuple[str, ...], args: dict[str, Any]
) -> Answer:
    """Run a company tool on the one entity `args[what]` names."""
    viewer = engine.viewer_for(ctx.store, ctx.as_person)
    catalog = load_catalog(ctx.store, viewer)
    text = str(args.get(what, ""))
    question = f"{tool}: {text}"
    when = ctx.time or _time(args.get("as_of"), _clock(ctx), catalog.timezone)
    # (a day asked about settles a tie of decisions, as in `brain ask`: one recorded later
    # is not what was meant then)
    as_of_ms = when.written_by_ms if isinstance(when, QuestionTime) and when.phrase else None
    entity, refusal = resolve_entity(catalog, text, types, as_of_ms)
    # Refusals are explained and dated as `brain ask` does them (engine._company_answer).
    if refusal is not None:
        as_of = (
            format_instant(when.as_of, catalog.timezone) if isinstance(when, QuestionTime) else None
        )
        answer = Answer.refused(question, refusal[0], refusal[1], tool=tool, as_of=as_of)
        return explain.explain(answer, catalog, None)
    assert entity is not None
    if isinstance(when, VagueDate):
        answer = Answer.refused(
            question, RefusalCode.VAGUE_DATE, when.given_as("as_of"), tool=tool,
            subject=entity.subject(),
        )  # fmt: skip
        return explain.explain(answer, catalog, None)
    actx = tools.AskContext(ctx.store, ctx.settings, catalog, viewer, question, when)
    answer = engine.run_tool(actx, Route(tool, subject=entity))
    return explain.explain(answer, catalog, None)


def _time(as_of: Any, clock: datetime, tz: str) -> QuestionTime | VagueDate:
    """Without `as_of`, now; an empty one is no day, as `brain ask --as-of ""` and the web
    API's `"as_of": ""` are (a variable left empty must not mean today)."""
    if as_of is None:
        return QuestionTime(as_of=clock.astimezone(UTC), now=clock)
    return parse_as_of(str(as_of), clock, tz)


def resolve_entity(
    catalog: Catalog, text: str, types: tuple[str, ...], as_of_ms: int | None = None
) -> tuple[Entity | None, tuple[RefusalCode, str] | None]:
    """The one entity of `types` that `text` names: by id, then by name or alias, then (for
    decisions) by the words of its title; of decisions that fit equally, those recorded by
    `as_of_ms` (a day asked about). None with a refusal otherwise."""

    text = text.strip()
    found = catalog.get(text, *types) or catalog.get(text.lower(), *types)
    if found:
        return found, None
    mentions = named_as(text, catalog, *types)
    named = list(dict.fromkeys(m.entity for m in mentions))
    preferred = [e for e in named if e.type == types[0]] or named
    if len(preferred) == 1:
        if "Service" in types and (other := unknown_beside(text, catalog, mentions)):
            # ("the search index and the zeppelin": not the search index alone)
            return None, (
                RefusalCode.NOT_IN_GRAPH,
                f'{text!r} names {preferred[0].name} and "{other}", which the graph does not '
                "know; ask about one",
            )
        return preferred[0], None
    if len(preferred) > 1:
        names = " and ".join(e.name for e in preferred)
        return None, (RefusalCode.OUT_OF_SCOPE, f"{text!r} names {names}; ask about one")
    if DECISION in types:  # (among those holding every name it writes, as `brain ask`)
        holding = decisions_naming(
            names_written(text, catalog, sentence=False), catalog.of(DECISION)
        )
        scored = sorted(
            ((catalog.decision_overlap(text, d), d) for d in holding),
            key=lambda pair: (-pair[0], pair[1].id),
        )
        if scored and scored[0][0] >= MIN_DECISION_OVERLAP:
            top = [d for score, d in scored if score == scored[0][0]]
            then = [d for d in top if as_of_ms is None or (d.extra.get("at_ms") or 0) <= as_of_ms]
            if len(top) == 1 or len(then) == 1:
                return (then or top)[0], None
            return None, (RefusalCode.OUT_OF_SCOPE, f"{text!r} fits several decisions equally")
    kinds = " or ".join(t.lower() for t in types)
    return None, (RefusalCode.NOT_IN_GRAPH, f"the graph knows no {kinds} named {text!r}")


def _owner_of(ctx: ToolContext, args: dict[str, Any]) -> Answer:
    return _company(ctx, "owner_of", "subject", ("Service", "Project"), args)


def _who_knows(ctx: ToolContext, args: dict[str, Any]) -> Answer:
    """A service or project of the company, else a file or folder of a repository."""

    subject = str(args["subject"])
    catalog = load_catalog(ctx.store, engine.viewer_for(ctx.store, ctx.as_person))
    entity, _ = resolve_entity(catalog, subject, ("Service", "Project"))
    if entity is None and ask_q.has_repository_data(ctx.store):
        return repo_tools.who_knows(
            ctx.store, subject, question=f"who_knows: {subject}", now=ctx.now
        )
    return _company(ctx, "who_knows", "subject", ("Service", "Project"), args)


def _trace_decision(ctx: ToolContext, args: dict[str, Any]) -> Answer:
    return _company(ctx, "trace_decision", "decision", ("Decision",), args)


def _person_or_team(ctx: ToolContext, args: dict[str, Any]) -> Answer:
    return _company(ctx, "person_or_team", "name", ("Person", "Team"), args)


def _search_records(ctx: ToolContext, args: dict[str, Any]) -> Answer:

    viewer = engine.viewer_for(ctx.store, ctx.as_person)
    catalog = load_catalog(ctx.store, viewer)
    query = str(args["query"])
    # (as `brain ask` reads it: records written after the clock are not found)
    clock = _clock(ctx)
    when = QuestionTime(as_of=clock.astimezone(UTC), now=clock)
    actx = tools.AskContext(ctx.store, ctx.settings, catalog, viewer, f"search: {query}", when)
    return explain.explain(tools.search_records(actx, query), catalog, None)


def _then(ctx: ToolContext, tool: str) -> tuple[datetime | None, Then | None] | Answer:
    """The day code read from the agent's question: the decision log then (from git), or
    why it cannot be read. Without one (an MCP call), today's."""
    when = ctx.time
    if when is None or when.phrase is None:
        return ctx.now, None
    then = stood(ctx.store, when)
    if isinstance(then, str):
        return repo_answers.not_recorded(f"{tool} on {when.phrase}", tool, None, when.as_of, then)
    return when.as_of, then


def _why(ctx: ToolContext, args: dict[str, Any]) -> Answer:
    dated = _then(ctx, "why")
    if isinstance(dated, Answer):
        return dated
    return repo_tools.why(ctx.store, str(args["subject"]), now=dated[0], then=dated[1])


def _what_breaks(ctx: ToolContext, args: dict[str, Any]) -> Answer:
    dated = _then(ctx, "what_breaks")
    if isinstance(dated, Answer):
        return dated
    return repo_tools.what_breaks(ctx.store, str(args["path"]), now=dated[0], then=dated[1])


def _disproven(ctx: ToolContext, args: dict[str, Any]) -> Answer:
    dated = _then(ctx, "disproven")
    if isinstance(dated, Answer):
        return dated
    topic = str(args.get("topic") or "")
    return repo_tools.disproven(ctx.store, topic, now=dated[0], then=dated[1])


def _trace(ctx: ToolContext, args: dict[str, Any]) -> Answer:
    dated = _then(ctx, "trace")
    if isinstance(dated, Answer):
        return dated
    return history_tools.trace(ctx.store, str(args["decision"]), now=dated[0], then=dated[1])


def _origin(ctx: ToolContext, args: dict[str, Any]) -> Answer:
    until = ctx.time.as_of if ctx.time and ctx.time.phrase else None
    subject = str(args["subject"])
    return history_tools.origin(
        ctx.store, subject, now=until or ctx.now, until=until,
        then=log_for_decision(ctx.store, subject, ctx.time),
    )  # fmt: skip


def _told(ctx: ToolContext, args: dict[str, Any]) -> Answer:
    return told.told(
        ctx.store, str(args["when"]), str(args.get("topic") or ""), args.get("file"), now=ctx.now
    )


def _review(ctx: ToolContext, args: dict[str, Any]) -> Answer:
    return repo_review.review(ctx.store, str(args["rev"]), args.get("base"), now=ctx.now)


REV = "one commit: a sha or a ref such as HEAD or a branch (not a range A..B)"
BASE = "the commit or ref to compare against (default: rev's parent); for A..B, base A, rev B"
AS_OF = "a day or instant the question is about (2026-09-25, September 25, 2026, yesterday); "
AS_OF += "default: now"


def read_only_tools() -> list[ToolSpec]:
    """Every read-only tool, company and repository, in the order a model should try them.
    Each refuses to run on anything but a `ReadOnlyStore`."""
    return [_read_only(t) for t in _TOOLS]


def _read_only(spec: ToolSpec) -> ToolSpec:
    def run(ctx: ToolContext, args: dict[str, Any]) -> Answer:
        if not isinstance(ctx.store, ReadOnlyStore):
            raise StoreError(f"{spec.name} runs only on a read-only store (ReadOnlyStore)")
        return spec.run(ctx, args)

    return ToolSpec(spec.name, spec.description, spec.parameters, run)


_TOOLS = [
    ToolSpec(
        "owner_of",
        "Who owns a service or project at a time (a review contact, never approval), "
        "with the record and quote that say so, or a refusal with its reason.",
        schema({"subject": "service or project: name, alias or id"}, {"as_of": AS_OF}),
        _owner_of,
    ),
    ToolSpec(
        "who_knows",
        "Who knows a service or project (from tickets, docs, comments, chat), or a file "
        "or folder of a repository (from its history); ranked, with the bus factor.",
        schema({"subject": "service, project, or a repository path"}, {"as_of": AS_OF}),
        _who_knows,
    ),
    ToolSpec(
        "trace_decision",
        "Why a company decision was made and what replaced what: the supersession chain "
        "(newest first) and the records that motivated it.",
        schema({"decision": "decision id (ADR-004) or words from its title"}, {"as_of": AS_OF}),
        _trace_decision,
    ),
    ToolSpec(
        "person_or_team",
        "Who a person is (team, e-mail, teams led) or who is on a team.",
        schema({"name": "person or team: name, alias or id"}),
        _person_or_team,
    ),
    ToolSpec(
        "search_records",
        "Full-text search over the company's records; the best hits with snippets. "
        '"quoted phrase" must appear as written, -word or -ID leaves records out, '
        "@title:word searches titles.",
        schema({"query": "words to search for"}),
        _search_records,
    ),
    ToolSpec(
        "why",
        "Why a file, folder, symbol or topic of a repository is the way it is: the "
        "recorded decisions behind it, with quoted lines.",
        schema({"subject": "path, symbol or topic"}),
        _why,
    ),
    ToolSpec(
        "what_breaks",
        "What rests on a repository file or folder: the decisions that name it and the "
        "experiments recorded against them. Ask before changing it.",
        schema({"path": "file or folder path from the repository root"}),
        _what_breaks,
    ),
    ToolSpec(
        "disproven",
        "What was tried and recorded as failed or disproven, about a topic or file; "
        "do not retry these without new evidence.",
        schema({}, {"topic": "topic or path; empty for all"}),
        _disproven,
    ),
    ToolSpec(
        "trace",
        "What replaced what among a repository's decision records: the supersession "
        "chain through a decision, newest first.",
        schema({"decision": "decision id (docs/adr/0003-x.md, DECISIONS.md#Heading)"}),
        _trace,
    ),
    ToolSpec(
        "origin",
        "Where a repository file or decision came from: the commit, author and date "
        "that introduced it.",
        schema({"subject": "file path or decision id"}),
        _origin,
    ),
    ToolSpec(
        "told",
        "What an agent instruction file (CLAUDE.md, AGENTS.md, .cursorrules...) said at "
        "a commit or on a day, optionally about a topic.",
        schema(
            {"when": "a commit sha or one specific day"},
            {"topic": "what the instructions were about", "file": "instruction file"},
        ),
        _told,
    ),
    ToolSpec(
        "review",
        "Which recorded decisions a commit touches (or the change from `base` to it), from "
        "the decision log as it stood then: decisions to follow, disproven experiments (do "
        "not retry), superseded decisions and who knows each file.",
        schema({"rev": REV}, {"base": BASE}),
        _review,
    ),
]


def check_person(ctx: ToolContext) -> None:
    """--as names someone the graph knows; one clear error otherwise."""
    engine.viewer_for(ctx.store, ctx.as_person)
