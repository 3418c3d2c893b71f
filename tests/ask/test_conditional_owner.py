"""A change control written 10 May saying "Unless vetoed, Cora Ng owns the billing
gateway." (or "If approved, ...", "Once approved, ...", "..., provided the board agrees.")
named Cora as the owner from that day, citing it, whether the rules or a model read it:
a condition was read only in the clause naming the owner ("Cora owns it unless vetoed").
A clause of its own that makes the sentence a condition names no owner: the directory's
Kofi answers on. A clause telling the reader when to ask ("If you need access, ...") is
no condition of who owns it."""

from __future__ import annotations

from pathlib import Path

import pytest

from companybrain.config import Settings
from companybrain.graph.connection import Store
from tests.ask.handover import owner
from tests.ask.hedges import PROPOSERS, answered_by, answers, read_by
from tests.support.model_server import ScriptedModelServer


@pytest.mark.parametrize("proposer", PROPOSERS)
@pytest.mark.parametrize(
    "text",
    [
        "Unless vetoed, Cora Ng owns the billing gateway.",
        "Cora Ng owns the billing gateway, unless vetoed.",
        "If approved, Cora Ng owns the billing gateway.",
        "Once approved, Cora Ng owns the billing gateway.",
        "Cora Ng owns the billing gateway, provided the board agrees.",
        "If all goes well, Cora Ng owns the billing gateway.",
        "Unless Kofi Mensah objects, Cora Ng owns the billing gateway.",
    ],
)
def test_an_owner_under_a_condition_is_not_named(
    store: Store,
    settings: Settings,
    model_server: ScriptedModelServer,
    tmp_path: Path,
    proposer: str,
    text: str,
) -> None:
    asking = read_by(proposer, store, settings, model_server, tmp_path, text)
    answered_by(store, asking, "kofi", "dir-1")


@pytest.mark.parametrize("proposer", PROPOSERS)
def test_who_to_ask_is_no_condition(
    store: Store,
    settings: Settings,
    model_server: ScriptedModelServer,
    tmp_path: Path,
    proposer: str,
) -> None:
    text = "If you need access, Cora Ng owns the billing gateway."
    asking = read_by(proposer, store, settings, model_server, tmp_path, text)
    for answer in answers(store, asking):
        assert owner(answer) == "cora"
