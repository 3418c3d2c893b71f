"""A change control written 10 May saying "In the test environment, Cora Ng owns the
billing gateway." (or "... in staging", "... for the EU region", "..., but only in
staging") named Cora as the owner of the whole service from that day, citing it, whether
the rules or a model read it. An owner of one environment or region owns less than the
service: no owner is named, and the directory's Kofi answers on. "In production" and "in
all environments" are the service itself. A clause naming no one hedges only by what it
starts with: "..., though the budget is pending approval" or "..., but for dev questions
ask the team" leave Cora the owner."""

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
        "In the test environment, Cora Ng owns the billing gateway.",
        "In the sandbox, Cora Ng owns the billing gateway.",
        "Cora Ng owns the billing gateway in staging.",
        "Cora Ng owns the billing gateway for the EU region.",
        "Cora Ng owns the billing gateway in the EU.",
        "Cora Ng owns the billing gateway, but only in staging.",
        "Cora Ng owns the billing gateway, but the move is still unconfirmed.",
    ],
)
def test_an_owner_of_less_than_the_service_is_not_named(
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
        "Cora Ng owns the billing gateway in production.",
        "Cora Ng owns the billing gateway in all environments.",
        "Cora Ng owns the billing gateway, though the budget is pending approval.",
        "Cora Ng owns the billing gateway, but for dev questions ask the team.",
        "Cora Ng owns the billing gateway, and Kofi Mensah runs it in staging.",
    ],
)
def test_an_owner_of_the_whole_service_is_named(
    store: Store,
    settings: Settings,
    model_server: ScriptedModelServer,
    tmp_path: Path,
    proposer: str,
    text: str,
) -> None:
    asking = read_by(proposer, store, settings, model_server, tmp_path, text)
    answered_by(store, asking, "cora", "CC-7")
