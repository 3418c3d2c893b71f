"""A change control written 10 May saying "The billing gateway, the search index and the
ledger are owned by Bo Lind." (the ledger is not in org.yaml) gave no claim: a pattern reads
a list of known services only, and "and the ledger" ended it before "are owned by", so the
directory's Kofi and Ana answered for good, citing the directory. With the unknown one in
the middle ("the billing gateway, the ledger and the search index"), the billing gateway
was lost the same way. An item of the list that names no known service is left out of it;
the known ones still get their owner."""

from __future__ import annotations

from pathlib import Path

import pytest

from companybrain.config import Settings
from companybrain.graph.connection import Store
from tests.ask.handover import load_two, owner, owner_on


@pytest.mark.parametrize(
    "text",
    [
        "The billing gateway, the search index and the ledger are owned by Bo Lind.",
        "The billing gateway, the ledger and the search index are owned by Bo Lind.",
        "The billing gateway, the search index, and the old ledger are now owned by Bo Lind.",
        "Bo Lind owns the billing gateway, the ledger and the search index.",
    ],
)
def test_the_known_services_of_a_list_get_its_owner(
    store: Store, settings: Settings, tmp_path: Path, text: str
) -> None:
    load_two(store, settings, tmp_path, text)
    assert owner(owner_on(store, settings, "billing gateway", "2026-05-09")) == "kofi"
    for day in ("2026-05-10", "2026-06-30"):
        for service in ("billing gateway", "search index"):
            answer = owner_on(store, settings, service, day)
            assert (owner(answer), [c.record for c in answer.citations]) == ("bo", ["CC-7"])


def test_another_clause_is_not_an_item_of_the_list(
    store: Store, settings: Settings, tmp_path: Path
) -> None:
    text = "The billing gateway is down and the ledger is owned by Bo Lind."
    load_two(store, settings, tmp_path, text)
    assert owner(owner_on(store, settings, "billing gateway", "2026-05-10")) == "kofi"


def test_words_after_a_person_are_no_item_of_a_list(
    store: Store, settings: Settings, tmp_path: Path
) -> None:
    """ ", who" after a person was taken for an unknown item of a list and dropped, so "Kofi
    Mensah, who owned the billing gateway, now owns ..." read "Kofi owned the billing
    gateway" and kept it: Kofi named for the billing gateway citing the record that says
    he no longer owns it."""
    text = "Kofi Mensah, who owned the billing gateway, now owns the search index."
    load_two(store, settings, tmp_path, text)
    answer = owner_on(store, settings, "billing gateway", "2026-05-10")
    assert not (owner(answer) == "kofi" and "CC-7" in [c.record for c in answer.citations])


@pytest.mark.parametrize(
    "text",
    [
        "Kofi Mensah keeps the billing gateway and the rest is owned by Bo Lind.",
        "Kofi Mensah keeps the billing gateway, the rest is owned by Bo Lind.",
    ],
)
def test_the_rest_after_one_service_is_no_item_of_a_list(
    store: Store, settings: Settings, tmp_path: Path, text: str
) -> None:
    """ "and the rest" after the one service of a clause is another clause's subject: read as
    an unknown item of a list, it left "the billing gateway is owned by Bo"."""
    load_two(store, settings, tmp_path, text)
    assert owner(owner_on(store, settings, "billing gateway", "2026-05-10")) == "kofi"
