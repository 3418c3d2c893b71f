"""`git blame --porcelain`: which commit last brought each line of a file to its present
form, following renames and moved lines."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from companybrain.repo import gitcmd

_HEADER = re.compile(rb"^([0-9a-f]{40}) (\d+) (\d+)(?: (\d+))?$")


@dataclass(frozen=True)
class Blame:
    lines: dict[int, str]  # final line number (1-based) -> commit sha
    times: dict[str, int]  # commit sha -> committer time (epoch seconds)
    # final line number -> (its line number, its path) in that commit's version of the file
    origins: dict[int, tuple[int, str]] = field(default_factory=dict)

    def commits_in(self, start: int, end: int) -> list[str]:
        """Distinct commits of lines start..end, oldest first."""
        shas = {self.lines[n] for n in range(start, end + 1) if n in self.lines}
        return sorted(shas, key=lambda s: (self.times.get(s, 0), s))

    def lines_of(self, sha: str, start: int, end: int) -> list[tuple[int, str]]:
        """Where the lines start..end that `sha` brought were in its version of the file."""
        return [
            self.origins[n]
            for n in range(start, end + 1)
            if self.lines.get(n) == sha and n in self.origins
        ]


def blame(repo: Path, rev: str, path: str, *, moves: bool = True) -> Blame:
    """With `moves`, lines moved within the file keep the commit that first wrote them."""
    out = gitcmd.run(repo, "blame", "--porcelain", *(["-M"] if moves else []), rev, "--", path)
    lines: dict[int, str] = {}
    times: dict[str, int] = {}
    origins: dict[int, tuple[int, str]] = {}
    group: list[int] = []  # final lines of the group whose file name is still to come
    file_of: dict[str, str] = {}  # commit -> its path in the group read last
    current: str | None = None
    for raw in out.split(b"\n"):
        if raw.startswith(b"\t"):
            continue
        m = _HEADER.match(raw)
        if m:
            current = m.group(1).decode()
            final = int(m.group(3))
            lines[final] = current
            if m.group(4):  # a new group: its "filename" line follows
                group = []
            group.append(final)
            origins[final] = (int(m.group(2)), file_of.get(current, path))
            continue
        if current and raw.startswith(b"filename "):
            name = raw[len(b"filename ") :].decode("utf-8", "surrogateescape")
            file_of[current] = name
            for n in group:
                origins[n] = (origins[n][0], name)
        elif current and raw.startswith(b"committer-time "):
            times[current] = int(raw.split()[1])
    return Blame(lines, times, origins)
