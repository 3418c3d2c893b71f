"""Expertise questions that ask for other than who knows a subject best: the least, the
first, those on one team. Answered, the experts ranked most first, from every team, were
given as that."""

from __future__ import annotations

from typing import Any

from companybrain.ask.engine import ask
from companybrain.config import Settings
from companybrain.graph.connection import Store
from tests.ask.conftest import NOW


def q(store: Store, settings: Settings, question: str) -> dict[str, Any]:
    return ask(store, settings, question, now=NOW).to_dict()


def test_who_knows_the_least_first_or_on_one_team_is_refused(
    demo: Store, demo_settings: Settings
) -> None:
    """ "Who knows the ledger service the least?" answered Darius first, the one who knows
    it best, with his records; "Who on the platform team knows the ledger service?"
    answered Darius and Rafael of the payments team."""
    for question, said in (
        ("Who knows the ledger service the least?", '"least"'),
        ("Who is least familiar with the search index?", '"least"'),
        ("Who worked on the ledger service first?", '"first"'),
        ("Who knows the ledger service second best?", '"second"'),
        ("Who on the platform team knows the ledger service?", "those on the Platform team"),
        ("Who in security knows the secrets vault?", "those on the Security team"),
    ):
        a = q(demo, demo_settings, question)
        assert (a["status"], a["result"]) == ("refused", None), (question, a["result"])
        assert a["refusal"]["code"] == "OUT_OF_SCOPE" and a["citations"] == [], question
        assert f"asks for {said}:" in a["refusal"]["message"], a["refusal"]["message"]
    for question, expert in (
        ("Who knows the ledger service best?", "darius"),
        ("Who has the most experience with ledger-svc?", "darius"),
        ("Who knows the Payments API?", None),  # the service, not the Payments team
        ("Who knows about the data warehouse?", "elif"),
    ):
        a = q(demo, demo_settings, question)
        assert a["status"] == "answered", (question, a["refusal"])
        assert expert is None or a["result"]["experts"][0]["id"] == expert, question


def test_a_team_named_alone_is_refused_for_what_it_is(demo: Store, demo_settings: Settings) -> None:
    """With the check above, "Who knows the search indexer?" was refused as asking for
    "those on the Search & Discovery team" (whose id is "search"), and "Who knows the
    data?" for the Data team's: neither names a service beside a team."""
    near = q(demo, demo_settings, "Who knows the search indexer?")
    assert near["refusal"]["code"] == "NOT_IN_GRAPH", near["refusal"]
    assert "close to Search Index" in near["refusal"]["message"]
    team = q(demo, demo_settings, "Who knows the data?")
    assert "names Data but no service or project" in team["refusal"]["message"], team


def test_the_asker_saying_their_own_team_asks_for_no_team(
    demo: Store, demo_settings: Settings
) -> None:
    """ "Who knows the ledger service? I'm on the data team." was refused as asking for
    "those on the Data team": the asker says who they are, not whom they want."""
    for question in (
        "Who knows the ledger service? I'm on the data team.",
        "I am on the data team. Who knows the ledger service?",
        "Who knows the ledger service? My team is Data.",
    ):
        a = q(demo, demo_settings, question)
        assert a["status"] == "answered", (question, a["refusal"])
        assert a["result"]["experts"][0]["id"] == "darius", question
    wanted = q(
        demo, demo_settings, "I need someone on the platform team who knows the ledger service."
    )
    assert wanted["refusal"]["code"] == "OUT_OF_SCOPE", wanted
