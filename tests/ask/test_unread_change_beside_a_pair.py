"""A change control written 10 May saying "Bo Lind owns the search index and the billing
gateway is unowned." read Bo for the search index, and nothing of the billing gateway: a
change of hands no pattern reads an owner from is kept only for a sentence that gave no
pair at all, so the directory's Kofi answered for the billing gateway after it, citing
the directory. Now each service of the sentence that no pattern read an owner of is
looked at, in its own clause. And that clause must say the service itself changes hands:
"Bo Lind took over the on-call rota, so ask him about billing gateway alerts." or "Bo Lind
took over the billing gateway on-call rota." refused owner_of from the record's day."""

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
        "Bo Lind owns the search index and the billing gateway is unowned.",
        "Bo Lind owns the search index, and the billing gateway is unowned.",
        "Bo Lind took over the search index; Kofi Mensah stepped down as owner of the "
        "billing gateway.",
    ],
)
def test_the_other_service_changing_hands_is_refused_from_the_record(
    store: Store, settings: Settings, tmp_path: Path, text: str
) -> None:
    load_two(store, settings, tmp_path, text)
    assert owner(owner_on(store, settings, "billing gateway", "2026-05-09")) == "kofi"
    for day in ("2026-05-10", "2026-06-30"):
        assert owner(owner_on(store, settings, "search index", day)) == "bo"
        billing = owner_on(store, settings, "billing gateway", day)
        assert billing.refusal is not None and billing.result is None
        assert billing.refusal.code is RefusalCode.MISSING_PROVENANCE
        assert [c.record for c in billing.citations] == ["CC-7"]


@pytest.mark.parametrize(
    "text",
    [
        "Bo Lind took over the on-call rota, so ask him about billing gateway alerts.",
        "Bo Lind took over the on-call rota and will present the billing gateway roadmap.",
        "Bo Lind took over the billing gateway on-call rota.",
        "Bo Lind took over the on-call rota; Kofi Mensah still owns the billing gateway.",
    ],
)
def test_a_change_of_something_else_leaves_the_owner(
    store: Store, settings: Settings, tmp_path: Path, text: str
) -> None:
    load_two(store, settings, tmp_path, text)
    for day in ("2026-05-10", "2026-06-30"):
        assert owner(owner_on(store, settings, "billing gateway", day)) == "kofi"
