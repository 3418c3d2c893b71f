"""MISSING_PROVENANCE and ROW_CAP, which the demo corpus cannot produce: built with test-only
Cypher on a copy of the demo graph."""

from __future__ import annotations

import pytest

from companybrain.ask.engine import ask
from companybrain.config import Settings
from companybrain.graph.connection import Store
from companybrain.graph.queries import ask_q
from tests.ask import graph_fixtures
from tests.ask.conftest import NOW

OCT_1 = 1790812800000  # 2026-10-01T00:00:00Z


def test_a_claim_without_a_source_stays_visible_and_refuses(
    demo_copy: Store, settings: Settings
) -> None:
    before = ask(demo_copy, settings, "Who owns risk scoring?", now=NOW)
    assert before.result == {"owner": {"id": "zofia", "name": "Zofia Kowalska"}}
    graph_fixtures.orphan_claim(demo_copy, "risk-scoring", "mei", OCT_1)
    rows, capped = ask_q.owner_evidence(demo_copy, "risk-scoring", settings.row_cap)
    assert not capped
    orphan = [r for r in rows if r["claim"] == "orphan|risk-scoring|mei"]
    assert orphan and orphan[0]["record"] is None and orphan[0]["owner"] == "mei"
    after = ask(demo_copy, settings, "Who owns risk scoring?", now=NOW)
    assert after.status == "refused" and after.refusal is not None
    assert after.refusal.code.value == "MISSING_PROVENANCE"
    assert "has no source" in after.refusal.message
    assert after.result is None


@pytest.mark.parametrize(("field", "word"), [("effective_ms", "time"), ("authority", "authority"),
                                             ("owner", "owner")])  # fmt: skip
def test_a_claim_missing_a_field_refuses(
    demo_copy: Store, settings: Settings, field: str, word: str
) -> None:
    graph_fixtures.drop_claim_field(demo_copy, "CC-1047", field)
    answer = ask(demo_copy, settings, "Who owns the billing gateway?", now=NOW)
    assert answer.refusal is not None and answer.refusal.code.value == "MISSING_PROVENANCE"
    assert word in answer.refusal.message


def test_a_quote_not_in_its_record_is_no_provenance(demo_copy: Store, settings: Settings) -> None:
    graph_fixtures.change_quote(demo_copy, "CC-1047", "Kofi Mensah owns the billing gateway")
    answer = ask(demo_copy, settings, "Who owns the billing gateway?", now=NOW)
    assert answer.refusal is not None and answer.refusal.code.value == "MISSING_PROVENANCE"
    assert all(c.record != "CC-1047" for c in answer.citations)


def test_hitting_the_row_cap_refuses(demo_copy: Store, settings: Settings) -> None:
    small = settings.with_(row_cap=3)
    answer = ask(demo_copy, small, "Who owns the billing gateway?", now=NOW)  # 5 claims
    assert answer.refusal is not None and answer.refusal.code.value == "ROW_CAP"
    assert "cap of 3 rows" in answer.refusal.message
    assert ask(
        demo_copy, settings.with_(row_cap=5), "Who owns the billing gateway?", now=NOW
    ).result


def test_sixty_generated_claims_hit_the_default_cap_of_fifty(
    demo_copy: Store, settings: Settings
) -> None:
    assert settings.row_cap == 50
    graph_fixtures.many_chat_claims(demo_copy, "checkout-web", "kenji", 60, OCT_1)
    answer = ask(demo_copy, settings, "Who owns the checkout frontend?", now=NOW)
    assert answer.refusal is not None and answer.refusal.code.value == "ROW_CAP"
    wide = ask(demo_copy, settings.with_(row_cap=100), "Who owns the checkout frontend?", now=NOW)
    assert wide.result == {"owner": {"id": "camille", "name": "Camille Laurent"}}


def test_claims_made_after_the_day_asked_about_do_not_count_toward_the_cap(
    demo_copy: Store, settings: Settings
) -> None:
    """Sixty chat claims from 1 October put the checkout frontend over the cap from then
    on; asked about 20 September, when three directory rows were all there was, it was
    refused ROW_CAP too: the query counted claims that took effect after that day (and
    records written after the clock), which the policy then ignores anyway."""
    graph_fixtures.many_chat_claims(demo_copy, "checkout-web", "kenji", 60, OCT_1)
    before = ask(demo_copy, settings, "Who owned the checkout frontend on 2026-09-20?", now=NOW)
    assert before.refusal is None, before.refusal
    assert before.result == {"owner": {"id": "camille", "name": "Camille Laurent"}}
    assert [c.record for c in before.citations] == ["dir-2026-09"]
    # read with a clock before 1 October, the chat claims were not written yet either
    early = ask(demo_copy, settings, "Who owns the checkout frontend?", now="2026-09-25T12:00:00Z")
    assert early.result == {"owner": {"id": "camille", "name": "Camille Laurent"}}
    after = ask(demo_copy, settings, "Who owned the checkout frontend on 2026-10-02?", now=NOW)
    assert after.refusal is not None and after.refusal.code.value == "ROW_CAP"
