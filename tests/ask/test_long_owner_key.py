"""A change control written 10 May whose line reads "Ownership of the billing gateway: Bo
Lind" gave no claim: a `Key: value` line's key is at most 31 characters, so the line was
read as a sentence, which no pattern reads an owner from, and the directory's Kofi answered
for good, citing the directory. A key naming what it gives the owner of ("Ownership of ...",
"Owner of ...", "Point of contact for ...") may be as long as the service's name."""

from __future__ import annotations

from pathlib import Path

import pytest

from companybrain.config import Settings
from companybrain.graph.connection import Store
from tests.ask.handover import load_two, owner, owner_on


@pytest.mark.parametrize(
    "text",
    [
        "Ownership of the billing gateway: Bo Lind",
        "- **Ownership of the billing gateway**: Bo Lind",
        "Owner of the billing gateway service: Bo Lind",
        "Point of contact for the billing gateway: Bo Lind",
    ],
)
def test_a_long_key_naming_the_service_gives_its_owner(
    store: Store, settings: Settings, tmp_path: Path, text: str
) -> None:
    load_two(store, settings, tmp_path, text)
    assert owner(owner_on(store, settings, "billing gateway", "2026-05-09")) == "kofi"
    for day in ("2026-05-10", "2026-06-30"):
        answer = owner_on(store, settings, "billing gateway", day)
        assert (owner(answer), [c.record for c in answer.citations]) == ("bo", ["CC-7"])
        assert answer.citations[0].quote == text
        assert owner(owner_on(store, settings, "search index", day)) == "ana"


def test_each_line_gives_its_own_service(store: Store, settings: Settings, tmp_path: Path) -> None:
    text = "Ownership of the billing gateway: Bo Lind\nOwnership of the search index: Cy Park\n"
    load_two(store, settings, tmp_path, text)
    assert owner(owner_on(store, settings, "billing gateway", "2026-05-10")) == "bo"
    assert owner(owner_on(store, settings, "search index", "2026-05-10")) == "cy"
