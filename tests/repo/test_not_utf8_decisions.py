"""A decision log entry holding a Latin-1 byte ("r\\xe9sum\\xe9") was stored and quoted with
U+FFFD in its place, a quote the file does not hold; an entry edited into Latin-1 later was
marked removed, its old text still quoted. Such an entry is left out, and the ingest says
which file and line, as the corpus reader refuses a record that is not UTF-8."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from companybrain.ask.repo import tools
from companybrain.graph.connection import Store
from companybrain.graph.queries import repo_read
from companybrain.repo.ingest import ingest_repo
from tests.repo.gitrepo import GitRepo

NOW = datetime(2026, 1, 1, tzinfo=UTC)
CLEAN = "DECISIONS.md#Batch exporter writes"


def _log(cache_body: bytes) -> bytes:
    return (
        b"# Decisions\n\n## Cache the pages\n\n" + cache_body + b"\n\n"
        b"## Batch exporter writes\n\nThe exporter batches writes in src/cache.py.\n"
    )


def _write(r: GitRepo, data: bytes) -> None:
    (r.root / "DECISIONS.md").write_bytes(data)
    r.git("add", "DECISIONS.md")


def test_an_entry_that_is_not_utf8_is_left_out_and_reported(store: Store, tmp_path: Path) -> None:
    r = GitRepo(tmp_path / "r")
    r.write("src/cache.py", "x = 1\n")
    _write(r, _log(b"The exporter caches r\xe9sum\xe9 pages in src/cache.py."))
    r.commit("log", "2025-01-03T10:00:00Z")
    report = ingest_repo(store, r.root)

    assert [d["id"] for d in repo_read.decisions(store)] == [CLEAN]
    assert report.decisions == 1
    assert [w.split(":")[0] for w in report.not_utf8_decisions] == ["DECISIONS.md line 5"]
    a = tools.why(store, "src/cache.py", now=NOW)
    assert [d["id"] for d in a.result["decisions"]] == [CLEAN]
    for c in a.citations:
        assert "\ufffd" not in (c.quote or "")
    assert tools.why(store, "cache pages", now=NOW).status == "refused"


def test_an_entry_edited_into_latin1_is_not_quoted_from_before(
    store: Store, tmp_path: Path
) -> None:
    r = GitRepo(tmp_path / "r")
    r.write("src/cache.py", "x = 1\n")
    _write(r, _log("The exporter caches résumé pages in src/cache.py.".encode()))
    r.commit("log", "2025-01-03T10:00:00Z")
    ingest_repo(store, r.root)
    assert len(repo_read.decisions(store)) == 2

    _write(r, _log(b"The exporter caches r\xe9sum\xe9s and more pages in src/cache.py."))
    r.commit("latin-1", "2025-01-04T10:00:00Z")
    report = ingest_repo(store, r.root)
    assert [d["id"] for d in repo_read.decisions(store)] == [CLEAN]  # not kept as "removed"
    assert report.not_utf8_decisions and report.decisions == 1
