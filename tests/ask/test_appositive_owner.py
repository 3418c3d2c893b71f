"""A change control written 10 May saying "The billing gateway's owner, Bo Lind, is on
leave." (or "Contact Bo Lind, owner of the billing gateway.") gave no claim: no pattern read
an owner set off by commas, so the directory's Kofi answered for good, citing the
directory. Such an owner is read; "Bo Lind, owner of the billing gateway since 1 May
2026, ..." is dated by its day; a previous owner so named is not the owner."""

from __future__ import annotations

from pathlib import Path

import pytest

from companybrain.config import Settings
from companybrain.graph.connection import Store
from tests.ask.handover import load, on, owner


@pytest.mark.parametrize(
    "text",
    [
        "The billing gateway's owner, Bo Lind, is on leave.",
        "Contact Bo Lind, owner of the billing gateway.",
    ],
)
def test_an_owner_set_off_by_commas_is_read(
    store: Store, settings: Settings, tmp_path: Path, text: str
) -> None:
    load(store, settings, tmp_path, text)
    assert owner(on(store, settings, "2026-05-09")) == "kofi"
    for day in ("2026-05-10", "2026-06-30"):
        answer = on(store, settings, day)
        assert (owner(answer), [c.record for c in answer.citations]) == ("bo", ["CC-7"])


def test_its_day_dates_it(store: Store, settings: Settings, tmp_path: Path) -> None:
    load(
        store,
        settings,
        tmp_path,
        "Bo Lind, owner of the billing gateway since 1 May 2026, is on leave.",
    )
    assert owner(on(store, settings, "2026-04-30")) == "kofi"
    assert owner(on(store, settings, "2026-05-01")) == "bo"


@pytest.mark.parametrize(
    "text",
    [
        "Kofi Mensah, previous owner of the billing gateway, moved to Cy Park's team.",
        "Ask Kofi Mensah whether Bo Lind, owner of the billing gateway, agrees.",
    ],
)
def test_no_one_else_is_read_so(
    store: Store, settings: Settings, tmp_path: Path, text: str
) -> None:
    load(store, settings, tmp_path, text)
    assert owner(on(store, settings, "2026-05-10")) == "kofi"
