"""Board fixtures: a brain graph seeded with decision entries, records and files (as the
repository and record ingestion write them), and its board graph, deleted afterwards."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from companybrain.board.options import BoardOptions, board_graph
from companybrain.config import Settings
from companybrain.graph.connection import Store


@dataclass(frozen=True)
class Adr:
    id: str
    title: str
    date: str
    text: str


ADR_1 = Adr(
    "docs/adr/0001-use-kafka.md",
    "Use Kafka for ledger events",
    "2025-01-10",
    """# 1. Use Kafka for ledger events

Status: Superseded by [ADR-0002](0002-stop-kafka.md)

We publish ledger events through Kafka. The exporter in `src/exporter.py` batches
its writes. We measured 340 ms p99 latency on the staging cluster.
""",
)
ADR_2 = Adr(
    "docs/adr/0002-stop-kafka.md",
    "Stop publishing ledger events through Kafka",
    "2025-06-01",
    """# 2. Stop publishing ledger events through Kafka

Status: Accepted

This supersedes ADR-1. We tried batching the writes to Kafka and it did not help:
16/20 runs still timed out. Throughput with the outbox table is 2.6x higher.
The outbox lives in `src/outbox.py`.
""",
)
ADR_3 = Adr(
    "docs/adr/0003-keep-router-line.md",
    "Keep the router prompt's wrong line",
    "2025-07-01",
    """# 3. Keep the router prompt's wrong line

We did fix the wrong line once and measured: with the corrected text the small model
routed "remember this" to memory 0 times out of 20; with the old text, 16 out of 20.
The fix was reverted. This does not supersede ADR-2.
""",
)
ADRS = (ADR_1, ADR_2, ADR_3)
FILES = ("src/exporter.py", "src/outbox.py", "src/router.py", "docs/adr/0001-use-kafka.md")


def seed_decisions(store: Store, adrs: tuple[Adr, ...] | list[Adr], repo: str = "") -> None:
    store.query(
        "UNWIND $rows AS r MERGE (d:Decision {id: r.id}) SET d.title = r.title, "
        "d.status = 'accepted', d.date = r.date, d.path = r.id, d.line_start = 1, "
        "d.line_end = r.lines, d.text = r.text, d.repo = $repo",
        {
            "rows": [
                {
                    "id": a.id,
                    "title": a.title,
                    "date": a.date,
                    "text": a.text,
                    "lines": a.text.count("\n"),
                }
                for a in adrs
            ],
            "repo": repo,
        },
    )


def seed_files(store: Store, paths: tuple[str, ...] | list[str]) -> None:
    store.query("UNWIND $paths AS p MERGE (:File {id: p})", {"paths": list(paths)})


def seed_record(store: Store, record_id: str, title: str, text: str, at: str) -> None:
    store.query(
        "MERGE (s:Source {id: $id}) SET s.kind = 'adr', s.title = $title, s.text = $text, "
        "s.at = $at",
        {"id": record_id, "title": title, "text": text, "at": at},
    )


def remove_entry(store: Store, entry_id: str) -> None:
    store.query("MATCH (d:Decision {id: $id}) DETACH DELETE d", {"id": entry_id})


@pytest.fixture
def board(store: Store) -> Iterator[Store]:
    """The board graph beside the test's brain graph, deleted after the test."""
    b = store.for_graph(board_graph(store.graph_name))
    b.ensure_schema()
    yield b
    b.delete_graph()
    b.close()


@pytest.fixture
def fast() -> BoardOptions:
    """Short claims and quick polling, so that takeovers happen within a test."""
    return BoardOptions(claim_ttl_s=2.0, max_attempts=3, poll_s=0.05)


@pytest.fixture
def seeded(store: Store, settings: Settings) -> Store:
    seed_decisions(store, ADRS)
    seed_files(store, FILES)
    return store


GIT_ENV = {
    "GIT_AUTHOR_NAME": "Ada",
    "GIT_AUTHOR_EMAIL": "ada@example.com",
    "GIT_COMMITTER_NAME": "Ada",
    "GIT_COMMITTER_EMAIL": "ada@example.com",
}


def commit_files(root: Path, files: dict[str, str], message: str = "files") -> None:
    """Write `files` into the repository at `root` and commit them."""
    env = {**os.environ, **GIT_ENV}
    for path, text in files.items():
        target = root / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text)
    subprocess.run(["git", "-C", str(root), "add", "-A"], check=True, env=env)
    subprocess.run(["git", "-C", str(root), "commit", "-q", "-m", message], check=True, env=env)


def make_repo(root: Path, files: dict[str, str]) -> Path:
    """A git repository with `files` committed at HEAD."""
    root.mkdir(parents=True, exist_ok=True)
    subprocess.run(["git", "init", "-q", str(root)], check=True, env={**os.environ, **GIT_ENV})
    commit_files(root, files)
    return root
