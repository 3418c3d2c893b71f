"""A change control written 10 May saying "Bo Lind owns the search index or the billing
gateway, I forget which." named Bo as the owner of both, citing it (a list of services was
read whatever joined it); "Bo Lind owns the billing gateway or the ledger, not sure." named
him for the billing gateway. A service named as one of alternatives is not said to be
owned by whoever the sentence names: the claim is refused (not_asserted), as "Bo or Cy
owns it" already was for people."""

from __future__ import annotations

from pathlib import Path

import pytest

from companybrain.config import Settings
from companybrain.graph.connection import Store
from tests.ask.handover import load_two, owner, owner_on


@pytest.mark.parametrize(
    "text",
    [
        "Bo Lind owns the search index or the billing gateway, I forget which.",
        "Bo Lind owns the billing gateway or the ledger, not sure.",
        "The billing gateway or the search index is owned by Bo Lind.",
    ],
)
def test_a_service_named_as_one_of_alternatives_keeps_its_owner(
    store: Store, settings: Settings, tmp_path: Path, text: str
) -> None:
    load_two(store, settings, tmp_path, text)
    for day in ("2026-05-10", "2026-06-30"):
        assert owner(owner_on(store, settings, "billing gateway", day)) == "kofi"
        assert owner(owner_on(store, settings, "search index", day)) == "ana"


def test_a_list_joined_by_and_still_names_the_owner(
    store: Store, settings: Settings, tmp_path: Path
) -> None:
    load_two(store, settings, tmp_path, "Bo Lind owns the search index and the billing gateway.")
    assert owner(owner_on(store, settings, "billing gateway", "2026-05-10")) == "bo"
