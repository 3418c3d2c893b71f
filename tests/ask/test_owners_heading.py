"""A change control written 10 May listing "- Billing gateway: Bo Lind" under a heading
"## Owners" gave no claim: the line's key is the service, not "Owner", and the line has no
ownership wording of its own, so the directory's Kofi answered for good, citing the
directory. Under a heading naming owners, a line whose key is a service's name and nothing
else gives its owner ("TBD": no one); under another heading, or with a key that is more
than a name ("Upgrade the billing gateway: Cy Park"), it does not."""

from __future__ import annotations

from pathlib import Path

import pytest

from companybrain.config import Settings
from companybrain.graph.connection import Store
from companybrain.model.answer import RefusalCode
from tests.ask.handover import load_two, owner, owner_on

LIST = "## Service owners\n\n- Billing gateway: Bo Lind\n- Search index: TBD\n"


def test_a_list_under_an_owners_heading_gives_the_owners(
    store: Store, settings: Settings, tmp_path: Path
) -> None:
    load_two(store, settings, tmp_path, LIST)
    assert owner(owner_on(store, settings, "billing gateway", "2026-05-09")) == "kofi"
    for day in ("2026-05-10", "2026-06-30"):
        answer = owner_on(store, settings, "billing gateway", day)
        assert (owner(answer), [c.record for c in answer.citations]) == ("bo", ["CC-7"])
        assert answer.citations[0].quote == "Billing gateway: Bo Lind"
        search = owner_on(store, settings, "search index", day)
        assert search.refusal is not None and search.refusal.code is RefusalCode.NO_CLAIM


@pytest.mark.parametrize(
    "text",
    [
        "## Notes\n\n- Billing gateway: Bo Lind\n",
        "## Previous owners\n\n- Billing gateway: Bo Lind\n",
        "## Owners\n\n- Upgrade the billing gateway: Bo Lind\n",
    ],
)
def test_other_lists_give_no_owner(
    store: Store, settings: Settings, tmp_path: Path, text: str
) -> None:
    load_two(store, settings, tmp_path, text)
    assert owner(owner_on(store, settings, "billing gateway", "2026-06-30")) == "kofi"


def test_a_sentence_under_an_owners_heading_is_still_read(
    store: Store, settings: Settings, tmp_path: Path
) -> None:
    load_two(store, settings, tmp_path, "## Owners\n\nBo Lind owns the billing gateway.\n")
    assert owner(owner_on(store, settings, "billing gateway", "2026-06-30")) == "bo"
