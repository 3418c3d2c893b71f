"""Mention templates and record segments: the ground both the rules and the verifier stand on."""

from __future__ import annotations

from companybrain.model.records import Org, Person, Service
from companybrain.policy import segments
from companybrain.policy.mentions import PERSON, SERVICE, template
from tests.support.extraction import org

ORG = org()


def test_names_and_aliases_match_in_any_case_and_punctuation() -> None:
    t = template("BILLING-GW is owned by aria; A. Novak said so. Billing_gw too.", ORG)
    assert (
        t.text
        == "<s:billing-gateway> is owned by <p:aria> <p:aria> said so <s:billing-gateway> too"
    )
    assert t.ids(PERSON) == ["aria"] and t.ids(SERVICE) == ["billing-gateway"]


def test_the_longest_name_wins_and_words_inside_other_words_do_not_match() -> None:
    t = template("Aria Novak owns the billing gateway; Mariana and Ariadne do not.", ORG)
    assert t.ids(PERSON) == ["aria"]
    assert t.tokens.count("<p:aria>") == 1


def test_a_shared_name_names_nobody() -> None:
    two = Org(
        company="x",
        people=(Person("alex.k", "Alex Kim"), Person("alex.r", "Alex Ruiz")),
        services=(Service("ledger", "Ledger"),),
    )
    assert template("Alex owns the Ledger.", two).ids(PERSON) == []
    assert template("Alex Kim owns the Ledger.", two).ids(PERSON) == ["alex.k"]


def test_a_name_that_is_a_common_word_needs_its_capital() -> None:
    assert template("We will own the search index.", ORG).ids(PERSON) == []
    assert template("our dev box runs the search index", ORG).ids(PERSON) == []
    assert template("Dev owns the search index.", ORG).ids(PERSON) == ["dev"]
    # Other names match in any case.
    assert template("ping omar", ORG).ids(PERSON) == ["omar"]


def test_clauses_split_at_punctuation() -> None:
    t = template("Aria, the former owner; Ben owns it.", ORG)
    assert t.clauses() == [["<p:aria>"], ["the", "former", "owner"], ["<p:ben>", "owns", "it"]]


def test_units_cut_sentences_rows_fields_and_skip_code() -> None:
    text = (
        "# Runbook: Search\n\n"
        "Owner: Dev Patel\n"
        "The index is owned by S. Rao, e.g. for reindexing. It is big.\n"
        "Wrapped onto a\nsecond line.\n\n"
        "- a bullet. Another sentence\n"
        "```\nOwner: not me\n```\n"
        "| Service | Owner |\n| --- | --- |\n| Search Index | Dev |\n"
    )
    units = segments.units(text)
    assert [(u.kind, u.text) for u in units] == [
        ("heading", "Runbook: Search"),
        ("field", "Owner: Dev Patel"),
        ("sentence", "The index is owned by S. Rao, e.g. for reindexing."),
        ("sentence", "It is big."),
        ("sentence", "Wrapped onto a second line."),
        ("sentence", "a bullet."),
        ("sentence", "Another sentence"),
        ("row", "| Search Index | Dev |"),
    ]
    row = units[-1]
    assert row.table is not None and row.table.header == ("service", "owner")
    assert row.cells == ("Search Index", "Dev")


def test_section_text_is_the_body_under_a_heading() -> None:
    text = "# ADR\n\n## Decision\n\nWe will do it.\n\n## Consequences\n\nSome."
    assert segments.section_text(text, "decision") == "\nWe will do it.\n"
    assert segments.section_text(text, "status") is None


def test_a_kept_template_is_the_one_computed_and_long_texts_are_not_kept() -> None:
    from companybrain.policy.mentions import CACHED_CHARS, name_index

    index = name_index(ORG)
    short = "Aria owns the billing gateway."
    assert index.template(short) is index.template(short)  # kept
    assert index.template(short) == index._template(short)
    long = "Aria owns the billing gateway. " * (CACHED_CHARS // 10)
    before = index._cached.cache_info().currsize
    assert index.template(long) == index._template(long)
    assert index.template(long) is not index.template(long)  # computed each time
    assert index._cached.cache_info().currsize == before


def test_a_date_abbreviation_does_not_end_a_sentence_the_date_goes_on_in() -> None:
    text = (
        "Effective Sept. 1, 2026, Ben owns it. From 1 Dec. 2026 at 9 a.m. UTC, Ana does. "
        "It moved in Dec. Then it stayed."
    )
    assert segments.sentences(text) == [
        "Effective Sept. 1, 2026, Ben owns it.",
        "From 1 Dec. 2026 at 9 a.m. UTC, Ana does.",
        "It moved in Dec.",
        "Then it stayed.",
    ]
