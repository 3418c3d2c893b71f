"""A change control written 10 May saying "Cora Ng owns the billing gateway dashboards."
(or "... the billing gateway's dashboards") named Cora as the owner of the billing gateway
when a model read it, citing it, where the rules read the owner of a part and named no
one; and "Cora Ng owns the billing gateway staging cluster." named her from both. A part
of a service (its dashboards, its runbook, a cluster or an environment of it) is not the
service: the directory's Kofi answers on, whoever read the sentence. "The billing
gateway's owner" and "review contact" still name the owner."""

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
        "Cora Ng owns the billing gateway staging cluster.",
        "Cora Ng owns the billing gateway sandbox environment.",
        "Cora Ng owns the billing gateway dashboards.",
        "Cora Ng owns the billing gateway's dashboards.",
        "The billing gateway runbook is owned by Cora Ng.",
    ],
)
def test_an_owner_of_a_part_is_not_named(
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
        "Cora Ng owns the staging billing gateway.",
        "Cora Ng owns the EU billing gateway.",
    ],
)
def test_an_owner_of_an_environment_named_before_the_service_is_not_named(
    store: Store,
    settings: Settings,
    model_server: ScriptedModelServer,
    tmp_path: Path,
    proposer: str,
    text: str,
) -> None:
    """The rules read no owner of "the staging billing gateway"; a model named Cora."""
    asking = read_by(proposer, store, settings, model_server, tmp_path, text)
    answered_by(store, asking, "kofi", "dir-1")


@pytest.mark.parametrize("proposer", PROPOSERS)
@pytest.mark.parametrize(
    "text",
    [
        "The billing gateway's owner is Cora Ng.",
        "The billing gateway review contact is Cora Ng.",
        "Cora Ng is the billing gateway's new owner.",
    ],
)
def test_the_service_s_owner_is_named(
    store: Store,
    settings: Settings,
    model_server: ScriptedModelServer,
    tmp_path: Path,
    proposer: str,
    text: str,
) -> None:
    asking = read_by(proposer, store, settings, model_server, tmp_path, text)
    answered_by(store, asking, "cora", "CC-7")
