"""A change control saying "Bo Lind owns the billing gateway, and the search index moves to
Cy Park." paired each person with each service of the sentence (a pattern read "the billing
gateway, and the search index" as one list): Cy for the billing gateway, Bo for the search
index, so both services refused CONFLICT; with "next month" on Cy's clause, the billing
gateway refused MISSING_PROVENANCE for good. Each clause's owner goes with its own service."""

from __future__ import annotations

from pathlib import Path

import pytest

from companybrain.ask.engine import ask
from companybrain.config import Settings
from companybrain.graph.connection import Store
from companybrain.ingest.pipeline import ingest
from companybrain.model.answer import Answer, RefusalCode
from tests.ask.handover import TEAM_ORG, change, owner
from tests.ingest.corpus_builder import md, write_corpus

NOW = "2026-07-01T00:00:00Z"
WRITTEN = "2026-05-10T09:00:00Z"
DIRECTORY = md(
    {"id": "dir-1", "kind": "service_directory", "at": "2026-03-01T08:00:00Z"},
    "| Service | Owner |\n| --- | --- |\n| Billing Gateway | Kofi Mensah |\n"
    "| Search Index | Ana Ruiz |\n",
)


def load(store: Store, settings: Settings, tmp_path: Path, text: str) -> None:
    files = {"dir.md": DIRECTORY, "cc.md": change(text, at=WRITTEN)}
    ingest(store, write_corpus(tmp_path / "c", files, org=TEAM_ORG), settings)


def on(store: Store, settings: Settings, service: str, day: str) -> Answer:
    return ask(store, settings, f"Who owns the {service} on {day}?", now=NOW)


@pytest.mark.parametrize(
    "text",
    [
        "Bo Lind owns the billing gateway, and the search index moves to Cy Park.",
        "Bo Lind owns the billing gateway; the search index is owned by Cy Park.",
        "Bo Lind owns the billing gateway, while Cy Park owns the search index.",
    ],
    ids=["and", "semicolon", "while"],
)
def test_each_clauses_owner_goes_with_its_own_service(
    store: Store, settings: Settings, tmp_path: Path, text: str
) -> None:
    load(store, settings, tmp_path, text)
    assert owner(on(store, settings, "billing gateway", "2026-05-09")) == "kofi"
    for day in ("2026-05-10", "2026-06-30"):
        billing = on(store, settings, "billing gateway", day)
        search = on(store, settings, "search index", day)
        assert (owner(billing), [c.record for c in billing.citations]) == ("bo", ["CC-7"])
        assert (owner(search), [c.record for c in search.citations]) == ("cy", ["CC-7"])


def test_a_vague_time_of_the_other_clause_leaves_this_clauses_owner(
    store: Store, settings: Settings, tmp_path: Path
) -> None:
    load(
        store,
        settings,
        tmp_path,
        "Bo Lind owns the billing gateway, and the search index moves to Cy Park next month.",
    )
    for day in ("2026-05-10", "2026-06-30"):
        assert owner(on(store, settings, "billing gateway", day)) == "bo"
        search = on(store, settings, "search index", day)
        assert search.refusal is not None
        assert search.refusal.code is RefusalCode.MISSING_PROVENANCE


def test_a_list_cut_by_commas_stays_one_owners(
    store: Store, settings: Settings, tmp_path: Path
) -> None:
    load(
        store,
        settings,
        tmp_path,
        "The billing gateway, and the search index, are owned by Bo Lind.",
    )
    assert owner(on(store, settings, "billing gateway", "2026-05-10")) == "bo"
    assert owner(on(store, settings, "search index", "2026-05-10")) == "bo"
