"""The answer checks in plain code: citations must be things a tool returned, figures must
sit in the evidence of the item they cite, and "I don't know" abstains only when nothing
else asserts. The overclaiming stories of the second seed are each a test here."""

from __future__ import annotations

import pytest

from companybrain.model.answer import Answer, Citation, Outranked, RefusalCode
from companybrain.policy.answer_checks import (
    check_answer,
    evidence_from_answers,
    withheld,
)

ROUTER = "DECISIONS.md#The router prompt's wrong rule is load-bearing"


def _answers() -> list[Answer]:
    why = Answer(
        question="why",
        tool="why",
        subject={"id": "src/router/prompt.ts", "type": "File", "name": "src/router/prompt.ts"},
        as_of=None,
        status="answered",
        result={
            "decisions": [
                {
                    "id": ROUTER,
                    "title": "Wrong rule is load-bearing",
                    "status": "accepted",
                    "date": "2025-09-12",
                }
            ]
        },
        citations=[
            Citation(
                record=ROUTER,
                quote="with the corrected text the 7B routed remember this to memory 0/20 times;"
                " with the old text 16/20",
                lines=(812, 818),
            )
        ],
    )
    disproven = Answer(
        question="disproven",
        tool="disproven",
        subject=None,
        as_of=None,
        status="answered",
        result={
            "experiments": [
                {
                    "id": "exp-router-fix",
                    "decision": ROUTER,
                    "verdict": "disproven",
                    "quote": "Corrected router prompt text would fix the 7B's memory routing",
                }
            ]
        },
        citations=[
            Citation(
                record="exp-router-fix",
                quote="Corrected router prompt text would fix the 7B's memory routing",
            )
        ],
    )
    owner = Answer(
        question="Who owns the billing gateway?",
        tool="owner_of",
        subject={"id": "billing-gateway", "type": "Service", "name": "Billing Gateway"},
        as_of="2026-10-20T00:00:00Z",
        status="answered",
        result={"owner": {"id": "kofi", "name": "Kofi Mensah"}},
        citations=[
            Citation(
                record="CC-1047",
                kind="change_control",
                authority=90,
                effective_at="2026-10-14T11:00:00Z",
                quote="ownership of the billing gateway transfers from Ines to Kofi",
            )
        ],
        outranked=[
            Outranked(
                record="msg-038",
                kind="chat",
                authority=35,
                owner="ines",
                quote="Ines still owns billing, ping her",
                why="lower authority",
            )
        ],
    )
    return [why, disproven, owner]


@pytest.fixture
def evidence():  # type: ignore[no-untyped-def]
    return evidence_from_answers(_answers())


def test_an_answer_that_passes_every_check(evidence) -> None:  # type: ignore[no-untyped-def]
    text = (
        f"The wrong line stays on purpose: with the corrected text the 7B routed to memory "
        f"0/20 times, with the old text 16/20 [{ROUTER}]. Fixing the prompt was tried and "
        f"disproven [exp-router-fix]."
    )
    report = check_answer(text, evidence)
    assert report.passed and not report.abstained
    assert report.cited == (ROUTER, "exp-router-fix")
    assert report.summary() == "2 citations checked · 2 figures matched to evidence"


def test_an_id_no_tool_returned_fails(evidence) -> None:  # type: ignore[no-untyped-def]
    report = check_answer("Kofi owns the billing gateway [CC-1031].", evidence)
    assert not report.passed
    assert report.failures == ("cites [CC-1031], which no tool returned in this run",)


def test_a_numeric_footnote_is_not_a_citation(evidence) -> None:  # type: ignore[no-untyped-def]
    report = check_answer("Kofi owns the billing gateway [1].", evidence)
    assert not report.passed


def test_a_figure_next_to_the_wrong_citation_fails(evidence) -> None:  # type: ignore[no-untyped-def]
    # 0/20 is in the router decision's evidence, not in the experiment's
    report = check_answer(
        f"The corrected text scored 0/20 [exp-router-fix]; the rule stays [{ROUTER}].", evidence
    )
    assert not report.passed
    assert 'the figure "0/20" does not appear in the evidence of [exp-router-fix]' in (
        report.failures
    )


def test_the_nearest_citation_after_a_figure_is_the_one_it_rests_on(evidence) -> None:  # type: ignore[no-untyped-def]
    right = check_answer(f"[exp-router-fix] was disproven; it measured 0/20 [{ROUTER}].", evidence)
    wrong = check_answer(f"[{ROUTER}] stays; it measured 0/20 [exp-router-fix].", evidence)
    assert right.passed and right.figures_matched == 1
    assert not wrong.passed


def test_not_surprisingly_is_a_claim_not_a_figure_free_premise(evidence) -> None:  # type: ignore[no-untyped-def]
    report = check_answer("Not surprisingly, the corrected rule measured 0/20.", evidence)
    assert not report.passed
    assert 'the figure "0/20" is not next to any citation' in report.failures


def test_a_negation_is_not_an_abstention(evidence) -> None:  # type: ignore[no-untyped-def]
    report = check_answer("Ines does not own the billing gateway any more.", evidence)
    assert not report.passed and not report.abstained
    assert report.failures == ("answers without citing anything a tool returned (cite or abstain)",)


def test_i_dont_know_that_asserts_an_owner_fails(evidence) -> None:  # type: ignore[no-untyped-def]
    report = check_answer(
        "I don't know for certain, but Kofi Mensah owns the billing gateway.", evidence
    )
    assert not report.passed and not report.abstained
    assert report.failures == (
        "says it does not know, yet names someone from the evidence beside that",
    )


def test_i_dont_know_that_names_someone_fails(evidence) -> None:  # type: ignore[no-untyped-def]
    assert not check_answer("I don't know. Probably Kofi.", evidence).passed


def test_a_plain_abstention_passes(evidence) -> None:  # type: ignore[no-untyped-def]
    report = check_answer(
        "I don't know: the records do not say who owns the ledger service.", evidence
    )
    assert report.passed and report.abstained
    assert report.summary().endswith("abstained")


def test_dates_and_thousands_match_their_evidence(evidence) -> None:  # type: ignore[no-untyped-def]
    ok = check_answer("Kofi has owned it since 2026-10-14 [CC-1047].", evidence)
    assert ok.passed and ok.figures_matched == 1
    bad = check_answer("Kofi has owned it since 2026-10-15 [CC-1047].", evidence)
    assert not bad.passed


def test_ids_named_in_prose_are_not_figures(evidence) -> None:  # type: ignore[no-untyped-def]
    report = check_answer("Per CC-1047, Kofi owns it [CC-1047].", evidence)
    assert report.passed and report.figures_matched == 0


def test_a_citation_after_the_full_stop_belongs_to_its_sentence(evidence) -> None:  # type: ignore[no-untyped-def]
    assert check_answer("Kofi owns it since 2026-10-14. [CC-1047]", evidence).passed


def test_a_figure_of_one_item_is_not_evidence_of_another() -> None:
    # the experiment names the decision; the experiment's figures stay its own
    exp = Answer(
        question="q",
        tool="disproven",
        subject=None,
        as_of=None,
        status="answered",
        result={
            "experiments": [
                {
                    "id": "exp-1",
                    "decision": "D-9",
                    "verdict": "disproven",
                    "quote": "batching cut latency by 40%",
                }
            ]
        },
    )
    ev = evidence_from_answers([exp])
    assert "D-9" in ev and "40" not in ev["D-9"].text
    assert check_answer("Batching cut latency by 40% [exp-1].", ev).passed
    assert not check_answer("Batching cut latency by 40% [D-9].", ev).passed


def test_a_refused_answer_still_counts_its_evidence() -> None:
    refused = Answer.refused(
        "Who owns the ledger?",
        RefusalCode.CONFLICT,
        "two owners",
        citations=[
            Citation(record="CC-1", quote="Ana owns the ledger"),
            Citation(record="CC-2", quote="Bo owns the ledger"),
        ],
    )
    ev = evidence_from_answers([refused])
    assert check_answer("Two change controls disagree [CC-1] [CC-2].", ev).passed


def test_withheld_shows_the_evidence_and_the_reason(evidence) -> None:  # type: ignore[no-untyped-def]
    report = check_answer("Kofi owns it [CC-1031].", evidence)
    text = withheld(report, _answers())
    assert "withheld because cites [CC-1031]" in text
    assert '[CC-1047] "ownership of the billing gateway transfers from Ines to Kofi"' in text
    assert "Kofi owns it" not in text


def test_many_unsupported_figures_make_one_readable_reason(evidence) -> None:  # type: ignore[no-untyped-def]
    text = " ".join(f"Step {n} went wrong." for n in range(1, 11))
    report = check_answer(text, evidence)
    assert not report.passed
    assert report.failures == (
        'the figure "1" is not next to any citation',
        'the figure "2" is not next to any citation',
        'the figure "3" is not next to any citation',
        "and 7 more figure(s) without support in the evidence",
        "answers without citing anything a tool returned (cite or abstain)",
    )


@pytest.mark.parametrize(
    "text",
    [
        "Ines owns the billing gateway [CC-1047].",  # the previous owner, cited
        "The billing gateway is owned by Ines [CC-1047].",
        "Ownership of the billing gateway moved to Ines [CC-1047].",
        "Mallory Quinn owns everything, the billing gateway too [CC-1047].",  # invented
        "Ines is still the owner of the billing gateway [msg-038].",  # outranked
    ],
)
def test_an_owner_no_owner_of_answer_gave_fails(evidence, text: str) -> None:  # type: ignore[no-untyped-def]
    report = check_answer(text, evidence)
    assert not report.passed
    assert report.failures[0] == (
        "calls someone the owner whom no owner_of answer of this run names as the owner"
    )
    assert not any("Ines" in f or "Mallory" in f for f in report.failures)


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        # a Cyrillic о in "owns", "owned", "owner": it reads as the word, checks miss it
        ("Ines \u043ewns the billing gateway [CC-1047].", "look-alike letters of two scripts"),
        ("The billing gateway is \u043ewned by Ines [CC-1047].", "look-alike letters"),
        ("Ines is the \u043ewner of the billing gateway [CC-1047].", "look-alike letters"),
        ("Ines o\u200bwns the billing gateway [CC-1047].", "invisible character U+200B"),
        ("Ines \u2063owns the billing gateway [CC-1047].", "invisible character U+2063"),
    ],
)
def test_an_owner_claim_in_disguised_letters_fails(evidence, text: str, reason: str) -> None:  # type: ignore[no-untyped-def]
    """ "Ines оwns the billing gateway [CC-1047]" passed as a checked answer naming the
    previous owner: no check reads "оwns" as "owns"."""
    report = check_answer(text, evidence)
    assert not report.passed and reason in report.failures[0]


def test_names_only_a_person_or_a_name_pair_no_tool_returned_fail(evidence) -> None:  # type: ignore[no-untyped-def]
    stranger = "names someone or something unknown, which no tool returned in this run"
    for text in (
        "Kofi Mensah owns the billing gateway [CC-1047]; Zara is his deputy.",
        "Kofi Mensah owns the billing gateway [CC-1047]; Zara Quinn reviews it.",
    ):
        assert check_answer(text, evidence).failures == (stranger,), text
    # words of its own an answer about code uses are not names of people
    code = (
        "The Redis server that Docker would have run listens on a Unix socket, not on TCP, "
        f"so nothing else can reach it [{ROUTER}]."
    )
    assert check_answer(code, evidence).passed
    machine = f"FalkorDB is responsible for persistence; The Store is in charge of it [{ROUTER}]."
    assert check_answer(machine, evidence).passed


def test_units_and_names_in_other_letters_are_words_as_written(evidence) -> None:  # type: ignore[no-untyped-def]
    text = "Kofi Mensah owns the billing gateway since 2026-10-14 [CC-1047]; p99 is 340 \u00b5s."
    assert check_answer(text, evidence).failures == (
        'the figure "340" does not appear in the evidence of [CC-1047]',
    )


@pytest.mark.parametrize(
    "text",
    [
        "Kofi Mensah owns the billing gateway [CC-1047].",
        "Since 2026-10-14 Kofi is the owner; it was previously owned by Ines [CC-1047].",
        'msg-038 says "Ines still owns billing, ping her" [msg-038], but Kofi owns it [CC-1047].',
        "Ownership of the billing gateway transfers from Ines to Kofi [CC-1047].",
    ],
)
def test_the_owner_an_owner_of_answer_gave_passes(evidence, text: str) -> None:  # type: ignore[no-untyped-def]
    report = check_answer(text, evidence)
    assert report.passed, report.failures


@pytest.mark.parametrize(
    "text",
    [
        "Kofi Mensah owns the billing gateway [CC-1047], so the release is approved.",
        "Kofi Mensah owns the billing gateway [CC-1047] and can sign off the release.",
        "Kofi Mensah owns the billing gateway [CC-1047]; the release is good to go.",
    ],
)
def test_saying_something_is_approved_fails(evidence, text: str) -> None:  # type: ignore[no-untyped-def]
    """The explanation check refused these wordings; an agent's answer showed them."""
    report = check_answer(text, evidence)
    assert not report.passed and len(report.failures) == 1, report.failures
    assert "approved" in report.failures[0] or "not recorded" in report.failures[0]


def test_an_approval_in_quotes_no_record_holds_fails_too(evidence) -> None:  # type: ignore[no-untyped-def]
    said = 'Kofi Mensah owns the billing gateway [CC-1047]; msg-038 says "all approved" [msg-038].'
    assert not check_answer(said, evidence).passed
    ask = "Ask Kofi Mensah to review the release [CC-1047]."
    assert check_answer(ask, evidence).passed


NEW = "DECISIONS.md#Use FalkorDB for the board"
OLD = "DECISIONS.md#Use Redis lists for the board"


def _trace() -> list[Answer]:
    """A repository `trace` answer: the chain alone, newest first."""
    return [
        Answer(
            question="trace",
            tool="trace",
            subject={"id": OLD, "type": "Decision", "name": "Use Redis lists for the board"},
            as_of=None,
            status="answered",
            result={"decision": OLD, "chain": [NEW, OLD]},
            citations=[Citation(record=NEW, quote="We use FalkorDB for the board.")],
        )
    ]


@pytest.mark.parametrize(
    ("prose", "passed"),
    [
        (f"{NEW} supersedes {OLD} [{NEW}].", True),
        (f"{OLD} was replaced by {NEW} [{NEW}].", True),
        (f"{NEW} is the one in force [{NEW}].", True),
        (f"{OLD} replaced {NEW} [{NEW}].", False),
        (f"{OLD} is still in force [{NEW}].", False),
    ],
)
def test_what_a_repository_chain_says_is_checked(prose: str, passed: bool) -> None:
    report = check_answer(prose, evidence_from_answers(_trace()))
    assert report.passed is passed, report.failures
