"""A change control written 10 May saying "Kofi Mensah, who owned the billing gateway, now
owns the search index." was read for nothing: no pattern crossed the relative clause, so
the directory's Ana answered for the search index and Kofi for the billing gateway for
good, although the record says Kofi left it. And a model's proposal of Kofi for the
billing gateway from that sentence was kept (the verifier read "who owned" as no past).
Now Kofi owns the search index from the record's day, and the billing gateway changed
hands to someone the record does not name: owner_of refuses MISSING_PROVENANCE."""

from __future__ import annotations

from pathlib import Path

from companybrain.config import Settings
from companybrain.graph.connection import Store
from companybrain.model.answer import RefusalCode
from tests.ask.handover import load_two, owner, owner_on

TEXT = "Kofi Mensah, who owned the billing gateway, now owns the search index."


def test_who_owned_is_a_past_owner_and_the_main_clause_is_read(
    store: Store, settings: Settings, tmp_path: Path
) -> None:
    load_two(store, settings, tmp_path, TEXT)
    assert owner(owner_on(store, settings, "billing gateway", "2026-05-09")) == "kofi"
    for day in ("2026-05-10", "2026-06-30"):
        search = owner_on(store, settings, "search index", day)
        assert (owner(search), [c.record for c in search.citations]) == ("kofi", ["CC-7"])
        billing = owner_on(store, settings, "billing gateway", day)
        assert billing.refusal is not None and billing.result is None
        assert billing.refusal.code is RefusalCode.MISSING_PROVENANCE


def test_who_owns_is_no_past(store: Store, settings: Settings, tmp_path: Path) -> None:
    text = "Kofi Mensah, who owns the billing gateway, took over the search index."
    load_two(store, settings, tmp_path, text)
    for service in ("billing gateway", "search index"):
        answer = owner_on(store, settings, service, "2026-05-10")
        assert (owner(answer), [c.record for c in answer.citations]) == ("kofi", ["CC-7"])
