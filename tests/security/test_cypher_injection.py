"""Cypher injection: hostile strings in every value path (record ids, kinds, titles, text,
channels, parents, unknown fields; people, team, service and project names and aliases;
access groups; questions) go through the real ingest → graph → read path, and the graph
holds exactly what was given and nothing else changed."""

from __future__ import annotations

import contextlib
import json
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import assume, given
from hypothesis import strategies as st

from companybrain.ask.engine import ask
from companybrain.config import Settings
from companybrain.errors import BrainError
from companybrain.graph.connection import Store
from companybrain.graph.queries import records_q
from companybrain.ingest.org import read_org
from companybrain.ingest.pipeline import finish, ingest
from tests.ingest.corpus_builder import ORG, md, write_corpus
from tests.security.graphcheck import count_nodes, digest, sources
from tests.security.hostile import examples, hostile_id, hostile_name, hostile_text, tried

NOW = "2026-10-20T12:00:00Z"
BASELINE = {
    "cc-1.md": md(
        {"id": "CC-1", "kind": "change_control", "at": "2026-10-01T09:00:00Z"},
        "Ownership of the Billing Gateway transfers to Bo Lind. Bo Lind owns the billing gateway.",
    ),
    "t-1.md": md(
        {"id": "T-1", "kind": "ticket", "at": "2026-10-02T09:00:00Z", "resolved_by": "cy"},
        "Search index rebuild is slow.",
    ),
}


@pytest.fixture(scope="module")
def baseline(base_settings: Settings, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    """A small corpus every example runs against; examples put the graph back as it was."""
    settings = base_settings.with_(graph=f"t_sec_{uuid.uuid4().hex[:12]}")
    store = Store(settings)
    ingest(store, write_corpus(tmp_path_factory.mktemp("base"), BASELINE), settings)
    yield store
    store.delete_graph()
    store.close()


@pytest.fixture(scope="module")
def org_store(base_settings: Settings) -> Iterator[Store]:
    """A graph of its own for the org suite, which rewrites every name (the others keep
    the baseline's)."""
    settings = base_settings.with_(graph=f"t_sec_org_{uuid.uuid4().hex[:12]}")
    store = Store(settings)
    yield store
    store.delete_graph()
    store.close()


def _record(draw_id: str, fields: dict[str, str], extra_key: str, extra: str) -> dict[str, Any]:
    return {
        "id": draw_id,
        "at": "2026-10-05T10:00:00+02:00",
        **fields,
        extra_key: extra,
    }


_RECORD = st.builds(
    _record,
    hostile_id(),
    st.fixed_dictionaries(
        {
            "kind": hostile_name(),
            "title": hostile_text(),
            "text": hostile_text(12),
            "channel": hostile_text(),
            "parent": hostile_name(),
            "status": hostile_text(),
        }
    ),
    hostile_name().filter(lambda k: k not in {"id", "at", "kind", "title", "text", "channel",
                                              "parent", "status", "supersedes", "motivated_by",
                                              "resolved_by", "about", "acl", "author",
                                              "effective_at"}),
    hostile_text(),
)  # fmt: skip


@examples(150)
@given(records=st.lists(_RECORD, min_size=1, max_size=4, unique_by=lambda r: r["id"].strip()))
def test_hostile_records_round_trip(
    baseline: Store, tmp_path_factory: pytest.TempPathFactory, records: list[dict[str, Any]]
) -> None:
    tried("cypher_injection.records", len(records))
    before, nodes_before = digest(baseline), count_nodes(baseline)
    folder = tmp_path_factory.mktemp("hostile")
    (folder / "records.jsonl").write_text(
        "".join(json.dumps(r) + "\n" for r in records), encoding="utf-8"
    )
    ids = [r["id"].strip() for r in records]
    try:
        report = ingest(baseline, folder, baseline.settings)
        assert report.rejected == [], report.rejected
        stored = sources(baseline)
        for raw, rid in zip(records, ids, strict=True):
            got = stored[rid]
            assert got["kind"] == raw["kind"]
            assert got["title"] == raw["title"]
            assert got["text"] == raw["text"]
            assert got["channel"] == raw["channel"]
            assert got["parent"] == raw["parent"]
            assert got["status"] == raw["status"]
            extra = {k: v for k, v in raw.items() if k not in {"id", "at", "kind", "title",
                     "text", "channel", "parent", "status"}}  # fmt: skip
            assert json.loads(got["extra_json"]) == extra
        assert len(stored) == len(BASELINE) + len(records)
        assert count_nodes(baseline) >= nodes_before + len(records)
    finally:
        records_q.delete_sources(
            baseline, [k for k in sources(baseline) if k not in {"CC-1", "T-1"}]
        )
        finish(baseline)
    assert digest(baseline) == before, "a hostile record changed something else in the graph"


def test_a_one_megabyte_record_round_trips(baseline: Store, tmp_path: Path) -> None:
    tried("cypher_injection.records", 1)
    before = digest(baseline)
    text = ("'\"\\$}{ MATCH (n) DETACH DELETE n // \u202e\u200b\U0001f600 " * 20_000)[:990_000]
    record = {"id": "BIG-1", "kind": "wiki", "at": "2026-10-05T10:00:00Z", "title": text[:5000]}
    (tmp_path / "records.jsonl").write_text(json.dumps({**record, "text": text}) + "\n")
    settings = baseline.settings.with_(max_record_bytes=8_000_000)
    report = ingest(baseline, tmp_path, settings)
    assert report.rejected == [] and report.stored == 1
    got = sources(baseline)["BIG-1"]
    assert got["text"] == text and got["title"] == text[:5000]
    records_q.delete_sources(baseline, ["BIG-1"])
    finish(baseline)
    assert digest(baseline) == before


def _org(names: list[str], aliases: list[list[str]], groups: list[str], company: str) -> dict:
    org = json.loads(json.dumps(ORG))
    org["company"] = company
    for i, person in enumerate(org["people"]):
        person["name"] = names[i]
        person["aliases"] = aliases[i]
        person["groups"] = [groups[i]]
    org["teams"][0]["name"], org["teams"][1]["name"] = names[3], names[4]
    org["services"][0]["name"], org["services"][0]["aliases"] = names[5], aliases[3]
    org["services"][1]["name"] = names[6]
    org["projects"][0]["name"], org["projects"][0]["aliases"] = names[7], aliases[4]
    return org


_ORG = st.builds(
    _org,
    st.lists(hostile_name(), min_size=8, max_size=8),
    st.lists(st.lists(hostile_text(4), max_size=3), min_size=5, max_size=5),
    st.lists(hostile_id(), min_size=3, max_size=3),
    hostile_name(),
)


def _yaml_round_trips(value: Any) -> bool:
    return yaml.safe_load(yaml.safe_dump(value, allow_unicode=True)) == value


@examples(80)
@given(org=_ORG)
def test_hostile_org_names_round_trip(
    org_store: Store, tmp_path_factory: pytest.TempPathFactory, org: dict[str, Any]
) -> None:
    baseline = org_store
    assume(_yaml_round_trips(org))
    tried("cypher_injection.org_values", 8 + sum(len(p["aliases"]) for p in org["people"]) + 4)
    folder = write_corpus(tmp_path_factory.mktemp("org"), BASELINE, org=org)
    if not sources(baseline):
        ingest(baseline, write_corpus(tmp_path_factory.mktemp("base"), BASELINE), baseline.settings)
    records_before = sources(baseline)
    expected = read_org(folder / "org.yaml")
    ingest(baseline, folder, baseline.settings)
    stored = records_q.read_org(baseline)
    assert stored is not None
    assert stored["company"] == expected.company
    by_id = {p["id"]: p for p in stored["people"]}
    assert set(by_id) == {p.id for p in expected.people}
    for person in expected.people:
        got = by_id[person.id]
        assert got["name"] == person.name
        assert list(got["aliases"] or []) == list(person.aliases)
        assert list(got["groups"] or []) == list(person.groups)
    teams = {t["id"]: t["name"] for t in stored["teams"]}
    assert teams == {t.id: t.name for t in expected.teams}
    services = {s["id"]: (s["name"], list(s["aliases"] or [])) for s in stored["services"]}
    assert services == {s.id: (s.name, list(s.aliases)) for s in expected.services}
    projects = {p["id"]: (p["name"], list(p["aliases"] or [])) for p in stored["projects"]}
    assert projects == {p.id: (p.name, list(p.aliases)) for p in expected.projects}
    after = sources(baseline)
    assert set(after) == set(records_before)  # nothing added or removed
    assert all(after[k]["text"] == v["text"] for k, v in records_before.items())


@examples(200)
@given(question=hostile_name(), as_of=st.one_of(st.none(), hostile_name()))
def test_hostile_questions_change_nothing(
    baseline: Store, question: str, as_of: str | None
) -> None:
    tried("cypher_injection.questions")
    before = digest(baseline)
    try:
        answer = ask(baseline, baseline.settings, question, now=NOW, as_of=as_of)
        assert answer.status in {"answered", "refused"}
    except BrainError:
        pass  # a clear refusal of the input is fine; anything else fails the test
    assert digest(baseline) == before


@examples(100)
@given(words=st.lists(hostile_text(3), min_size=1, max_size=3))
def test_hostile_search_words_change_nothing(baseline: Store, words: list[str]) -> None:
    """The same through the search path, with words around a real subject so the question
    reaches the full-text query."""
    tried("cypher_injection.questions")
    before = digest(baseline)
    question = "search records about billing gateway " + " ".join(words)
    with contextlib.suppress(BrainError):
        ask(baseline, baseline.settings, question, now=NOW)
    assert digest(baseline) == before


@examples(80)
@given(before=hostile_text(4), middle=hostile_text(2), after=hostile_text(4))
def test_hostile_quotes_round_trip(
    baseline: Store,
    tmp_path_factory: pytest.TempPathFactory,
    before: str,
    middle: str,
    after: str,
) -> None:
    """An ownership sentence with hostile text around and inside it: the quotes the verifier
    kept are the quotes the graph holds, byte for byte, and the answer cites them."""
    from companybrain.ingest.org_codec import org_from_graph
    from companybrain.ingest.records import to_record
    from companybrain.policy.verify import verify
    from companybrain.proposers.rules import propose

    tried("cypher_injection.quotes")
    text = f"{before}\nBo Lind owns the Billing Gateway {middle}.\n{after}"
    raw = {"id": "Q-1", "kind": "change_control", "at": "2026-10-09T10:00:00Z", "text": text}
    org = org_from_graph(baseline)
    assert org is not None
    record, _ = to_record({**raw, "__where__": "q"}, org)
    kept = {f.quote for f in verify(propose(record, org), record, org).ownership}
    tried("cypher_injection.quotes_kept", len(kept))
    folder = tmp_path_factory.mktemp("quotes")
    (folder / "records.jsonl").write_text(json.dumps(raw) + "\n", encoding="utf-8")
    before_digest = digest(baseline)
    try:
        ingest(baseline, folder, baseline.settings)
        rows = baseline.read(
            "MATCH (:Source {id: 'Q-1'})-[a:ATTESTS]->(:OwnershipClaim) RETURN a.quote AS q"
        )
        assert {r["q"] for r in rows} == kept
        answer = ask(baseline, baseline.settings, "Who owns the billing gateway?", now=NOW)
        for citation in answer.citations:
            if citation.record == "Q-1":
                assert citation.quote in kept
    finally:
        records_q.delete_sources(baseline, ["Q-1"])
        finish(baseline)
    assert digest(baseline) == before_digest
