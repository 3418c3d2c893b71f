"""trace_decision asked about today (or --as-of today) with a clock (--now) earlier that
day: decisions written after the clock counted, as they do for no other question type."""

from __future__ import annotations

from companybrain.ask.engine import ask
from companybrain.config import Settings
from companybrain.graph.connection import Store


def test_a_decision_written_after_the_clock_replaces_nothing(
    demo: Store, demo_settings: Settings
) -> None:
    """ADR-015 (written 2026-09-22 14:00) was shown replacing ADR-009, citing it, to
    "What replaced ADR-009 today?" asked with the clock at 10:00 that day."""
    clock = "2026-09-22T10:00:00Z"
    for question, as_of in (
        ("What replaced ADR-009 today?", None),
        ("What replaced ADR-009?", "2026-09-22"),
    ):
        a = ask(demo, demo_settings, question, now=clock, as_of=as_of).to_dict()
        assert a["result"]["chain"] == ["ADR-009", "ADR-004"], (question, a["result"])
        assert "ADR-015" not in str(a), question
    later = ask(demo, demo_settings, "What replaced ADR-009 today?", now="2026-09-22T15:00:00Z")
    assert later.to_dict()["result"]["chain"] == ["ADR-015", "ADR-009", "ADR-004"]
    # nor does it make a tie with the decision in force then
    tie = ask(
        demo, demo_settings, "Why do we publish ledger events through Kafka today?",
        now="2026-05-19T10:00:00Z",
    ).to_dict()  # fmt: skip
    assert tie["status"] == "answered" and tie["subject"]["id"] == "ADR-004", tie
