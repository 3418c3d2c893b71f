"""An organisation that drops a service, a project, a team or a person: the graph follows
on the next ingest. Merged in and never removed, a dropped service was still answered for,
from the records about it written before."""

from __future__ import annotations

import copy
from pathlib import Path

from companybrain.ask.engine import ask
from companybrain.config import Settings
from companybrain.graph.connection import Store
from companybrain.ingest.pipeline import ingest
from tests.ingest.corpus_builder import ORG, md, write_corpus

NOW = "2026-10-20T12:00:00Z"
TRANSFER = md(
    {"id": "CC-1", "kind": "change_control", "at": "2026-10-13T09:12:00Z", "author": "cy",
     "about": ["search-index"]},
    "Ownership of the search index transfers from Ana Ruiz to Bo Lind.",
)  # fmt: skip


def test_what_the_organisation_drops_leaves_the_graph(
    store: Store, settings: Settings, tmp_path: Path
) -> None:
    corpus = write_corpus(tmp_path / "c", {"cc.md": TRANSFER}, org=ORG)
    ingest(store, corpus, settings)
    owner = ask(store, settings, "Who owns the search index?", now=NOW).to_dict()
    assert owner["result"]["owner"]["id"] == "bo"

    smaller = copy.deepcopy(ORG)
    smaller["services"] = [s for s in ORG["services"] if s["id"] != "search-index"]
    smaller["people"] = [p for p in ORG["people"] if p["id"] != "cy"]
    smaller["teams"] = [t for t in ORG["teams"] if t["id"] != "ops"]
    write_corpus(tmp_path / "c", {"cc.md": TRANSFER}, org=smaller)
    ingest(store, corpus, settings)  # CC-1 is refused now: it names both

    gone = ask(store, settings, "Who owns the search index?", now=NOW).to_dict()
    assert gone["status"] == "refused" and gone["refusal"]["code"] == "NOT_IN_GRAPH", gone
    assert ask(store, settings, "Tell me about the Ops team.", now=NOW).status == "refused"
    cy = ask(store, settings, "Tell me about Cy Park.", now=NOW)
    assert cy.status == "refused", cy.to_dict()
    counts = store.read(
        "MATCH (s:Service) WITH count(s) AS services MATCH (t:Team) "
        "WITH services, count(t) AS teams MATCH (p:Person {org: true}) "
        "RETURN services, teams, count(p) AS people"
    )
    assert counts == [{"services": 1, "teams": 1, "people": 2}]
    # Cy wrote CC-1, still stored (refused this time): an author, out of the organisation.
    assert store.read("MATCH (p:Person {id: 'cy'})-[:AUTHORED]->(s) RETURN s.id AS s") == [
        {"s": "CC-1"}
    ]
