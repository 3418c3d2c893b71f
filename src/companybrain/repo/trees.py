"""Trees at a commit: the paths in it, and the decision files with their blobs."""

from __future__ import annotations

from collections import OrderedDict
from pathlib import Path

from companybrain.repo import gitcmd
from companybrain.repo.decision_files import kind_of
from companybrain.repo.rationale import Tree


def entries(repo: Path, rev: str) -> list[tuple[str, str]]:
    """(blob sha, path) of every file in the tree of `rev`."""
    out: list[tuple[str, str]] = []
    for raw in gitcmd.stream(repo, ["ls-tree", "-r", "-z", "--full-tree", rev], b"\x00"):
        meta, _, path = raw.partition(b"\t")
        parts = meta.split()
        if len(parts) == 3 and parts[1] == b"blob":
            out.append((parts[2].decode(), path.decode("utf-8", "replace")))
    return out


def decision_files(repo: Path, rev: str) -> list[tuple[str, str, str]]:
    """(blob, path, kind) of the decision files in the tree of `rev`, sorted by path."""
    found = []
    for blob, path in entries(repo, rev):
        kind = kind_of(path)
        if kind:
            found.append((blob, path, kind))
    return sorted(found, key=lambda x: x[1])


class Trees:
    """Trees of recent commits, for 'does this path exist at that time'."""

    def __init__(self, repo: Path, size: int = 16) -> None:
        self.repo, self.size = repo, size
        self._cache: OrderedDict[str, Tree] = OrderedDict()

    def at(self, rev: str) -> Tree:
        if rev not in self._cache:
            self._cache[rev] = Tree(p for _, p in entries(self.repo, rev))
            if len(self._cache) > self.size:
                self._cache.popitem(last=False)
        return self._cache[rev]
