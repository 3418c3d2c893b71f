"""A change control written 10 May holding the row "| Billing Gateway (staging) | Cora Ng
|" (or "| EU Billing Gateway | Cora Ng |") named Cora as the owner of the whole billing
gateway, citing it, whether the rules or a model read it: a service cell was read as
the service's name whatever else it held in brackets. An environment or a region of the
service is less than it: the directory's Kofi answers on. An alias in brackets ("Billing
Gateway (billing-gw)") is still the service."""

from __future__ import annotations

from pathlib import Path

import pytest

from companybrain.config import Settings
from companybrain.graph.connection import Store
from tests.ask.handover import owner
from tests.ask.hedges import PROPOSERS, answers, read_by
from tests.support.model_server import ScriptedModelServer

HEADER = "| Service | Owner |\n| --- | --- |\n"


@pytest.mark.parametrize("proposer", PROPOSERS)
@pytest.mark.parametrize(
    ("line", "named"),
    [
        ("| Billing Gateway (staging) | Cora Ng |", "kofi"),
        ("| Billing Gateway (EU region) | Cora Ng |", "kofi"),
        ("| EU Billing Gateway | Cora Ng |", "kofi"),
        ("| Billing Gateway (billing-gw) | Cora Ng |", "cora"),
    ],
)
def test_an_environment_of_the_service_in_its_cell_is_not_the_service(
    store: Store,
    settings: Settings,
    model_server: ScriptedModelServer,
    tmp_path: Path,
    proposer: str,
    line: str,
    named: str,
) -> None:
    asking = read_by(proposer, store, settings, model_server, tmp_path, HEADER + line, quote=line)
    for answer in answers(store, asking):
        assert owner(answer) == named
