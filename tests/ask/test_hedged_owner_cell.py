"""A change control written 10 May holding a table row "| Billing Gateway | Cora Ng
(unconfirmed) |" (or "(pending approval)", "(rumour)", "(proposed)"), or the line "Billing
gateway owner: Cora Ng (rumour)", named Cora as the owner, citing it: an owner cell or
`Owner:` value was refused for "TBC" or "?", not for the other hedges a sentence is
refused for. Whoever reads it, the directory's Kofi answers on."""

from __future__ import annotations

from pathlib import Path

import pytest

from companybrain.config import Settings
from companybrain.graph.connection import Store
from tests.ask.handover import owner
from tests.ask.hedges import PROPOSERS, answered_by, answers, read_by
from tests.support.model_server import ScriptedModelServer

HEADER = "| Service | Owner |\n| --- | --- |\n"


@pytest.mark.parametrize("proposer", PROPOSERS)
@pytest.mark.parametrize(
    "line",
    [
        "| Billing Gateway | Cora Ng (unconfirmed) |",
        "| Billing Gateway | Cora Ng (pending approval) |",
        "| Billing Gateway | Cora Ng (rumour) |",
        "| Billing Gateway | Cora Ng (proposed) |",
        "Billing gateway owner: Cora Ng (rumour)",
        "Billing gateway owner: Cora Ng (unconfirmed)",
    ],
)
def test_a_hedged_owner_cell_names_no_owner(
    store: Store,
    settings: Settings,
    model_server: ScriptedModelServer,
    tmp_path: Path,
    proposer: str,
    line: str,
) -> None:
    text = f"{HEADER}{line}\n" if line.startswith("|") else f"{line}\n"
    asking = read_by(proposer, store, settings, model_server, tmp_path, text, quote=line)
    answered_by(store, asking, "kofi", "dir-1")


@pytest.mark.parametrize("proposer", PROPOSERS)
def test_an_owner_cell_with_a_note_still_names_the_owner(
    store: Store,
    settings: Settings,
    model_server: ScriptedModelServer,
    tmp_path: Path,
    proposer: str,
) -> None:
    line = "| Billing Gateway | Cora Ng (since May) |"
    asking = read_by(proposer, store, settings, model_server, tmp_path, HEADER + line, quote=line)
    assert owner(answers(store, asking)[0]) == "cora"
