"""A rejected ADR-3 (or a proposed ADR-2) whose text says "This decision supersedes ADR-1.":
the ingest reads that it supersedes nothing, but after `brain board run` the board's
confirmed relation made `trace ADR-1` answer "The one in force is ADR-3", citing the
rejected ADR, and `why` list the accepted ADR-1 as superseded. A decision rejected,
withdrawn or only proposed supersedes nothing, whoever reads it; one accepted later does."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from companybrain.ask.engine import ask
from companybrain.ask.repo import history_tools, tools
from companybrain.board.fill import fill
from companybrain.board.options import BoardOptions
from companybrain.board.worker import Worker
from companybrain.config import Settings
from companybrain.graph.connection import Store
from companybrain.graph.queries import findings_q
from companybrain.repo.ingest import ingest_repo
from tests.repo.gitrepo import GitRepo

OPTIONS = BoardOptions(poll_s=0.01)
NOW = datetime(2026, 1, 1, tzinfo=UTC)
ONE, TWO, THREE = (
    "docs/adr/0001-use-sqlite.md",
    "docs/adr/0002-use-postgres.md",
    "docs/adr/0003-use-mongo.md",
)


def _adr(n: int, title: str, status: str, body: str = "") -> str:
    return (
        f"# {n}. Use {title}\n\n## Status\n\n{status}\n\n## Decision\n\n"
        f"{body}src/db.py uses {title}.\n"
    )


def _board_run(store: Store, board: Store, settings: Settings) -> None:
    fill(store, board, OPTIONS)
    Worker(settings, OPTIONS, "rules-1").run()
    Worker(settings, OPTIONS, "rules-2").run()  # confirms what rules-1 raised, and back


def test_a_board_run_gives_a_decision_not_in_force_nothing_to_supersede(
    store: Store, board: Store, settings: Settings, tmp_path: Path
) -> None:
    r = GitRepo(tmp_path / "r")
    r.write("src/db.py", "x = 1\n")
    r.write(ONE, _adr(1, "SQLite", "Accepted"))
    r.write(TWO, _adr(2, "Postgres", "Proposed", "This supersedes ADR-1. "))
    r.write(THREE, _adr(3, "Mongo", "Rejected", "This decision supersedes ADR-1. "))
    r.commit("ADRs", "2025-01-01T09:00:00Z")
    ingest_repo(store, r.root)
    _board_run(store, board, settings)

    t = history_tools.trace(store, ONE, now=NOW)
    assert t.result is not None and t.result["chain"] == [ONE], t.explanation
    assert "in force is" not in t.explanation
    why = tools.why(store, "src/db.py", now=NOW)
    status = {d["id"]: d["status"] for d in why.result["decisions"]}
    assert status == {ONE: "accepted", TWO: "proposed", THREE: "rejected"}

    # Accepted since: now it does supersede ADR-1 ...
    r.write(TWO, _adr(2, "Postgres", "Accepted", "This supersedes ADR-1. "))
    r.commit("Accept ADR-2", "2025-02-01T09:00:00Z")
    ingest_repo(store, r.root)
    _board_run(store, board, settings)
    t = history_tools.trace(store, ONE, now=NOW)
    assert t.result is not None and t.result["chain"] == [TWO, ONE], t.explanation
    # on a day it was only proposed, it superseded nothing yet
    then = ask(store, settings, f"What replaced {ONE} as of 2025-01-15?", now=NOW)
    assert then.result is not None and then.result["chain"] == [ONE], then.explanation

    # ... and withdrawn again, it no longer does, though its sentence stays.
    r.write(TWO, _adr(2, "Postgres", "Withdrawn", "This supersedes ADR-1. "))
    r.commit("Withdraw ADR-2", "2025-03-01T09:00:00Z")
    ingest_repo(store, r.root)
    _board_run(store, board, settings)
    t = history_tools.trace(store, ONE, now=NOW)
    assert t.result is not None and t.result["chain"] == [ONE], t.explanation


def test_a_fill_takes_away_what_a_board_run_before_the_check_wrote(
    store: Store, board: Store, settings: Settings, tmp_path: Path, monkeypatch: Any
) -> None:
    """A board run before decisions not in force were refused left their edges in the
    brain, and nothing read those entries again: the next fill takes them away."""
    r = GitRepo(tmp_path / "r")
    r.write(ONE, _adr(1, "SQLite", "Accepted"))
    r.write(THREE, _adr(3, "Mongo", "Rejected", "This decision supersedes ADR-1. "))
    r.commit("ADRs", "2025-01-01T09:00:00Z")
    ingest_repo(store, r.root)
    with monkeypatch.context() as m:
        m.setattr(findings_q, "_NEVER", [])  # as before the check
        _board_run(store, board, settings)
    assert history_tools.trace(store, ONE, now=NOW).result["chain"] == [THREE, ONE]  # type: ignore[index]

    fill(store, board, OPTIONS)
    assert history_tools.trace(store, ONE, now=NOW).result["chain"] == [ONE]  # type: ignore[index]
