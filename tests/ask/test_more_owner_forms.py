"""A change control written 10 May naming Bo Lind the billing gateway's owner in words no
pattern read gave no claim, so the directory's Kofi answered for good, citing the directory:
"Bo Lind has been the owner of the billing gateway since 1 April 2026." ("has been" was no
form of "is"), "Bo Lind is the billing gateway's new owner.", "Bo Lind assumed ownership of
the billing gateway.", "Bo Lind inherits the billing gateway from Kofi Mensah.", "The
billing gateway now belongs to Bo Lind." Each is read."""

from __future__ import annotations

from pathlib import Path

import pytest

from companybrain.config import Settings
from companybrain.graph.connection import Store
from tests.ask.handover import load, on, owner


@pytest.mark.parametrize(
    "text",
    [
        "Bo Lind is the billing gateway's new owner.",
        "Bo Lind assumed ownership of the billing gateway.",
        "Bo Lind has taken over ownership of the billing gateway.",
        "Bo Lind inherits the billing gateway from Kofi Mensah.",
        "The billing gateway now belongs to Bo Lind.",
    ],
)
def test_the_owner_is_read_from_the_record(
    store: Store, settings: Settings, tmp_path: Path, text: str
) -> None:
    load(store, settings, tmp_path, text)
    assert owner(on(store, settings, "2026-05-09")) == "kofi"
    for day in ("2026-05-10", "2026-06-30"):
        answer = on(store, settings, day)
        assert (owner(answer), [c.record for c in answer.citations]) == ("bo", ["CC-7"])


def test_has_been_the_owner_since_a_day_dates_it(
    store: Store, settings: Settings, tmp_path: Path
) -> None:
    load(
        store,
        settings,
        tmp_path,
        "Bo Lind has been the owner of the billing gateway since 1 April 2026.",
    )
    assert owner(on(store, settings, "2026-03-31")) == "kofi"
    for day in ("2026-04-01", "2026-05-09", "2026-06-30"):
        assert owner(on(store, settings, day)) == "bo"


@pytest.mark.parametrize(
    "text",
    [
        "The billing gateway belongs to the payments team.",
        "Bo Lind does not own the billing gateway; it belongs to Kofi Mensah.",
    ],
)
def test_no_one_else_is_read_as_the_owner(
    store: Store, settings: Settings, tmp_path: Path, text: str
) -> None:
    load(store, settings, tmp_path, text)
    assert owner(on(store, settings, "2026-06-30")) == "kofi"
