"""A change control written 10 May 2026 saying "Bo Lind owns the billing gateway from May."
(or "The billing gateway changed hands. Bo owns it from May.") was refused for good: "from
May" was read as a stretch still to come, since May had not ended when it was written,
although it began nine days before. A start said with "from", "as of", "starting" ... of
the month the record is written in is already past, as "from April" is: Bo from the
record's time, the days since 1 May refused (when in May he started is not said). "in
May" says no start and stays refused; a month to come too."""

from __future__ import annotations

from pathlib import Path

import pytest

from companybrain.config import Settings
from companybrain.graph.connection import Store
from companybrain.model.answer import Answer, RefusalCode
from tests.ask.handover import load, on, owner


def refused(answer: Answer) -> bool:
    return answer.refusal is not None and answer.refusal.code is RefusalCode.MISSING_PROVENANCE


@pytest.mark.parametrize(
    "text",
    [
        "Bo Lind owns the billing gateway from May.",
        "The billing gateway changed hands. Bo owns it from May.",
        "Bo Lind owns the billing gateway as of May 2026.",
    ],
)
def test_from_this_month_is_a_start_already_past(
    store: Store, settings: Settings, tmp_path: Path, text: str
) -> None:
    load(store, settings, tmp_path, text)
    assert owner(on(store, settings, "2026-04-30")) == "kofi"
    assert refused(on(store, settings, "2026-05-01"))
    assert refused(on(store, settings, "2026-05-09"))
    for day in ("2026-05-10", "2026-06-30"):
        answer = on(store, settings, day)
        assert (owner(answer), [c.record for c in answer.citations]) == ("bo", ["CC-7"])


def test_in_this_month_says_no_start(store: Store, settings: Settings, tmp_path: Path) -> None:
    load(store, settings, tmp_path, "Bo Lind owns the billing gateway in May.")
    assert owner(on(store, settings, "2026-05-09")) == "kofi"
    assert refused(on(store, settings, "2026-06-30"))


def test_from_this_month_disagreeing_with_effective_at_is_refused(
    store: Store, settings: Settings, tmp_path: Path
) -> None:
    load(
        store,
        settings,
        tmp_path,
        "Bo Lind owns the billing gateway from May.",
        effective_at="2026-06-15T00:00:00Z",
    )
    assert owner(on(store, settings, "2026-05-09")) == "kofi"
    assert refused(on(store, settings, "2026-06-30"))
