"""Search operators: "-bloat" was searched as "bloat" (the records the asker left out came
first, cited), a quoted phrase as its words anywhere, and "@title:reindex" as the words
"title" and "reindex"; each now does what it says, and another field is refused."""

from __future__ import annotations

from typing import Any

from companybrain.ask.engine import ask
from companybrain.config import Settings
from companybrain.graph.connection import Store
from tests.ask.conftest import NOW


def q(store: Store, settings: Settings, question: str) -> dict[str, Any]:
    return ask(store, settings, question, now=NOW).to_dict()


def hits(answer: dict[str, Any]) -> list[str]:
    return [h["record"] for h in (answer["result"] or {}).get("hits", [])]


def test_search_operators_are_honoured(demo: Store, demo_settings: Settings) -> None:
    plain = q(demo, demo_settings, "Search for bloat")
    assert hits(plain) == ["LED-52", "ADR-015"], plain
    without = q(demo, demo_settings, "Search for reindex -bloat")
    assert without["status"] == "answered" and hits(without), without
    assert not {"LED-52", "ADR-015"} & set(hits(without))
    assert all("bloat" not in h["snippet"].lower() for h in without["result"]["hits"])
    none = q(demo, demo_settings, "Search for bloat -outbox")  # both name the outbox
    assert none["refusal"]["code"] == "NO_CLAIM", none
    assert none["refusal"]["message"] == "no record you may see matches -outbox bloat"

    assert hits(q(demo, demo_settings, 'Search for "index scans"')) == ["LED-52"]
    apart = q(demo, demo_settings, 'Search for "index bloat"')  # LED-52 has both words apart
    assert apart["refusal"]["code"] == "NO_CLAIM", apart
    assert apart["refusal"]["message"] == 'no record you may see matches "index bloat"'

    titled = q(demo, demo_settings, "Search @title:reindex")
    assert titled["status"] == "answered" and hits(titled), titled
    assert all("reindex" in h["title"].lower() for h in titled["result"]["hits"]), titled

    other = q(demo, demo_settings, "Search @author:kofi reindex")
    assert (other["status"], other["refusal"]["code"]) == ("refused", "OUT_OF_SCOPE"), other
    assert "not @author:" in other["refusal"]["message"] and other["citations"] == []


def test_a_record_left_out_by_its_id_is_not_listed(demo: Store, demo_settings: Settings) -> None:
    """ "Search for outbox bloat -LED-52" listed LED-52 first: its id is not in its own
    text, and an id the question writes put that record first."""
    a = q(demo, demo_settings, "Search for outbox bloat -LED-52")
    assert a["status"] == "answered" and "LED-52" not in hits(a), a["result"]
    assert "LED-52" in hits(q(demo, demo_settings, "Search for outbox bloat"))


def test_a_phrase_left_out_is_left_out(demo: Store, demo_settings: Settings) -> None:
    """ "Search for -"bloat" outbox" was read as the phrase "bloat", wanted: LED-52, the
    record left out, came first."""
    for question in ('Search for -"bloat" outbox', 'Search for outbox -"table bloat"'):
        a = q(demo, demo_settings, question)
        assert a["status"] == "answered" and "LED-52" not in hits(a), (question, a["result"])
    assert "LED-52" in hits(q(demo, demo_settings, "Search for outbox"))
    titled = q(demo, demo_settings, 'Search for @title:"index swap"')  # "index — reindex"
    assert titled["refusal"]["message"] == 'no record you may see matches @title:"index swap"'
