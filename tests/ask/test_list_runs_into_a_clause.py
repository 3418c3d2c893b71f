"""A change control written 10 May saying "Bo Lind owns the search index and the billing
gateway is unowned." (or "..., and the billing gateway moves to Cy Park.") named Bo as the
billing gateway's owner, citing it: a pattern read "the search index and the billing
gateway" as the list of what Bo owns, although the billing gateway is the subject of a
clause of its own. And "Bo Lind owns the billing gateway and the search index is owned by
Cy Park." read "the billing gateway and the search index" as what Cy owns: CONFLICT for
the billing gateway. A verb right after the list ends it before its last service; a list
right after an owning verb starts after its first."""

from __future__ import annotations

from pathlib import Path

import pytest

from companybrain.config import Settings
from companybrain.graph.connection import Store
from tests.ask.handover import load_two as load
from tests.ask.handover import owner
from tests.ask.handover import owner_on as on


@pytest.mark.parametrize(
    "text",
    [
        "Bo Lind owns the search index and the billing gateway is unowned.",
        "Bo Lind owns the search index, and the billing gateway is unowned.",
        "Bo Lind took over the search index and the billing gateway has no owner yet.",
    ],
)
def test_a_service_that_starts_a_clause_of_its_own_is_not_the_owners(
    store: Store, settings: Settings, tmp_path: Path, text: str
) -> None:
    load(store, settings, tmp_path, text)
    for day in ("2026-05-10", "2026-06-30"):
        assert owner(on(store, settings, "search index", day)) == "bo"
        billing = on(store, settings, "billing gateway", day)
        assert owner(billing) != "bo"
        assert "bo" not in {getattr(c, "owner", None) for c in billing.citations}


@pytest.mark.parametrize(
    "text",
    [
        "Bo Lind owns the search index, and the billing gateway moves to Cy Park.",
        "Bo Lind owns the search index and the billing gateway moves to Cy Park.",
    ],
)
def test_each_gets_the_service_of_its_own_clause(
    store: Store, settings: Settings, tmp_path: Path, text: str
) -> None:
    load(store, settings, tmp_path, text)
    for day in ("2026-05-10", "2026-06-30"):
        assert owner(on(store, settings, "search index", day)) == "bo"
        assert owner(on(store, settings, "billing gateway", day)) == "cy"


def test_the_object_of_an_owning_verb_is_not_in_the_next_clauses_list(
    store: Store, settings: Settings, tmp_path: Path
) -> None:
    load(
        store,
        settings,
        tmp_path,
        "Bo Lind owns the billing gateway and the search index is owned by Cy Park.",
    )
    for day in ("2026-05-10", "2026-06-30"):
        assert owner(on(store, settings, "billing gateway", day)) == "bo"
        assert owner(on(store, settings, "search index", day)) == "cy"


def test_a_list_of_what_one_person_owns_stays_whole(
    store: Store, settings: Settings, tmp_path: Path
) -> None:
    for n, text in enumerate(
        (
            "Bo Lind owns the search index and the billing gateway.",
            "The billing gateway and the search index are owned by Bo Lind.",
        )
    ):
        load(store, settings, tmp_path / str(n), text)
        assert owner(on(store, settings, "billing gateway", "2026-05-10")) == "bo"
        assert owner(on(store, settings, "search index", "2026-05-10")) == "bo"


def test_a_verb_a_comma_ends_has_no_object(
    store: Store, settings: Settings, tmp_path: Path
) -> None:
    """ "Cy Park took over, the billing gateway and the search index are owned by Bo Lind."
    read "took over the billing gateway" (the template drops the comma): Cy named for the
    billing gateway, citing the record."""
    text = "Cy Park took over, the billing gateway and the search index are owned by Bo Lind."
    load(store, settings, tmp_path, text)
    for service in ("billing gateway", "search index"):
        assert owner(on(store, settings, service, "2026-05-10")) == "bo"
