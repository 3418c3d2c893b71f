"""search_records against the clock a question is read with (--now)."""

from __future__ import annotations

from datetime import UTC, datetime

from companybrain.ask.engine import ask
from companybrain.ask.registry import ReadOnlyStore, ToolContext, read_only_tools
from companybrain.config import Settings
from companybrain.graph.connection import Store

CLOCK = datetime(2026, 9, 1, tzinfo=UTC)


def test_a_search_leaves_out_records_written_after_the_clock(
    demo: Store, demo_settings: Settings
) -> None:
    """With --now 2026-09-01, "Search for outbox bloat" listed ADR-015, written on 22
    September, under as_of 2026-09-01: a record written after the clock counts for no day
    in the other question types."""
    a = ask(demo, demo_settings, "Search for outbox bloat", now="2026-09-01T00:00:00Z").to_dict()
    assert a["as_of"] == "2026-09-01T00:00:00Z"
    assert [h["record"] for h in a["result"]["hits"]] == ["LED-52"], a["result"]
    later = ask(demo, demo_settings, "Search for ADR-015", now="2026-09-01T00:00:00Z").to_dict()
    assert "ADR-015" not in [c["record"] for c in later["citations"]], later
    none = ask(demo, demo_settings, "Search for Thales Luna", now="2026-09-01T00:00:00Z")
    assert none.refusal is not None and none.refusal.message == (
        'no record you may see matches "Thales Luna"'
    )
    now = ask(demo, demo_settings, "Search for outbox bloat", now="2026-10-20T12:00:00Z")
    assert {"LED-52", "ADR-015"} <= {h["record"] for h in (now.result or {})["hits"]}


def test_the_search_tool_reads_the_clock_as_brain_ask_does(
    demo: Store, demo_settings: Settings
) -> None:
    """The MCP tool (`brain mcp --now 2026-09-01`) listed ADR-015 (22 September) where
    `brain ask --now 2026-09-01` does not: the two surfaces gave different answers."""
    tool = {t.name: t for t in read_only_tools()}["search_records"]
    ctx = ToolContext(ReadOnlyStore(demo_settings), demo_settings, now=CLOCK)
    found = tool.run(ctx, {"query": "outbox bloat"}).to_dict()
    asked = ask(demo, demo_settings, "Search for outbox bloat", now=CLOCK).to_dict()
    assert [h["record"] for h in found["result"]["hits"]] == ["LED-52"], found["result"]
    assert found["result"]["hits"] == asked["result"]["hits"]


def test_a_search_on_the_day_of_the_clock_ends_at_the_clock(
    demo: Store, demo_settings: Settings
) -> None:
    """ "Search for logical replication on 2026-09-22" with --now 2026-09-22T10:00 listed
    ADR-015, written at 14:00 that day: the day ran to its end, past the clock."""
    for question, as_of in (
        ("Search for logical replication on 2026-09-22", None),
        ("Search for logical replication today", None),
        ("Search for logical replication", "2026-09-22"),
    ):
        a = ask(demo, demo_settings, question, now="2026-09-22T10:00:00Z", as_of=as_of)
        assert "ADR-015" not in [c.record for c in a.citations], (question, a.citations)
    later = ask(
        demo, demo_settings, "Search for logical replication today", now="2026-09-22T15:00:00Z"
    )
    assert "ADR-015" in [c.record for c in later.citations]
