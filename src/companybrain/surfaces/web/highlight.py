"""Where a quote sits in a record's text, so that the Record page can mark it. Quotes are
matched as the checks match them (case, white space, curly quotes, Unicode dashes folded),
then mapped back to the original characters. Pure."""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass

from companybrain.policy.text import normalise


@dataclass(frozen=True)
class Piece:
    text: str
    marked: bool  # inside a quoted span


def _folded(text: str) -> tuple[str, list[int]]:
    """The normalised text and, for each of its characters, the index it came from."""
    out: list[str] = []
    where: list[int] = []
    space = True  # leading white space is dropped, runs collapse to one
    for i, ch in enumerate(text):
        for c in normalise(unicodedata.normalize("NFKC", ch)) or (" " if ch.strip() == "" else ""):
            if c == " ":
                if space:
                    continue
                space = True
            else:
                space = False
            out.append(c)
            where.append(i)
    return "".join(out), where


def spans(text: str, quotes: list[str]) -> list[tuple[int, int]]:
    """Character spans of `text` that the quotes cover, merged and in order."""
    folded, where = _folded(text)
    found: list[tuple[int, int]] = []
    for quote in quotes:
        q = normalise(quote or "")
        if not q:
            continue
        start = folded.find(q)
        while start >= 0:
            end = start + len(q) - 1
            found.append((where[start], where[end] + 1))
            start = folded.find(q, start + 1)
    found.sort()
    merged: list[tuple[int, int]] = []
    for a, b in found:
        if merged and a <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(b, merged[-1][1]))
        else:
            merged.append((a, b))
    return merged


def pieces(text: str, quotes: list[str]) -> list[Piece]:
    """The text cut into plain and marked pieces (for a template to escape and wrap)."""
    out: list[Piece] = []
    at = 0
    for a, b in spans(text, quotes):
        if a > at:
            out.append(Piece(text[at:a], False))
        out.append(Piece(text[a:b], True))
        at = b
    if at < len(text):
        out.append(Piece(text[at:], False))
    return out
