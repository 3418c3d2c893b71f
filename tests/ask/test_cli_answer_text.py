"""`brain ask` without --json: the answer's fields as lines a person reads, not Python
reprs, and nothing of the result left out."""

from __future__ import annotations

import os

from click.testing import CliRunner

from companybrain.config import Settings
from companybrain.graph.connection import Store
from companybrain.surfaces.cli.main import cli
from tests.ask.conftest import NOW


def _ask(settings: Settings, question: str) -> list[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("BRAIN_", "OPENAI_"))}
    env |= {"BRAIN_HOME": str(settings.home), "BRAIN_GRAPH": settings.graph}
    result = CliRunner().invoke(cli, ["ask", "--now", NOW, question], env=env)
    assert result.exit_code == 0, result.output
    return [line.strip() for line in result.output.splitlines()]


def test_a_person_is_shown_with_team_and_email(demo: Store, demo_settings: Settings) -> None:
    lines = _ask(demo_settings, "Who is Kofi?")
    answer = lines.index("Answer")
    assert lines[answer + 1 : answer + 4] == [
        "person: Kofi Mensah (kofi)",
        "team: Payments (payments)",
        "email: kofi.mensah@tidewell.example",
    ]


def test_a_team_is_shown_with_its_lead_and_members(demo: Store, demo_settings: Settings) -> None:
    lines = _ask(demo_settings, "Who is on the payments team?")
    assert "lead: Sunita Rao (sunita)" in lines
    members = next(line for line in lines if line.startswith("members: "))
    assert "Kofi Mensah (kofi)" in members and "Sunita Rao (sunita)" in members


def test_an_experts_evidence_is_worded_not_a_python_dict(
    demo: Store, demo_settings: Settings
) -> None:
    lines = _ask(demo_settings, "Who knows the search index?")
    nadia = next(line for line in lines if line.startswith("Nadia Petrov (nadia): score"))
    assert "resolved 3 ticket(s)" in nadia and "4 chat message(s)" in nadia
    assert "{" not in nadia
