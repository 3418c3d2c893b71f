"""A change control written 10 May saying "Kofi Mensah, who says Bo Lind owns the billing
gateway, is wrong." (or "Kofi Mensah says Bo Lind owns the billing gateway, but he is
mistaken.") named Bo as the owner, citing it: only "..., which is wrong" and "It is a myth
that ..." were read as disputing what a sentence reports. A report whose sayer the
sentence calls wrong or mistaken is disputed too: the directory's Kofi answers on."""

from __future__ import annotations

from pathlib import Path

import pytest

from companybrain.config import Settings
from companybrain.graph.connection import Store
from tests.ask.handover import load, on, owner


@pytest.mark.parametrize(
    "text",
    [
        "Kofi Mensah, who says Bo Lind owns the billing gateway, is wrong.",
        "Kofi Mensah says Bo Lind owns the billing gateway, but he is mistaken.",
        "Cy Park claimed that Bo Lind owns the billing gateway, which was simply wrong.",
    ],
)
def test_a_disputed_report_names_no_owner(
    store: Store, settings: Settings, tmp_path: Path, text: str
) -> None:
    load(store, settings, tmp_path, text)
    for day in ("2026-05-10", "2026-06-30"):
        assert owner(on(store, settings, day)) == "kofi"


def test_a_report_not_disputed_still_names_the_owner(
    store: Store, settings: Settings, tmp_path: Path
) -> None:
    text = "Kofi Mensah said Bo Lind owns the billing gateway, and he was right."
    load(store, settings, tmp_path, text)
    assert owner(on(store, settings, "2026-05-10")) == "bo"
