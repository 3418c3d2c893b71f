"""A change control written 10 May saying "Cora Ng temporarily owns the billing gateway
while Kofi Mensah is away." named Cora as the owner, citing it, when a model read it,
while the rules read nothing and the directory's Kofi answered, citing the directory
("Cora Ng is the temporary owner ...", "... is temporarily owned by Cora Ng" alike; "Cora
Ng has temporarily taken over ..." left it unclear). A temporary owner is who owns it
now, as an acting or interim one is (test_acting_and_co_owners.py): both name Cora."""

from __future__ import annotations

from pathlib import Path

import pytest

from companybrain.config import Settings
from companybrain.graph.connection import Store
from tests.ask.hedges import PROPOSERS, answered_by, read_by
from tests.support.model_server import ScriptedModelServer


@pytest.mark.parametrize("proposer", PROPOSERS)
@pytest.mark.parametrize(
    "text",
    [
        "Cora Ng temporarily owns the billing gateway while Kofi Mensah is away.",
        "While Kofi Mensah is on leave, Cora Ng temporarily owns the billing gateway.",
        "Cora Ng is the temporary owner of the billing gateway.",
        "The billing gateway is temporarily owned by Cora Ng.",
        "Cora Ng has temporarily taken over the billing gateway.",
    ],
)
def test_a_temporary_owner_is_the_owner(
    store: Store,
    settings: Settings,
    model_server: ScriptedModelServer,
    tmp_path: Path,
    proposer: str,
    text: str,
) -> None:
    asking = read_by(proposer, store, settings, model_server, tmp_path, text)
    answered_by(store, asking, "cora", "CC-7")


@pytest.mark.parametrize("proposer", PROPOSERS)
@pytest.mark.parametrize(
    "text",
    [
        "Cora Ng provisionally owns the billing gateway.",
        "Cora Ng is the provisional owner of the billing gateway.",
        "Cora Ng nominally owns the billing gateway.",
        "The billing gateway is nominally owned by Cora Ng.",
        "Cora Ng is the nominal owner of the billing gateway.",
    ],
)
def test_a_provisional_or_nominal_owner_is_the_owner(
    store: Store,
    settings: Settings,
    model_server: ScriptedModelServer,
    tmp_path: Path,
    proposer: str,
    text: str,
) -> None:
    """A model named Cora, the rules no one. A provisional owner is an interim one; a
    nominal owner is the one on record, as "On paper, Cora Ng owns ..." is."""
    asking = read_by(proposer, store, settings, model_server, tmp_path, text)
    answered_by(store, asking, "cora", "CC-7")
