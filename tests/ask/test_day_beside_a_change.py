"""A change control written 10 May saying "Ownership of the billing gateway transfers to Bo
Lind." beside a line "- Date: 2026-06-01" (or "- Go-live: 2026-06-01", or a table row
"| Handover | 2026-06-01 |"), with no `effective_at`, named Bo from 10 May, three weeks
before the day the record gives, citing it. A day to come on such a line may be the
change's: as "The handover happens on 1 June 2026." does, it leaves the claim unclear
(refused MISSING_PROVENANCE from the record's day, never naming Bo early), until the record
gets its `effective_at`."""

from __future__ import annotations

from pathlib import Path

import pytest

from companybrain.config import Settings
from companybrain.graph.connection import Store
from companybrain.model.answer import RefusalCode
from tests.ask.handover import load, on, owner

TRANSFER = "Ownership of the billing gateway transfers to Bo Lind."


BESIDE = [
    TRANSFER + "\n- Date: 2026-06-01",
    TRANSFER + "\n- Go-live: 2026-06-01",
    TRANSFER + "\n\n| Step | When |\n| --- | --- |\n| Handover | 2026-06-01 |",
]
IDS = ["date-line", "go-live-line", "table-row"]


@pytest.mark.parametrize("text", BESIDE, ids=IDS)
def test_a_day_to_come_beside_a_change_leaves_it_unclear(
    store: Store, settings: Settings, tmp_path: Path, text: str
) -> None:
    load(store, settings, tmp_path, text)
    assert owner(on(store, settings, "2026-05-09")) == "kofi"
    for day in ("2026-05-10", "2026-05-31", "2026-06-30"):
        answer = on(store, settings, day)
        assert answer.refusal is not None, (day, owner(answer))
        assert answer.refusal.code is RefusalCode.MISSING_PROVENANCE
        assert [c.record for c in answer.citations] == ["CC-7"]
        assert "2026-06-01" in answer.refusal.message


@pytest.mark.parametrize("text", BESIDE, ids=IDS)
def test_with_its_effective_at_the_record_names_bo_from_then(
    store: Store, settings: Settings, tmp_path: Path, text: str
) -> None:
    load(store, settings, tmp_path, text, effective_at="2026-06-01T00:00:00Z")
    assert owner(on(store, settings, "2026-05-31")) == "kofi"
    assert owner(on(store, settings, "2026-06-01")) == "bo"


@pytest.mark.parametrize(
    "text",
    [
        TRANSFER + "\n- Date: 2026-05-10",  # the record's own day
        TRANSFER + "\n- Requested: 2026-05-08",  # a day already past
        "Bo Lind owns the billing gateway.\n- Next review: 2026-06-01",  # no change told
        TRANSFER + "\n- Search index review: 2026-06-01",  # another service's
    ],
    ids=["same-day", "past-day", "no-change", "other-service"],
)
def test_other_days_leave_bo_from_the_record(
    store: Store, settings: Settings, tmp_path: Path, text: str
) -> None:
    load(store, settings, tmp_path, text)
    assert owner(on(store, settings, "2026-05-09")) == "kofi"
    assert owner(on(store, settings, "2026-05-10")) == "bo"
