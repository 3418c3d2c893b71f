"""The background writer of the commit pass: calls run in order; the first failure stops
the calls after it and reaches the caller."""

from __future__ import annotations

import threading

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
