"""`git blame --porcelain`: which commit last brought each line of a file to its present
form, following renames and moved lines."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from companybrain.repo import gitcmd

_HEADER = re.compile(rb"^([0-9a-f]{40}) (\d+) (\d+)(?: (\d+))?$")


@dataclass(frozen=True)
class Blame:
    lines: dict[int, str]  # final line number (1-based) -> commit sha
    times: dict[str, int]  # commit sha -> committer time (epoch seconds)

    def commits_in(self, start: int, end: int) -> list[str]:
        """Distinct commits of lines start..end, oldest first."""
        shas = {self.lines[n] for n in range(start, end + 1) if n in self.lines}
        return sorted(shas, key=lambda s: (self.times.get(s, 0), s))


def blame(repo: Path, rev: str, path: str) -> Blame:
    out = gitcmd.run(repo, "blame", "--porcelain", "-M", rev, "--", path)
    lines: dict[int, str] = {}
    times: dict[str, int] = {}
    current: str | None = None
    for raw in out.split(b"\n"):
        if raw.startswith(b"\t"):
            continue
        m = _HEADER.match(raw)
        if m:
            current = m.group(1).decode()
            lines[int(m.group(3))] = current
            continue
        if current and raw.startswith(b"committer-time "):
            times[current] = int(raw.split()[1])
    return Blame(lines, times)
