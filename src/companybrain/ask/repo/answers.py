"""Building the answer envelope for repository tools: decision items, citations that carry
the record, the verbatim quote and its line span, and the "not recorded" refusal. Pure."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from typing import Any

from companybrain.ask.repo.topic import locate
from companybrain.model.answer import Answer, Citation, RefusalCode
from companybrain.policy.time import format_instant

Row = dict[str, Any]


def as_of_text(now: datetime | None) -> str:
    """As the company tools write it: the end of a day is 23:59:59.999, not 23:59:59."""
    return format_instant(now or datetime.now(UTC))


def effective_status(row: Row) -> str | None:
    """A decision that a newer one supersedes is superseded, whatever its file still says."""
    if row.get("superseded_by"):
        return "superseded"
    return row.get("status")


def status_word(row: Row) -> str:
    """A decision's status as an answer's text says it: one removed from the repository is
    removed, whatever it said (its items carry `removed: true`)."""
    if row.get("present") is False:
        return "removed"
    return effective_status(row) or "recorded"


def decision_date(row: Row) -> str | None:
    """The date the record gives itself, else the day its recording commit landed."""
    if row.get("date"):
        return str(row["date"])
    recorded = row.get("recorded_at")
    return str(recorded)[:10] if recorded else None


def decision_item(row: Row, **extra: Any) -> dict[str, Any]:
    item: dict[str, Any] = {
        "id": row["id"],
        "title": row.get("title"),
        "status": effective_status(row),
        "date": decision_date(row),
    }
    if row.get("superseded_by"):
        item["superseded_by"] = sorted(row["superseded_by"])
    if row.get("present") is False:
        item["removed"] = True
    item.update({k: v for k, v in extra.items() if v is not None})
    return item


def line_of(row: Row, line_no: int) -> str:
    """Line `line_no` (1-based, in the file) of a decision's text."""
    lines = (row.get("text") or "").splitlines()
    index = line_no - int(row.get("line_start") or 1)
    return lines[index].strip() if 0 <= index < len(lines) else ""


_META_LINE = re.compile(
    r"^[\W_]*(status|date|dates?|supersedes|superseded[ -]by|deciders|tags|authors?|id)\b[\W_]*:",
    re.IGNORECASE,
)


_META_HEADING = re.compile(
    r"^#+\s*(status|dates?|deciders|tags|authors?|supersedes|superseded[ -]by)\b", re.I
)
_DECISION_HEADING = re.compile(r"^#+\s*(decision|decided|decision outcome|outcome)\b", re.I)


def statement_span(row: Row) -> tuple[int, int] | None:
    """The lines of what a decision says, rather than what it is called: the first
    paragraph under a "Decision" sub-heading when it has one, else its first paragraph
    that is not a heading, a table or metadata ("Status: accepted", or the "Accepted" under
    a "### Status" sub-heading). At most three lines; None when it has no such paragraph."""
    start = int(row.get("line_start") or 1)
    lines = (row.get("text") or "").splitlines()
    paragraphs: list[tuple[int, int, str]] = []  # first, last index, the heading above
    heading, first = "", None
    for index, raw in enumerate([*lines[1:], ""], start=1):
        line = raw.strip()
        if first is not None and (not line or line.startswith("#") or index - first > 2):
            paragraphs.append((first, index - 1, heading))
            first = None
        if line.startswith("#"):
            heading = line
        elif first is None and line and not line.startswith(("---", "|")):
            first = None if _META_LINE.match(line) else index
    said = [p for p in paragraphs if not _META_HEADING.match(p[2])]
    chosen = next((p for p in said if _DECISION_HEADING.match(p[2])), said[0] if said else None)
    return (start + chosen[0], start + chosen[1]) if chosen else None


def cite_line(row: Row, line_no: int | None = None) -> Citation:
    """The decision and one of its lines. Its heading says only what it is called, so a
    heading (or no line) is cited as the opening statement instead, when it has one."""
    start = int(row.get("line_start") or 1)
    if line_no is None or line_no == start:
        span = statement_span(row)
        if span is not None:
            quote = "\n".join(line_of(row, n) for n in range(span[0], span[1] + 1))
            return Citation(
                record=row["id"],
                kind="decision",
                at=row.get("recorded_at"),
                quote=quote,
                lines=span,
            )
    line_no = line_no or start
    quote = line_of(row, line_no)
    if not quote:  # a blank line: fall back to the heading
        line_no, quote = start, line_of(row, start)
    return Citation(
        record=row["id"],
        kind="decision",
        at=row.get("recorded_at"),
        quote=quote,
        lines=(line_no, line_no),
    )


def cite_said(row: Row, line_no: int, quote: str) -> Citation:
    """The line of a decision that says `quote`: one of its text's lines, or, for a line
    before its text (an ADR's front matter: `superseded_by: ADR-7`), that line as quoted."""
    if line_of(row, line_no) or not quote:
        return cite_line(row, line_no)
    return Citation(
        record=row["id"],
        kind="decision",
        at=row.get("recorded_at"),
        quote=quote,
        lines=(line_no, line_no),
    )


def cite_quote(row: Row, quote: str, kind: str = "decision") -> Citation:
    """The decision and a quote from it, with the lines that hold the quote."""
    span = locate(quote, row.get("text") or "", int(row.get("line_start") or 1))
    return Citation(record=row["id"], kind=kind, at=row.get("recorded_at"), quote=quote, lines=span)


def quote_place(text: str | None, line_start: int | None, quote: str) -> int:
    """The line a quote starts on in its decision, to list findings in reading order."""
    span = locate(quote, text or "", int(line_start or 1))
    return span[0] if span else 1 << 30


def cite_commit(commit: Row) -> Citation:
    return Citation(
        record=commit["commit"],
        kind="commit",
        at=commit.get("landed_at") or commit.get("committer_at"),
        quote=commit.get("subject") or None,
    )


def not_recorded(
    question: str,
    tool: str,
    subject: dict[str, Any] | None,
    now: datetime | None,
    what: str,
    as_of: str | None = None,
) -> Answer:
    """`as_of`: the time the question is about, when it is not `now` as a datetime (a
    commit's time as git wrote it)."""
    return Answer.refused(
        question,
        RefusalCode.NO_CLAIM,
        f"not recorded: {what}",
        tool=tool,
        subject=subject,
        as_of=as_of or as_of_text(now),
    )


def not_in_graph(
    question: str,
    tool: str | None,
    what: str,
    now: datetime | None,
    subject: dict[str, Any] | None = None,
) -> Answer:
    return Answer.refused(
        question,
        RefusalCode.NOT_IN_GRAPH,
        what,
        tool=tool,
        subject=subject,
        as_of=as_of_text(now),
    )


def answered(
    question: str,
    tool: str,
    subject: dict[str, Any] | None,
    now: datetime | None,
    result: dict[str, Any],
    citations: list[Citation],
    explanation: str,
    as_of: str | None = None,
) -> Answer:
    return Answer(
        question=question,
        tool=tool,
        subject=subject,
        as_of=as_of or as_of_text(now),
        status="answered",
        result=result,
        citations=_unique(citations),
        explanation=explanation,
    )


def _unique(citations: list[Citation]) -> list[Citation]:
    seen: set[tuple[Any, ...]] = set()
    out = []
    for c in citations:
        key = (c.record, c.quote, c.lines)
        if key not in seen:
            seen.add(key)
            out.append(c)
    return out
