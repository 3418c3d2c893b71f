"""Checks on a model's explanation: each reason to discard it, and what passes."""

from __future__ import annotations

from dataclasses import replace

from companybrain.policy.explanation import ExplanationFacts, Named, check_explanation

KOFI = Named("kofi", ("Kofi Mensah", "Kofi"))
INES = Named("ines", ("Ines Halvorsen", "Ines"))
LENA = Named("lena", ("Lena Varga", "Lena"))
RAFAEL = Named("rafael", ("Rafael Duarte", "Rafael"))
SUNITA = Named("sunita", ("Sunita Rao", "Sunita"))
PEOPLE = (KOFI, INES, LENA, RAFAEL, SUNITA)
QUOTES = (
    "ownership of the billing gateway transfers from Ines Halvorsen to Kofi Mensah",
    "Ines still owns billing gateway, ping her",
)
VOCAB = frozenset(
    {
        *("CC-1047", "msg-038", "dir-2026-09", "Billing", "Gateway", "Kofi", "Mensah"),
        *("Ines", "Halvorsen", "change", "control", "chat", "service", "directory"),
    }
)
ANSWERED = ExplanationFacts(
    status="answered",
    owners=(KOFI,),
    outranked=(INES,),
    in_evidence=(KOFI, INES),
    people=PEOPLE,
    quotes=QUOTES,
    vocabulary=VOCAB,
)
CONFLICT = ExplanationFacts(
    status="refused",
    refusal_code="CONFLICT",
    in_evidence=(RAFAEL, SUNITA),
    people=PEOPLE,
    quotes=("the Payments API is owned by Rafael Duarte", "Sunita Rao owns the Payments API"),
    vocabulary=frozenset({"CC-1019", "CC-1020", "Payments", "API", "Rafael", "Duarte", "Sunita"}),
)


def test_a_faithful_explanation_passes() -> None:
    text = (
        "Kofi Mensah owns the Billing Gateway per CC-1047, a change control that outranks "
        "the service directory and a chat message. msg-038 says 'Ines still owns billing "
        "gateway, ping her', but chat has lower authority."
    )
    assert check_explanation(text, ANSWERED) is None


def test_quoting_a_record_is_allowed_but_asserting_it_is_not() -> None:
    quoting = "Kofi owns it per CC-1047; msg-038 says 'Ines still owns billing gateway, ping her'."
    assert check_explanation(quoting, ANSWERED) is None
    asserting = "Kofi is listed in CC-1047, but the gateway is owned by Ines."
    reason = check_explanation(asserting, ANSWERED)
    assert reason and "calls Ines the owner" in reason


def test_calling_an_outranked_person_the_owner_is_discarded() -> None:
    for text in (
        "Ines still owns the Billing Gateway, though Kofi is in CC-1047.",
        "Ines Halvorsen is the owner; Kofi Mensah was named in CC-1047.",
    ):
        assert "calls" in (check_explanation(text, ANSWERED) or "")


def test_leaving_out_the_owner_is_discarded() -> None:
    reason = check_explanation("The change control CC-1047 settles it.", ANSWERED)
    assert reason and "does not name the owner" in reason


def test_naming_someone_not_in_the_evidence_is_discarded() -> None:
    reason = check_explanation("Kofi owns it per CC-1047; Lena Varga takes over soon.", ANSWERED)
    assert reason and "Lena Varga" in reason
    invented = check_explanation("Kofi owns it per CC-1047, with Mallory as backup.", ANSWERED)
    assert invented and "Mallory" in invented
    first = check_explanation("Mallory owns every service; Kofi is in CC-1047.", ANSWERED)
    assert first and "Mallory" in first


def test_leaking_internal_field_names_is_discarded() -> None:
    for leak in ("effective_ms", "NAMES_OWNER", "effectiveAt", "OwnershipClaim", "LOW_AUTHORITY"):
        reason = check_explanation(f"Kofi owns it per CC-1047 ({leak}).", ANSWERED)
        assert reason and "internal name" in reason, leak


def test_saying_anything_is_approved_is_discarded() -> None:
    for text in (
        "Kofi owns it per CC-1047 and the release is approved.",
        "Kofi owns it per CC-1047 and has signed off.",
        "Kofi owns it per CC-1047, so Kofi approves the release.",
    ):
        reason = check_explanation(text, ANSWERED)
        assert reason and ("approve" in reason or "signed" in reason), text
    allowed = "Ask Kofi per CC-1047 for review; who approves releases is not recorded."
    assert check_explanation(allowed, ANSWERED) is None


def test_a_refusal_must_give_its_reason_and_name_no_owner() -> None:
    good = (
        "CC-1019 and CC-1020 name different owners at the same authority and the same "
        "instant, so no owner can be named."
    )
    assert check_explanation(good, CONFLICT) is None
    silent = check_explanation("Please ask the Payments team.", CONFLICT)
    assert silent and "reason" in silent
    picks = check_explanation(
        "The two records conflict, but Rafael owns the Payments API.", CONFLICT
    )
    assert picks and "calls Rafael the owner" in picks


def test_more_than_three_sentences_are_discarded() -> None:
    text = "Kofi owns it. CC-1047 says so. Chat is lower. Directory is older."
    reason = check_explanation(text, ANSWERED)
    assert reason and "4 sentences" in reason
    assert check_explanation("  ", ANSWERED) == "it is empty"


def test_other_wordings_that_make_an_outranked_person_the_owner_are_discarded() -> None:
    """Only "Ines owns", "Ines is the owner", "owned by Ines", "owner is Ines" and
    "belongs to Ines" were caught: a model writing that Ines "remains the owner" or
    "continues to own" the gateway, against CC-1047, had its wording shown as checked."""
    for text in (
        "Kofi Mensah is listed in CC-1047, but Ines remains the owner of the Billing Gateway.",
        "Kofi Mensah is named by CC-1047; Ines continues to own the Billing Gateway.",
        "Kofi Mensah is named by CC-1047; Ines is still in charge of the Billing Gateway.",
        "Kofi Mensah is named by CC-1047; the owner remains Ines.",
        "Kofi Mensah is named by CC-1047; the owner is still Ines Halvorsen.",
        "Kofi Mensah is named by CC-1047; Ines is the one who owns the Billing Gateway.",
        "Kofi Mensah is named by CC-1047; Ines still has ownership of the Billing Gateway.",
        "Kofi Mensah is named by CC-1047, yet the Billing Gateway stays with Ines.",
    ):
        reason = check_explanation(text, ANSWERED)
        assert reason and "calls Ines" in reason, text


def test_a_time_in_words_the_evidence_does_not_have_is_discarded() -> None:
    """Only figures in digits were checked: "for two years" beside a change control of last
    week was shown as the model's words."""
    for text, said in (
        ("Kofi Mensah has owned the Billing Gateway for two years, per CC-1047.", "two years"),
        ("Kofi Mensah took over the Billing Gateway last week, per CC-1047.", "last week"),
    ):
        assert check_explanation(text, ANSWERED) == (
            f"it gives the time {said!r}, which the evidence does not have"
        )
    asked = replace(ANSWERED, vocabulary=ANSWERED.vocabulary | {"Who owned BGW last week?"})
    said = "Kofi Mensah took over the Billing Gateway last week, per CC-1047."
    assert check_explanation(said, asked) is None  # the question's words


def test_saying_ownership_went_back_to_an_outranked_person_is_discarded() -> None:
    """An explanation naming Kofi, as the answer does, and then giving the gateway back
    to Ines was shown as the model's checked words beside the answer naming Kofi."""
    for text in (
        "Per CC-1047 Kofi Mensah took over, but the billing gateway went back to Ines.",
        "CC-1047 named Kofi Mensah; Ines Halvorsen is the billing gateway owner again.",
        "CC-1047 named Kofi Mensah; Ines Halvorsen took over the billing gateway again.",
        "CC-1047 named Kofi Mensah; since then the gateway was handed to Ines.",
    ):
        reason = check_explanation(text, ANSWERED)
        assert reason and "calls Ines" in reason, text
    for text in (  # the move to the owner, and the one before as such
        "Kofi Mensah took over the billing gateway from Ines Halvorsen per CC-1047.",
        "Kofi Mensah owns it per CC-1047, which moved it from Ines Halvorsen to him.",
        "Kofi Mensah owns it per CC-1047; Ines Halvorsen is the previous owner.",
    ):
        assert check_explanation(text, ANSWERED) is None, text


def test_saying_a_release_may_go_ahead_is_discarded() -> None:
    for text in (
        "Kofi owns it per CC-1047, so the release is good to go.",
        "Kofi owns it per CC-1047; the release can ship.",
    ):
        reason = check_explanation(text, ANSWERED)
        assert reason and "not recorded" in reason, text
    allowed = "Ask Kofi per CC-1047 for review; whether the release can ship is not recorded."
    assert check_explanation(allowed, ANSWERED) is None


def test_a_figure_the_evidence_does_not_have_is_discarded() -> None:
    facts = ExplanationFacts(
        status="answered",
        owners=(KOFI,),
        in_evidence=(KOFI, INES),
        people=PEOPLE,
        quotes=(
            "Effective Wednesday 14 October 2026 at 11:00 UTC, ownership of the billing "
            "gateway transfers from Ines Halvorsen to Kofi Mensah.",
        ),
        vocabulary=VOCAB | {"90", "2026-10-14T11:00:00Z"},
    )
    wrong = "Kofi Mensah owns the Billing Gateway since 15 October 2027, per CC-1047."
    assert check_explanation(wrong, facts) == (
        "it gives the figure 15, which the evidence does not have"
    )
    early = "Kofi Mensah owns the Billing Gateway since 10 October 2026, per CC-1047."
    assert check_explanation(early, facts) == (  # 10 is the month of 2026-10-14
        "it gives the date '10 October 2026', which the evidence does not have"
    )
    right = (
        "Kofi Mensah owns the Billing Gateway since 14 October 2026 at 11:00 UTC, per "
        "CC-1047, a change control of authority 90."
    )
    assert check_explanation(right, facts) is None


def test_a_month_or_weekday_the_evidence_does_not_have_is_discarded() -> None:
    """ "since 14 March 2026" passed: its figures are CC-1047's, its month is not."""
    facts = ExplanationFacts(
        status="answered",
        owners=(KOFI,),
        in_evidence=(KOFI, INES),
        people=PEOPLE,
        quotes=("ownership of the billing gateway transfers from Ines Halvorsen to Kofi Mensah",),
        vocabulary=VOCAB | {"90", "2026-10-14T11:00:00Z"},
    )
    for wrong, said in (
        ("Kofi Mensah owns the Billing Gateway since 14 March 2026, per CC-1047.", "March"),
        ("Kofi Mensah took over the Billing Gateway on Tuesday, per CC-1047.", "Tuesday"),
    ):
        assert check_explanation(wrong, facts) == (
            f"it gives the date {said!r}, which the evidence does not have"
        )
    right = "Since Wednesday, Oct 14, 2026 Kofi Mensah owns the Billing Gateway, per CC-1047."
    assert check_explanation(right, facts) is None


def test_an_explanation_of_one_endless_sentence_is_discarded() -> None:
    """Three sentences at most, but no length: '"Kofi Mensah" ' 100,000 times (a looping
    model) is one sentence naming the owner, and was shown after seconds of checking."""
    looping = '"Kofi Mensah" ' * 100_000
    assert check_explanation(looping, ANSWERED) == (
        "it is 1,400,000 characters; at most 1,500 are allowed"
    )
    assert check_explanation("Kofi Mensah owns the Billing Gateway per CC-1047.", ANSWERED) is None


def test_an_explanation_in_look_alike_letters_is_discarded() -> None:
    """ "Ines Halvorsen оwns the Billing Gateway" (a Cyrillic о) read as "owns" and was
    shown: no check reads it so."""
    wrong = "Ines Halvorsen \u043ewns the Billing Gateway; Kofi Mensah is named in CC-1047."
    assert check_explanation(wrong, ANSWERED) == (
        "it writes a word in look-alike letters of two scripts"
    )


def test_an_explanation_denying_the_owner_is_discarded() -> None:
    """ "Kofi Mensah no longer owns the Billing Gateway, per CC-1047" named the owner, so it
    was shown, explaining an answer that Kofi owns it."""
    for wrong in (
        "Kofi Mensah no longer owns the Billing Gateway, per CC-1047.",
        "Kofi Mensah doesn't own the Billing Gateway, per CC-1047.",
        "Kofi Mensah used to own the Billing Gateway, per CC-1047.",
        "Kofi is not the owner of the Billing Gateway, per CC-1047.",
    ):
        assert check_explanation(wrong, ANSWERED) is not None, wrong
        assert "does not own it, whom the answer names as the owner" in str(
            check_explanation(wrong, ANSWERED)
        )
    assert check_explanation(
        "The Billing Gateway has no owner; Kofi Mensah is named in CC-1047.", ANSWERED
    ) == ("it says there is no owner, where the answer names one")
    right = "Kofi Mensah owns the Billing Gateway per CC-1047; Ines Halvorsen no longer does."
    assert check_explanation(right, ANSWERED) is None


def test_calling_anyone_else_an_owner_beside_the_owner_is_discarded() -> None:
    # Ines is in the evidence (the quote of a transfer), not the answer's owner
    facts = ExplanationFacts(
        status="answered", owners=(KOFI,), in_evidence=(KOFI, INES), people=PEOPLE,
        quotes=QUOTES, vocabulary=VOCAB,
    )  # fmt: skip
    for text in (
        "Kofi Mensah and Ines Halvorsen jointly own the Billing Gateway per CC-1047.",
        "Kofi Mensah owns the Billing Gateway per CC-1047; Ines Halvorsen is a co-owner.",
        "Kofi Mensah owns the Billing Gateway per CC-1047, and so does Ines: Ines owns it.",
    ):
        reason = check_explanation(text, facts)
        assert reason and "calls Ines" in reason, text
    ok = "Kofi Mensah owns the Billing Gateway per CC-1047; he took over from Ines Halvorsen."
    assert check_explanation(ok, facts) is None


def test_a_second_owner_in_a_list_a_share_or_so_does_is_discarded() -> None:
    """Each was shown as the model's checked wording, making the previous owner a
    co-owner."""
    for text in (
        "The Billing Gateway has two owners, Kofi Mensah and Ines Halvorsen, per CC-1047.",
        "The owners of the Billing Gateway are Kofi Mensah and Ines Halvorsen per CC-1047.",
        "Kofi Mensah shares ownership of the Billing Gateway with Ines Halvorsen per CC-1047.",
        "Kofi Mensah owns the Billing Gateway per CC-1047, and so does Ines Halvorsen.",
    ):
        reason = check_explanation(text, ANSWERED)
        assert reason and "calls Ines Halvorsen the owner" in reason, text
    ok = "Kofi Mensah owns the Billing Gateway per CC-1047; the previous owners were Ines."
    assert check_explanation(ok, ANSWERED) is None
