"""Splitting a text too long for one model call into sections: at headings first, then at
blank lines, then at line ends; never inside a line unless a single line is too long."""

from __future__ import annotations

import itertools
import re

_HEADING = re.compile(r"^#{1,6}\s", re.M)


def split(text: str, max_chars: int) -> list[tuple[int, int]]:
    """(start, end) offsets covering `text`, each span at most `max_chars` long."""
    if len(text) <= max_chars:
        return [(0, len(text))]
    spans: list[tuple[int, int]] = []
    for start, end in _pieces(text, 0, len(text), max_chars, level=0):
        # Merge small neighbours so that a section is as large as allowed.
        if spans and end - spans[-1][0] <= max_chars:
            spans[-1] = (spans[-1][0], end)
        else:
            spans.append((start, end))
    return spans


def _cuts(text: str, start: int, end: int, level: int) -> list[int]:
    chunk = text[start:end]
    if level == 0:
        found = [m.start() for m in _HEADING.finditer(chunk)]
    elif level == 1:
        found = [m.end() for m in re.finditer(r"\n\s*\n", chunk)]
    elif level == 2:
        found = [m.end() for m in re.finditer(r"\n", chunk)]
    else:
        found = [m.end() for m in re.finditer(r"\s+", chunk)]
    return [start + i for i in found if 0 < i < len(chunk)]


def _pieces(text: str, start: int, end: int, max_chars: int, level: int) -> list[tuple[int, int]]:
    if end - start <= max_chars:
        return [(start, end)]
    if level > 3:  # one unbroken run of characters: cut it hard
        return [(i, min(i + max_chars, end)) for i in range(start, end, max_chars)]
    bounds = [start, *_cuts(text, start, end, level), end]
    out: list[tuple[int, int]] = []
    for a, b in itertools.pairwise(bounds):
        out += _pieces(text, a, b, max_chars, level + 1)
    return out
