"""A change control written 10 May saying "Bo Lind owns the billing gateway and Cy Park
will take over the search index next month." refused the billing gateway's owner for good
(MISSING_PROVENANCE): Cy's "next month" was read as the time of Bo's claim, because only a
comma before "and" parted the clauses. With "took over the search index last week" (even
after a comma), the days of last week refused for the billing gateway too, although the
directory's Kofi owned it then. A clause about another service and another person no
longer dates the claim; a list of services ("took over the billing gateway and the
search index last week") is still one clause."""

from __future__ import annotations

from pathlib import Path

import pytest

from companybrain.config import Settings
from companybrain.graph.connection import Store
from companybrain.model.answer import RefusalCode
from tests.ask.handover import load_two, owner, owner_on


@pytest.mark.parametrize(
    "text",
    [
        "Bo Lind owns the billing gateway and Cy Park will take over the search index next month.",
        "Bo Lind owns the billing gateway and Cy Park took over the search index last week.",
        "Bo Lind owns the billing gateway, and Cy Park took over the search index last week.",
        "Cy Park took over the search index last week and Bo Lind owns the billing gateway.",
    ],
)
def test_another_persons_clause_does_not_date_the_claim(
    store: Store, settings: Settings, tmp_path: Path, text: str
) -> None:
    load_two(store, settings, tmp_path, text)
    for day in ("2026-05-04", "2026-05-09"):
        assert owner(owner_on(store, settings, "billing gateway", day)) == "kofi"
    for day in ("2026-05-10", "2026-06-30"):
        answer = owner_on(store, settings, "billing gateway", day)
        assert (owner(answer), [c.record for c in answer.citations]) == ("bo", ["CC-7"])


def test_a_list_keeps_its_time(store: Store, settings: Settings, tmp_path: Path) -> None:
    text = "Bo Lind took over the billing gateway and the search index last week."
    load_two(store, settings, tmp_path, text)
    for service in ("billing gateway", "search index"):
        before = owner_on(store, settings, service, "2026-05-09")
        assert before.refusal is not None
        assert before.refusal.code is RefusalCode.MISSING_PROVENANCE
        assert owner(owner_on(store, settings, service, "2026-05-10")) == "bo"
