"""A change control written 10 May saying "The billing gateway changed hands. Bo Lind now
owns it." gave no claim ("it" named no service), so the directory's Kofi answered for good,
citing the directory. A sentence naming a person, no service and "it" (or "its") once, right
after a sentence naming one service, is read for that service; anything less clear is not
read ("... the billing gateway and the search index changed hands. Bo now owns it.")."""

from __future__ import annotations

from pathlib import Path

import pytest

from companybrain.config import Settings
from companybrain.graph.connection import Store
from companybrain.model.answer import RefusalCode
from tests.ask.handover import load, on, owner


@pytest.mark.parametrize(
    "text",
    [
        "The billing gateway changed hands. Bo Lind now owns it.",
        "The billing gateway changed hands.\nBo Lind is its new owner.",
        "Kofi Mensah owned the billing gateway. Bo Lind took it over.",
    ],
    ids=["owns-it", "its-owner", "took-it-over"],
)
def test_it_names_the_service_of_the_sentence_before(
    store: Store, settings: Settings, tmp_path: Path, text: str
) -> None:
    load(store, settings, tmp_path, text)
    assert owner(on(store, settings, "2026-05-09")) == "kofi"
    answer = on(store, settings, "2026-05-10")
    assert (owner(answer), [c.record for c in answer.citations]) == ("bo", ["CC-7"])
    assert "Bo Lind" in answer.citations[0].quote and "billing gateway" in answer.citations[0].quote


def test_a_change_told_done_last_week_refuses_last_weeks_days(
    store: Store, settings: Settings, tmp_path: Path
) -> None:
    load(store, settings, tmp_path, "The billing gateway changed hands last week. Bo Lind owns it.")
    assert owner(on(store, settings, "2026-04-26")) == "kofi"
    refusal = on(store, settings, "2026-05-04").refusal
    assert refusal is not None and refusal.code is RefusalCode.MISSING_PROVENANCE
    assert owner(on(store, settings, "2026-05-10")) == "bo"


@pytest.mark.parametrize(
    "text",
    [
        "The billing gateway and the search index changed hands. Bo Lind now owns it.",
        "The billing gateway changed hands. Bo Lind owns its dashboards.",
        "The billing gateway changed hands. Does Bo Lind own it now?",
        "The billing gateway changed hands.\n\n## Notes\n\nBo Lind owns it and the wiki.",
    ],
    ids=["two-services", "a-part", "a-question", "not-the-sentence-before"],
)
def test_an_unclear_it_names_no_owner(
    store: Store, settings: Settings, tmp_path: Path, text: str
) -> None:
    load(store, settings, tmp_path, text)
    assert owner(on(store, settings, "2026-05-10")) != "bo"
