"""A question about a decision, asked about a day, that fits a decision recorded then and
one recorded later equally."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime

from companybrain.ask.engine import ask
from companybrain.ask.registry import ReadOnlyStore, ToolContext, read_only_tools
from companybrain.config import Settings
from companybrain.graph.connection import Store
from companybrain.policy.time import parse_as_of
from tests.ask.conftest import NOW


def test_a_decision_recorded_after_the_day_asked_makes_no_tie(
    demo: Store, demo_settings: Settings
) -> None:
    """ "Why do we publish ledger events through Kafka as of 2026-03-01?" was refused "fits
    several decisions equally (ADR-004, ADR-009)": ADR-009 was recorded on 19 May, and on
    1 March ADR-004 was the only decision it could mean."""
    march = ask(
        demo, demo_settings, "Why do we publish ledger events through Kafka as of 2026-03-01?",
        now=NOW,
    ).to_dict()  # fmt: skip
    assert march["status"] == "answered" and march["subject"]["id"] == "ADR-004", march
    assert march["result"]["chain"] == ["ADR-004"]
    by_flag = ask(
        demo, demo_settings, "Why do we publish ledger events through Kafka?", now=NOW,
        as_of="2026-03-01",
    ).to_dict()  # fmt: skip
    assert by_flag["subject"]["id"] == "ADR-004", by_flag
    for later in ("Why do we publish ledger events through Kafka?",
                  "Why do we publish ledger events through Kafka as of 2026-06-01?"):  # fmt: skip
        tie = ask(demo, demo_settings, later, now=NOW).to_dict()
        assert tie["refusal"]["code"] == "OUT_OF_SCOPE", tie
        assert "(ADR-004, ADR-009)" in tie["refusal"]["message"]
    # one that fits a later decision best is still not answered with an older one
    outbox = ask(
        demo, demo_settings,
        "Why do we publish ledger events through a transactional outbox as of 2026-03-01?",
        now=NOW,
    ).to_dict()  # fmt: skip
    assert outbox["subject"]["id"] == "ADR-009" and outbox["refusal"]["code"] == "NO_CLAIM"


def test_the_trace_decision_tool_settles_the_tie_by_its_day(
    demo: Store, demo_settings: Settings
) -> None:
    """The tool (MCP, the agent) refused the same tie "fits several decisions equally": its
    `as_of` was not accepted at all, and the agent's day was not used to choose."""
    tool = {t.name: t for t in read_only_tools()}["trace_decision"]
    now = datetime(2026, 10, 20, 12, tzinfo=UTC)
    ctx = ToolContext(ReadOnlyStore(demo_settings), demo_settings, now=now)
    words = {"decision": "publish ledger events through Kafka"}
    march = tool(ctx, {**words, "as_of": "2026-03-01"}).to_dict()
    assert march["status"] == "answered" and march["subject"]["id"] == "ADR-004", march
    agent_day = replace(ctx, time=parse_as_of("2026-03-01", now, "UTC"))
    assert tool(agent_day, words).to_dict()["subject"]["id"] == "ADR-004"
    for args in (words, {**words, "as_of": "2026-06-01"}):  # both recorded by then: a tie
        tie = tool(ctx, args).to_dict()
        assert tie["refusal"]["code"] == "OUT_OF_SCOPE", tie
