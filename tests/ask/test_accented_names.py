"""org.yaml lists Zoë Åkesson-Berg; a change control written 10 May saying "Zoe
Akesson-Berg owns the billing gateway." (the name typed without its accents) read her as
someone org.yaml does not list, a new hire: owner_of refused MISSING_PROVENANCE for good,
naming an unlisted owner. A name matches with or without its accents, as it does whatever
its case and punctuation."""

from __future__ import annotations

from pathlib import Path

import pytest

from companybrain.config import Settings
from companybrain.graph.connection import Store
from companybrain.ingest.pipeline import ingest
from tests.ask.handover import DIRECTORY, TEAM_ORG, WRITTEN, change, on, owner
from tests.ingest.corpus_builder import write_corpus

ORG = {**TEAM_ORG, "people": [*TEAM_ORG["people"], {"id": "zoe", "name": "Zoë Åkesson-Berg"}]}


@pytest.mark.parametrize(
    "text",
    [
        "Zoe Akesson-Berg owns the billing gateway.",
        "Zoë Åkesson-Berg owns the billing gateway.",
        "The billing gateway is owned by ZOE AKESSON BERG.",
    ],
)
def test_a_name_without_its_accents_is_the_person(
    store: Store, settings: Settings, tmp_path: Path, text: str
) -> None:
    files = {"dir.md": DIRECTORY, "cc.md": change(text, at=WRITTEN)}
    ingest(store, write_corpus(tmp_path / "c", files, org=ORG), settings)
    assert owner(on(store, settings, "2026-05-09")) == "kofi"
    answer = on(store, settings, "2026-05-10")
    assert (owner(answer), [c.record for c in answer.citations]) == ("zoe", ["CC-7"])
