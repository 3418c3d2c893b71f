"""The rules proposer skips cutting a record that holds no ownership word and no decision
phrase, and naming the people and services of a sentence that holds no ownership word
(`rules.may_state_ownership`, `rules.may_decide_in_chat`). The skips must never lose a
proposal: a sentence any ownership pattern matches always passes the filter."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companybrain.ingest.corpus import open_corpus
from companybrain.model.facts import Proposal
from companybrain.policy.mentions import template
from companybrain.proposers import rules
from companybrain.synth.write import generate
from tests.support.extraction import org

ORG = org()
DEMO = Path(__file__).resolve().parents[2] / "demo" / "corpus"

# Pattern words, names, fillers, and spellings that fold into them (full-width letters,
# underscores between words, upper case).
_WORDS = [
    "owns", "owned", "owner", "ownership", "own", "took", "taken", "takes", "over", "by",
    "to", "from", "the", "is", "was", "now", "goes", "go", "went", "will", "moves", "passed",
    "handed", "handing", "handover", "gave", "transfers", "reassigned", "point", "of",
    "contact", "for", "poc", "as", "Aria", "Ben Okafor", "billing gateway", "search-idx",
    "Ledger Service", "and", "who", "former", "previous", "used", "no", "longer", "ago",
    "good", "ｏｗｎｓ", "GOES", "taken_over", "Ben_goes", ",", ";", ".", "—",
]  # fmt: skip


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(_WORDS), min_size=3, max_size=12))
def test_a_sentence_a_pattern_matches_always_passes_the_filter(words: list[str]) -> None:
    sentence = " ".join(words)
    if rules.sentence_owners(template(sentence, ORG)):
        assert rules.may_state_ownership(sentence), sentence


@pytest.mark.parametrize(
    "sentence",
    [
        "Aria owns the billing gateway.",
        "The billing gateway goes to Ben.",
        "The billing gateway went from Aria to Ben.",
        "Ben has taken over the billing gateway.",
        "Dev is the POC for search-idx.",
        "handover of the ledger service to Omar",
        "We reassigned the ledger service to Omar.",
    ],
)
def test_ownership_sentences_pass(sentence: str) -> None:
    assert rules.may_state_ownership(sentence)
    assert rules.sentence_owners(template(sentence, ORG))


def test_a_chat_decision_is_found_across_quoted_lines() -> None:
    assert rules.may_decide_in_chat("> So we\n> decided to drop Kafka.")
    assert rules.may_decide_in_chat("Let's decide on Friday")
    assert not rules.may_decide_in_chat("We will decide later.")


def test_sentences_without_ownership_words_are_skipped() -> None:
    assert not rules.may_state_ownership("Deploy finished? No: it failed at 10:02.")
    assert not rules.may_state_ownership("Aria reviewed the billing gateway change on Monday.")


def _proposals(path: Path) -> list[Proposal]:
    stream = open_corpus(path)
    assert stream.org is not None
    return [rules.propose(r, stream.org) for r in stream.records()]


def test_the_filter_changes_no_proposal_on_the_demo_and_a_generated_company(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    generate(tmp_path / "company", people=100, records=600, seed=7)
    for corpus in (DEMO, tmp_path / "company"):
        filtered = _proposals(corpus)
        with monkeypatch.context() as m:
            m.setattr(rules, "may_state_ownership", lambda text: True)
            m.setattr(rules, "may_decide_in_chat", lambda text: True)
            unfiltered = _proposals(corpus)
        assert filtered == unfiltered
        assert sum(len(p.ownership) for p in filtered) > 10
