"""A decision added and reverted: a repository read commit by commit kept it "(removed)",
read whole it was never known; a heading retitled between two reads was kept as a removed
decision beside the retitled one. Read whole or a commit at a time, the graph now holds the
same decisions and every tool gives the same answer on every path and topic."""

from __future__ import annotations

import json
import random
import uuid
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest

from companybrain.ask.repo import history_tools, tools
from companybrain.config import Settings
from companybrain.graph.connection import Store
from companybrain.graph.queries import repo_read
from companybrain.repo.ingest import ingest_repo
from tests.repo.gitrepo import GitRepo

NOW = datetime(2026, 1, 1, tzinfo=UTC)
PATHS = ["src/up.py", "src/db.py", "src/web.py", "src/cache.py"]
TOPICS = ["retry uploads", "batch writes", "cache pages", "use postgres", "web pages"]


def _entry(heading: str, body: str) -> str:
    return f"\n## {heading}\n\nStatus: Accepted\n\n{body}\n"


def _history(r: GitRepo) -> list[str]:
    """Commits: an entry added then reverted, a heading retitled, a repeated heading whose
    first copy is deleted, an entry moved to another folder's log, an ADR added then
    deleted, an entry edited."""
    shas = []
    for path in PATHS:
        r.write(path, "x = 1\n")
    db = _entry("Use Postgres", "src/db.py stores rows in Postgres.")
    web = _entry("Render web pages", "src/web.py renders pages on the server.")
    r.write("DECISIONS.md", "# Decisions\n" + db + web)
    shas.append(r.commit("Start", "2025-01-01T09:00:00Z"))
    up = _entry("Retry uploads", "src/up.py retries 3 times.")
    r.write("DECISIONS.md", "# Decisions\n" + db + web + up)
    shas.append(r.commit("Retry", "2025-01-02T09:00:00Z"))
    day = "2025-01-03T09:00:00Z"
    r.git("revert", "--no-edit", shas[-1], env={"GIT_COMMITTER_DATE": day, "GIT_AUTHOR_DATE": day})
    shas.append(r.head())
    web2 = _entry("Render web pages on the server", "src/web.py renders pages on the server.")
    batch = _entry("Batch writes", "src/db.py batches writes.")
    batch2 = _entry("Batch writes", "src/cache.py batches writes.")
    r.write("DECISIONS.md", "# Decisions\n" + db + web2 + batch + batch2)
    shas.append(r.commit("Retitle, batch", "2025-01-04T09:00:00Z"))
    r.write("DECISIONS.md", "# Decisions\n" + db + web2 + batch2)
    shas.append(r.commit("Drop the first batch entry", "2025-01-05T09:00:00Z"))
    cache = _entry("Cache pages", "src/cache.py caches pages.")
    r.write("DECISIONS.md", "# Decisions\n" + db + web2 + batch2 + cache)
    shas.append(r.commit("Cache", "2025-01-06T09:00:00Z"))
    r.write("DECISIONS.md", "# Decisions\n" + db + web2 + batch2)
    r.write("src/DECISIONS.md", "# Decisions\n" + cache)
    shas.append(r.commit("Move the cache entry", "2025-01-07T09:00:00Z"))
    r.write(
        "docs/adr/0001-cache-in-redis.md",
        "# 1. Cache in Redis\n\n## Status\n\nAccepted\n\n## Decision\n\nsrc/cache.py uses Redis.\n",
    )
    shas.append(r.commit("ADR", "2025-01-08T09:00:00Z"))
    r.rm("docs/adr/0001-cache-in-redis.md")
    edited = _entry("Use Postgres", "src/db.py stores rows in Postgres 16.")
    r.write("DECISIONS.md", "# Decisions\n" + edited + web2 + batch2)
    shas.append(r.commit("Drop the ADR, pin Postgres", "2025-01-09T09:00:00Z"))
    return shas


@pytest.fixture
def two(settings: Settings) -> Iterator[tuple[Store, Store]]:
    stores = (
        Store(settings, f"t_w_{uuid.uuid4().hex[:8]}"),
        Store(settings, f"t_s_{uuid.uuid4().hex[:8]}"),
    )
    for s in stores:
        s.ensure_schema()
    yield stores
    for s in stores:
        s.delete_graph()
        s.close()


def _answers(store: Store) -> list[str]:
    out = []
    keep = ("id", "title", "status", "date", "present", "removed_in", "commit", "text")
    for d in repo_read.decisions(store):
        out.append(json.dumps({k: d.get(k) for k in keep}, sort_keys=True))
    ids = [d["id"] for d in repo_read.decisions(store)]
    for subject in PATHS + TOPICS:
        for tool in (tools.why, tools.what_breaks, tools.disproven, tools.who_knows):
            out.append(json.dumps(tool(store, subject, now=NOW).to_dict(), sort_keys=True))
    for did in ids:
        for tool in (history_tools.trace, history_tools.origin):
            out.append(json.dumps(tool(store, did, now=NOW).to_dict(), sort_keys=True))
    return out


def test_whole_and_commit_by_commit_give_the_same_answers(
    two: tuple[Store, Store], tmp_path: Path
) -> None:
    whole, steps = two
    r = GitRepo(tmp_path / "r")
    shas = _history(r)
    ingest_repo(whole, r.root, name="r")
    for sha in shas:
        ingest_repo(steps, r.root, name="r", rev=sha)

    ids = {d["id"]: d["present"] for d in repo_read.decisions(whole)}
    assert ids["DECISIONS.md#Retry uploads"] is False  # reverted: known, and removed
    assert "DECISIONS.md#Render web pages" not in ids  # retitled, not removed
    assert "DECISIONS.md#Batch writes (2)" not in ids  # moved up, not removed
    assert ids["DECISIONS.md#Cache pages"] is False and ids["src/DECISIONS.md#Cache pages"]
    assert _answers(whole) == _answers(steps)


def test_an_entry_taken_out_then_written_again_and_retitled(
    two: tuple[Store, Store], tmp_path: Path
) -> None:
    """Taken out, written again with other text, then retitled: read whole, its first
    removal was kept as a decision "(removed)" that the reads in steps had replaced."""
    whole, steps = two
    r = GitRepo(tmp_path / "r")
    r.write("src/up.py", "x = 1\n")
    shas = []
    for n, log in enumerate(
        [
            _entry("Retry uploads", "src/up.py retries 3 times."),
            "",
            _entry("Retry uploads", "src/up.py retries 5 times."),
            _entry("Retry uploads five times", "src/up.py retries 5 times."),
        ],
        start=1,
    ):
        r.write("DECISIONS.md", "# Decisions\n" + log)
        shas.append(r.commit(f"c{n}", f"2025-01-0{n}T09:00:00Z"))
    ingest_repo(whole, r.root, name="r")
    for sha in shas:
        ingest_repo(steps, r.root, name="r", rev=sha)
    ids = [d["id"] for d in repo_read.decisions(whole)]
    assert ids == ["DECISIONS.md#Retry uploads five times"]
    assert _answers(whole) == _answers(steps)


HEADINGS = ["Batch writes", "Use Postgres", "Cache pages"]
BODIES = [
    "src/db.py batches writes.",
    "src/db.py stores rows in Postgres.",
    "src/cache.py caches pages.",
    "src/web.py renders pages.",
    "src/up.py retries.",
]


def _edits(r: GitRepo, seed: int) -> list[str]:
    """Eight commits of a log whose few headings repeat: entries added above and below,
    taken out, edited, swapped and retitled at random."""
    rng = random.Random(seed)
    r.write("src/db.py", "x = 1\n")
    entries = [(rng.choice(HEADINGS), rng.choice(BODIES))]
    shas = []
    for n in range(8):
        op = rng.choice(["above", "below", "out", "edit", "swap", "retitle"]) if n else ""
        at = rng.randrange(len(entries))
        if op in {"above", "below"}:
            new = (rng.choice(HEADINGS), f"{rng.choice(BODIES)} v{n}")
            entries.insert(0 if op == "above" else len(entries), new)
        elif op == "out" and len(entries) > 1:
            entries.pop(at)
        elif op == "edit":
            entries[at] = (entries[at][0], f"{entries[at][1]} e{n}")
        elif op == "retitle":
            entries[at] = (rng.choice(HEADINGS), entries[at][1])
        elif op == "swap" and at + 1 < len(entries):
            entries[at], entries[at + 1] = entries[at + 1], entries[at]
        body = "We looked at the options for this part of the service.\n{}"
        r.write(
            "DECISIONS.md", "# Decisions\n" + "".join(_entry(h, body.format(b)) for h, b in entries)
        )
        shas.append(r.commit(f"c{n} {op}", f"2025-01-{n + 1:02d}T09:00:00Z"))
    return shas


@pytest.mark.parametrize("seed", range(40))
def test_repeated_headings_are_recorded_alike_whole_or_in_steps(
    two: tuple[Store, Store], tmp_path: Path, seed: int
) -> None:
    """An entry written above another of the same heading takes its id and, from git blame,
    its heading and scaffold lines: read at a commit where the older entry was still in the
    log, it was recorded where it was written; read whole, after the older one was taken
    out, by the older one's commit."""
    whole, steps = two
    r = GitRepo(tmp_path / "r")
    shas = _edits(r, seed)
    ingest_repo(whole, r.root, name="r")
    for sha in shas:
        ingest_repo(steps, r.root, name="r", rev=sha)
    keep = ("id", "present", "removed_in", "commit", "recorded_at", "text")
    said = [[{k: d.get(k) for k in keep} for d in repo_read.decisions(s)] for s in two]
    assert said[0] == said[1]


def test_an_entry_written_above_its_namesake_then_left_alone(
    two: tuple[Store, Store], tmp_path: Path
) -> None:
    """The older `Use Postgres` taken out under the newer one written above it: read whole,
    the newer one was recorded by the older one's commit, a day before it was written."""
    r = GitRepo(tmp_path / "r")
    old = _entry("Use Postgres", "src/web.py renders pages.")
    new = _entry("Use Postgres", "src/db.py stores rows in Postgres.")
    shas = []
    for n, log in enumerate([old, new + old, new], start=1):
        r.write("DECISIONS.md", "# Decisions\n" + log)
        shas.append(r.commit(f"c{n}", f"2025-01-0{n}T09:00:00Z"))
    whole, steps = two
    ingest_repo(whole, r.root, name="r")
    for sha in shas:
        ingest_repo(steps, r.root, name="r", rev=sha)
    for store in two:
        got = history_tools.origin(store, "DECISIONS.md#Use Postgres", now=NOW)
        assert got.result is not None and got.result["commit"] == shas[1], got.explanation


@pytest.mark.parametrize("shifted", [False, True])
def test_a_revert_of_a_revert_keeps_where_the_entry_was_recorded(
    two: tuple[Store, Store], tmp_path: Path, shifted: bool
) -> None:
    """An entry added, reverted, and the revert reverted: read whole it was recorded by the
    last revert (its lines are that commit's to git blame), read in steps where it was
    written; with another entry written above it meanwhile, in steps too. An ADR brought
    back so was already credited to where it was first recorded."""
    r = GitRepo(tmp_path / "r")
    r.write("src/up.py", "x = 1\n")
    db = _entry("Use Postgres", "src/db.py stores rows in Postgres.")
    r.write("DECISIONS.md", "# Decisions\n" + db)
    shas = [r.commit("Start", "2025-01-01T09:00:00Z")]
    r.write("DECISIONS.md", "# Decisions\n" + db + _entry("Retry uploads", "src/up.py retries."))
    shas.append(r.commit("Retry", "2025-01-02T09:00:00Z"))
    for n, day in ((1, "2025-01-03T09:00:00Z"), (2, "2025-01-05T09:00:00Z")):
        if shifted and n == 2:
            top = _entry("Cache pages", "src/cache.py caches pages.")
            r.write("DECISIONS.md", "# Decisions\n" + top + db)
            shas.append(r.commit("Cache", "2025-01-04T09:00:00Z"))
        r.git("revert", "--no-edit", "HEAD" if n == 2 and not shifted else shas[-1 - (n == 2)],
              env={"GIT_COMMITTER_DATE": day, "GIT_AUTHOR_DATE": day})  # fmt: skip
        shas.append(r.head())
    whole, steps = two
    ingest_repo(whole, r.root, name="r")
    for sha in shas:
        ingest_repo(steps, r.root, name="r", rev=sha)
    for store in two:
        got = history_tools.origin(store, "DECISIONS.md#Retry uploads", now=NOW)
        assert got.result is not None and got.result["commit"] == shas[1], got.explanation
    assert _answers(whole) == _answers(steps)
