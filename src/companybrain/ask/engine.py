"""Answering one question: route it, ground the subject, read its time, run the tool, and
explain. Cite or refuse: every path ends in an answer with its records and quotes, or in a
refusal with its code and reason."""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable
from datetime import UTC, datetime

from companybrain.ask import tools
from companybrain.ask.catalog import DECISION, Catalog, load_catalog
from companybrain.ask.explain import explain
from companybrain.ask.router import (
    Route,
    Router,
    future_owner,
    future_owner_refusal,
    get_router,
    route_decision_as_of,
)
from companybrain.config import Settings
from companybrain.errors import InputError
from companybrain.graph.connection import Store
from companybrain.graph.queries import ask_q
from companybrain.llm.client import ModelClient
from companybrain.model.answer import Answer, RefusalCode
from companybrain.policy.access import Viewer
from companybrain.policy.text import unstorable
from companybrain.policy.time import (
    QuestionTime,
    VagueDate,
    format_instant,
    off_calendar,
    offset_problem,
    parse_as_of,
    parse_question_time,
)

RepoRouter = Callable[..., "Answer | None"]

# Questions about code go to the repository tools when the graph holds a repository.
_CODE = re.compile(
    r"\b(?:commit|commits|function|functions|class|classes|module|source\s+code|code|repo|"
    r"repository|diff|pull\s+request|blame|agent\s+instructions?)\b"
    r"|(?<![\w/])[A-Za-z_.][\w.-]*/[\w./-]*[A-Za-z]|\b[\w-]+\.(?:py|md|ts|tsx|js|go|rs|java|rb|"
    r"yaml|yml|json|toml|sh|sql|cursorrules)\b|\b[0-9a-f]{7,40}\b",
    re.I,
)


def parse_now(value: str | datetime | None, field: str = "--now") -> datetime:
    """The clock a question is read against: aware and on the calendar, or an InputError
    naming `field` (the option, request field or file line it came from)."""
    if value is None:
        return datetime.now(UTC)
    if isinstance(value, datetime):
        moment = value
    elif isinstance(value, str):
        try:
            moment = datetime.fromisoformat(value.strip().replace("z", "Z"))
        except ValueError as exc:
            raise InputError(f"{field}: {value!r} is not an ISO 8601 time") from exc
        problem = offset_problem(value)
        if problem:
            raise InputError(f"{field}: {value!s}: {problem}")
    else:
        raise InputError(f"{field}: expected an ISO 8601 time, got {type(value).__name__}")
    if moment.tzinfo is None or moment.utcoffset() is None:
        raise InputError(f"{field}: {value!s} has no UTC offset (add Z or +HH:MM)")
    problem = off_calendar(moment)
    if problem:
        raise InputError(f"{field}: {value!s}: {problem}")
    return moment


def viewer_for(store: Store, person: str | None, field: str = "--as") -> Viewer:
    """What `person` may see; an unknown id is an InputError naming `field` (the option or
    request field it came from). Spaces around the id are not part of it (no id has them),
    on every surface alike; nothing but spaces is no id."""
    if person is None:
        return Viewer.everyone()
    person = person.strip()
    if problem := unstorable(person):  # else the query's "$id" was named, not the option
        raise InputError(f"{field}: {problem}")
    groups = ask_q.person_groups(store, person)
    if groups is None:
        raise InputError(f"{field}: no person with id {person!r} in this graph")
    return Viewer.member(person, groups)


MAX_QUESTION_CHARS = 2_000


def check_inputs(
    question: str, now: str | datetime | None, as_of: str | None, as_of_field: str = "--as-of"
) -> tuple[str, datetime]:
    """What `ask` checks before it reads the graph (so a command can check it before it
    opens one): the question (returned stripped), the clock (returned), and that `as_of` is
    one day or instant (read in UTC here; the company's zone decides which instant later)."""
    question = question.strip()
    if not question:
        raise InputError("the question is empty")
    if len(question) > MAX_QUESTION_CHARS:  # the readers of questions are not linear in it
        raise InputError(
            f"the question is {len(question):,} characters; at most {MAX_QUESTION_CHARS:,}"
        )
    if "\x00" in question:  # it would cut the query text short
        raise InputError("the question contains a NUL character")
    if not question.isascii():
        try:
            question.encode("utf-8")
        except UnicodeEncodeError as exc:  # undecodable bytes on a command line
            raise InputError(f"the question is not valid Unicode text ({exc.reason})") from exc
    clock = parse_now(now)
    if as_of is not None:
        if problem := unstorable(as_of):  # undecodable bytes on a command line
            raise InputError(f"{as_of_field}: {problem}")
        _read_as_of(as_of, clock, "UTC", as_of_field)
    return question, clock


def ask(
    store: Store,
    settings: Settings,
    question: str,
    *,
    now: str | datetime | None = None,
    as_of: str | None = None,
    as_person: str | None = None,
    router: Router | None = None,
    as_of_field: str = "--as-of",
) -> Answer:
    """`as_of_field` names `as_of` in errors: the option or request field it came from."""
    question, clock = check_inputs(question, now, as_of, as_of_field)
    viewer = viewer_for(store, as_person)
    catalog = load_catalog(store, viewer)
    router = router or get_router(settings)
    client = (
        ModelClient(settings) if settings.router == "model" and settings.model_configured else None
    )

    # A question about code goes to the repository tools first; their refusal stands only
    # if the company question types cannot answer it either.
    dated = (as_of, catalog.timezone, as_of_field)
    code_answer = _ask_repository(store, question, clock, dated) if _CODE.search(question) else None
    if code_answer is not None and code_answer.status == "answered":
        return code_answer
    route = router.route(question, catalog)
    if code_answer is not None and _repository_decision(route):
        when = _question_time(question, clock, as_of, as_of_field, catalog)
        if isinstance(when, VagueDate) or when.phrase:
            # about a day: trace_decision would answer with the log of now
            return code_answer
    if code_answer is None and _repository_may_know(route):
        repo_answer = _ask_repository(store, question, clock, dated)
        if repo_answer is not None:
            return repo_answer
    answer = _company_answer(
        store, settings, question, clock, (as_of, as_of_field), viewer, catalog, route
    )
    if code_answer is not None and answer.status == "refused":
        return code_answer
    return explain(answer, catalog, client)


def _company_answer(
    store: Store,
    settings: Settings,
    question: str,
    clock: datetime,
    as_of: tuple[str | None, str],  # the value, and what the caller calls it
    viewer: Viewer,
    catalog: Catalog,
    route: Route,
) -> Answer:
    when = _question_time(question, clock, *as_of, catalog)
    as_of_text = (
        format_instant(when.as_of, catalog.timezone) if isinstance(when, QuestionTime) else None
    )
    if (
        route.tool == "trace_decision"
        and route.by == "rules"
        and isinstance(when, QuestionTime)
        and when.phrase
        and not catalog.mentions(question, DECISION)
    ):  # chosen by its words: among the decisions recorded by the day asked about
        route = route_decision_as_of(question, catalog, when.written_by_ms)
    subject = route.subject.subject() if route.subject else None
    if route.refusal is not None:
        return Answer.refused(
            question,
            route.refusal.code,
            route.refusal.message,
            tool=route.tool,
            subject=subject,
            as_of=as_of_text,
        )
    if isinstance(when, VagueDate):
        return Answer.refused(
            question, RefusalCode.VAGUE_DATE, when.message, tool=route.tool, subject=subject
        )
    # "Who will own it?" and no day, in the question or by --as-of: not today's owner
    future = future_owner(question, catalog.name_set()) if when.phrase is None else None
    if route.tool == "owner_of" and future:
        refusal = future_owner_refusal(future)
        return Answer.refused(
            question, refusal.code, refusal.message, tool=route.tool, subject=subject,
            as_of=as_of_text,
        )  # fmt: skip
    ctx = tools.AskContext(store, settings, catalog, viewer, question, when)
    return run_tool(ctx, route)


def run_tool(ctx: tools.AskContext, route: Route) -> Answer:
    if route.tool == "search_records":
        return tools.search_records(ctx, route.query or "")
    assert route.subject is not None and route.tool is not None
    if route.tool == "owner_of":
        return tools.owner_of(ctx, route.subject, sign_off=route.sign_off)
    if route.tool == "who_knows":
        return tools.who_knows(ctx, route.subject)
    if route.tool == "trace_decision":
        return tools.trace_decision(ctx, route.subject)
    return tools.person_or_team(ctx, route.subject)


def question_time(
    store: Store, question: str, clock: datetime, as_of: str | None, viewer: Viewer
) -> QuestionTime | VagueDate:
    """The time `question` is about as `ask` reads it (`as_of`, an InputError when vague,
    overrides its own date text), for a caller that answers it another way (the agent)."""
    return _question_time(question, clock, as_of, "--as-of", load_catalog(store, viewer))


def _question_time(
    question: str, clock: datetime, as_of: str | None, field: str, catalog: Catalog
) -> QuestionTime | VagueDate:
    """--as-of fixes the time and overrides the question's own date text."""
    if as_of is not None:
        return _read_as_of(as_of, clock, catalog.timezone, field)
    return parse_question_time(question, clock, catalog.timezone, names=catalog.name_set())


def _read_as_of(as_of: str, clock: datetime, tz: str, field: str) -> QuestionTime:
    if len(as_of) > 100:  # a day or an instant; the readers are not linear in length
        raise InputError(f"{field}: {len(as_of):,} characters is not a day or an instant")
    reading = parse_as_of(as_of, clock, tz)
    if isinstance(reading, VagueDate):
        raise InputError(reading.given_as(field))
    return reading


def _repository_may_know(route: Route) -> bool:
    """No company question type fits, or it is about a decision that no company record
    states (a decision from a repository's log): the repository tools may answer it."""
    if route.refusal is not None:
        return route.tool in (None, "trace_decision")
    return _repository_decision(route)


def _repository_decision(route: Route) -> bool:
    """The route is a decision no company record states: one of a repository's log."""
    subject = route.subject
    return (
        route.tool == "trace_decision" and subject is not None and not subject.extra.get("record")
    )


def _repository_router() -> RepoRouter | None:
    """The repository tools' router, when that part is installed."""
    for module in ("companybrain.ask.repo_tools", "companybrain.ask.repo"):
        try:
            found = getattr(importlib.import_module(module), "route_repo_question", None)
        except ImportError:
            continue
        if callable(found):
            return found
    return None


def _ask_repository(
    store: Store, question: str, clock: datetime, dated: tuple[str | None, str, str]
) -> Answer | None:
    """`dated`: --as-of (or None), the company's time zone and what the caller calls as-of."""
    route = _repository_router()
    if route is None or not ask_q.has_repository_data(store):
        return None
    as_of, tz, field = dated
    return route(question, store, clock, as_of=as_of, tz=tz, as_of_field=field)
