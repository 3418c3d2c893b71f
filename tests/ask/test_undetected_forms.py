"""Sentences the rules read no claim from, so that the directory's Kofi kept answering for
the billing gateway, citing the directory, after a change control written 10 May said Bo
Lind owns it: "Bo Lind became the owner of the billing gateway (last week).", "Bo Lind was
on call last week and owns the billing gateway." (the person and the verb apart, no one
else between). A duty's "last week" in a clause of its own does not date the claim."""

from __future__ import annotations

from pathlib import Path

import pytest

from companybrain.config import Settings
from companybrain.graph.connection import Store
from companybrain.ingest.pipeline import ingest
from companybrain.model.answer import RefusalCode
from tests.ask.handover import DIRECTORY, TEAM_ORG, WRITTEN, change, load, on, owner
from tests.ingest.corpus_builder import write_corpus


@pytest.mark.parametrize(
    "text",
    [
        "Bo Lind became the owner of the billing gateway.",
        "Bo Lind joined the payments team in March and now owns the billing gateway.",
        "Bo Lind was on call last week and owns the billing gateway.",
    ],
    ids=["became", "joined-and-owns", "on-call-and-owns"],
)
def test_bo_answers_from_the_record(
    store: Store, settings: Settings, tmp_path: Path, text: str
) -> None:
    load(store, settings, tmp_path, text)
    assert owner(on(store, settings, "2026-05-09")) == "kofi"
    for day in ("2026-05-10", "2026-06-30"):
        answer = on(store, settings, day)
        assert (owner(answer), [c.record for c in answer.citations]) == ("bo", ["CC-7"])


@pytest.mark.parametrize(
    "text",
    [
        "Bo Lind became the owner of the billing gateway (last week).",
        "Bo Lind took over the billing gateway last week.",
    ],
)
def test_last_week_refuses_the_days_of_last_week(
    store: Store, settings: Settings, tmp_path: Path, text: str
) -> None:
    load(store, settings, tmp_path, text)
    assert owner(on(store, settings, "2026-04-26")) == "kofi"
    for day in ("2026-04-27", "2026-05-09"):
        refusal = on(store, settings, day).refusal
        assert refusal is not None and refusal.code is RefusalCode.MISSING_PROVENANCE
    assert owner(on(store, settings, "2026-05-10")) == "bo"


@pytest.mark.parametrize(
    "text",
    [
        "Bo Lind is leaving and no one owns the billing gateway.",
        "Bo Lind never replied and owns the billing gateway.",
    ],
)
def test_no_claim_of_bo_from_a_clause_that_denies_it(
    store: Store, settings: Settings, tmp_path: Path, text: str
) -> None:
    load(store, settings, tmp_path, text)
    assert owner(on(store, settings, "2026-05-10")) != "bo"


@pytest.mark.parametrize(
    "text",
    [
        "Bo Lind, not Kofi Mensah, owns the billing gateway.",
        "Bo Lind and not Kofi Mensah now owns the billing gateway.",
    ],
)
def test_the_owner_named_against_another_is_the_owner(
    store: Store, settings: Settings, tmp_path: Path, text: str
) -> None:
    """Only "Kofi Mensah owns the billing gateway" was read (and refused as negated): the
    record said Bo, yet the directory's Kofi answered, citing the directory."""
    load(store, settings, tmp_path, text)
    answer = on(store, settings, "2026-05-10")
    assert (owner(answer), [c.record for c in answer.citations]) == ("bo", ["CC-7"])


@pytest.mark.parametrize(
    "text",
    ["- Billing gateway owner: Bo Lind", "- Billing gateway ownership: Bo Lind"],
    ids=["owner", "ownership"],
)
def test_a_line_keyed_by_the_services_owner_names_it(
    store: Store, settings: Settings, tmp_path: Path, text: str
) -> None:
    """Only keys starting with "Owner" were read as an owner's line: "Billing gateway
    owner: Bo Lind" gave no claim, and the directory's Kofi answered."""
    load(store, settings, tmp_path, text)
    answer = on(store, settings, "2026-05-10")
    assert (owner(answer), [c.record for c in answer.citations]) == ("bo", ["CC-7"])


def test_a_line_keyed_by_another_owner_names_no_owner_of_the_service(
    store: Store, settings: Settings, tmp_path: Path
) -> None:
    """ "Change owner: Cy Park (billing gateway)": who runs the change, not who owns the
    service the record is about."""
    files = {
        "dir.md": DIRECTORY,
        "cc.md": change(
            "- Change owner: Cy Park (billing gateway)", at=WRITTEN, about=["billing-gateway"]
        ),
    }
    ingest(store, write_corpus(tmp_path / "c", files, org=TEAM_ORG), settings)
    assert owner(on(store, settings, "2026-05-10")) == "kofi"
