"""The extraction eval: the rules proposer on the bundled demo corpus (100% recall, no false
fact), the scoring itself, and `brain eval extraction` with --json and --strict."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from companybrain.errors import InputError
from companybrain.evals.extraction import Expected, evaluate, load_expected, run
from companybrain.model.facts import OwnershipFact, Proposal
from companybrain.model.records import Org, Record
from companybrain.proposers.rules import propose
from tests.conftest import REPO_ROOT
from tests.support.extraction import org, record

DEMO = REPO_ROOT / "demo" / "corpus"


def test_rules_reach_full_recall_with_no_false_fact_on_the_demo_corpus(settings) -> None:  # type: ignore[no-untyped-def]
    report = run(DEMO, settings)
    assert report.records >= 100
    assert report.problems == []
    for score in (report.ownership, report.decisions):
        assert score.missed == [] and score.false == []
        assert score.recall == 1.0 and score.precision == 1.0
    assert report.ownership.expected >= 30 and report.decisions.expected >= 10
    # Everything expected.json says must not be kept was held back.
    assert report.expected_rejections and not any(e["kept"] for e in report.expected_rejections)
    refused = {(r["record"], r["check"]) for r in report.rejected}
    assert ("CC-1047", "previous_owner") in refused
    assert ("msg-006", "decision_not_from_adr") in refused
    assert report.passed


ORG = org()
RECORDS = [
    record("r1", "Aria owns the billing gateway. Ben used to own the search index."),
    record("r2", "Dev owns the search index."),
    record("ADR-1", "## Decision\n\nWe will use an outbox.", "adr", title="Outbox"),
]


def test_scores_count_missed_and_false_facts() -> None:
    expected = Expected(
        ownership=frozenset({("r1", "billing-gateway", "aria"), ("r3", "ledger", "omar")}),
        decisions=frozenset(),
        rejected=({"record": "r1", "person": "ben", "service": "search-index", "why": "old"},),
    )
    report = evaluate(RECORDS, ORG, expected, propose)
    own = report.ownership
    assert (own.expected, own.kept, own.correct) == (2, 2, 1)
    assert own.missed == [("r3", "ledger", "omar")]
    assert own.false == [("r2", "search-index", "dev")]
    assert (own.precision, own.recall) == (0.5, 0.5)
    assert report.decisions.false == [("ADR-1",)] and report.decisions.precision == 0.0
    assert report.expected_rejections == [
        {
            "record": "r1",
            "person": "ben",
            "service": "search-index",
            "why": "old",
            "kept": False,
            "refused_by": "previous_owner",
        }
    ]
    assert not report.passed


def test_a_kept_fact_that_must_not_be_kept_is_flagged() -> None:
    def liar(rec: Record, o: Org) -> Proposal:
        quote = "Ben used to own the search index"
        return Proposal(rec.id, (OwnershipFact(rec.id, "search-index", "ben", quote),))

    expected = Expected(frozenset(), frozenset(), ({"record": "r1", "person": "ben"},))
    report = evaluate(RECORDS[:1], ORG, expected, liar)
    # The verifier refuses it, so the eval shows it held, refused by its check.
    assert report.expected_rejections[0]["kept"] is False
    assert report.expected_rejections[0]["refused_by"] == "previous_owner"
    assert [r["check"] for r in report.rejected] == ["previous_owner"]


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("{", "not readable JSON"),
        ("[]", "must be a JSON object"),
        ('{"ownership": {}}', "'ownership' must be a list"),
        ('{"ownership": [{"record": "r1", "owner": "aria"}]}', "ownership[0].service"),
        ('{"decisions": [{"title": "x"}]}', "decisions[0].record"),
        ('{"rejected": ["x"]}', "'rejected' must be a list of objects"),
        # read as "expect nothing": every kept fact false, "recall 100.0% (0/0)"
        ('{"ownrship": [{"record": "r1"}]}', "unknown key(s) ['ownrship']"),
        ('{"now": "2026-12-28T09:00:00Z", "owners": []}', "the owners file `brain gen-corpus`"),
    ],
)
def test_a_bad_expected_file_is_one_clear_error(tmp_path: Path, content: str, message: str) -> None:
    path = tmp_path / "expected.json"
    path.write_text(content)
    with pytest.raises(InputError) as err:
        load_expected(path)
    assert str(path) in str(err.value) and message in str(err.value)


def _tiny_corpus(tmp_path: Path, expected: dict[str, Any]) -> Path:
    corpus = tmp_path / "tiny"
    (corpus / "records").mkdir(parents=True)
    (corpus / "org.yaml").write_text(
        "company: Tiny\npeople:\n  - id: aria\n    name: Aria Novak\n"
        "services:\n  - id: billing-gateway\n    name: Billing Gateway\n"
    )
    (corpus / "records" / "m1.md").write_text(
        "---\nid: m1\nkind: chat\nat: 2026-10-14T16:00:00Z\n---\nAria owns the billing gateway.\n"
    )
    (corpus / "expected.json").write_text(json.dumps(expected))
    return corpus


def test_cli_prints_scores_and_refusals(run_cli) -> None:  # type: ignore[no-untyped-def]
    result = run_cli("eval", "extraction", str(DEMO))
    assert result.exit_code == 0, result.output
    assert "ownership  precision  100.0%" in result.output
    assert "recall  100.0%" in result.output
    assert "CC-1047 previous_owner" in result.output
    assert "msg-006 decision_not_from_adr" in result.output


def test_cli_json_and_strict(run_cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    good = {"ownership": [{"record": "m1", "service": "billing-gateway", "owner": "aria"}]}
    corpus = _tiny_corpus(tmp_path, good)
    result = run_cli("eval", "extraction", str(corpus), "--json", "--strict")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["passed"] is True
    assert data["ownership"]["recall"] == 1.0 and data["ownership"]["kept"] == 1

    missing = {"ownership": [*good["ownership"], {"record": "m1", "service": "x", "owner": "y"}]}
    (corpus / "expected.json").write_text(json.dumps(missing))
    assert run_cli("eval", "extraction", str(corpus)).exit_code == 0  # reports, does not fail
    result = run_cli("eval", "extraction", str(corpus), "--strict")
    assert result.exit_code == 1
    assert "missed m1 · x · y" in result.output and "recall   50.0%" in result.output


def test_cli_model_proposer_without_cache_or_server_is_one_clear_error(
    run_cli, tmp_path: Path
) -> None:  # type: ignore[no-untyped-def]
    corpus = _tiny_corpus(tmp_path, {})
    result = run_cli(
        "eval", "extraction", str(corpus), "--proposer", "model", env={"BRAIN_HOME": str(tmp_path)}
    )
    assert result.exit_code != 0
    assert "m1: no cached proposal" in str(result.exception)


def test_cli_model_proposer_then_offline_replay(run_cli, model_server, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    from tests.support.model_server import tool_call

    good = {"ownership": [{"record": "m1", "service": "billing-gateway", "owner": "aria"}]}
    corpus = _tiny_corpus(tmp_path, good)
    model_server.play(
        tool_call(
            "record_facts",
            {
                "ownership": [
                    {
                        "service": "billing-gateway",
                        "owner": "aria",
                        "quote": "Aria owns the billing gateway.",
                    },
                    {
                        "service": "billing-gateway",
                        "owner": "aria",
                        "quote": "Aria owns everything.",
                    },
                ],
                "decisions": [],
            },
        )
    )
    env = {"BRAIN_HOME": str(tmp_path), "BRAIN_MODEL": "scripted"}
    online = {**env, "BRAIN_MODEL_BASE_URL": model_server.base_url, "BRAIN_PROPOSER": "model"}
    first = run_cli("eval", "extraction", str(corpus), "--json", "--strict", env=online)
    assert first.exit_code == 0, first.output
    data = json.loads(first.output)
    assert data["proposer"] == "model" and data["ownership"]["recall"] == 1.0
    assert [r["check"] for r in data["rejected"]] == ["quote_not_in_record"]
    # No server now: the cached reply is replayed, and the server is not called again.
    again = run_cli("eval", "extraction", str(corpus), "--json", "--proposer", "model", env=env)
    assert again.exit_code == 0, again.output
    assert json.loads(again.output)["ownership"] == data["ownership"]
    assert len(model_server.requests) == 1
