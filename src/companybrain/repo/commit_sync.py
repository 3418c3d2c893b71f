"""The commit pass: stream `git log` once, oldest first, and write commits, people, parents,
co-authors and touched files in UNWIND batches. Along the way it tracks which versions of
the agent instruction files are in force in each commit's tree, and which decision files
the history deleted. Memory holds one batch and a bounded cache, whatever the history."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from companybrain.graph.queries import repo_write
from companybrain.repo import history
from companybrain.repo.agents import co_authors
from companybrain.repo.decision_files import is_decision_file
from companybrain.repo.identity import Mailmap, identity
from companybrain.repo.instructions import instruction_id, is_instruction_file

if TYPE_CHECKING:
    from companybrain.graph.connection import Store

BATCH = 500
STATE_CACHE = 4096
Progress = Callable[[str, int, int | None], None]


@dataclass
class Version:
    """A version of an instruction file first seen in `commit`."""

    path: str
    blob: str
    commit: str
    date: str
    date_ms: int


@dataclass
class CommitPass:
    commits: int = 0
    versions: dict[str, Version] = field(default_factory=dict)  # instruction id -> first seen
    deleted_decision_files: dict[str, str] = field(default_factory=dict)  # path -> commit


class _Batch:
    def __init__(self, store: Store, repo: str, run: str) -> None:
        self.store, self.repo, self.run = store, repo, run
        self.commits: list[dict[str, Any]] = []
        self.parents: list[dict[str, Any]] = []
        self.co_authors: list[dict[str, Any]] = []
        self.touches: list[dict[str, Any]] = []
        self.renames: list[dict[str, Any]] = []

    def flush(self) -> None:
        if self.commits:
            repo_write.write_commits(self.store, self.repo, self.run, self.commits)
        if self.parents:
            repo_write.write_parents(self.store, self.parents)
        if self.co_authors:
            repo_write.write_co_authors(self.store, self.co_authors)
        for start in range(0, len(self.touches), 2000):
            repo_write.write_touches(self.store, self.repo, self.touches[start : start + 2000])
        if self.renames:
            repo_write.write_renames(self.store, self.repo, self.renames)
        self.commits, self.parents, self.co_authors = [], [], []
        self.touches, self.renames = [], []


class _InstructionState:
    """Instruction versions in force per commit: a bounded cache, the graph behind it."""

    def __init__(self, store: Store, batch: _Batch) -> None:
        self.store, self.batch = store, batch
        self.cache: OrderedDict[str, tuple[str, ...]] = OrderedDict()

    def of(self, sha: str | None) -> tuple[str, ...]:
        if sha is None:
            return ()
        if sha in self.cache:
            self.cache.move_to_end(sha)
            return self.cache[sha]
        self.batch.flush()  # the parent may still be waiting in the batch
        found = repo_write.commit_instructions(self.store, sha)
        return tuple(found or ())

    def put(self, sha: str, state: tuple[str, ...]) -> None:
        self.cache[sha] = state
        if len(self.cache) > STATE_CACHE:
            self.cache.popitem(last=False)


def _next_state(parent: tuple[str, ...], commit: history.CommitInfo) -> tuple[str, ...]:
    changes = [
        c
        for c in commit.changes
        if is_instruction_file(c.path) or (c.old_path and is_instruction_file(c.old_path))
    ]
    if not changes:
        return parent
    by_path = {i.rpartition("@")[0]: i for i in parent}
    for c in changes:
        if c.old_path and c.status == "R":
            by_path.pop(c.old_path, None)
        if c.status == "D" or c.blob is None:
            by_path.pop(c.path, None)
        elif is_instruction_file(c.path):
            by_path[c.path] = instruction_id(c.path, c.blob)
    return tuple(sorted(by_path.values()))


def sync_commits(
    store: Store,
    repo_path: Path,
    repo: str,
    run: str,
    revs: list[str],
    total: int | None = None,
    progress: Progress | None = None,
) -> CommitPass:
    batch = _Batch(store, repo, run)
    states = _InstructionState(store, batch)
    mailmap = Mailmap(repo_path)
    out = CommitPass()
    for c in history.commits(repo_path, revs):
        author = identity(c.author_name, c.author_email)
        committer = identity(c.committer_name, c.committer_email)
        first_parent = c.parents[0] if c.parents else None
        state = _next_state(states.of(first_parent), c)
        states.put(c.sha, state)
        for iid in state:
            if iid not in out.versions:
                path, _, blob = iid.rpartition("@")
                out.versions[iid] = Version(path, blob, c.sha, c.committer_at, _ms(c))
        batch.commits.append(
            {
                "id": c.sha,
                "first_parent": first_parent,
                "is_merge": c.is_merge,
                "author_id": author.id,
                "author_name": author.name,
                "author_email": author.email,
                "author_is_agent": author.is_agent,
                "author_agent": author.agent,
                "committer_id": committer.id,
                "committer_name": committer.name,
                "committer_email": committer.email,
                "committer_is_agent": committer.is_agent,
                "committer_agent": committer.agent,
                "author_at": c.author_at,
                "author_ms": history.iso_ms(c.author_at),
                "committer_at": c.committer_at,
                "committer_ms": _ms(c),
                "message": c.message,
                "subject": c.subject,
                "instructions": list(state),
            }
        )
        batch.parents += [{"child": c.sha, "parent": p, "n": n} for n, p in enumerate(c.parents)]
        for name, email in co_authors(c.message):
            who = mailmap.map(name, email)
            if who.id != author.id:
                batch.co_authors.append(
                    {
                        "commit": c.sha,
                        "id": who.id,
                        "name": who.name,
                        "email": who.email,
                        "is_agent": who.is_agent,
                        "agent": who.agent,
                    }
                )
        for ch in c.changes:
            if ch.status == "D" and is_decision_file(ch.path):
                out.deleted_decision_files[ch.path] = c.sha
            if c.is_merge:
                continue  # a merge repeats its branch's changes: the branch commits count
            batch.touches.append(
                {
                    "commit": c.sha,
                    "path": ch.path,
                    "change": ch.status,
                    "old_path": ch.old_path,
                    "added": ch.added,
                    "removed": ch.removed,
                }
            )
            if ch.old_path and ch.status == "R":
                batch.renames.append({"old_path": ch.old_path, "path": ch.path, "commit": c.sha})
        out.commits += 1
        if len(batch.commits) >= BATCH:
            batch.flush()
            if progress:
                progress("commits", out.commits, total)
    batch.flush()
    if progress:
        progress("commits", out.commits, total)
    return out


def _ms(c: history.CommitInfo) -> int:
    return history.iso_ms(c.committer_at)
