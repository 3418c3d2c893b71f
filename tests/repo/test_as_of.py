"""Repository questions about a past day ("Why src/exporter.py as of 2025-03-01?") were
answered with today's decision log: a decision recorded months later, a supersession that
had not happened, today's status. They answer with the log as it stood that day (from git,
at the tip of the branch then), or refuse."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from companybrain.ask.engine import ask
from companybrain.config import Settings
from companybrain.errors import InputError
from companybrain.graph.connection import Store
from companybrain.model.answer import Answer
from companybrain.repo.ingest import ingest_repo
from tests.repo.gitrepo import GitRepo

NOW = datetime(2026, 12, 1, tzinfo=UTC)
OLD = "docs/adr/0001-use-postgres.md"
NEW = "docs/adr/0002-use-sqlite.md"
LOG = "DECISIONS.md#2025-06-20: Batch exporter writes"


def _adr(n: int, title: str, status: str, body: str) -> str:
    return (
        f"# {n}. {title}\n\nDate: 2025-0{n}-15\n\n## Status\n\n{status}\n\n## Decision\n\n{body}\n"
    )


@pytest.fixture
def repo(store: Store, tmp_path: Path) -> GitRepo:
    r = GitRepo(tmp_path / "r")
    r.write("src/exporter.py", "def export(rows):\n    return rows\n")
    r.commit("Start", "2025-01-10T09:00:00Z")
    r.write(
        OLD, _adr(1, "Use Postgres", "Accepted", "The exporter in src/exporter.py uses Postgres.")
    )
    r.commit("ADR 1", "2025-02-01T10:00:00Z")
    r.write(
        NEW,
        _adr(2, "Use SQLite", "Accepted\n\nSupersedes [ADR 1](0001-use-postgres.md)",
             "The exporter in src/exporter.py uses SQLite instead."),
    )  # fmt: skip
    r.write(
        OLD, _adr(1, "Use Postgres", "Superseded", "The exporter in src/exporter.py used Postgres.")
    )
    r.write(
        "DECISIONS.md",
        "# Decisions\n\n## 2025-06-20: Batch exporter writes\n\n"
        "The exporter in src/exporter.py batches its writes.\n",
    )
    r.commit("ADR 2 replaces ADR 1", "2025-06-01T10:00:00Z")
    ingest_repo(store, r.root)
    return r


def _ask(store: Store, settings: Settings, question: str, as_of: str | None = None) -> Answer:
    return ask(store, settings, question, now=NOW, as_of=as_of)


def _quotes_hold_then(answer: Answer, repo: GitRepo, rev: str) -> None:
    for c in answer.citations:
        path = c.record.split("#")[0]
        text = repo.git("show", f"{rev}:{path}")
        assert c.quote and c.quote in text, (c.record, c.quote)


def test_why_a_file_on_a_past_day_has_the_decisions_of_that_day(
    store: Store, settings: Settings, repo: GitRepo
) -> None:
    for question in (
        "Why src/exporter.py as of 2025-03-01?",
        "What breaks if I change src/exporter.py on 2025-03-01?",
    ):
        answer = _ask(store, settings, question)
        assert answer.status == "answered", answer.refusal
        assert answer.as_of == "2025-03-01T23:59:59.999Z"  # as told and owner_of write it
        assert answer.result is not None
        items = answer.result["decisions"]
        assert [(d["id"], d["status"]) for d in items] == [(OLD, "accepted")]
        assert "superseded_by" not in items[0]
        _quotes_hold_then(answer, repo, "HEAD~1")
    today = _ask(store, settings, "Why src/exporter.py?")
    assert today.result is not None
    assert {d["id"] for d in today.result["decisions"]} == {OLD, NEW, LOG}


def test_trace_and_origin_on_a_past_day(store: Store, settings: Settings, repo: GitRepo) -> None:
    traced = _ask(store, settings, f"What replaced {OLD} as of 2025-03-01?")
    assert traced.status == "answered" and traced.result is not None
    assert traced.result["chain"] == [OLD]
    assert NEW not in traced.explanation
    assert _ask(store, settings, f"What replaced {OLD}?").result["chain"] == [NEW, OLD]  # type: ignore[index]
    came = _ask(store, settings, f"Where did {NEW} come from as of 2025-03-01?")
    assert came.status == "refused" and came.refusal is not None
    assert came.refusal.code.value == "NO_CLAIM" and not came.citations
    later = _ask(store, settings, f"Why {NEW} as of 2025-03-01?")
    assert later.status == "refused" and later.refusal is not None
    assert later.refusal.code.value == "NO_CLAIM"
    assert "was not in the decision log on 2025-03-01" in later.refusal.message


def test_as_of_overrides_and_a_vague_day_is_refused(
    store: Store, settings: Settings, repo: GitRepo
) -> None:
    fixed = _ask(store, settings, "Why src/exporter.py?", as_of="2025-03-01")
    assert fixed.result is not None
    assert [d["id"] for d in fixed.result["decisions"]] == [OLD]
    vague = _ask(store, settings, "Why src/exporter.py 3 weeks ago?")
    assert vague.refusal is not None and vague.refusal.code.value == "VAGUE_DATE"
    before = _ask(store, settings, "Why src/exporter.py as of 2024-12-01?")
    assert before.refusal is not None and before.refusal.code.value == "NO_CLAIM"
    with pytest.raises(InputError, match="--as-of"):
        _ask(store, settings, "Why src/exporter.py?", as_of="last week")


def test_a_date_in_a_decision_heading_is_not_the_questions_day(
    store: Store, settings: Settings, repo: GitRepo
) -> None:
    for question in (f"Why `{LOG}`?", f"Why {LOG}?"):
        answer = _ask(store, settings, question)
        assert answer.status == "answered", answer.refusal
        assert answer.as_of is not None and answer.as_of.startswith("2026-12-01")
        assert answer.result is not None and answer.result["decisions"][0]["id"] == LOG


def test_the_agents_tools_read_the_day_of_its_question(
    store: Store, settings: Settings, repo: GitRepo
) -> None:
    from companybrain.ask.registry import ReadOnlyStore, ToolContext, read_only_tools
    from companybrain.policy.time import QuestionTime, parse_question_time

    when = parse_question_time("as of 2025-03-01", NOW)
    assert isinstance(when, QuestionTime)
    ro = ReadOnlyStore(settings, settings.graph)
    try:
        ctx = ToolContext(ro, settings, now=NOW, time=when)
        run = {t.name: t.run for t in read_only_tools()}
        why = run["why"](ctx, {"subject": "src/exporter.py"})
        assert why.result is not None
        assert [d["id"] for d in why.result["decisions"]] == [OLD]
        assert run["trace"](ctx, {"decision": OLD}).result["chain"] == [OLD]  # type: ignore[index]
        came = run["origin"](ctx, {"subject": NEW})
        assert came.refusal is not None and came.refusal.code.value == "NO_CLAIM"
    finally:
        ro.close()


def test_who_knows_before_anyone_touched_it_says_by_when(
    store: Store, settings: Settings, repo: GitRepo
) -> None:
    early = _ask(store, settings, "Who knows src/exporter.py as of 2024-12-01?")
    assert early.refusal is not None and early.refusal.code.value == "NO_CLAIM"
    assert early.refusal.message.endswith("by 2024-12-01T23:59:59.999Z"), early.refusal.message
    assert _ask(store, settings, "Who knows src/exporter.py as of 2025-01-11?").result
