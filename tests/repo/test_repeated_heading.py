"""A heading written twice in a log is `Heading` and `Heading (2)` in order, so a newer
entry written above an older one of the same heading ("## 2025-04-01" logs, newest first)
takes the older one's id. Git blame gives the new entry the old heading line, and the id
alone said that line was its own: `origin` answered that the new entry was recorded in the
old commit, months before it was written, citing the new text, and the old entry as
recorded by the commit that only wrote the new one above it. An entry is recorded where
most of its lines were written."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from companybrain.ask.engine import ask
from companybrain.ask.repo import history_tools
from companybrain.config import Settings
from companybrain.graph.connection import Store
from companybrain.repo.ingest import ingest_repo
from tests.repo.gitrepo import GitRepo

NOW = datetime(2026, 1, 1, tzinfo=UTC)
NEW = "DECISIONS.md#Batch writes"
OLD = "DECISIONS.md#Batch writes (2)"
BATCH = "src/store/db.py batches writes. Tried streaming each row: throughput fell to a third."
STREAM = "src/store/db.py streams each row again; the new driver made it fast."


def _entry(day: str, text: str) -> str:
    return f"\n## Batch writes\n\nDate: {day}\n\n{text}\n"


def _repo(root: Path) -> tuple[GitRepo, str]:
    r = GitRepo(root)
    r.write("src/store/db.py", "def save(x):\n    return x\n")
    r.commit("Start", "2025-01-10T09:00:00Z")
    r.write("DECISIONS.md", "# Decisions\n" + _entry("2025-02-01", BATCH))
    return r, r.commit("Record batching", "2025-02-01T09:00:00Z")


@pytest.mark.parametrize("read_between", [False, True])
def test_an_entry_written_above_one_of_the_same_heading(
    store: Store, tmp_path: Path, read_between: bool
) -> None:
    r, batched = _repo(tmp_path / "r")
    if read_between:
        ingest_repo(store, r.root)
    r.write(
        "DECISIONS.md", "# Decisions\n" + _entry("2025-04-01", STREAM) + _entry("2025-02-01", BATCH)
    )
    streamed = r.commit("Stream again", "2025-04-01T09:00:00Z")
    ingest_repo(store, r.root)
    for decision, commit, text in ((NEW, streamed, STREAM), (OLD, batched, BATCH)):
        a = history_tools.origin(store, decision, now=NOW)
        assert a.result is not None, a.refusal
        assert a.result["commit"] == commit, (decision, a.explanation)
        assert a.citations[-1].quote == text


def test_a_past_day_cites_the_entry_it_held(
    store: Store, settings: Settings, tmp_path: Path
) -> None:
    """Asked about a day before the new entry was written above it, the old entry (then
    `Batch writes`) was cited with the new entry's recorded time (the graph's `Batch writes`),
    after that day, and the new entry counted as in the log that day."""
    r, _ = _repo(tmp_path / "r")
    r.write(
        "DECISIONS.md", "# Decisions\n" + _entry("2025-04-01", STREAM) + _entry("2025-02-01", BATCH)
    )
    r.commit("Stream again", "2025-04-01T09:00:00Z")
    ingest_repo(store, r.root)

    a = ask(store, settings, "Why src/store/db.py as of 2025-03-01?", now=NOW)
    assert a.status == "answered", a.refusal
    assert [(c.record, c.quote, c.at) for c in a.citations] == [
        (NEW, BATCH, "2025-02-01T09:00:00+00:00")
    ]
    # Today's `Batch writes` was written after that day; today's `Batch writes (2)` was
    # there, as `Batch writes`.
    new = ask(store, settings, f"What replaced {NEW} as of 2025-03-01?", now=NOW)
    assert new.refusal is not None and "was not in the decision log" in new.refusal.message
    old = ask(store, settings, f"What replaced {OLD} as of 2025-03-01?", now=NOW)
    assert old.status == "answered" and old.result["decision"] == NEW, old.refusal
    assert [c.quote for c in old.citations] == [BATCH]
