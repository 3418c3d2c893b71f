"""A decision deleted and later restored: git blame does not look past the deletion, so
`origin` said the restoring commit (and its author) recorded it, and its date was the day
it came back. A restored text that is the text deleted was recorded where it first was."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from companybrain.ask.repo import history_tools, tools
from companybrain.graph.connection import Store
from companybrain.repo.ingest import ingest_repo
from tests.repo.gitrepo import GitRepo

NOW = datetime(2026, 12, 1, tzinfo=UTC)
ADR = "docs/adr/0001-use-kafka.md"
TEXT = (
    "# 1. Use Kafka\n\n## Status\n\nAccepted\n\n## Decision\n\nsrc/queue.py publishes to Kafka.\n"
)
LOG = "# Decisions\n\n## Use Kafka\n\nsrc/queue.py publishes to Kafka.\n"
ANN = ("Ann Lee", "ann@example.com")
CY = ("Cy Park", "cy@example.com")


def _restored(tmp_path: Path, path: str, text: str, changed: str | None = None) -> GitRepo:
    r = GitRepo(tmp_path / "r")
    r.write("src/queue.py", "q = 1\n")
    r.write(path, text)
    r.commit("Record the decision", "2025-01-01T10:00:00Z", author=ANN)
    r.rm(path)
    r.commit("Drop it", "2025-02-01T10:00:00Z", author=CY)
    r.write(path, changed or text)
    r.commit("Bring it back", "2025-03-01T10:00:00Z", author=CY)
    return r


def test_a_restored_adr_was_recorded_where_it_first_was(store: Store, tmp_path: Path) -> None:
    r = _restored(tmp_path, ADR, TEXT)
    first = r.git("rev-list", "--max-parents=0", "HEAD")
    ingest_repo(store, r.root)
    came = history_tools.origin(store, ADR, now=NOW)
    assert came.result is not None, came.refusal
    assert (came.result["commit"], came.result["author"]) == (first, "ann@example.com")


def test_a_restored_log_entry_too(store: Store, tmp_path: Path) -> None:
    r = _restored(tmp_path, "DECISIONS.md", LOG)
    first = r.git("rev-list", "--max-parents=0", "HEAD")
    ingest_repo(store, r.root)
    came = history_tools.origin(store, "DECISIONS.md#Use Kafka", now=NOW)
    assert came.result is not None and came.result["commit"] == first


def test_brought_back_changed_it_is_recorded_anew(store: Store, tmp_path: Path) -> None:
    r = _restored(tmp_path, ADR, TEXT, TEXT.replace("to Kafka.", "to Kafka, in order."))
    ingest_repo(store, r.root)
    came = history_tools.origin(store, ADR, now=NOW)
    assert came.result is not None and came.result["commit"] == r.head()


def test_restored_then_moved_it_is_still_recorded_where_it_first_was(
    store: Store, tmp_path: Path
) -> None:
    old = "doc/adr/0001-use-kafka.md"
    r = _restored(tmp_path, old, TEXT)
    first = r.git("rev-list", "--max-parents=0", "HEAD")
    r.mv(old, ADR)
    r.commit("Move the ADRs", "2025-04-01T10:00:00Z", author=CY)
    ingest_repo(store, r.root)
    came = history_tools.origin(store, ADR, now=NOW)
    assert came.result is not None and came.result["commit"] == first


def test_restored_then_moved_it_is_listed_once(store: Store, tmp_path: Path) -> None:
    """The deletion before the restore made `why` list the decision twice: under its new
    path, and under the old one as "removed"."""
    old = "doc/adr/0001-use-kafka.md"
    r = _restored(tmp_path, old, TEXT)
    r.mv(old, ADR)
    r.commit("Move the ADRs", "2025-04-01T10:00:00Z", author=CY)
    report = ingest_repo(store, r.root)
    assert (report.decisions, report.decisions_removed) == (1, 0)
    a = tools.why(store, "src/queue.py", now=NOW)
    assert [d["id"] for d in a.result["decisions"]] == [ADR]
    topic = tools.why(store, "Kafka", now=NOW)
    assert [d["id"] for d in topic.result["decisions"]] == [ADR]
