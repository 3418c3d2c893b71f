"""Proposers read one record and say what facts it states, each with its quote. Nothing they
say is trusted: the verifier (policy/verify.py) decides what reaches the graph."""

from __future__ import annotations

from collections.abc import Callable

from companybrain.config import Settings
from companybrain.model.facts import Proposal
from companybrain.model.records import Org, Record

Proposer = Callable[[Record, Org], Proposal]


def get_proposer(settings: Settings) -> Proposer:
    """`rules` (offline, deterministic) unless `settings.proposer` is `model`."""
    if settings.proposer == "model":
        from companybrain.proposers.model import ModelProposer

        return ModelProposer(settings)
    from companybrain.proposers.rules import propose

    return propose
