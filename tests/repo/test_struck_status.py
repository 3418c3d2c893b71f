"""An ADR whose status was struck out and replaced ("~~Accepted~~ Superseded by [8. Use
Redis](0008-use-redis.md)", as people edit a Nygard ADR by hand) was read with no status and
superseded by nothing: `trace` said "Nothing recorded supersedes" it and `why` listed it as
a decision in force for the file. Struck-out text in a status is no longer said."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from companybrain.ask.repo import history_tools, tools
from companybrain.graph.connection import Store
from companybrain.repo.ingest import ingest_repo
from tests.repo.gitrepo import GitRepo

NOW = datetime(2026, 1, 1, tzinfo=UTC)
OLD = "docs/adr/0007-use-sqlite.md"
NEW = "docs/adr/0008-use-redis.md"


def test_a_struck_out_status_is_replaced_by_what_follows(store: Store, tmp_path: Path) -> None:
    r = GitRepo(tmp_path / "r")
    r.write("src/cache.py", "x = 1\n")
    r.write(
        OLD,
        "# 7. Use SQLite\n\nDate: 2025-01-10\n\n## Status\n\n~~Accepted~~ Superseded by "
        "[8. Use Redis](0008-use-redis.md)\n\n## Decision\n\nsrc/cache.py keeps its entries "
        "in SQLite.\n",
    )
    r.write(
        NEW,
        "# 8. Use Redis\n\nDate: 2025-02-01\n\n## Status\n\nAccepted\n\n## Decision\n\n"
        "src/cache.py keeps its entries in Redis.\n",
    )
    r.commit("ADRs", "2025-02-01T09:00:00Z")
    ingest_repo(store, r.root)

    chain = history_tools.trace(store, OLD, now=NOW)
    assert chain.result is not None and chain.result["chain"] == [NEW, OLD], chain.explanation
    why = tools.why(store, "src/cache.py", now=NOW)
    assert why.result is not None
    status = {d["id"]: d["status"] for d in why.result["decisions"]}
    assert status == {NEW: "accepted", OLD: "superseded"}
