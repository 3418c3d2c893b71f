"""Trees at a commit: the paths in it, and the decision files with their blobs."""

from __future__ import annotations

from collections import OrderedDict
from pathlib import Path

from companybrain.repo import gitcmd
from companybrain.repo.decision_files import kind_of
from companybrain.repo.rationale import Paths, Tree, candidate


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
    """Trees of recent commits, for 'does this path exist at that time'. Read through one
    `git cat-file --batch` kept open; a folder unchanged between two commits is read once."""

    def __init__(self, repo: Path, size: int = 16, paths: int = 5_000) -> None:
        self.repo, self.size, self.paths = repo, size, paths
        self._cache: OrderedDict[str, Tree] = OrderedDict()
        self._listed: OrderedDict[bytes, list[str]] = OrderedDict()  # tree id -> paths in it
        self._held = 0  # paths in _listed: memory stays bounded however many trees are read
        self._objects = gitcmd.BlobReader(repo)
        found = gitcmd.text(repo, "rev-parse", "--show-object-format", check=False).strip()
        self._id_size = 32 if found == "sha256" else 20  # bytes of an object id in a tree

    def at(self, rev: str) -> Tree:
        if rev not in self._cache:
            found = self._objects.read_object(f"{rev}^{{tree}}")
            if found is None or found[0] != b"tree":
                raise gitcmd.GitError(f"{rev}: no such commit in {self.repo}")
            self._cache[rev] = Tree(self._paths(found[1]))
            if len(self._cache) > self.size:
                self._cache.popitem(last=False)
        return self._cache[rev]

    def named(self, rev: str) -> Paths:
        """The tree of `rev` for finding the paths a text names: a path named in full is
        checked on its own; the whole tree is read only for a name that is not one."""
        return _Named(self, rev)

    def is_file(self, rev: str, path: str) -> bool:
        found = self._objects.read_object(f"{rev}:{path}")
        return found is not None and found[0] == b"blob"

    def _paths(self, data: bytes) -> list[str]:
        """Every file under a tree object (as `ls-tree -r` lists its blobs)."""
        out: list[str] = []
        for mode, name, oid in _tree_entries(data, self._id_size):
            if mode == b"40000":
                out += (f"{name}/{p}" for p in self._folder(oid))
            elif mode != b"160000":  # a submodule is a commit, not a file of this tree
                out.append(name)
        return out

    def _folder(self, oid: bytes) -> list[str]:
        if oid in self._listed:
            self._listed.move_to_end(oid)
            return self._listed[oid]
        found = self._objects.read_object(oid.hex())
        paths = self._paths(found[1]) if found is not None and found[0] == b"tree" else []
        self._listed[oid] = paths
        self._held += len(paths)
        while self._held > self.paths and len(self._listed) > 1:
            self._held -= len(self._listed.popitem(last=False)[1])
        return paths

    def close(self) -> None:
        self._objects.close()

    def __enter__(self) -> Trees:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class _Named:
    def __init__(self, trees: Trees, rev: str) -> None:
        self.trees, self.rev = trees, rev

    def find(self, token: str) -> str | None:
        path = candidate(token)
        if path is None:
            return None
        if self.trees.is_file(self.rev, path):
            return path
        return self.trees.at(self.rev).lookup(path)


def _tree_entries(data: bytes, size: int) -> list[tuple[bytes, str, bytes]]:
    """(mode, name, object id) of each entry of a raw tree object: `MODE NAME\\0ID`, the id
    `size` bytes long (20 for SHA-1, 32 for SHA-256)."""
    out: list[tuple[bytes, str, bytes]] = []
    i, end = 0, len(data)
    while i < end:
        space = data.index(b" ", i)
        nul = data.index(b"\x00", space)
        out.append((data[i:space], data[space + 1 : nul].decode("utf-8", "replace"),
                    data[nul + 1 : nul + 1 + size]))  # fmt: skip
        i = nul + 1 + size
    return out
