"""A change control written 1 April saying "We agreed on 3 March 2026 that Bo Lind owns the
billing gateway." was refused as a time that cannot be read ("3 March 2026" is not said to
be its start), so owner_of refused from 1 April on, although the record says plainly who
owns it when it was written. The day of an agreement (a decision, an announcement) already
past when the record was written is not the claim's start, and no reason to refuse it: the
claim counts from the record's time. One still to come is refused as before."""

from __future__ import annotations

from pathlib import Path

from companybrain.ask.engine import ask
from companybrain.config import Settings
from companybrain.graph.connection import Store
from companybrain.ingest.pipeline import ingest
from companybrain.model.answer import RefusalCode
from tests.ask.handover import DIRECTORY, TEAM_ORG, change
from tests.ingest.corpus_builder import write_corpus

NOW = "2026-07-01T00:00:00Z"
BO = "Bo Lind owns the billing gateway."


def load(store: Store, settings: Settings, tmp_path: Path, text: str) -> None:
    files = {"dir.md": DIRECTORY, "cc.md": change(text)}
    ingest(store, write_corpus(tmp_path / "c", files, org=TEAM_ORG), settings)


def test_a_past_agreement_day_names_the_owner_from_the_records_time(
    store: Store, settings: Settings, tmp_path: Path
) -> None:
    load(
        store,
        settings,
        tmp_path,
        "We agreed on 3 March 2026 that Bo Lind owns the billing gateway.",
    )
    march = ask(store, settings, "Who owns the billing gateway on 2026-03-31?", now=NOW)
    assert march.result == {"owner": {"id": "kofi", "name": "Kofi Mensah"}}
    april = ask(store, settings, "Who owns the billing gateway on 2026-04-01?", now=NOW)
    assert april.result is not None and april.result["owner"]["id"] == "bo"
    assert [(c.record, c.effective_at) for c in april.citations] == [
        ("CC-7", "2026-04-01T09:00:00Z")
    ]


def test_an_agreement_day_to_come_is_still_refused(
    store: Store, settings: Settings, tmp_path: Path
) -> None:
    load(
        store, settings, tmp_path, "We agreed on 3 May 2026 that Bo Lind owns the billing gateway."
    )
    answer = ask(store, settings, "Who owns the billing gateway on 2026-05-15?", now=NOW)
    assert answer.refusal is not None and answer.refusal.code is RefusalCode.MISSING_PROVENANCE
