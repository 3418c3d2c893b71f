"""Waiting for the embedded server's append-only file rewrite (BGREWRITEAOF) to finish."""

from __future__ import annotations

import time

from companybrain.graph.connection import Store


def wait_rewritten(store: Store, timeout_s: float = 60.0) -> None:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        info = store.command("INFO", "persistence")
        if not info["aof_rewrite_in_progress"] and not info["aof_rewrite_scheduled"]:
            return
        time.sleep(0.05)
    raise AssertionError("the append-only file was not rewritten")
