"""The "warming up" status line while the server loads: two loops wait in turn (the
server's start, then a query), each counting from its own start."""

from __future__ import annotations

import re

import pytest

from companybrain.graph import connection
from companybrain.graph.connection import _WarmingUp


def test_the_count_never_goes_back_when_a_second_wait_follows_the_first(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    clock = [100.0]
    monkeypatch.setattr(connection.time, "monotonic", lambda: clock[0])
    line = _WarmingUp("the socket")
    for at, waited in [(0, 0), (6, 6), (11, 11), (11.5, 0), (17, 5.5), (23, 11.5)]:
        clock[0] = 100.0 + at
        line(waited)
    clock[0] = 125.0
    line.done()
    err = capsys.readouterr().err
    counts = [int(n) for n in re.findall(r"waiting, (\d+) s so far", err)]
    assert counts == sorted(counts) and counts[-1] >= 17, err
    assert "ready after 25.0 s" in err
