"""Findings as the board writes them: idempotent, attached to their entry, readable."""

from __future__ import annotations

import pytest

from companybrain.errors import InputError
from companybrain.graph.connection import Store
from companybrain.graph.queries import findings_q
from companybrain.model.findings import Finding, FindingKind, Verdict


def _decision(store: Store, did: str) -> None:
    store.query("CREATE (:Decision {id: $id, title: 't', repo: 'r'})", {"id": did})


def test_add_findings_is_idempotent_and_replaceable(store: Store) -> None:
    _decision(store, "DECISIONS.md#Keep the rule")
    exp = Finding(
        entry="DECISIONS.md#Keep the rule",
        kind=FindingKind.EXPERIMENT,
        quote="the corrected text routed 0 of 20",
        value="corrected text fixes routing",
        verdict=Verdict.DISPROVEN,
        by="worker-1",
    )
    same_by_other = Finding(**{**exp.__dict__, "by": "worker-2"})
    measure = Finding(
        entry="DECISIONS.md#Keep the rule",
        kind=FindingKind.MEASUREMENT,
        quote="routed 0 of 20",
        value="0 of 20",
    )
    assert findings_q.add_findings(store, "DECISIONS.md#Keep the rule", [exp, measure]) == 2
    findings_q.add_findings(store, "DECISIONS.md#Keep the rule", [same_by_other, measure])
    got = findings_q.findings_of(store, "DECISIONS.md#Keep the rule")
    assert len(got) == 2
    rows = findings_q.experiments(store)
    assert [(r["decision"], r["verdict"], r["quote"]) for r in rows] == [
        ("DECISIONS.md#Keep the rule", "disproven", "the corrected text routed 0 of 20")
    ]
    findings_q.add_findings(store, "DECISIONS.md#Keep the rule", [measure], replace=True)
    assert [f.kind for f in findings_q.findings_of(store, "DECISIONS.md#Keep the rule")] == [
        FindingKind.MEASUREMENT
    ]
    assert findings_q.experiments(store) == []


def test_superseding_decisions_are_reported_with_the_experiment(store: Store) -> None:
    _decision(store, "adr/0001-old.md")
    _decision(store, "adr/0002-new.md")
    store.query(
        "MATCH (a:Decision {id: 'adr/0002-new.md'}), (b:Decision {id: 'adr/0001-old.md'}) "
        "CREATE (a)-[:SUPERSEDES]->(b)"
    )
    f = Finding(
        entry="adr/0001-old.md",
        kind=FindingKind.EXPERIMENT,
        quote="q",
        value="v",
        verdict=Verdict.DISPROVEN,
    )
    findings_q.add_findings(store, "adr/0001-old.md", [f])
    (row,) = findings_q.experiments(store, entries=["adr/0001-old.md"])
    assert row["superseded_by"] == ["adr/0002-new.md"]
    assert findings_q.experiments(store, entries=["adr/0002-new.md"]) == []


def test_unknown_entry_and_mismatched_finding_are_refused(store: Store) -> None:
    f = Finding(entry="nope", kind=FindingKind.CONCEPT, quote="q", value="v")
    with pytest.raises(InputError, match="nope"):
        findings_q.add_findings(store, "nope", [f])
    _decision(store, "x")
    with pytest.raises(InputError, match="nope"):
        findings_q.add_findings(store, "x", [f])


def test_a_confirmed_supersedes_relation_becomes_a_supersedes_edge(store: Store) -> None:
    _decision(store, "adr/0001-old.md")
    _decision(store, "adr/0002-new.md")
    rel = Finding(
        entry="adr/0002-new.md",
        kind=FindingKind.RELATION,
        quote="This replaces the old approach.",
        value="adr/0001-old.md",
        relation="supersedes",
        by="worker-1",
    )
    findings_q.add_findings(store, "adr/0002-new.md", [rel])
    findings_q.add_findings(store, "adr/0002-new.md", [rel])
    edges = store.read(
        "MATCH (n:Decision)-[s:SUPERSEDES]->(o:Decision) RETURN n.id AS n, o.id AS o, "
        "s.via AS via, s.quote AS quote"
    )
    assert edges == [
        {"n": "adr/0002-new.md", "o": "adr/0001-old.md", "via": "finding",
         "quote": "This replaces the old approach."}
    ]  # fmt: skip
    findings_q.add_findings(store, "adr/0002-new.md", [], replace=True)
    assert store.read("MATCH ()-[s:SUPERSEDES]->() RETURN count(s) AS n") == [{"n": 0}]
