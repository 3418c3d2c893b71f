"""Pausing Python's cyclic garbage collector over a bounded piece of work that makes many
small objects and no reference cycles: a graph reply turned into rows, a batch of records
turned into graph rows. Left on, the collector starts every few hundred new objects and
walks the whole heap again and again for nothing (measured: 40% of reading a million-record
company's catalog, 8% of ingesting a company). When it is switched back on, one collection
frees whatever cycles the work did make, so memory stays bounded by one piece of work."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def no_cycle_collection() -> Iterator[None]:
    """The switch is process-wide: other threads go without cyclic collection meanwhile,
    and only whoever found it on switches it back on, so it can never be left off."""
    was_on = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_on:
            gc.enable()
