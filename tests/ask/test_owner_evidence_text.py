"""owner_of's evidence query says, for each claim, whether its quote occurs character for
character in its record (`in_text`), so that a record's text is read only for the quotes
that need the normalising check; the check's outcome is the same either way."""

from __future__ import annotations

from companybrain.ask.catalog import SERVICE, load_catalog
from companybrain.ask.engine import ask, viewer_for
from companybrain.config import Settings
from companybrain.graph.connection import Store
from companybrain.graph.queries import ask_q
from companybrain.policy.access import query_scope
from tests.ask import graph_fixtures
from tests.ask.conftest import NOW


def test_in_text_is_exact_containment_in_the_records_title_or_text(demo: Store) -> None:
    services = [e.id for e in load_catalog(demo).of(SERVICE)]
    seen_exact = 0
    for viewer in (viewer_for(demo, None), viewer_for(demo, "marek")):
        scope = query_scope(viewer)
        for service in services:
            plain, capped = ask_q.owner_evidence(demo, service, 50, scope)
            rows, capped_too = ask_q.owner_evidence_found_in_text(demo, service, 50, scope)
            assert capped == capped_too
            assert [{k: v for k, v in r.items() if k != "in_text"} for r in rows] == plain
            ids = sorted({r["record"] for r in rows if r["record"]})
            texts = ask_q.records_text(demo, ids) if ids else {}
            for row in rows:
                if row["record"]:
                    said = texts[row["record"]]
                    quote = row["quote"]
                    want = quote in (said["text"] or "") or quote in (said["title"] or "")
                    assert bool(row["in_text"]) == want, row
                    seen_exact += want
    assert seen_exact > len(services)


def _billing_quote(store: Store) -> str:
    rows, _ = ask_q.owner_evidence(store, "billing-gateway", 50)
    return next(r["quote"] for r in rows if r["record"] == "CC-1047")


def test_a_quote_that_matches_only_after_normalising_is_read_and_kept(
    demo_copy: Store, settings: Settings
) -> None:
    shouted = "  " + _billing_quote(demo_copy).upper().replace(" ", "\n ") + " "
    graph_fixtures.change_quote(demo_copy, "CC-1047", shouted)
    rows, _ = ask_q.owner_evidence_found_in_text(demo_copy, "billing-gateway", 50)
    assert [r["in_text"] for r in rows if r["record"] == "CC-1047"] == [False]
    answer = ask(demo_copy, settings, "Who owns the billing gateway?", now=NOW)
    assert answer.result == {"owner": {"id": "kofi", "name": "Kofi Mensah"}}
    assert "CC-1047" in [c.record for c in answer.citations]


def test_a_blank_quote_is_no_provenance_though_every_text_contains_it(
    demo_copy: Store, settings: Settings
) -> None:
    graph_fixtures.change_quote(demo_copy, "CC-1047", " ")
    rows, _ = ask_q.owner_evidence_found_in_text(demo_copy, "billing-gateway", 50)
    assert [r["in_text"] for r in rows if r["record"] == "CC-1047"] == [True]
    answer = ask(demo_copy, settings, "Who owns the billing gateway?", now=NOW)
    assert answer.refusal is not None and answer.refusal.code.value == "MISSING_PROVENANCE"
