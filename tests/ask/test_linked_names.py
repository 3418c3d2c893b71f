"""A change control written 10 May saying "[Bo Lind](mailto:bo@x.example) owns the billing
gateway." gave no claim: the link's target was read as words ("mailto bo x example") between
Bo and "owns", so no pattern matched, and the directory's Kofi answered for good, citing
the directory. A Markdown link is read as the text it shows."""

from __future__ import annotations

from pathlib import Path

import pytest

from companybrain.config import Settings
from companybrain.graph.connection import Store
from tests.ask.handover import load, on, owner


@pytest.mark.parametrize(
    "text",
    [
        "[Bo Lind](mailto:bo@x.example) owns the billing gateway.",
        "The billing gateway is owned by [Bo Lind](mailto:bo@x.example).",
        "Ownership of the [billing gateway](https://wiki.example/bg) transfers to "
        "[Bo Lind](https://people.example/bo_(eng)).",
    ],
)
def test_a_linked_name_is_read_as_shown(
    store: Store, settings: Settings, tmp_path: Path, text: str
) -> None:
    load(store, settings, tmp_path, text)
    assert owner(on(store, settings, "2026-05-09")) == "kofi"
    for day in ("2026-05-10", "2026-06-30"):
        answer = on(store, settings, day)
        assert (owner(answer), [c.record for c in answer.citations]) == ("bo", ["CC-7"])
        assert answer.citations[0].quote == text


def test_where_a_link_leads_names_no_one(store: Store, settings: Settings, tmp_path: Path) -> None:
    load(
        store,
        settings,
        tmp_path,
        "[The owner](https://people.example/bo-lind) owns the billing gateway.",
    )
    assert owner(on(store, settings, "2026-06-30")) == "kofi"
