"""A catalog of names is reused while the graph's change marker is unchanged (and, for a
graph without one, when the graph returns the same rows), with its name index. These tests
check that the index finds exactly what searching for every name finds, that every write
moves the marker and no read does, and that a question asked after another connection
changed the graph (an alias in org.yaml, an ADR's title, a new restricted decision) is
answered from the new data."""

from __future__ import annotations

import random
import shutil
from pathlib import Path
from typing import Any

import yaml

from companybrain.ask.catalog import (
    DECISION,
    PERSON,
    PROJECT,
    SERVICE,
    TEAM,
    Catalog,
    Entity,
    load_catalog,
)
from companybrain.ask.engine import ask, viewer_for
from companybrain.config import Settings
from companybrain.graph.connection import Store
from companybrain.ingest.pipeline import ingest
from tests.ask.conftest import DEMO, NOW
from tests.ingest.corpus_builder import md

TYPES = (SERVICE, PROJECT, PERSON, TEAM, DECISION)


def test_the_name_index_finds_what_searching_every_name_finds(demo: Store) -> None:
    sealed = load_catalog(demo)
    assert sealed.sealed
    plain = Catalog(company=sealed.company, timezone=sealed.timezone, entities=sealed.entities)
    names = [*sealed.names(), *(e.id for e in sealed.of(DECISION))]
    filler = ["who", "owns", "the", "and", "what", "about", "billing", "api", "-", "?", "of"]
    rng = random.Random(5)
    questions = [f"Who owns the {n}?" for n in names]
    for _ in range(300):
        words = rng.choices(names, k=rng.randint(1, 3)) + rng.choices(filler, k=4)
        rng.shuffle(words)
        questions.append(" ".join(words))
    kinds = [TYPES, (PERSON, TEAM), (TEAM, PERSON), (SERVICE, PROJECT), (DECISION,), ()]
    found = 0
    for question in questions:
        for types in kinds:
            got = sealed.mentions(question, *types)
            assert got == plain.mentions(question, *types), (question, types)
            found += len(got)
    assert found > len(questions)  # the questions do name things


def test_names_two_entities_share_come_out_in_the_same_order() -> None:
    def made(sealed: bool) -> Catalog:
        catalog = Catalog(sealed=sealed)
        for entity in (
            Entity("core-b", SERVICE, "Core B", ("Core B", "core")),
            Entity("core-a", SERVICE, "Core A", ("Core A", "core", "the core")),
            Entity("ops", TEAM, "Ops", ("Ops", "core ops")),
            Entity("opal", PERSON, "Opal Smith", ("Opal Smith", "ops", "core")),
        ):
            catalog.entities.setdefault(entity.type, {})[entity.id] = entity
        return catalog

    sealed, plain = made(True), made(False)
    for question in ("who owns core?", "the core ops and core", "ops or core b", "core core"):
        for types in ((SERVICE, TEAM, PERSON), (PERSON, SERVICE), (TEAM, PERSON, TEAM)):
            got = sealed.mentions(question, *types)
            assert got == plain.mentions(question, *types), (question, types)
    assert [m.entity.id for m in sealed.mentions("core", PERSON, SERVICE)] == [
        "opal",
        "core-b",
        "core-a",
    ]


def test_a_catalog_is_reused_only_for_the_same_rows(demo: Store) -> None:
    first = load_catalog(demo)
    assert load_catalog(demo) is first
    restricted = load_catalog(demo, viewer_for(demo, "marek"))
    everyone_decisions = {e.id for e in first.of(DECISION)}
    marek_decisions = {e.id for e in restricted.of(DECISION)}
    assert marek_decisions <= everyone_decisions
    if marek_decisions != everyone_decisions:
        assert restricted is not first


class CountingStore(Store):
    """Counts the queries sent, to see whether the catalog was read again."""

    sent = 0

    def query(self, *args: Any, **kwargs: Any) -> list[dict[str, Any]]:
        self.sent += 1
        return super().query(*args, **kwargs)


def test_every_write_moves_the_change_marker_and_no_read_does(store: Store) -> None:
    store.query("CREATE (:Meta {key: 'probe'})")
    written = store.change_marker()
    assert written is not None
    store.read("MATCH (m:Meta) RETURN count(m) AS n")
    assert store.change_marker() == written
    store.query("MATCH (m:Meta {key: 'probe'}) SET m.v = 1")
    after_set = store.change_marker()
    assert after_set not in (None, written)
    store.delete_graph()
    assert store.change_marker() not in (None, written, after_set)


def test_an_unchanged_graph_is_not_read_again(demo_copy: Store, settings: Settings) -> None:
    counting = CountingStore(settings)
    try:
        first = load_catalog(counting)
        sent = counting.sent
        assert load_catalog(counting) is first
        assert counting.sent == sent  # one GET of the marker, no query
        demo_copy.query(
            "MATCH (s:Service {id: 'billing-gateway'}) SET s.aliases = ['payroll pipe']"
        )
        changed = load_catalog(counting)
        assert counting.sent > sent
        assert changed is not first
        assert "payroll pipe" in changed.get("billing-gateway", SERVICE).names  # type: ignore[union-attr]
    finally:
        counting.close()


def _corpus_copy(tmp_path: Path) -> Path:
    corpus = tmp_path / "corpus"
    shutil.copytree(DEMO, corpus)
    return corpus


def test_answers_follow_changes_made_by_another_connection(
    demo_copy: Store, settings: Settings, tmp_path: Path
) -> None:
    store = demo_copy  # the long-lived asker
    corpus = _corpus_copy(tmp_path)
    question = "Who owns moneypipe?"
    before = ask(store, settings, question, now=NOW)
    assert (before.subject or {}).get("id") != "billing-gateway"
    adr = load_catalog(store).get("ADR-001", DECISION)
    assert adr is not None and adr.name == "Record architecture decisions"

    # Another connection (as another process would) changes an alias and an ADR's title.
    org = yaml.safe_load((corpus / "org.yaml").read_text())
    billing = next(s for s in org["services"] if s["id"] == "billing-gateway")
    billing["aliases"] = [*billing["aliases"], "moneypipe"]
    (corpus / "org.yaml").write_text(yaml.safe_dump(org, sort_keys=False))
    record = corpus / "records" / "adr" / "ADR-001.md"
    record.write_text(
        record.read_text().replace(
            "title: Record architecture decisions", "title: Keep decision records"
        )
    )
    other = Store(settings)
    try:
        ingest(other, corpus, settings)
    finally:
        other.close()

    after = ask(store, settings, question, now=NOW)
    assert after.status == "answered", after
    assert (after.subject or {}).get("id") == "billing-gateway"
    renamed = load_catalog(store).get("ADR-001", DECISION)
    assert renamed is not None and renamed.name == "Keep decision records"


def test_a_new_restricted_decision_is_seen_only_by_its_group(
    demo_copy: Store, settings: Settings, tmp_path: Path
) -> None:
    store = demo_copy
    marek, sunita = viewer_for(store, "marek"), viewer_for(store, "sunita")
    for viewer in (marek, sunita):
        assert load_catalog(store, viewer).get("ADR-900", DECISION) is None
    corpus = tmp_path / "one"
    corpus.mkdir()
    (corpus / "ADR-900.md").write_text(
        md(
            {
                "id": "ADR-900",
                "kind": "adr",
                "at": "2026-10-01T10:00:00Z",
                "author": "sunita",
                "title": "Tokenise card numbers at the edge",
                "status": "accepted",
                "acl": ["payments"],
            },
            "# ADR-900: Tokenise card numbers at the edge\n\n## Decision\n\n"
            "We will tokenise card numbers at the edge before they reach any service.\n",
        )
    )
    other = Store(settings)
    try:
        ingest(other, corpus / "ADR-900.md", settings)
    finally:
        other.close()

    assert load_catalog(store, sunita).get("ADR-900", DECISION) is not None
    assert load_catalog(store, marek).get("ADR-900", DECISION) is None
    hidden = ask(store, settings, "Why did we decide ADR-900?", now=NOW, as_person="marek")
    assert "ADR-900" not in str(hidden.result or "")
    seen = ask(store, settings, "Why did we decide ADR-900?", now=NOW, as_person="sunita")
    assert (seen.subject or {}).get("id") == "ADR-900", seen
