"""Which file a path means: the one that lives there now (or on the day asked about),
followed back through its renames as `git log --follow` would, and never the file that
left the path before it (`a.py` renamed to `b.py`, then a new, unrelated `a.py`). Pure.

A path's history is split where its file was renamed away: what touched the path before
that belongs to the file at the new name. A file deleted and added again at the same path
stays one file (as `origin` counts it)."""

from __future__ import annotations

from dataclasses import dataclass

MAX_HOPS = 10


@dataclass(frozen=True)
class Event:
    path: str
    kind: str  # "made" (added, copied) | "in" (renamed from `other`) | "away" (renamed to `other`)
    other: str | None
    commit: str
    ms: int


@dataclass(frozen=True)
class Span:
    """A stretch of one path's history that belongs to the file asked about: the commits
    that touched `path` landing from `start` up to `upto` (None: no bound), and the
    decisions that named `path` when recorded after `named_after` and by `upto`."""

    path: str
    start: int | None = None
    upto: int | None = None
    named_after: int | None = None

    def holds(self, ms: int | None) -> bool:
        """Whether a decision naming `path` at `ms` (None: unknown) meant this file."""
        if ms is None:
            return True
        return (self.named_after is None or ms > self.named_after) and (
            self.upto is None or ms <= self.upto
        )

    def as_param(self) -> dict[str, object]:
        return {"path": self.path, "start": self.start, "upto": self.upto}


def _latest(events: list[Event]) -> Event | None:
    return max(events, key=lambda e: (e.ms, e.kind == "in")) if events else None


def lineage(path: str, until: int | None, events: dict[str, list[Event]]) -> list[Span]:
    """The spans of history that make up the file at `path` on `until` (None: now), newest
    first. Asked by a name its file left (renamed away, nothing there since), the file that
    left it: followed forward to where it went."""
    by = (lambda e: True) if until is None else (lambda e: e.ms <= until)
    for _ in range(MAX_HOPS):
        here = [e for e in events.get(path, []) if by(e)]
        away = _latest([e for e in here if e.kind in {"in", "away"}])
        if away is None or away.kind != "away" or away.other is None:
            break
        if any(e.kind in {"made", "in"} and e.ms >= away.ms for e in here):
            break  # a new file began at the path after its file left
        path = away.other
    spans: list[Span] = []
    seen: set[tuple[str, int | None]] = set()  # a file renamed back: the same path again
    upto, after = until, None  # `after`: the later name this path's file was renamed to
    while (path, upto) not in seen and len(spans) < MAX_HOPS:
        seen.add((path, upto))
        here = [
            e
            for e in events.get(path, [])
            if (upto is None or e.ms <= upto)
            and not (e.kind == "away" and e.other == after and upto is not None and e.ms >= upto)
        ]
        bound = _latest([e for e in here if e.kind in {"in", "away"}])
        left = _latest([e for e in here if e.kind == "away"])
        if bound is None:
            spans.append(Span(path, None, upto, None))
            break
        if bound.kind == "away":  # the file that left the path is another one
            made = [e.ms for e in here if e.kind == "made" and e.ms >= bound.ms]
            spans.append(Span(path, min(made) if made else bound.ms, upto, bound.ms))
            break
        spans.append(Span(path, bound.ms, upto, left.ms if left else None))
        if bound.other is None:
            break
        path, upto, after = bound.other, bound.ms, path
    return spans
