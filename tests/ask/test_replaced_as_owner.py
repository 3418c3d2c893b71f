"""A change control written 10 May saying "Bo Lind replaced Kofi Mensah as owner of the
billing gateway." (or "succeeds Kofi Mensah as owner") named Kofi, citing it: "Kofi Mensah
as owner of the billing gateway" was read, and nothing made him the one replaced, so the
record that says he was replaced stood for him. The one replaced is a previous owner (the
verifier refuses him, whoever proposes him), and the one replacing him is read as the
owner."""

from __future__ import annotations

from pathlib import Path

import pytest

from companybrain.config import Settings
from companybrain.graph.connection import Store
from tests.ask.handover import load, on, owner


@pytest.mark.parametrize(
    "text",
    [
        "Bo Lind replaced Kofi Mensah as owner of the billing gateway.",
        "Bo Lind succeeds Kofi Mensah as owner of the billing gateway.",
        "Bo Lind replaces Kofi Mensah as the billing gateway owner.",
    ],
)
def test_the_one_replacing_is_the_owner(
    store: Store, settings: Settings, tmp_path: Path, text: str
) -> None:
    load(store, settings, tmp_path, text)
    assert owner(on(store, settings, "2026-05-09")) == "kofi"
    for day in ("2026-05-10", "2026-06-30"):
        answer = on(store, settings, day)
        assert (owner(answer), [c.record for c in answer.citations]) == ("bo", ["CC-7"])
        assert all(o.record != "CC-7" or o.owner != "kofi" for o in answer.outranked)
