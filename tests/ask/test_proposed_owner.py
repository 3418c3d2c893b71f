"""A change control written 10 May saying "Draft: Cora Ng owns the billing gateway." (or
"Proposal: ...", "Cora Ng owns the billing gateway (proposed).", "It seems Cora Ng owns
...", "Word is Cora Ng owns ...") named Cora as the owner, citing it, whether the rules
or a model read it: a draft or a proposal is not a statement, and "it seems" and "word
is" hedge as "apparently" does. The directory's Kofi answers on; "Update: ..." and "...,
as proposed in CC-6" still name Cora."""

from __future__ import annotations

from pathlib import Path

import pytest

from companybrain.config import Settings
from companybrain.graph.connection import Store
from tests.ask.handover import owner
from tests.ask.hedges import PROPOSERS, answers, read_by
from tests.support.model_server import ScriptedModelServer


@pytest.mark.parametrize("proposer", PROPOSERS)
@pytest.mark.parametrize(
    ("text", "named"),
    [
        ("Draft: Cora Ng owns the billing gateway.", "kofi"),
        ("Proposal: Cora Ng owns the billing gateway.", "kofi"),
        ("Cora Ng owns the billing gateway (proposed).", "kofi"),
        ("It seems Cora Ng owns the billing gateway.", "kofi"),
        ("Word is Cora Ng owns the billing gateway.", "kofi"),
        ("Update: Cora Ng owns the billing gateway.", "cora"),
        ("Cora Ng owns the billing gateway, as proposed in CC-6.", "cora"),
    ],
)
def test_a_proposed_or_hearsay_owner_is_not_named(
    store: Store,
    settings: Settings,
    model_server: ScriptedModelServer,
    tmp_path: Path,
    proposer: str,
    text: str,
    named: str,
) -> None:
    asking = read_by(proposer, store, settings, model_server, tmp_path, text)
    for answer in answers(store, asking):
        assert owner(answer) == named
