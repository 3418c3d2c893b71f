"""`brain eval questions`: ask every question of a question set and compare the answer
envelope with what is expected, scored per question type.

A question set is JSON Lines: {"id", "question", "now", "as", "as_of"?, "expect": {...}}.
Keys of `expect` are only those that apply: tool, subject, status, refusal, owner, owners,
top_expert, bus_factor, chain (exactly, newest first), motivated_by, person, team, hit,
citations and outranked (at least these records). Every answer is also held to the
envelope's invariants: each quote is verbatim in its record, and nothing says "approved"."""

from __future__ import annotations

import re
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from companybrain.ask.engine import ask, parse_now, viewer_for
from companybrain.ask.router import NO_MODEL, Router
from companybrain.config import Settings
from companybrain.errors import ConfigError, InputError
from companybrain.evals.jsonl import json_objects
from companybrain.graph.connection import Store
from companybrain.graph.queries import ask_q
from companybrain.ingest.pipeline import ingest
from companybrain.policy.text import quote_in

Progress = Callable[[int, int, str], None]
EXPECT_KEYS = {
    "tool", "subject", "status", "refusal", "owner", "owners", "top_expert", "bus_factor",
    "chain", "motivated_by", "person", "team", "hit", "citations", "outranked",
}  # fmt: skip
# What each expectation holds (a typo'd shape was a KeyError mid-run, or a string of
# citations compared letter by letter).
_EXPECT_LISTS = {"chain", "motivated_by", "citations", "outranked"}
_EXPECT_INTS = {"bus_factor"}
QUESTION_KEYS = {"id", "question", "now", "as", "as_of", "expect"}
_APPROVED = re.compile(r"\bapproved\b", re.I)


@dataclass
class QuestionResult:
    id: str
    question: str
    kind: str  # the expected question type, or "none"
    problems: list[str] = field(default_factory=list)
    answer: dict[str, Any] = field(default_factory=dict)

    @property
    def passed(self) -> bool:
        return not self.problems


@dataclass
class QuestionsReport:
    source: str
    router: str
    results: list[QuestionResult] = field(default_factory=list)

    def by_type(self) -> dict[str, tuple[int, int]]:
        scores: dict[str, tuple[int, int]] = {}
        for r in self.results:
            ok, total = scores.get(r.kind, (0, 0))
            scores[r.kind] = (ok + int(r.passed), total + 1)
        return dict(sorted(scores.items()))

    @property
    def passed(self) -> int:
        return sum(r.passed for r in self.results)

    @property
    def score(self) -> float:
        return self.passed / len(self.results) if self.results else 0.0

    def to_dict(self) -> dict[str, Any]:
        return {
            "source": self.source,
            "router": self.router,
            "passed": self.passed,
            "total": len(self.results),
            "score": self.score,
            "by_type": {k: {"passed": p, "total": t} for k, (p, t) in self.by_type().items()},
            "failures": [
                {"id": r.id, "question": r.question, "problems": r.problems}
                for r in self.results
                if not r.passed
            ],
        }


def load_questions(path: Path) -> list[dict[str, Any]]:
    """The question set, each line checked; an error names the file and line."""
    questions = []
    for where, item in json_objects(path):
        for key in ("id", "question", "expect"):
            if key not in item:
                raise InputError(f"{where}: missing `{key}`")
        if not isinstance(item["expect"], dict):
            raise InputError(f"{where}: `expect` must be an object")
        unknown = set(item["expect"]) - EXPECT_KEYS
        if unknown:
            raise InputError(f"{where}: unknown expect key(s) {sorted(unknown)}")
        unknown = set(item) - QUESTION_KEYS  # "as_person" would ask as everyone
        if unknown:
            raise InputError(
                f"{where}: unknown key(s) {sorted(unknown)}; a question has "
                + ", ".join(f"`{k}`" for k in sorted(QUESTION_KEYS))
            )
        _check_expect(where, item["expect"])
        _check_fields(where, item)
        questions.append(item)
    if not questions:
        raise InputError(f"{path}: no questions")
    return questions


def _check_fields(where: str, item: dict[str, Any]) -> None:
    """Each field the question is asked with, checked before anything is asked: a bad one
    is an error naming the file, line and field, not a failure halfway through the set."""
    if not isinstance(item["question"], str):
        raise InputError(f"{where}: `question` must be a string, got {_kind(item['question'])}")
    for key in ("as", "as_of"):
        if item.get(key) is not None and not isinstance(item[key], str):
            raise InputError(f"{where}: `{key}` must be a string or null, got {_kind(item[key])}")
    if item.get("now") is not None:
        parse_now(item["now"], f"{where}: `now`")


def _check_expect(where: str, expect: dict[str, Any]) -> None:
    for key, value in expect.items():
        if key in _EXPECT_LISTS:
            ok = isinstance(value, list) and all(isinstance(v, str) for v in value)
            ok = ok or (key == "chain" and value is None)
            shape = "a list of ids"
        elif key in _EXPECT_INTS:
            ok, shape = value is None or type(value) is int, "a whole number or null"
        elif key == "owners":
            ok = isinstance(value, list) and all(
                isinstance(o, dict) and isinstance(o.get("service"), str) and "owner" in o
                for o in value
            )
            shape = 'a list of {"service", "owner"} objects'
        else:
            ok, shape = value is None or isinstance(value, str), "a string or null"
        if not ok:
            raise InputError(f"{where}: `expect.{key}` must be {shape}, got {value!r:.80}")


def _kind(value: Any) -> str:
    return "null" if value is None else type(value).__name__


def _check_router(settings: Settings, router: Router | None) -> None:
    if router is None and settings.router == "model" and not settings.model_configured:
        # `ask` would read every question by the rules, and the report call it the model's
        raise ConfigError(f"the model router cannot be evaluated: {NO_MODEL}")


def run(
    store: Store,
    settings: Settings,
    questions: list[dict[str, Any]],
    *,
    source: str = "",
    router: Router | None = None,
    progress: Progress | None = None,
) -> QuestionsReport:
    _check_router(settings, router)
    report = QuestionsReport(source=source, router=router.name if router else settings.router)
    for person in dict.fromkeys(item.get("as") for item in questions if item.get("as")):
        asked_by = next(str(item["id"]) for item in questions if item.get("as") == person)
        viewer_for(store, person, f"{source or 'the set'}: question {asked_by!r}: `as`")
    for done, item in enumerate(questions):
        if progress:
            progress(done, len(questions), str(item["id"]))
        expect = item["expect"]
        result = QuestionResult(
            id=str(item["id"]), question=item["question"], kind=expect.get("tool") or "none"
        )
        answer = ask(
            store,
            settings,
            item["question"],
            now=item.get("now"),
            as_of=item.get("as_of"),
            as_person=item.get("as"),
            router=router,
        ).to_dict()
        result.answer = answer
        result.problems = compare(expect, answer) + invariants(store, answer)
        report.results.append(result)
    if progress:
        progress(len(questions), len(questions), "done")
    return report


def run_on_corpus(
    corpus: Path,
    questions_path: Path,
    settings: Settings,
    *,
    router: Router | None = None,
    progress: Progress | None = None,
) -> QuestionsReport:
    """Load `corpus` into a scratch graph beside the configured one, ask every question,
    and delete the scratch graph again."""
    questions = load_questions(questions_path)
    _check_router(settings, router)
    scratch = Store(settings, f"{settings.graph}_questions_{uuid.uuid4().hex[:8]}")
    try:
        ingest(scratch, corpus, settings)
        return run(
            scratch,
            settings,
            questions,
            source=str(questions_path),
            router=router,
            progress=progress,
        )
    finally:
        if scratch.delete_graph():
            scratch.forget_deleted()  # else two restarts of the database bring it back
        scratch.close()


# -- comparing one answer -------------------------------------------------------------------


def compare(expect: dict[str, Any], answer: dict[str, Any]) -> list[str]:
    problems: list[str] = []
    result = answer.get("result") or {}
    refusal = (answer.get("refusal") or {}).get("code")
    got: dict[str, Any] = {
        "tool": answer.get("tool"),
        "status": answer.get("status"),
        "refusal": refusal,
        "subject": (answer.get("subject") or {}).get("id"),
        "owner": (result.get("owner") or {}).get("id"),
        "top_expert": (result.get("experts") or [{}])[0].get("id"),
        "bus_factor": result.get("bus_factor"),
        "chain": result.get("chain"),
        "person": (result.get("person") or {}).get("id"),
        "team": (result.get("team") or {}).get("id"),
    }
    for key, value in got.items():
        if key in expect and expect[key] != value:
            problems.append(f"{key}: expected {expect[key]!r}, got {value!r}")
    if "owners" in expect:
        want = {(o["service"], _id(o["owner"])) for o in expect["owners"]}
        have = {(o["service"], _id(o["owner"])) for o in result.get("owners") or []}
        if want != have:
            problems.append(f"owners: expected {sorted(want)}, got {sorted(have)}")
    if "hit" in expect:
        hits = [h["record"] for h in result.get("hits") or []]
        if expect["hit"] not in hits:
            problems.append(f"hit: {expect['hit']!r} not among {hits}")
    for key, listed in (
        ("citations", answer.get("citations") or []),
        ("outranked", answer.get("outranked") or []),
        ("motivated_by", [{"record": m} for m in result.get("motivated_by") or []]),
    ):
        missing = set(expect.get(key, [])) - {item["record"] for item in listed}
        if missing:
            problems.append(f"{key}: missing {sorted(missing)}")
    return problems


def invariants(store: Store, answer: dict[str, Any]) -> list[str]:
    """What every answer must hold, whatever the question."""
    problems = []
    quoted = [
        (item["record"], item["quote"])
        for item in [*(answer.get("citations") or []), *(answer.get("outranked") or [])]
        if item.get("quote")
    ]
    texts = ask_q.records_text(store, sorted({r for r, _ in quoted})) if quoted else {}
    for record, quote in quoted:
        said = texts.get(record) or {}
        if not quote_in(quote, f"{said.get('title') or ''}\n{said.get('text') or ''}"):
            problems.append(f"quote not verbatim in {record}: {quote[:60]!r}")
    if _APPROVED.search(answer.get("explanation") or ""):
        problems.append("the explanation says something is approved")
    if answer.get("status") == "refused" and answer.get("result") is not None:
        problems.append("a refusal carries a result")
    return problems


def _id(owner: Any) -> Any:
    return owner.get("id") if isinstance(owner, dict) else owner
