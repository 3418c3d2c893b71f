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
    from companybrain.graph.connection import Store

BATCH = 2000


def sync_landed(store: Store, repo_path: Path, head: str, since: str | None) -> int:
    """Write landed_at/landed_by/mainline for the commits between `since` and `head`."""
    rows: list[dict[str, Any]] = []
    written = 0
    args = ["log", "--first-parent", "--format=%H%x1f%P%x1f%cI", head]
    if since:
        args.append(f"^{since}")
    for raw in gitcmd.stream(repo_path, [*args, "--"], b"\n"):
        if not raw.strip():
            continue
        sha, parents_text, committed = raw.decode().split("\x1f")
        parents = parents_text.split()
        landed = {"landed_at": committed, "landed_ms": iso_ms(committed), "landed_by": sha}
        rows.append({"id": sha, "mainline": True, **landed})
        for other in parents[1:]:
            try:
                for brought in gitcmd.stream(
                    repo_path, ["rev-list", f"^{parents[0]}", other, "--"], b"\n"
                ):
                    if brought.strip():
                        rows.append({"id": brought.decode().strip(), "mainline": False, **landed})
            except GitError:
                continue  # a shallow clone lacks the branch: its commits keep their own date
        if len(rows) >= BATCH:
            repo_write.write_landed(store, rows)
            written += len(rows)
            rows = []
    if rows:
        repo_write.write_landed(store, rows)
        written += len(rows)
    return written
