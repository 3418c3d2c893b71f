"""A change control written 10 May saying "The billing gateway changed hands effective 1 May
2026. Bo Lind now owns the billing gateway." (or "The handover of the billing gateway took
place on 1 May 2026.") named Bo only from 10 May: the day another
sentence (or a line "Effective: 2026-05-01", or a front-matter field) gives was read only
when still to come, so the directory's Kofi answered for 1-9 May, citing the directory. A
day in the past that dates this service's change of hands, naming no one else, is the
claim's start, as a title's is; a past day of another event or of another person's
ownership is not ("From 1 March 2026 Ana Ruiz was the owner ...")."""

from __future__ import annotations

from datetime import date, timedelta
from pathlib import Path
from typing import Any

import pytest

from companybrain.ask.engine import ask
from companybrain.config import Settings
from companybrain.graph.connection import Store
from companybrain.model.answer import RefusalCode
from tests.ask.handover import WRITTEN, load

NOW = "2026-07-01T00:00:00Z"
BO = "Bo Lind now owns the billing gateway."


def owner_on(store: Store, settings: Settings, day: str) -> tuple[str | None, list[Any]]:
    answer = ask(store, settings, f"Who owns the billing gateway on {day}?", now=NOW)
    found = answer.result["owner"]["id"] if answer.result else None
    return found, [(c.record, c.effective_at) for c in answer.citations]


@pytest.mark.parametrize(
    ("text", "front"),
    [
        ("The billing gateway changed hands effective 1 May 2026. " + BO, {}),
        ("Effective 1 May 2026 ownership of the billing gateway was transferred. " + BO, {}),
        ("- Effective: 2026-05-01\n- " + BO, {}),
        (BO, {"effective_date": date(2026, 5, 1)}),
        ("The handover of the billing gateway took place on 1 May 2026. " + BO, {}),
        ("The billing gateway was handed over on 1 May 2026. " + BO, {}),
    ],
    ids=["sentence", "ownership-sentence", "line", "field", "took-place-on", "handed-over-on"],
)
def test_a_past_start_of_this_change_stated_elsewhere_is_the_claims(
    store: Store, settings: Settings, tmp_path: Path, text: str, front: dict[str, Any]
) -> None:
    load(store, settings, tmp_path, text, **front)
    assert owner_on(store, settings, "2026-04-30")[0] == "kofi"
    assert owner_on(store, settings, "2026-05-01") == ("bo", [("CC-7", "2026-05-01T00:00:00Z")])


@pytest.mark.parametrize(
    "text",
    [
        "From 1 March 2026 Ana Ruiz was the owner of the billing gateway. Ownership of the "
        "billing gateway now transfers to Bo Lind.",
        "Effective 1 May 2026 the billing gateway moved to the new cluster. " + BO,
        "From 1 March 2026 the billing gateway had a different owner. " + BO,
    ],
    ids=["anothers-ownership", "another-event", "no-change-of-hands"],
)
def test_a_past_day_of_something_else_does_not_backdate_the_claim(
    store: Store, settings: Settings, tmp_path: Path, text: str
) -> None:
    load(store, settings, tmp_path, text)
    assert owner_on(store, settings, "2026-05-09")[0] == "kofi"
    assert owner_on(store, settings, "2026-05-10") == ("bo", [("CC-7", WRITTEN)])


def test_a_past_day_without_its_year_is_this_years(
    store: Store, settings: Settings, tmp_path: Path
) -> None:
    """ "Effective 1 May, ownership ... transfers to Bo Lind." written 10 May named Bo only
    from 10 May (a day without its year, of the three months before, was taken to hold
    when written): Kofi answered for 1-9 May. It is this year's 1 May."""
    load(
        store,
        settings,
        tmp_path,
        "Effective 1 May, ownership of the billing gateway transfers to Bo Lind.",
    )
    assert owner_on(store, settings, "2026-04-30")[0] == "kofi"
    assert owner_on(store, settings, "2026-05-01") == ("bo", [("CC-7", "2026-05-01T00:00:00Z")])


def test_another_past_day_of_this_services_handover_refuses_the_days_between(
    store: Store, settings: Settings, tmp_path: Path
) -> None:
    """ "The billing gateway handover meeting was on 1 May 2026." may give the day of the
    change or of a meeting about it: from then until the record, who owned it cannot be
    read (refused, citing the record), never Kofi; Bo from the record's time."""
    load(store, settings, tmp_path, "The billing gateway handover meeting was on 1 May 2026. " + BO)
    assert owner_on(store, settings, "2026-04-30")[0] == "kofi"
    for day in ("2026-05-01", "2026-05-09"):
        answer = ask(store, settings, f"Who owns the billing gateway on {day}?", now=NOW)
        assert answer.refusal is not None and answer.refusal.code is RefusalCode.MISSING_PROVENANCE
        assert [c.record for c in answer.citations] == ["CC-7"]
    assert owner_on(store, settings, "2026-05-10") == ("bo", [("CC-7", WRITTEN)])


@pytest.mark.parametrize(
    "text",
    [
        "Bo Lind has owned the billing gateway since 1 February 2026.",
        "Effective 1 February 2026, ownership of the billing gateway transfers to Bo Lind.",
    ],
)
def test_a_start_before_an_older_records_does_not_lose_to_it_for_good(
    store: Store, settings: Settings, tmp_path: Path, text: str
) -> None:
    """A directory written 10 May saying Bo has owned the billing gateway since 1 February
    took effect before the older directory (1 March, Kofi): the latest effective instant
    won, so Kofi answered for every day after, June included, citing the older directory,
    although the newer one says Bo owns it. Its record still states Bo when it is written:
    from then on it outranks the older one (and between, the later word corrects it)."""
    load(store, settings, tmp_path, text, kind="service_directory")
    assert owner_on(store, settings, "2026-02-01")[0] == "bo"
    assert owner_on(store, settings, "2026-03-02")[0] == "bo"
    assert owner_on(store, settings, "2026-06-11") == ("bo", [("CC-7", "2026-02-01T00:00:00Z")])
    answer = ask(store, settings, "Who owns the billing gateway on 2026-06-11?", now=NOW)
    assert [(o.record, o.owner, o.why) for o in answer.outranked] == [
        ("dir-1", "kofi", "CC-7, written later, names its owner from before")
    ]
    # asked before the newer directory was written, the older one answered
    earlier = ask(store, settings, "Who owns the billing gateway?", now="2026-04-01T00:00:00Z")
    assert earlier.result is not None and earlier.result["owner"]["id"] == "kofi"


@pytest.mark.parametrize(
    "text",
    [
        "| Service | Owner | Since |\n| --- | --- | --- |\n"
        "| Billing Gateway | Bo Lind | 2026-05-01 |",
        "| Service | Owner | Owner since |\n| --- | --- | --- |\n"
        "| Billing Gateway | Bo Lind | 1 May 2026 |",
        "- Owner: Bo Lind\n- Owner since: 2026-05-01\n- Service: billing gateway",
    ],
    ids=["since-column", "owner-since-column", "owner-since-line"],
)
def test_a_directorys_owner_since_column_or_line_dates_its_row(
    store: Store, settings: Settings, tmp_path: Path, text: str
) -> None:
    """A directory written 10 May listing Bo under "Owner since: 2026-05-01" named him
    only from 10 May: the column was another one's ("Last reviewed"), and Kofi answered for
    1-9 May, citing the older directory."""
    load(store, settings, tmp_path, text, kind="service_directory", about=["billing-gateway"])
    assert owner_on(store, settings, "2026-04-30")[0] == "kofi"
    assert owner_on(store, settings, "2026-05-01") == ("bo", [("CC-7", "2026-05-01T00:00:00Z")])


def test_a_since_column_of_something_else_does_not_date_the_row(
    store: Store, settings: Settings, tmp_path: Path
) -> None:
    rows = "| Service | Owner | In production since |\n| --- | --- | --- |\n"
    load(store, settings, tmp_path, rows + "| Billing Gateway | Bo Lind | 2019-03-01 |",
         kind="service_directory")  # fmt: skip
    assert owner_on(store, settings, "2026-05-09")[0] == "kofi"
    assert owner_on(store, settings, "2026-05-10") == ("bo", [("CC-7", WRITTEN)])


@pytest.mark.parametrize(
    ("text", "start"),
    [
        ("- Handover: 2026-06-01\n- Ownership of the billing gateway transfers to Bo Lind.",
         "2026-06-01"),
        ("Billing gateway handover: 1 June 2026\n\nOwnership of the billing gateway transfers "
         "to Bo Lind.", "2026-06-01"),
        ("- Ownership transfer: 1 June 2026\n- Ownership of the billing gateway transfers to "
         "Bo Lind.", "2026-06-01"),
        ("- Handover: 2026-05-01\n- " + BO, "2026-05-01"),
    ],
)  # fmt: skip
def test_a_line_whose_key_names_the_change_gives_its_day(
    store: Store, settings: Settings, tmp_path: Path, text: str, start: str
) -> None:
    """ "- Handover: 2026-06-01" beside "Ownership ... transfers to Bo Lind.", written 10 May:
    only "Handover date:" was read as the start, so Bo was named from 10 May, three weeks
    before the handover, citing the record (and a past one left Kofi answering)."""
    load(store, settings, tmp_path, text)
    before = (date.fromisoformat(start) - timedelta(days=1)).isoformat()
    assert owner_on(store, settings, before)[0] == "kofi"
    assert owner_on(store, settings, start) == ("bo", [("CC-7", f"{start}T00:00:00Z")])


@pytest.mark.parametrize("key", ["Data transfer", "Cutover", "Go-live"])
def test_a_line_keyed_by_another_event_does_not_date_the_claim(
    store: Store, settings: Settings, tmp_path: Path, key: str
) -> None:
    load(store, settings, tmp_path, f"- {key}: 2026-05-01\n- " + BO)
    assert owner_on(store, settings, "2026-05-09")[0] == "kofi"
    assert owner_on(store, settings, "2026-05-10") == ("bo", [("CC-7", WRITTEN)])
