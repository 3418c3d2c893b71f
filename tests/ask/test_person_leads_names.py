"""A person's profile lists the teams they lead by name, as it gives their own team: "Nadia
Petrov is on the Search & Discovery team and leads search." showed the team's id."""

from __future__ import annotations

from companybrain.ask.engine import ask
from companybrain.config import Settings
from companybrain.graph.connection import Store
from tests.ask.conftest import NOW


def test_the_teams_a_person_leads_are_named(demo: Store, demo_settings: Settings) -> None:
    a = ask(demo, demo_settings, "Who is Nadia Petrov?", now=NOW).to_dict()
    assert a["result"]["person"]["leads"] == [{"id": "search", "name": "Search & Discovery"}]
    assert a["explanation"] == (
        "Nadia Petrov is on the Search & Discovery team and leads Search & Discovery."
    )
    member = ask(demo, demo_settings, "Who is Felix Brandt?", now=NOW).to_dict()
    assert member["result"]["person"]["leads"] == [], member["result"]
