"""`brain ask` on the demo corpus: human output shows the answer, its quotes and sources,
outranked claims marked as outranked, and a refusal with its reason; --json prints the
envelope; bad flags are one clear error."""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

import pytest
from rich.console import Console

from companybrain.errors import InputError
from companybrain.model.answer import Answer, RefusalCode
from companybrain.surfaces.cli.ask import REPO_TOOLS, show
from tests.ask.conftest import DEMO, NOW
from tests.conftest import REPO_ROOT


def test_human_output_shows_answer_sources_and_outranked(run_cli: Any) -> None:
    assert run_cli("ingest", str(DEMO)).exit_code == 0
    result = run_cli("ask", "--now", NOW, "Who owns the billing gateway?")
    assert result.exit_code == 0, result.output
    out = result.output
    assert "owner: Kofi Mensah (kofi)" in out
    assert "CC-1047" in out and "transfers from Ines Halvorsen to Kofi Mensah" in out
    assert "outranked msg-038" in out and "Ines still owns billing gateway" in out
    assert "lower authority" in out

    refused = run_cli("ask", "--now", NOW, "Who owns the Payments API?")
    assert refused.exit_code == 0
    assert "Refused (CONFLICT)" in refused.output
    assert "CC-1019" in refused.output and "CC-1020" in refused.output

    sign_off = run_cli("ask", "--now", NOW, "Who should sign off the Halyard release?")
    assert "billing-gateway: Kofi Mensah (kofi)" in sign_off.output
    assert "approval authority: not recorded" in sign_off.output
    assert "outranked msg-038" in sign_off.output
    assert "approved" not in sign_off.output.lower()

    vague = run_cli("ask", "--now", NOW, "Who owned the billing gateway 3 weeks ago?")
    assert "Refused (VAGUE_DATE)" in vague.output and "3 weeks ago" in vague.output


def test_json_flags_and_errors(run_cli: Any) -> None:
    assert run_cli("ingest", str(DEMO)).exit_code == 0
    result = run_cli(
        "ask", "--now", NOW, "--json", "--as", "rafael", "Who owns the audit log pipeline?"
    )
    answer = json.loads(result.output)
    assert set(answer) == {
        "question", "tool", "subject", "as_of", "status", "refusal", "result", "citations",
        "outranked", "explanation", "explanation_by",
    }  # fmt: skip
    assert answer["result"]["owner"]["id"] == "viktor"
    dated = json.loads(
        run_cli("ask", "--now", NOW, "--as-of", "2026-10-13", "--json", "Who owns BGW?").output
    )
    assert dated["result"]["owner"]["id"] == "ines" and dated["as_of"].startswith("2026-10-13")

    for args, field in (
        (["--as", "nobody"], "--as"),
        (["--now", "2026-10-20"], "--now"),
        (["--now", "2026-10-20T12:00:00+02:60"], "--now"),  # not read as +03:00
        (["--as-of", "last week"], "--as-of"),
    ):
        bad = run_cli("ask", *args, "Who owns the billing gateway?")
        assert bad.exit_code != 0
        assert isinstance(bad.exception, InputError) and field in str(bad.exception)
    # The value came from the option, not from the question's text.
    bad = run_cli("ask", "--as-of", "now", "Who owns the billing gateway?")
    assert str(bad.exception).startswith('--as-of: "now": it is not a day or an instant')
    assert "the question says" not in str(bad.exception)


def test_the_command_prints_one_line_errors(cli_env: dict[str, str]) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "companybrain", "ask", "--now", "yesterday", "Who owns BGW?"],
        cwd=REPO_ROOT, env=cli_env, capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert proc.returncode == 1
    assert proc.stderr.strip().startswith("error: --now") and len(proc.stderr.splitlines()) == 1


def test_every_question_type_prints_in_text_mode(run_cli: Any) -> None:
    """`who_knows` is both a records tool and a repository tool: the records one printed
    through the repository's lines and failed on its missing commits."""
    assert run_cli("ingest", str(DEMO)).exit_code == 0
    for question, expected in (
        ("Who knows about the search index?", "Nadia Petrov (nadia): score"),
        ("Who knows about 4149?", "Refused (NOT_IN_GRAPH)"),
        ("Why did we stop publishing ledger events through Kafka?", "chain, newest first"),
        ("Tell me about Kofi.", "Answer"),
        ("Find records about the ledger replay", "Answer"),
    ):
        result = run_cli("ask", "--now", NOW, question)
        assert result.exit_code == 0, (question, result.output, result.exception)
        assert expected in result.output, (question, result.output)


@pytest.mark.parametrize("tool", sorted(REPO_TOOLS))
def test_a_refused_repository_answer_prints_its_reason(tool: str) -> None:
    answer = Answer.refused("q", RefusalCode.NOT_IN_GRAPH, "nothing recorded", tool=tool)
    answer.result = {}  # what a tool's refusal may carry
    console = Console(record=True, width=100)
    show(answer, console)
    assert "Refused (NOT_IN_GRAPH): nothing recorded" in console.export_text()


def test_a_clock_off_the_calendar_is_one_clear_error(run_cli: Any) -> None:
    """Near the ends of the calendar converting the clock, or the day after it, overflowed."""
    assert run_cli("ingest", str(DEMO)).exit_code == 0
    for args in (
        ("ask", "--now", "0001-01-01T00:00:00+01:00", "Who owns the billing gateway?"),
        ("ask", "--now", "9999-12-31T23:59:59-01:00", "Who owns the billing gateway?"),
        ("ask", "--now", "9999-12-31T12:00:00Z", "Who owns the billing gateway tomorrow?"),
        ("add", "hello", "--as", "kofi", "--now", "0001-01-01T00:00:00+01:00"),
        ("add", "hello", "--as", "kofi", "--now", "9999-12-31T23:59:59-01:00"),
    ):
        bad = run_cli(*args)
        assert isinstance(bad.exception, InputError), (args, bad.exception)
        assert str(bad.exception).startswith("--now:") and "outside the years" in str(bad.exception)
    tomorrow = run_cli("ask", "--now", "9998-12-31T12:00:00Z", "Who owns BGW tomorrow?")
    assert tomorrow.exit_code == 0 and "Refused (VAGUE_DATE)" in tomorrow.output


def test_with_json_an_error_is_json_on_standard_output_too(cli_env: dict[str, str]) -> None:
    """A script reading --json output got nothing there when the input was refused."""
    for args, starts in (
        (["ask", "--json", "--now", "yesterday", "Who owns BGW?"], "--now"),
        (["ask", "--json", "--nope", "Who owns BGW?"], "No such option"),
    ):
        proc = subprocess.run(
            [sys.executable, "-m", "companybrain", *args],
            cwd=REPO_ROOT, env=cli_env, capture_output=True, text=True, timeout=60,
        )  # fmt: skip
        assert proc.returncode != 0
        assert json.loads(proc.stdout)["error"].startswith(starts), proc.stdout
        assert proc.stderr.strip(), "the line for people stays on standard error"
