"""A decision is cited by what it says, not by its heading."""

from companybrain.ask.repo.answers import cite_line, statement_span
from companybrain.policy.text import quote_in

ROW = {
    "id": "DECISIONS.md#Batch writes",
    "line_start": 10,
    "text": "## Batch writes\n\n- Date: 2026-03-01\n- Status: accepted\n\n"
    "The exporter batches its writes:\none round trip per 500 rows.\n\n## Next",
}


def test_the_statement_follows_heading_and_metadata() -> None:
    assert statement_span(ROW) == (15, 16)
    citation = cite_line(ROW)
    assert citation.lines == (15, 16)
    assert citation.quote == "The exporter batches its writes:\none round trip per 500 rows."
    assert quote_in(citation.quote or "", ROW["text"])


def test_a_heading_line_is_cited_as_the_statement_but_another_line_as_itself() -> None:
    assert cite_line(ROW, 10).lines == (15, 16)
    assert cite_line(ROW, 16).quote == "one round trip per 500 rows."


def test_a_decision_with_only_a_heading_cites_the_heading() -> None:
    bare = {"id": "x", "line_start": 3, "text": "## Only a title\n- Status: accepted\n"}
    assert statement_span(bare) is None
    assert cite_line(bare).quote == "## Only a title"


SECTIONED = {
    "id": "DECISIONS.md#Retry payments",
    "line_start": 1,
    "text": "## Retry payments\n\n### Status\n\nAccepted\n\n### Context\n\n"
    "Payments in src/pay.py fail under load.\n\n### Decision\n\nRetry three times.\n",
}


def test_a_status_sub_heading_s_word_is_not_the_statement_the_decision_is() -> None:
    """It cited the line "Accepted", under "### Status", as what the entry decided."""
    assert cite_line(SECTIONED).quote == "Retry three times."
    assert statement_span(SECTIONED) == (13, 13)
    no_decision = {**SECTIONED, "text": SECTIONED["text"].split("### Decision")[0]}
    assert cite_line(no_decision).quote == "Payments in src/pay.py fail under load."


def test_a_long_paragraph_is_cut_at_three_lines() -> None:
    long = {"id": "x", "line_start": 1, "text": "## T\n\na\nb\nc\nd\n"}
    assert statement_span(long) == (3, 5)
