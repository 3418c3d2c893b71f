"""A change control written 10 May saying "Rumour: Cora Ng owns the billing gateway." (or
"Cora Ng owns the billing gateway (not confirmed).", "..., pending approval.",
"Reportedly, Cora Ng owns ...") named Cora as the owner from that day, citing it, whether
the rules or a model read it: only "Rumour has it ..." and "Cora reportedly owns ..."
were read as not saying who owns it. A sentence that hedges what it says, in the clause
naming the owner or in one naming no one, names no owner: the directory's Kofi answers on."""

from __future__ import annotations

from pathlib import Path

import pytest

from companybrain.config import Settings
from companybrain.graph.connection import Store
from companybrain.model.facts import OwnershipFact, Proposal
from companybrain.policy.verify import verify
from tests.ask.hedges import PROPOSERS, answered_by, read_by
from tests.support.extraction import org, record
from tests.support.model_server import ScriptedModelServer


@pytest.mark.parametrize("proposer", PROPOSERS)
@pytest.mark.parametrize(
    "text",
    [
        "Rumour: Cora Ng owns the billing gateway.",
        "Unconfirmed rumour: Cora Ng owns the billing gateway.",
        "Cora Ng owns the billing gateway (not confirmed).",
        "Cora Ng owns the billing gateway (unconfirmed).",
        "Cora Ng owns the billing gateway (TBC).",
        "Cora Ng owns the billing gateway, to be confirmed.",
        "Cora Ng owns the billing gateway, pending approval.",
        "Cora Ng owns the billing gateway (just a rumour).",
        "Apparently, Cora Ng owns the billing gateway.",
        "Reportedly Cora Ng owns the billing gateway.",
        "Supposedly Cora Ng owns the billing gateway.",
        "The billing gateway is owned by Cora Ng, which is not yet signed off.",
    ],
)
def test_a_hedged_owner_is_not_named(
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
@pytest.mark.parametrize(
    "text",
    [
        "Cora Ng owns the billing gateway, and Kofi Mensah's move is pending review.",
        "For now, Cora Ng owns the billing gateway.",
        "On paper, Cora Ng owns the billing gateway.",
        "As far as I know, Cora Ng owns the billing gateway.",
    ],
)
def test_an_owner_beside_no_hedge_of_theirs_is_named(
    store: Store,
    settings: Settings,
    model_server: ScriptedModelServer,
    tmp_path: Path,
    proposer: str,
    text: str,
) -> None:
    """Another's clause may be unsettled; "for now" is who owns it now, "on paper" the
    formal owner, and "as far as I know" is stated however unsure, as "pretty sure" is."""
    asking = read_by(proposer, store, settings, model_server, tmp_path, text)
    answered_by(store, asking, "cora", "CC-7")


def test_the_refusal_names_the_hedge() -> None:
    rec = record("CC-9", "Ben Okafor owns the billing gateway (not confirmed).", "change_control")
    fact = OwnershipFact("CC-9", "billing-gateway", "ben", rec.text)
    verified = verify(Proposal("CC-9", ownership=(fact,)), rec, org())
    assert not verified.ownership
    [rejection] = verified.rejected
    assert rejection.check == "not_asserted" and "'not confirmed'" in rejection.reason
