"""search_records against the clock a question is read with (--now)."""

from __future__ import annotations

from companybrain.ask.engine import ask
from companybrain.config import Settings
from companybrain.graph.connection import Store


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
