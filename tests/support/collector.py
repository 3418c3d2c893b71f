"""Counting the cyclic garbage collector's runs, for the tests of where it is paused
(companybrain/cycles.py)."""

from __future__ import annotations

import gc
from collections.abc import Callable


def collections_while(step: Callable[[], object]) -> int:
    """How many times the collector started while `step` ran."""
    started: list[int] = []

    def count(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            started.append(info["generation"])

    gc.callbacks.append(count)
    try:
        step()
    finally:
        gc.callbacks.remove(count)
    return len(started)
