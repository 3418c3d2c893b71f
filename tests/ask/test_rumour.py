"""A change control written 10 May saying "Rumour has it Bo Lind owns the billing gateway."
named Bo as the owner from that day, citing it: only "rumour that ..." was read as
reporting what is not so. "Rumour has it" and "it's rumoured" are read the same way: the
directory's Kofi answers on."""

from __future__ import annotations

from pathlib import Path

import pytest

from companybrain.config import Settings
from companybrain.graph.connection import Store
from tests.ask.handover import load, on, owner


@pytest.mark.parametrize(
    "text",
    [
        "Rumour has it Bo Lind owns the billing gateway.",
        "Rumor has it that Bo Lind owns the billing gateway.",
        "It's rumoured Bo Lind owns the billing gateway.",
    ],
)
def test_a_rumour_names_no_owner(
    store: Store, settings: Settings, tmp_path: Path, text: str
) -> None:
    load(store, settings, tmp_path, text)
    for day in ("2026-05-10", "2026-06-30"):
        assert owner(on(store, settings, day)) == "kofi"
