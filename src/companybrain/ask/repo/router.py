"""Plain questions to the repository tools, by rules. `route_repo_question` returns None when
the graph holds no repository or the question is not a repository question, so the company
router can take it; otherwise it answers (or refuses) with the tool it chose."""

from __future__ import annotations

import re
from datetime import datetime
from typing import TYPE_CHECKING

from companybrain.ask.repo import answers, connect, history_tools, review, told, tools
from companybrain.ask.repo.subjects import (
    clean,
    looks_like_path,
    resolve_commit,
    resolve_decision,
    resolve_path,
)
from companybrain.ask.repo.then import Then, log_for_decision, stood
from companybrain.ask.repo.topic import stem, terms
from companybrain.errors import BrainError, InputError
from companybrain.graph.queries import repo_read
from companybrain.model.answer import Answer, RefusalCode
from companybrain.policy.time import QuestionTime, VagueDate, parse_as_of, parse_question_time
from companybrain.repo.instructions import is_instruction_file

if TYPE_CHECKING:
    from companybrain.graph.connection import Store

_REVIEW = re.compile(
    r"^\s*(?:please\s+)?review\s+(?:commit\s+|the\s+change\s+|change\s+)?(?P<rev>[\w~^./@{}-]+)"
    r"(?:\s+(?:against|with\s+base|on\s+top\s+of|from)\s+(?P<base>[\w~^./@{}-]+))?\s*\??\s*$",
    re.I,
)
_INSTRUCTION_NAME = re.compile(
    r"(?<![\w/])((?:[\w.-]+/)*(?:AGENTS\.md|CLAUDE\.md|GEMINI\.md|\.cursorrules|\.windsurfrules"
    r"|copilot-instructions\.md))",
    re.I,
)
_TOLD = re.compile(r"\b(tell|told|say|said|instruct\w*|rules?)\b", re.I)
_AGENT_WORDS = re.compile(r"\b(agent|agents|instructions?|claude|copilot|cursor|gemini)\b", re.I)
_ABOUT = re.compile(
    r"\babout\s+(?P<topic>.+?)(?=\s+(?:on|at|in|when|as\s+of|before|by)\b|\s*[?.]?\s*$)", re.I
)
_WHO_KNOWS = re.compile(
    r"\bwho\b.*\b(knows?|expert|experts|familiar|worked\s+on|works\s+on|to\s+ask|should\s+review"
    r"|maintains?|touched|changed|bus\s+factor)\b|\bbus\s+factor\b",
    re.I,
)
_WHAT_BREAKS = re.compile(
    r"\bwhat\s+(?:breaks|would\s+break|could\s+break|will\s+break|might\s+break|depends\s+on|"
    r"rests\s+on)\b|\bsafe\s+to\s+(?:change|delete|edit|remove|rewrite)\b|"
    r"\bwhat\s+happens\s+if\s+(?:i|we)\s+(?:change|delete|edit|remove)\b",
    re.I,
)
_DISPROVEN = re.compile(
    r"\b(tried|disproven|didn'?t\s+work|did\s+not\s+work|ruled\s+out|experiments?|failed\s+"
    r"attempts?)\b",
    re.I,
)
_TRACE = re.compile(
    r"\bwhat\s+(?:replaced|superseded|supersedes|replaces)\b|\b(?:replaced|superseded)\s+by\b|"
    r"\bstill\s+(?:in\s+force|valid|current|apply|applies)\b|\bhistory\s+of\s+(?:the\s+)?decision",
    re.I,
)
_ORIGIN = re.compile(
    r"\bwhere\s+did\s+(?P<came>.+)\s+come\s+from\b|"
    r"\bwho\s+(?:added|introduced|created|wrote|recorded)\b|"
    r"\borigin\s+of\b|\bwhen\s+was\s+(?P<when>.+)\s+(?:added|introduced|created|recorded)\b",
    re.I,
)
_CONNECT = re.compile(
    r"\bhow\s+(?:is|are|does|do)\s+(?P<a>.+?)\s+(?:connected|related|linked)\s+to\s+(?P<b>.+?)"
    r"\s*\??\s*$|\bhow\s+does\s+(?P<c>.+?)\s+relate\s+to\s+(?P<d>.+?)\s*\??\s*$",
    re.I,
)
_WHY = re.compile(r"^\s*why\b|\b(?:reason|rationale|reasoning)\b", re.I)
_NO_PATH = "the question names no file or folder that the history knows"
_NO_SUBJECT = "the question names no file or decision that the history knows"
_TOKEN = re.compile(r"`[^`]+`|[\w./#@-]+")
_QUOTED_PATH = re.compile(r'"([^"\n]+)"|“([^”\n]+)”')
_TRIGGERS = re.compile(
    r"\b(what|was|were|tried|and|disproven|didn'?t|did|not|work|ruled|out|experiments?|failed|"
    r"attempts?|about|for|on|with|in)\b",
    re.I,
)


def _path_in(store: Store, question: str) -> str | None:
    """The first file or folder of the history that the question names (in backticks or
    double quotes, a path may hold spaces: `docs/my notes.md`, "docs/my notes.md")."""
    for m in _QUOTED_PATH.finditer(question):
        word = clean(m.group(1) or m.group(2))
        if looks_like_path(word.replace(" ", "_")) and resolve_path(store, word):
            return word
    for token in _TOKEN.findall(question):
        word = clean(token)
        if (looks_like_path(word) or token.startswith("`")) and resolve_path(store, word):
            return word
    return None


def _file_by_word(store: Store, question: str) -> str | None:
    """A file named by a plain word ("the exporter" → src/exporter.py), when only one fits.
    Not when the question names a path of its own: `src/foo/bar.py`, unknown to the
    history, is not `py.typed` because both have the word `py`."""
    if any(looks_like_path(token) for token in _TOKEN.findall(question)):
        return None
    wanted = set(terms(question))
    if not wanted:
        return None
    hits = []
    for path in repo_read.file_names(store):
        stem_of = stem(re.sub(r"\.\w+$", "", path.rsplit("/", 1)[-1]).lower())
        if stem_of in wanted:
            hits.append(path)
    return hits[0] if len(hits) == 1 else None


def _decision_in(store: Store, question: str) -> str | None:
    for token in _TOKEN.findall(question):
        word = clean(token)
        if ("/" in word or "#" in word or word.lower().endswith(".md")) and resolve_decision(
            store, word
        ):
            return word
    m = re.search(r"[`\"“]([^`\"”]+#[^`\"”]+)[`\"”]", question)  # a quoted `PATH#Heading`
    if m and resolve_decision(store, m.group(1)):
        return m.group(1)
    # `PATH#Heading text` unquoted: the longest run of words from it that is a decision id
    # (a repeated heading's "Batch writes (2)" is not "Batch writes")
    starts = [m.start() for m in re.finditer(r"[\w./-]+#", question)]
    if not starts:
        return None
    ids = {d["id"].lower(): d["id"] for d in repo_read.decisions(store)}
    for start in starts:
        words = question[start:].split()
        for n in range(len(words), 0, -1):
            found = ids.get(clean(" ".join(words[:n])).lower())
            if found:
                return found
    return None


def _sha_in(store: Store, question: str) -> str | None:
    for token in re.findall(r"\b[0-9a-f]{7,40}\b", question.lower()):
        found = resolve_commit(store, token)
        if found:
            return found
    return None


_LEAD = re.compile(
    r"^\s*(?:why|what\s+is\s+the\s+(?:reason|rationale)\s+(?:for|behind))\s+"
    r"(?:(?:does|do|did|is|are|was|were|has|have)\s+)?(?:(?:we|the|our|this|that)\s+)?",
    re.I,
)


def _topic_of(question: str) -> str:
    """What a why-question is about: "Why does the exporter batch its writes?" → "exporter
    batch its writes"."""
    return _LEAD.sub("", question).strip().rstrip("?.! ").strip() or question


def route_repo_question(
    question: str,
    store: Store,
    now: datetime,
    as_of: str | None = None,
    tz: str = "UTC",
    as_of_field: str = "--as-of",
) -> Answer | None:
    """The answer of the repository tool this question asks for, or None when it is not a
    repository question (or no repository is ingested into this graph). `as_of` (a day or
    an instant) overrides a date in the question, as for the company tools."""
    if not repo_read.has_repository(store):
        return None
    fixed: QuestionTime | None = None
    if as_of is not None:
        reading = parse_as_of(as_of, now, tz)
        if isinstance(reading, VagueDate):
            raise InputError(reading.given_as(as_of_field))
        fixed = reading
    try:
        return _route(question, store, now, _Time(fixed, tz))
    except BrainError as exc:  # e.g. a review of a revision git does not know
        return answers.not_in_graph(question, None, str(exc), now)


_QUOTED = re.compile(r"`[^`]+`|\"[^\"]+\"|“[^”]+”")


class _Time:
    """The day a question to why, what_breaks, disproven, who_knows, trace or origin is
    about: `--as-of`, else its own date text, read as `brain ask` reads it for the company
    tools. Paths, decision ids and quoted names are set aside first: a heading such as
    `DECISIONS.md#2025-03-01: Batch writes` holds a date that is not the question's."""

    def __init__(self, fixed: QuestionTime | None, tz: str) -> None:
        self.fixed, self.tz = fixed, tz

    def read(self, question: str, now: datetime) -> QuestionTime | VagueDate:
        if self.fixed is not None:
            return self.fixed
        names = [m.group(0) for m in _QUOTED.finditer(question)]
        names += [t for t in _TOKEN.findall(question) if "#" in t or looks_like_path(t)]
        return parse_question_time(question, now, self.tz, names=names)


def _undated(question: str, when: QuestionTime) -> str:
    """The question without its date ("... as of 2025-03-01?"): not words of a topic."""
    if not when.phrase:
        return question
    pattern = rf"(?:\s*,?\s*\b(?:as\s+of|as\s+at|on|at)\b)?\s*{re.escape(when.phrase)}"
    return re.sub(pattern, " ", question, count=1, flags=re.I)


def _dated(
    q: str, store: Store, now: datetime, clock: _Time, tool: str
) -> tuple[QuestionTime, Then | None] | Answer:
    """The question's time and, for a past day, the decision log then; or the refusal.
    A day on or after the last commit read is answered from the graph, dated that day."""
    when = clock.read(q, now)
    if isinstance(when, VagueDate):
        return Answer.refused(
            q, RefusalCode.VAGUE_DATE, when.message, tool=tool, as_of=answers.as_of_text(now)
        )
    if tool in {"who_knows", "origin"}:
        return when, None
    then = stood(store, when, clock.tz)
    if isinstance(then, str):
        return answers.not_recorded(q, tool, None, when.as_of, then)
    return when, then


def _route(question: str, store: Store, now: datetime, clock: _Time) -> Answer | None:
    q = question
    m = _REVIEW.match(q)
    if m:
        return review.review(store, m.group("rev"), m.group("base"), question=q, now=now)
    file_named = _INSTRUCTION_NAME.search(q)
    if _TOLD.search(q) and (file_named or _AGENT_WORDS.search(q)):
        about = _ABOUT.search(q)
        topic = about.group("topic") if about else ""
        name = file_named.group(1) if file_named else None
        file = name if name and is_instruction_file(name) else None
        when = _sha_in(store, q)
        if when is None:
            reading = parse_question_time(q, now, names=[name] if name else [])
            # no time in the question: it is about now
            when = (
                q
                if isinstance(reading, VagueDate) or reading.phrase
                else now.isoformat(timespec="seconds")
            )
        return told.told(store, when, topic, file, question=q, now=now)
    link = _CONNECT.search(q)
    if link:
        a, b = (
            (link.group("a"), link.group("b"))
            if link.group("a")
            else (link.group("c"), link.group("d"))
        )
        return connect.connect(store, a, b, question=q, now=now)
    if _WHO_KNOWS.search(q):
        path = _path_in(store, q) or _file_by_word(store, q)
        if path is None:
            return answers.not_in_graph(
                q, "who_knows", "the question names no file or folder the history knows", now
            )
        dated = _dated(q, store, now, clock, "who_knows")
        if isinstance(dated, Answer):
            return dated
        until = dated[0].as_of_ms if dated[0].phrase else None
        return tools.who_knows(store, path, question=q, now=dated[0].as_of, until_ms=until)
    if _WHAT_BREAKS.search(q):
        path = _path_in(store, q) or _file_by_word(store, q)
        if path is None:
            return answers.not_in_graph(
                q, "what_breaks", "the question names no file or folder the history knows", now
            )
        dated = _dated(q, store, now, clock, "what_breaks")
        if isinstance(dated, Answer):
            return dated
        return tools.what_breaks(store, path, question=q, now=dated[0].as_of, then=dated[1])
    if _TRACE.search(q):
        dated = _dated(q, store, now, clock, "trace")
        if isinstance(dated, Answer):
            return dated
        words = _undated(q, dated[0])
        topic = " ".join(_TRACE.sub(" ", words).split()).rstrip("?. ")
        return history_tools.trace(
            store,
            _decision_in(store, q) or topic,
            question=q,
            now=dated[0].as_of,
            then=dated[1],
        )
    if _ORIGIN.search(q):
        dated = _dated(q, store, now, clock, "origin")
        if isinstance(dated, Answer):
            return dated
        subject = _decision_in(store, q) or _path_in(store, q)
        if subject is None:
            words = _ORIGIN.sub(
                lambda m: f" {m.group('came') or m.group('when') or ''} ", _undated(q, dated[0])
            )
            found = tools.find_decisions(store, words, limit=2)
            if not found:
                return answers.not_in_graph(
                    q, "origin", "the question names no file or decision the history knows", now
                )
            best, second = found[0].match, found[-1].match
            if len(found) > 1 and (second.score, second.coverage) == (best.score, best.coverage):
                return answers.not_in_graph(
                    q, "origin", f"the question matches {found[0].row['id']} and "
                    f"{found[1].row['id']} equally well: name the decision", now,
                )  # fmt: skip
            subject = found[0].row["id"]
        day = dated[0].as_of if dated[0].phrase else None
        return history_tools.origin(
            store, subject, question=q, now=dated[0].as_of, until=day,
            then=log_for_decision(store, subject, dated[0], clock.tz),
        )  # fmt: skip
    if _DISPROVEN.search(q):
        dated = _dated(q, store, now, clock, "disproven")
        if isinstance(dated, Answer):
            return dated
        path = _path_in(store, q)
        words = _undated(q, dated[0])
        topic = path or " ".join(_TRIGGERS.sub(" ", words).split()).strip(" ?!.")
        return tools.disproven(store, topic, question=q, now=dated[0].as_of, then=dated[1])
    if _WHY.search(q):
        dated = _dated(q, store, now, clock, "why")
        if isinstance(dated, Answer):
            return dated
        subject = _decision_in(store, q) or _path_in(store, q) or _topic_of(_undated(q, dated[0]))
        return tools.why(store, subject, question=q, now=dated[0].as_of, then=dated[1])
    return None
