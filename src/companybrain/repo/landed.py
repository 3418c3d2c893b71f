"""When each commit reached the branch: a first-parent commit landed when it was committed;
a commit brought in by a merge landed when that merge was committed. History decides this,
so a commit written months before it was merged is dated by its merge, not its author."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from companybrain.graph.queries import repo_write
from companybrain.repo import gitcmd
from companybrain.repo.gitcmd import GitError
from companybrain.repo.history import iso_ms

if TYPE_CHECKING:
    from collections.abc import Generator, Iterable, Iterator
    from concurrent.futures import Executor, Future

    from companybrain.graph.connection import Store

Row = dict[str, Any]

BATCH = 2000


AHEAD = 10_000  # rows of a landing walk read ahead, at most: more are read again after


def brought_ahead(pool: Executor, repo_path: Path, head: str) -> Future[list[Row] | None]:
    """For a fresh run: walk the history for what merges brought in on `pool` while the
    commit pass runs (None when there is more than AHEAD of it, to keep memory bounded)."""
    return pool.submit(_brought, repo_path, head)


def _brought(repo_path: Path, head: str) -> list[Row] | None:
    rows: list[Row] = []
    walk = _whole_history(repo_path, head, mainline=False)
    try:
        for row in walk:
            rows.append(row)
            if len(rows) > AHEAD:
                return None
    finally:
        walk.close()
    return rows


def sync_landed(
    store: Store,
    repo_path: Path,
    head: str,
    since: str | None,
    *,
    created: bool = False,
    ahead: Future[list[Row] | None] | None = None,
) -> int:
    """Write landed_at/landed_by/mainline for the commits between `since` and `head`.
    `created`: the commit pass created every commit of the history as landed by itself on
    the main line (a fresh run): only the commits a merge brought in are written, read
    `ahead` if that walk was started (see brought_ahead)."""
    early = ahead.result() if created and ahead is not None else None
    rows: Iterable[Row]
    if early is not None:
        rows = early
    elif since is None:
        rows = _whole_history(repo_path, head, mainline=not created)
    else:
        rows = _since(repo_path, head, since)
    written = 0
    batch: list[Row] = []
    for row in rows:
        batch.append(row)
        if len(batch) >= BATCH:
            repo_write.write_landed(store, batch)
            written, batch = written + len(batch), []
    if batch:
        repo_write.write_landed(store, batch)
        written += len(batch)
    return written


def _row(sha: str, mainline: bool, landing: tuple[int, str, str]) -> dict[str, Any]:
    _, by, committed = landing
    return {
        "id": sha,
        "mainline": mainline,
        "landed_at": committed,
        "landed_ms": iso_ms(committed),
        "landed_by": by,
    }


def _whole_history(
    repo_path: Path, head: str, *, mainline: bool = True
) -> Generator[Row, None, None]:
    """Every commit of `head` (only those off the first-parent line unless `mainline`), in
    one `git log` pass, newest first in topological order (a commit after all its children).
    The first-parent line is followed from `head`; any other commit landed with the oldest
    first-parent commit that reaches it, which is the oldest landing among its children:
    each child hands its landing down to its parents. Only the commits whose children are
    not all read yet are remembered: the width of the history."""
    pending: dict[str, tuple[int, str, str]] = {}  # sha -> (age, landed by, when) so far
    next_mainline: str | None = head
    age = 0  # of the first-parent commits read so far: higher is older
    args = ["log", "--topo-order", "--format=%H%x1f%P%x1f%cI", head, "--"]
    for raw in gitcmd.stream(repo_path, args, b"\n"):
        if not raw.strip():
            continue
        sha, parents_text, committed = raw.decode().split("\x1f")
        parents = parents_text.split()
        found = pending.pop(sha, None)
        if sha == next_mainline:
            age += 1
            next_mainline = parents[0] if parents else None
            landing = (age, sha, committed)
            if mainline:
                yield _row(sha, True, landing)
            heirs = parents[1:]
        elif found is not None:
            landing = found
            yield _row(sha, False, landing)
            heirs = parents
        else:
            continue  # unreachable from head's first-parent line (cannot happen in a log of head)
        for parent in heirs:
            known = pending.get(parent)
            if known is None or known[0] < landing[0]:
                pending[parent] = landing


def _since(repo_path: Path, head: str, since: str) -> Iterator[dict[str, Any]]:
    """The first-parent commits after `since`, and what each merge among them brought in."""
    args = ["log", "--first-parent", "--format=%H%x1f%P%x1f%cI", head, f"^{since}", "--"]
    for raw in gitcmd.stream(repo_path, args, b"\n"):
        if not raw.strip():
            continue
        sha, parents_text, committed = raw.decode().split("\x1f")
        parents = parents_text.split()
        landing = (0, sha, committed)
        yield _row(sha, True, landing)
        for other in parents[1:]:
            try:
                for brought in gitcmd.stream(
                    repo_path, ["rev-list", f"^{parents[0]}", other, "--"], b"\n"
                ):
                    if brought.strip():
                        yield _row(brought.decode().strip(), False, landing)
            except GitError:
                continue  # a shallow clone lacks the branch: its commits keep their own date
