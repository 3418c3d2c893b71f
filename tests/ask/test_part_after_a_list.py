"""A change control written 10 May saying "Bo Lind owns the search index and the billing
gateway roadmap." gave no claim at all: a part named after the list of what someone owns
("roadmap") made the whole list parts, so the directory's Ana answered for the search index
for good, citing the directory. A part after the list's last item, written with an article
of its own ("and the billing gateway roadmap"), is that item's part only; the services
before it get their owner. Without the article ("and billing gateway dashboards") the part
may be of both, and nothing is read, as before."""

from __future__ import annotations

from pathlib import Path

import pytest

from companybrain.config import Settings
from companybrain.graph.connection import Store
from tests.ask.handover import load_two, owner, owner_on


@pytest.mark.parametrize(
    "text",
    [
        "Bo Lind owns the search index and the billing gateway roadmap.",
        "Bo Lind took over the search index and the billing gateway on-call rota.",
    ],
)
def test_the_services_before_a_part_get_their_owner(
    store: Store, settings: Settings, tmp_path: Path, text: str
) -> None:
    load_two(store, settings, tmp_path, text)
    for day in ("2026-05-10", "2026-06-30"):
        answer = owner_on(store, settings, "search index", day)
        assert (owner(answer), [c.record for c in answer.citations]) == ("bo", ["CC-7"])
        assert owner(owner_on(store, settings, "billing gateway", day)) == "kofi"


def test_a_part_that_may_be_of_both_names_no_owner(
    store: Store, settings: Settings, tmp_path: Path
) -> None:
    load_two(store, settings, tmp_path, "Bo Lind owns the search index and billing gateway docs.")
    assert owner(owner_on(store, settings, "search index", "2026-05-10")) == "ana"
    assert owner(owner_on(store, settings, "billing gateway", "2026-05-10")) == "kofi"
