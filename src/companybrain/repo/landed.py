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
    from collections.abc import Iterator

    from companybrain.graph.connection import Store

BATCH = 2000


def sync_landed(
    store: Store, repo_path: Path, head: str, since: str | None, *, created: bool = False
) -> int:
    """Write landed_at/landed_by/mainline for the commits between `since` and `head`.
    `created`: the commit pass created every commit of the history as landed by itself on
    the main line (a fresh run): only the commits a merge brought in are written."""
    rows = _whole_history(repo_path, head) if since is None else _since(repo_path, head, since)
    written = 0
    batch: list[dict[str, Any]] = []
    for row in rows:
        if created and row["mainline"]:
            continue
        batch.append(row)
        if len(batch) >= BATCH:
            repo_write.write_landed(store, batch)
            written, batch = written + len(batch), []
    if batch:
        repo_write.write_landed(store, batch)
        written += len(batch)
    return written


def _landed(sha: str, committed: str) -> dict[str, Any]:
    return {"landed_at": committed, "landed_ms": iso_ms(committed), "landed_by": sha}


def _whole_history(repo_path: Path, head: str) -> Iterator[dict[str, Any]]:
    """Every commit of `head` in one `git log` pass, newest first in topological order (a
    commit after all its children). The first-parent line is followed from `head`; any other
    commit landed with the oldest first-parent commit that reaches it, which is the oldest
    landing among its children: each child hands its landing down to its parents. Only the
    commits whose children are not all read yet are remembered: the width of the history."""
    pending: dict[str, tuple[int, dict[str, Any]]] = {}  # sha -> (age, landing) so far
    mainline: str | None = head
    age = 0  # of the first-parent commits read so far: higher is older
    args = ["log", "--topo-order", "--format=%H%x1f%P%x1f%cI", head, "--"]
    for raw in gitcmd.stream(repo_path, args, b"\n"):
        if not raw.strip():
            continue
        sha, parents_text, committed = raw.decode().split("\x1f")
        parents = parents_text.split()
        found = pending.pop(sha, None)
        if sha == mainline:
            age += 1
            mainline = parents[0] if parents else None
            landing = (age, _landed(sha, committed))
            yield {"id": sha, "mainline": True, **landing[1]}
            heirs = parents[1:]
        elif found is not None:
            landing = found
            yield {"id": sha, "mainline": False, **landing[1]}
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
        landed = _landed(sha, committed)
        yield {"id": sha, "mainline": True, **landed}
        for other in parents[1:]:
            try:
                for brought in gitcmd.stream(
                    repo_path, ["rev-list", f"^{parents[0]}", other, "--"], b"\n"
                ):
                    if brought.strip():
                        yield {"id": brought.decode().strip(), "mainline": False, **landed}
            except GitError:
                continue  # a shallow clone lacks the branch: its commits keep their own date
