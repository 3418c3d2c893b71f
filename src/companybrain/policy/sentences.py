"""Markdown text to sentences with their offsets, for quoting: a quote is a sentence of the
entry with its white space folded, so it is found verbatim (policy/text.py folds white space
the same way) even where the source wraps lines."""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator
from dataclasses import dataclass

from companybrain.policy.text import normalise

_BLOCK_START = re.compile(r"^\s*(#{1,6}\s|[-*+]\s|\d+[.)]\s|>|\||```|~~~)")
_MARKER = re.compile(r"^\s*(?:#{1,6}\s+|[-*+]\s+|\d+[.)]\s+|>\s*)+")
_SENTENCE_END = re.compile(r"(?<=[.!?])[\"')\]]?\s+(?=[A-Z0-9\"“'(\[`*_])")
_FENCE = re.compile(r"^\s*(```|~~~)")


@dataclass(frozen=True)
class Sentence:
    start: int
    end: int
    text: str  # white space folded, markdown list and heading markers removed
    heading: bool = False


def blocks(text: str, start: int = 0, end: int | None = None) -> Iterator[tuple[int, int, bool]]:
    """(start, end, is_heading) of paragraphs, list items and headings; code fences skipped."""
    end = len(text) if end is None else end
    pos = start
    block_start: int | None = None
    heading = False
    in_fence = False
    for line in text[start:end].splitlines(keepends=True):
        line_start, pos = pos, pos + len(line)
        if _FENCE.match(line):
            if block_start is not None:
                yield block_start, line_start, heading
                block_start = None
            in_fence = not in_fence
            continue
        if in_fence:
            continue
        if not line.strip():
            if block_start is not None:
                yield block_start, line_start, heading
                block_start = None
            continue
        if block_start is not None and (_BLOCK_START.match(line) or heading):
            yield block_start, line_start, heading
            block_start = None
        if block_start is None:
            block_start = line_start
            heading = line.lstrip().startswith("#")
    if block_start is not None and not in_fence:
        yield block_start, pos, heading


def sentences(text: str, start: int = 0, end: int | None = None) -> Iterator[Sentence]:
    for b_start, b_end, heading in blocks(text, start, end):
        chunk = text[b_start:b_end]
        marker = _MARKER.match(chunk)
        offset = marker.end() if marker else 0
        cuts = [offset, *(m.end() for m in _SENTENCE_END.finditer(chunk, offset)), len(chunk)]
        for a, b in itertools.pairwise(cuts):
            folded = " ".join(chunk[a:b].split())
            if folded:
                yield Sentence(b_start + a, b_start + b, folded, heading)


def around(quote: str, text: str) -> list[str]:
    """The sentences of `text` that `quote` is in (a part of a sentence is read with it);
    the quote itself when it runs over several."""
    wanted = normalise(quote)
    within = [s.text for s in sentences(text) if wanted and wanted in normalise(s.text)]
    return within or [quote]
