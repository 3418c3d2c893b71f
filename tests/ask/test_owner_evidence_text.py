"""owner_of reads its evidence and the records' texts in one query: the same rows as the
evidence query, each with its record's title and text as records_text reads them."""

from __future__ import annotations

from companybrain.ask.catalog import SERVICE, load_catalog
from companybrain.ask.engine import viewer_for
from companybrain.graph.connection import Store
from companybrain.graph.queries import ask_q
from companybrain.policy.access import query_scope


def test_evidence_with_text_is_the_evidence_plus_the_records_text(demo: Store) -> None:
    services = [e.id for e in load_catalog(demo).of(SERVICE)]
    seen_text = 0
    for viewer in (viewer_for(demo, None), viewer_for(demo, "marek")):
        scope = query_scope(viewer)
        for service in services:
            plain, capped = ask_q.owner_evidence(demo, service, 50, scope)
            rows, capped_too = ask_q.owner_evidence_with_text(demo, service, 50, scope)
            assert capped == capped_too
            assert [{k: v for k, v in r.items() if k not in ("title", "text")} for r in rows] == (
                plain
            )
            ids = sorted({r["record"] for r in rows if r["record"]})
            texts = ask_q.records_text(demo, ids) if ids else {}
            for row in rows:
                if row["record"]:
                    said = texts[row["record"]]
                    assert (row["title"], row["text"]) == (said["title"], said["text"])
                    seen_text += 1
    assert seen_text > len(services)
