"""Writes the tally of hostile inputs each suite tried to .brain/hostile-input-counts.json
at the end of the run (docs/reliability.md quotes it)."""

from __future__ import annotations

import pytest

from tests.security.hostile import write_counts


@pytest.hookimpl(trylast=True)
def pytest_sessionfinish(session: pytest.Session) -> None:
    write_counts()
