"""A supersession stated in an ADR's front matter (`superseded_by: ADR-0002`, `supersedes:`,
`status: superseded by ADR-0002`) was cited by the ADR's heading line ("# 1. Use
Postgres"), which says nothing of it; a status line's was quoted as the front matter's
"---". The citation is the front-matter line that says it, with its line number."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from companybrain.ask.engine import ask
from companybrain.config import Settings
from companybrain.graph.connection import Store
from companybrain.repo.ingest import ingest_repo
from tests.repo.gitrepo import GitRepo

NOW = datetime(2026, 1, 1, tzinfo=UTC)
OLD = "docs/adr/0001-use-postgres.md"
NEW = "docs/adr/0002-use-sqlite.md"


def _adr(front: str, title: str) -> str:
    return f"---\n{front}\ndate: 2025-01-01\n---\n\n# {title}\n\n## Decision\n\nWe will.\n"


@pytest.mark.parametrize(
    ("old_front", "new_front", "quote", "line"),
    [
        ("status: superseded\nsuperseded_by: ADR-0002", "status: accepted",
         "superseded_by: ADR-0002", 3),
        ("status: superseded", "status: accepted\nsupersedes: ADR-0001", "supersedes: ADR-0001", 3),
        ("superseded-by: ADR-0002", "status: accepted", "superseded-by: ADR-0002", 2),
        ("status: superseded by ADR-0002", "status: accepted", "status: superseded by ADR-0002", 2),
    ],
)  # fmt: skip
def test_a_supersession_in_front_matter_is_cited_by_its_line(
    store: Store,
    settings: Settings,
    tmp_path: Path,
    old_front: str,
    new_front: str,
    quote: str,
    line: int,
) -> None:
    r = GitRepo(tmp_path / "r")
    r.write(OLD, _adr(old_front, "1. Use Postgres"))
    r.write(NEW, _adr(new_front, "2. Use SQLite"))
    r.commit("ADRs", "2025-02-01T09:00:00Z")
    r.write("src/db.py", "x = 1\n")
    r.commit("Code", "2025-03-01T09:00:00Z")
    ingest_repo(store, r.root)

    for day in (None, "2025-02-15"):  # the graph, and the log read from git that day
        t = ask(store, settings, f"What replaced {OLD}?", now=NOW, as_of=day)
        assert t.result is not None and t.result["chain"] == [NEW, OLD], t.explanation
        said = [c for c in t.citations if c.quote != "We will."]
        assert [(c.quote, c.lines) for c in said] == [(quote, (line, line))], day
        holder = OLD if "superseded" in quote else NEW
        assert said[0].record == holder
