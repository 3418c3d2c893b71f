"""Two ADRs each "Superseded by" the other: `trace` of ADR-1 answered "The one in force is
ADR-2", and `trace` of ADR-2 "The one in force is ADR-1", each citing a line; the cycle
was cut silently wherever the walk began. The log contradicts itself about which is newer:
trace refuses CONFLICT naming the circle and citing the lines that say each step, as
`trace_decision` does for company decisions."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from companybrain.ask.repo import history_tools
from companybrain.graph.connection import Store
from companybrain.model.answer import RefusalCode
from companybrain.repo.ingest import ingest_repo
from tests.repo.gitrepo import GitRepo

NOW = datetime(2026, 1, 1, tzinfo=UTC)
A, B, C = "docs/adr/0001-use-a.md", "docs/adr/0002-use-b.md", "docs/adr/0003-use-c.md"


def _adr(n: int, title: str, status: str) -> str:
    return f"# {n}. {title}\n\n## Status\n\n{status}\n\n## Decision\n\nsrc/a.py uses {title}.\n"


def test_decisions_superseding_one_another_are_a_conflict(store: Store, tmp_path: Path) -> None:
    r = GitRepo(tmp_path / "r")
    r.write("src/a.py", "x = 1\n")
    r.write(A, _adr(1, "A", "Superseded by ADR-2"))
    r.write(B, _adr(2, "B", "Superseded by ADR-1"))
    r.write(C, _adr(3, "C", "Accepted\n\nSupersedes ADR-1"))
    r.commit("ADRs", "2025-01-01T09:00:00Z")
    ingest_repo(store, r.root)

    for asked in (A, B, C):
        a = history_tools.trace(store, asked, now=NOW)
        assert a.status == "refused", (asked, a.explanation)
        assert a.refusal is not None and a.refusal.code == RefusalCode.CONFLICT
        assert f"{A} supersedes {B}, which supersedes {A}" in a.refusal.message
        assert sorted((c.record, c.quote) for c in a.citations) == [
            (A, "Superseded by ADR-2"),
            (B, "Superseded by ADR-1"),
        ]


def test_a_chain_without_a_circle_still_answers(store: Store, tmp_path: Path) -> None:
    r = GitRepo(tmp_path / "r")
    r.write("src/a.py", "x = 1\n")
    r.write(A, _adr(1, "A", "Superseded by ADR-2"))
    r.write(B, _adr(2, "B", "Accepted"))
    r.commit("ADRs", "2025-01-01T09:00:00Z")
    ingest_repo(store, r.root)
    a = history_tools.trace(store, A, now=NOW)
    assert a.status == "answered" and a.result["chain"] == [B, A]
