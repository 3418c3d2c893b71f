"""Experiments in ordinary decision-log prose: each phrasing a log uses for something tried
and its outcome, and the plans, conditions and questions that must not become experiments.
Then the same through the rules reader: a `Status: disproven` entry, relations by entry
code, and figures written "N of M"."""

from __future__ import annotations

import pytest

from companybrain.board.reading import Context, Entry
from companybrain.board.refs import EntryRef, RefIndex
from companybrain.board.rules_worker import RulesReader
from companybrain.model.findings import Verdict
from companybrain.policy.experiments import field_verdict, sentence_verdict
from companybrain.policy.finding_checks import check_finding

DISPROVEN, REVERTED, CONFIRMED = Verdict.DISPROVEN, Verdict.REVERTED, Verdict.CONFIRMED


@pytest.mark.parametrize(
    ("sentence", "verdict"),
    [
        ("We tried the corrected rule on the 7B for a week; it did not help.", DISPROVEN),
        ("We tried a longer system prompt. It didn't help.", DISPROVEN),
        ("Disproven: the corrected text routed 0 of 20 prompts to memory.", DISPROVEN),
        ("The claim that it would help turned out to be false.", DISPROVEN),
        ("This turned out to be false once we measured it.", DISPROVEN),
        ("Bigger batches proved to be wrong for the exporter.", DISPROVEN),
        ('Adding the word "save" made no difference (2/20).', DISPROVEN),
        ("A warm cache had no measurable effect on p99.", DISPROVEN),
        ("Switching to gRPC did not move the needle.", DISPROVEN),
        ("Sharding by tenant was ruled out after the load test.", DISPROVEN),
        ("The correction made routing worse.", DISPROVEN),
        ("Still disproven on the 14B: 1/20.", DISPROVEN),
        ("We benchmarked the pool and it failed under load.", DISPROVEN),
        ("Tried streaming each row first: throughput fell to a third.", DISPROVEN),
        ("Splitting memory in two was reverted after two days.", REVERTED),
        ("The batch exporter change got rolled back.", REVERTED),
        ("We had to roll it back after a week.", REVERTED),
        ("We reverted it the same afternoon.", REVERTED),
        ("Keeping the old wording was confirmed by a second run: 16/20 again.", CONFIRMED),
        ("The pool size held up under twice the load.", CONFIRMED),
        ("Caching the embeddings was verified in a benchmark: 2.6x faster.", CONFIRMED),
        ("We tried it, it did not help, and it was reverted.", DISPROVEN),  # disproven wins
    ],
)
def test_a_reported_outcome_is_an_experiment(sentence: str, verdict: Verdict) -> None:
    assert sentence_verdict(sentence) is verdict


@pytest.mark.parametrize(
    "sentence",
    [
        "We have not tried a fine-tuned router yet.",
        "We haven't measured whether it works.",
        "If this fails we will revert.",
        "If the next model also fails this check we will revert the prompt.",
        "The change will be reverted if the error rate rises.",
        "Unless it is rolled back, the flag stays.",
        "It may make no difference.",
        "We plan to try a larger model; it might not help.",
        "Nobody has tested whether it made no difference.",
        "It has not been disproven.",
        "The migration was never rolled back.",
        "Was it ever confirmed?",
        "Did the corrected text help?",
        "The deploy failed twice last week.",  # an outcome, but of nothing tried
        # how things are done, not a trial
        "Model paths are tested against a server that fails a test when called too often.",
        "Each release is measured and fails the gate when p99 is over 300 ms.",
        "The router prompt's rule is wrong and stays wrong.",
        "Status: accepted",
        "We did fix it once and measured: 0 times out of 20 against 16 out of 20.",
    ],
)
def test_plans_conditions_and_questions_are_not_experiments(sentence: str) -> None:
    assert sentence_verdict(sentence) is None


def test_a_status_field_is_a_field_not_prose() -> None:
    assert sentence_verdict("Date: 2025-09-15 Status: disproven") is None
    assert field_verdict("Date: 2025-09-15 Status: disproven") is DISPROVEN
    assert field_verdict("**Verdict:** reverted") is REVERTED
    assert field_verdict("Status: accepted") is None


LOG = """## D1 Corrected router text would fix the 7B's routing

Date: 2025-09-15
Status: disproven

We tried the corrected rule for a week; it did not help. It sent 0 of 20 prompts to
memory. We have not tried a fine-tuned router yet.

## R2 Retire the 7B

This supersedes R1 and D1. It does not replace R9. It replaces "Keep the wrong line".
"""
REFS = RefIndex(
    [
        EntryRef("DECISIONS.md#R1 The wrong rule stays", "R1 The wrong rule stays", "DECISIONS.md"),
        EntryRef("DECISIONS.md#D1 Corrected", "D1 Corrected router text", "DECISIONS.md"),
        EntryRef("DECISIONS.md#R2 Retire the 7B", "R2 Retire the 7B", "DECISIONS.md"),
        EntryRef("docs/adr/0004-keep.md", "Keep the wrong line", "docs/adr/0004-keep.md"),
    ]
)
CTX = Context(refs=REFS, known_paths=set())


def _read(entry_id: str, start: int, end: int) -> list[tuple[str, str, str | None, str | None]]:
    entry = Entry(entry_id, "Decision", entry_id.split("#")[1], LOG, "DECISIONS.md")
    reading = RulesReader().read(entry, start, end, CTX, "rules-1")
    assert all(check_finding(f, LOG, set(), REFS.entries.keys()).kept for f in reading.findings)
    return [(f.kind.value, f.value, f.verdict, f.relation) for f in reading.findings]


def test_an_entry_whose_status_is_disproven_is_the_claim_it_tested() -> None:
    found = _read("DECISIONS.md#D1 Corrected", 0, LOG.index("## R2"))
    experiments = [(value, verdict) for kind, value, verdict, _ in found if kind == "experiment"]
    assert experiments == [
        ("D1 Corrected router text would fix the 7B's routing", DISPROVEN),
        ("We tried the corrected rule for a week; it did not help.", DISPROVEN),
    ]
    figures = [value for kind, value, _, _ in found if kind == "measurement"]
    assert figures == ["0 of 20"]


def test_relations_name_entries_by_their_code_in_lists_and_by_quoted_title() -> None:
    found = _read("DECISIONS.md#R2 Retire the 7B", LOG.index("## R2"), len(LOG))
    relations = [(relation, value) for kind, value, _, relation in found if kind == "relation"]
    # "does not replace R9" names no entry: a loose code is kept only when it resolves
    assert relations == [
        ("supersedes", "DECISIONS.md#R1 The wrong rule stays"),
        ("supersedes", "DECISIONS.md#D1 Corrected"),
        ("replaces", "docs/adr/0004-keep.md"),
    ]
    assert not any(kind == "experiment" for kind, _, _, _ in found)


def test_references_resolve_by_code_and_quoted_title_but_never_guess() -> None:
    assert REFS.resolve("R1", "x") == "DECISIONS.md#R1 The wrong rule stays"
    assert REFS.resolve("R1", "DECISIONS.md#R1 The wrong rule stays") is None  # itself
    assert REFS.resolve("r1", "x") is None  # codes are capitals
    assert REFS.resolve('"The wrong rule stays"', "x") == "DECISIONS.md#R1 The wrong rule stays"
    assert REFS.resolve("“keep the wrong-line”", "x") == "docs/adr/0004-keep.md"
    assert REFS.resolve("The wrong rule stays", "x") is None  # unquoted prose is no title
    twice = RefIndex([EntryRef("a.md#R1 One", "R1 One"), EntryRef("b.md#R1 Two", "R1 Two")])
    assert twice.resolve("R1", "x") is None
