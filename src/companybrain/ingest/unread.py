"""Records whose file failed to read on a later run. The graph keeps their stored version
(a typo in a file should not make the company forget what the file said), so answers may
still cite it; but the file no longer says, as far as anyone can tell, what is quoted. Such
records are marked, with the time of the first run that could not read them, and every
answer citing one says so (ask/explain.py). A run that reads the file again clears it."""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from companybrain.model.records import Record


def noting(records: Iterable[Record], marked: dict[str, int], read: set[str]) -> Iterator[Record]:
    """The records as they are, adding to `read` the marked ones that read fine."""
    for record in records:
        if record.id in marked:
            read.add(record.id)
        yield record


def next_marks(
    marked: dict[str, int], read: set[str], kept: Iterable[str], now_ms: int
) -> dict[str, int]:
    """The marks after a run: records it refused but the graph still holds (`kept`) are
    marked since their first refusal; marks of records it read fine are cleared; the rest
    stay (a run of one file says nothing about the others)."""
    out = {rid: since for rid, since in marked.items() if rid not in read}
    for rid in kept:
        out[rid] = marked.get(rid, now_ms)
    return out
