"""Markdown structure the decision and instruction readers share: ATX headings outside
code fences, front matter, GitHub-style anchors. Pure functions on text."""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass
from typing import Any

from companybrain.ingest.org import YAML_ERRORS, load_yaml

_HEADING = re.compile(r"^ {0,3}(#{1,6})\s+(.*?)\s*#*\s*$")
_FENCE = re.compile(r"^ {0,3}(```|~~~)")
_MARK = re.compile(r"^ {0,3}[#`~]", re.M)
_NEWLINE = re.compile(r"\n")


@dataclass(frozen=True)
class Heading:
    level: int
    text: str
    line: int  # 1-based


def headings(lines: list[str], start: int = 0) -> list[Heading]:
    """ATX headings (`## Title`), skipping fenced code blocks and front matter."""
    found: list[Heading] = []
    fence: str | None = None
    for i in _marked(lines, start):  # the lines that may open a heading or a fence
        line = lines[i]
        m = _FENCE.match(line)
        if m:
            if fence is None:
                fence = m.group(1)
            elif m.group(1) == fence:
                fence = None
            continue
        if fence:
            continue
        h = _HEADING.match(line)
        if h and h.group(2).strip():
            found.append(Heading(len(h.group(1)), h.group(2).strip(), i + 1))
    return found


def _marked(lines: list[str], start: int) -> list[int]:
    """Indexes (from `start`) of the lines starting, after at most three spaces, with `#`,
    a backtick or `~`: found by one search of the whole text, as a long log is read often."""
    text = "\n".join(lines[start:])
    breaks = [m.start() for m in _NEWLINE.finditer(text)]
    return [start + bisect.bisect_right(breaks, m.start()) for m in _MARK.finditer(text)]


@dataclass(frozen=True)
class FrontMatter:
    data: dict[str, Any]
    end: int  # the number of lines it takes (0 when none)
    problem: str | None = None  # "line N: why" when it is there but is not YAML
    problem_line: int = 0  # 1-based line of the file the problem is on


def read_front_matter(lines: list[str]) -> FrontMatter:
    """YAML front matter, the lines it takes, and, when it does not parse, why and where."""
    if not lines or lines[0].strip() != "---":
        return FrontMatter({}, 0)
    for i in range(1, min(len(lines), 200)):
        if lines[i].strip() in {"---", "..."}:
            try:
                data = load_yaml("\n".join(lines[1:i]))  # (aliases refused: no front matter)
            except YAML_ERRORS as exc:  # malformed front matter is no front matter
                mark = getattr(exc, "context_mark", None) or getattr(exc, "problem_mark", None)
                line = mark.line + 2 if mark is not None else 2  # (the text starts on line 2)
                why = getattr(exc, "problem", None) or str(exc).splitlines()[0]
                return FrontMatter({}, i + 1, f"line {line}: front matter is not YAML ({why})",
                                   line)  # fmt: skip
            return FrontMatter(data if isinstance(data, dict) else {}, i + 1)
    return FrontMatter({}, 0)


def front_matter(lines: list[str]) -> tuple[dict[str, Any], int]:
    """YAML front matter (as a dict) and the number of lines it takes (0 when none)."""
    fm = read_front_matter(lines)
    return fm.data, fm.end


def slug(text: str) -> str:
    """The anchor GitHub gives a heading: lower case, punctuation dropped, spaces to dashes."""
    text = re.sub(r"[^\w\- ]", "", text.strip().lower())
    return text.replace(" ", "-")


def last_content_line(lines: list[str], start: int, end: int) -> int:
    """The last non-blank line (1-based) in lines[start-1 .. end-1], at least `start`."""
    for n in range(end, start, -1):
        if lines[n - 1].strip():
            return n
    return start
