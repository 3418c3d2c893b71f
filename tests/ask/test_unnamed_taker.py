"""A change control written 10 May saying "Kofi Mensah presented the billing gateway. He
took it over last week." gave nothing: no pattern reads "he", and the sentence names no
service, so the directory's Kofi answered for every later day, citing the directory,
though the record says the billing gateway changed hands. Who "he" is cannot be read (nor
which service "it" is when the sentence before names two): from the record's day owner_of
refuses MISSING_PROVENANCE, citing both sentences. And "it" after "the billing gateway
roadmap" is the roadmap: "Bo Lind took it over last week." named Bo the gateway's owner."""

from __future__ import annotations

from pathlib import Path

import pytest

from companybrain.config import Settings
from companybrain.graph.connection import Store
from companybrain.model.answer import RefusalCode
from tests.ask.handover import load_two, owner, owner_on


@pytest.mark.parametrize(
    ("text", "services"),
    [
        ("Kofi Mensah presented the billing gateway. He took it over last week.", 1),
        ("Kofi Mensah presented the billing gateway. She owns it now.", 1),
        (
            "Kofi Mensah presented the billing gateway and the search index. He took it over.",
            2,
        ),
        (
            "Kofi Mensah presented the billing gateway and the search index. Bo Lind took it over.",
            2,
        ),
    ],
)
def test_an_unnamed_owner_of_it_is_refused_from_the_record(
    store: Store, settings: Settings, tmp_path: Path, text: str, services: int
) -> None:
    load_two(store, settings, tmp_path, text)
    assert owner(owner_on(store, settings, "billing gateway", "2026-05-09")) == "kofi"
    for service in ("billing gateway", "search index")[:services]:
        for day in ("2026-05-10", "2026-06-30"):
            answer = owner_on(store, settings, service, day)
            assert answer.refusal is not None and answer.result is None
            assert answer.refusal.code is RefusalCode.MISSING_PROVENANCE
            assert [(c.record, c.quote) for c in answer.citations] == [("CC-7", text)]
    if services == 1:
        assert owner(owner_on(store, settings, "search index", "2026-06-30")) == "ana"


@pytest.mark.parametrize(
    "text",
    [
        "Kofi Mensah presented the billing gateway. He liked it.",
        "Kofi Mensah presented the billing gateway roadmap. He took it over last week.",
        "Kofi Mensah presented the billing gateway roadmap. Bo Lind took it over last week.",
    ],
)
def test_it_said_of_something_else_leaves_the_owner(
    store: Store, settings: Settings, tmp_path: Path, text: str
) -> None:
    load_two(store, settings, tmp_path, text)
    for day in ("2026-05-10", "2026-06-30"):
        assert owner(owner_on(store, settings, "billing gateway", day)) == "kofi"
