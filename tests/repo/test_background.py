"""The background writer of the commit pass: calls run in order; the first failure stops
the calls after it and reaches the caller."""

from __future__ import annotations

import threading
from collections.abc import Callable

import pytest

from companybrain.repo.background import Background


def test_calls_run_in_order_off_the_callers_thread() -> None:
    seen: list[tuple[int, bool]] = []
    with Background(depth=2) as bg:
        for n in range(20):
            bg.submit(
                lambda n=n: seen.append((n, threading.current_thread().name == "repo-writer"))
            )
        bg.wait()
        assert seen == [(n, True) for n in range(20)]


def test_a_failure_stops_what_follows_and_is_raised() -> None:
    ran: list[int] = []

    def fail() -> None:
        raise ValueError("the graph refused the batch")

    with pytest.raises(ValueError, match="refused"), Background() as bg:
        bg.submit(lambda: ran.append(1))
        bg.submit(fail)
        bg.submit(lambda: ran.append(3))
        bg.wait()
    assert ran == [1]


def test_an_error_of_the_caller_still_ends_the_thread() -> None:
    before = threading.active_count()
    with pytest.raises(KeyError), Background() as bg:
        bg.submit(lambda: None)
        raise KeyError("git failed")
    assert threading.active_count() == before


def test_calls_queued_behind_a_failure_never_run_after_it_is_raised() -> None:
    """The caller may see the failure (and go on unwinding) while calls it queued behind
    the failing one are still waiting: they must not run then either."""
    ran: list[str] = []
    raised = threading.Event()

    def fail() -> None:
        raise ValueError("the graph refused the batch")

    with pytest.raises(ValueError, match="refused"), Background(depth=2) as bg:
        get = bg._jobs.get

        def held_get() -> Callable[[], None] | None:
            if bg._error is not None:  # what is queued behind the failure waits for the caller
                raised.wait(5)
            return get()

        bg._jobs.get = held_get  # type: ignore[method-assign, assignment]
        release = threading.Event()

        def hold() -> None:
            release.wait(5)

        bg.submit(hold)  # holds the thread while the next two queue up
        bg.submit(fail)
        bg.submit(lambda: ran.append("queued behind the failure"))
        release.set()
        while bg._error is None:
            threading.Event().wait(0.01)
        try:
            bg.submit(lambda: ran.append("submitted after it"))
        finally:
            raised.set()
    assert ran == []
