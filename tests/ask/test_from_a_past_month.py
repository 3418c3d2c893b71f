"""A change control written 10 May 2026 saying "Bo Lind owns the billing gateway from April."
(no `effective_at`) was refused as a start still to come ("from April", read as next April):
from 10 May on, owner_of refused MISSING_PROVENANCE for good. A month without its year that
began in the three months before the record is this year's, as a day without its year is:
Bo from the record's time, and the days since 1 April refused (when in April he started is
not said), never Kofi. A month still to come stays refused."""

from __future__ import annotations

from pathlib import Path

import pytest

from companybrain.config import Settings
from companybrain.graph.connection import Store
from companybrain.model.answer import Answer, RefusalCode
from tests.ask.handover import load, on, owner


def refused(answer: Answer) -> bool:
    return answer.refusal is not None and answer.refusal.code is RefusalCode.MISSING_PROVENANCE


def test_from_last_april_is_a_start_already_past(
    store: Store, settings: Settings, tmp_path: Path
) -> None:
    load(store, settings, tmp_path, "Bo Lind owns the billing gateway from April.")
    assert owner(on(store, settings, "2026-03-31")) == "kofi"
    assert refused(on(store, settings, "2026-04-01"))
    assert refused(on(store, settings, "2026-05-09"))
    for day in ("2026-05-10", "2026-06-30"):
        answer = on(store, settings, day)
        assert (owner(answer), [c.record for c in answer.citations]) == ("bo", ["CC-7"])


@pytest.mark.parametrize("month", ["June", "December", "April 2027"])
def test_a_month_to_come_stays_refused(
    store: Store, settings: Settings, tmp_path: Path, month: str
) -> None:
    load(store, settings, tmp_path, f"Bo Lind owns the billing gateway from {month}.")
    assert owner(on(store, settings, "2026-05-09")) == "kofi"
    assert refused(on(store, settings, "2026-06-30"))
