"""The commit pass: stream `git log` once, oldest first, and write commits, people, parents,
co-authors and touched files, one query per batch, sent by a background thread while the
next batch is read. Along the way it tracks which versions of the agent instruction files
are in force in each commit's tree, and which decision files the history deleted. Memory
holds two batches and a bounded cache, whatever the history."""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from companybrain.graph.queries import repo_write
from companybrain.repo import history
from companybrain.repo.agents import co_authors
from companybrain.repo.background import Background
from companybrain.repo.decision_files import is_decision_file
from companybrain.repo.identity import Identity, Mailmap, identity
from companybrain.repo.instructions import instruction_id, is_instruction_file

if TYPE_CHECKING:
    from companybrain.graph.connection import Store

BATCH = 2000
TOUCHES = 16000  # touched files per query; one commit that touches more gets extra queries
TEXT = 8 << 20  # characters of commit messages per query: long messages make smaller batches
STATE_CACHE = 4096
Progress = Callable[[str, int, int | None], None]
# Asked of every touched path; histories name the same paths over and over.
_instruction_path = lru_cache(maxsize=1 << 16)(is_instruction_file)
_decision_path = lru_cache(maxsize=1 << 16)(is_decision_file)


@dataclass
class Version:
    """A version of an instruction file first seen in `commit`."""

    path: str
    blob: str
    commit: str
    date: str
    date_ms: int


FUTURE_SLACK_MS = 86_400_000  # a commit dated a day or more ahead of the clock is reported


@dataclass
class CommitPass:
    commits: int = 0
    versions: dict[str, Version] = field(default_factory=dict)  # instruction id -> first seen
    deleted_decision_files: dict[str, str] = field(default_factory=dict)  # path -> commit
    # (commit, path): a commit that took lines out of a decision file it kept, oldest first
    edited_decision_files: list[tuple[str, str]] = field(default_factory=list)
    skipped_paths: dict[str, str] = field(default_factory=dict)  # path -> first commit naming it
    # commit -> its committer date, a day or more after the run read it: a clock set wrong
    future: dict[str, str] = field(default_factory=dict)


class _Batch:
    """The rows of up to BATCH commits, written in one query (see repo_write)."""

    def __init__(
        self, store: Store, repo: str, run: str, writer: Background, *, fresh: bool
    ) -> None:
        self.store, self.repo, self.run, self.fresh = store, repo, run, fresh
        self.writer = writer
        self._clear()

    def _clear(self) -> None:
        self.commits: list[tuple[Any, ...]] = []  # (sha, first parent, is merge, author, ...)
        self.people: dict[str, list[Any]] = {}  # id -> [name, email, agent], first seen first
        self.co_people: dict[str, list[Any]] = {}  # the same, of co-authors (written after)
        self.parents: dict[tuple[str, str], int] = {}  # (child, parent) -> n
        self.co_authors: dict[tuple[str, str], None] = {}  # (commit, person id), in order
        self.touches: list[tuple[Any, ...]] = []  # (commit, path, change, old, added, removed)
        self.renames: list[dict[str, Any]] = []
        self.text = 0  # characters of the messages so far

    def person(self, who: Identity, people: dict[str, list[Any]] | None = None) -> str:
        """Note an author or committer of the batch. Its name and e-mail are those of its
        first row, its agent the first one any row names: what merging the rows one by one
        (authors and committers first, then co-authors) would keep."""
        people = self.people if people is None else people
        known = people.get(who.id)
        if known is None:
            people[who.id] = [who.name, who.email, who.agent]
        elif known[2] is None:
            known[2] = who.agent
        return who.id

    def co_author(self, who: Identity) -> str:
        return self.person(who, self.co_people)

    def flush(self) -> None:
        if not self.commits:
            return
        for pid, (name, email, agent) in self.co_people.items():
            self.person(Identity(pid, name, email, agent))
        people = sorted(self.people)
        files = sorted({t[1] for t in self.touches[:TOUCHES]})
        shas = sorted(c[0] for c in self.commits)
        person_at = {p: n for n, p in enumerate(people)}
        file_at = {f: n for n, f in enumerate(files)}
        commit_at = {sha: n for n, sha in enumerate(shas)}
        by_sha = {c[0]: c for c in self.commits}
        rows = [by_sha[sha] for sha in shas]
        columns: dict[str, list[Any]] = {
            "p_id": people,
            "p_name": [self.people[p][0] for p in people],
            "p_email": [self.people[p][1] for p in people],
            "p_agent": [self.people[p][2] for p in people],
            "f_path": files,
            "c_id": shas,
        }
        for n, name in enumerate(_COMMIT_COLUMNS[1:], start=1):
            columns[name] = [r[n] for r in rows]
        columns["c_author"] = [person_at[a] for a in columns["c_author"]]
        columns["c_committer"] = [person_at[m] for m in columns["c_committer"]]
        inside = [(c, p, n) for (c, p), n in self.parents.items() if p in commit_at]
        before = [(c, p, n) for (c, p), n in self.parents.items() if p not in commit_at]
        columns["e_child"] = [commit_at[c] for c, _, _ in inside]
        columns["e_parent"] = [commit_at[p] for _, p, _ in inside]
        columns["e_n"] = [n for _, _, n in inside]
        columns["o_id"] = sorted({p for _, p, _ in before})
        parent_at = {p: n for n, p in enumerate(columns["o_id"])}
        columns["o_child"] = [commit_at[c] for c, _, _ in before]
        columns["o_parent"] = [parent_at[p] for _, p, _ in before]
        columns["o_n"] = [n for _, _, n in before]
        columns["a_commit"] = [commit_at[c] for c, _ in self.co_authors]
        columns["a_person"] = [person_at[p] for _, p in self.co_authors]
        first = self.touches[:TOUCHES]
        columns["t_commit"] = [commit_at[t[0]] for t in first]
        columns["t_file"] = [file_at[t[1]] for t in first]
        for n, name in enumerate(("t_change", "t_old_path", "t_added", "t_removed"), start=2):
            columns[name] = [t[n] for t in first]
        store, repo, run, fresh = self.store, self.repo, self.run, self.fresh
        more = [_touch_row(t) for t in self.touches[TOUCHES:]]  # one commit touched more
        renames = self.renames

        def write() -> None:
            repo_write.write_commit_batch(store, repo, run, columns, fresh=fresh)
            for start in range(0, len(more), TOUCHES):
                repo_write.write_touches(store, repo, more[start : start + TOUCHES])
            if renames:
                repo_write.write_renames(store, repo, renames)

        self.writer.submit(write)
        self._clear()

    def written(self) -> None:
        """Flush, and wait until the graph holds everything so far."""
        self.flush()
        self.writer.wait()


_COMMIT_COLUMNS = (
    "c_id",
    "c_first_parent",
    "c_is_merge",
    "c_author",
    "c_committer",
    "c_author_at",
    "c_author_ms",
    "c_committer_at",
    "c_committer_ms",
    "c_message",
    "c_subject",
    "c_instructions",
)


def _touch_row(t: tuple[Any, ...]) -> dict[str, Any]:
    commit, path, change, old_path, added, removed = t
    return {
        "commit": commit,
        "path": path,
        "change": change,
        "old_path": old_path,
        "added": added,
        "removed": removed,
    }


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
        self.batch.written()  # the parent may still be waiting in the batch
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
        if _instruction_path(c.path) or (c.old_path and _instruction_path(c.old_path))
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
    *,
    fresh: bool = False,
) -> CommitPass:
    """`fresh`: the graph holds no commit at all, so the pass creates instead of merging."""
    with Background() as writer:
        return _sync(store, repo_path, _Batch(store, repo, run, writer, fresh=fresh), revs,
                     total, progress)  # fmt: skip


def _sync(
    store: Store,
    repo_path: Path,
    batch: _Batch,
    revs: list[str],
    total: int | None,
    progress: Progress | None,
) -> CommitPass:
    states = _InstructionState(store, batch)
    mailmap = Mailmap(repo_path)
    out = CommitPass()
    future_ms = int(time.time() * 1000) + FUTURE_SLACK_MS
    for c in history.commits(repo_path, revs):
        sha, parents, changes = c.sha, c.parents, c.changes
        author = identity(c.author_name, c.author_email)
        committer = identity(c.committer_name, c.committer_email)
        first_parent = parents[0] if parents else None
        is_merge = len(parents) > 1
        committed_ms = history.iso_ms(c.committer_at)
        if committed_ms > future_ms:
            out.future[sha] = c.committer_at
        state = _next_state(states.of(first_parent), c)
        states.put(sha, state)
        for iid in state:
            if iid not in out.versions:
                path, _, blob = iid.rpartition("@")
                out.versions[iid] = Version(path, blob, sha, c.committer_at, committed_ms)
        batch.commits.append(
            (
                sha,
                first_parent,
                is_merge,
                batch.person(author),
                batch.person(committer),
                c.author_at,
                committed_ms if c.author_at == c.committer_at else history.iso_ms(c.author_at),
                c.committer_at,
                committed_ms,
                c.message,
                c.subject,
                list(state),
            )
        )
        batch.text += len(c.message)
        for n, parent in enumerate(parents):
            batch.parents[(sha, parent)] = n  # a parent named twice: one edge, its last place
        for name, email in co_authors(c.message):
            who = mailmap.map(name, email)
            if who.id != author.id:
                batch.co_authors[(sha, batch.co_author(who))] = None
        for path in c.skipped:
            out.skipped_paths.setdefault(path, sha)
        for ch in changes:
            if ch.status == "D" and _decision_path(ch.path):
                out.deleted_decision_files[ch.path] = sha
            elif ch.status == "M" and ch.removed != 0 and not is_merge and _decision_path(ch.path):
                out.edited_decision_files.append((sha, ch.path))  # it may have left an entry
            elif ch.status in {"A", "C", "R"}:  # brought back: what follows decides, not that
                out.deleted_decision_files.pop(ch.path, None)
        if not is_merge:  # a merge repeats its branch's changes: the branch commits count
            batch.touches += [(sha, ch.path, ch.status, ch.old_path, ch.added, ch.removed)
                              for ch in changes]  # fmt: skip
            batch.renames += [{"old_path": ch.old_path, "path": ch.path, "commit": sha}
                              for ch in changes if ch.old_path and ch.status == "R"]  # fmt: skip
        out.commits += 1
        if len(batch.commits) >= BATCH or len(batch.touches) >= TOUCHES or batch.text >= TEXT:
            batch.flush()
            if progress:
                progress("commits", out.commits, total)
    batch.written()
    if progress:
        progress("commits", out.commits, total)
    return out
