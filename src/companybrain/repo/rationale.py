"""The files a decision rests on: paths its text names that exist in the tree at the time
(exact, or a unique suffix such as `exporter.py` for `src/app/exporter.py`). Pure."""

from __future__ import annotations

import posixpath
import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Protocol

_PATHLIKE = re.compile(r"(?<![\w@:/])(?:\.{0,2}/)?[\w.\-]+(?:/[\w.\-]+)*(?:\.[A-Za-z0-9]{1,10}|/)")
_EXT = re.compile(r"\.[A-Za-z0-9]{1,10}$")
_TOO_COMMON = {"e.g", "i.e", "etc", "vs", "v1", "v2"}


@dataclass(frozen=True)
class Named:
    path: str
    line: int  # 1-based line of the decision file
    quote: str  # that line, stripped


def candidate(token: str) -> str | None:
    """A token of text as the path it may name (quotes, brackets, a leading ./ dropped), or
    None when it cannot name a file (no extension and no folder, or too common)."""
    token = token.strip("`'\"()[]<>,;:").rstrip(".")
    token = token.removeprefix("./")
    if not token or token in _TOO_COMMON or not (_EXT.search(token) or "/" in token):
        return None
    return token


class Paths(Protocol):
    def find(self, token: str) -> str | None: ...


class Tree:
    """The paths of one tree, indexed for lookups by suffix."""

    def __init__(self, paths: Iterable[str]) -> None:
        self.paths = set(paths)
        self.by_name: dict[str, list[str]] = {}
        for p in self.paths:
            self.by_name.setdefault(posixpath.basename(p), []).append(p)

    def find(self, token: str) -> str | None:
        found = candidate(token)
        return None if found is None else self.lookup(found)

    def lookup(self, token: str) -> str | None:
        """The path `token` (a candidate) names: itself, or the one path it ends."""
        if token in self.paths:
            return token
        name = posixpath.basename(token)
        candidates = self.by_name.get(name, [])
        if "/" in token:
            candidates = [p for p in candidates if p.endswith("/" + token)]
        return candidates[0] if len(candidates) == 1 else None


def named_paths(
    text: str, first_line: int, tree: Paths, exclude: set[str], near: str = ""
) -> list[Named]:
    """Paths in `tree` that `text` (starting at `first_line` of its file, at path `near`)
    names. A path no one file of the tree ends with is read from the folders the file is
    in, nearest first: `src/app.py` in `services/api/DECISIONS.md` is
    `services/api/src/app.py`, not another service's."""
    found: dict[str, Named] = {}
    folders: list[str] = []
    while near := posixpath.dirname(near):
        folders.append(near)
    for offset, line in enumerate(text.splitlines()):
        for m in _PATHLIKE.finditer(line):
            path = tree.find(m.group(0))
            rel = candidate(m.group(0)) if path is None else None
            if rel and not rel.startswith("/"):
                path = next((p for f in folders if (p := tree.find(f"{f}/{rel}"))), None)
            if path and path not in exclude and path not in found:
                found[path] = Named(path, first_line + offset, line.strip())
    return list(found.values())
