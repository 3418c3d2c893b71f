"""Records ingested on their own (a file, not the corpus folder) are read against the stored
organisation. When a corpus ingest then changes the organisation (a new person, an authority
table), those records must follow it as the corpus's own records do; and the same
organisation, read from org.yaml or from the graph, is the same organisation."""

from __future__ import annotations

import copy
import json
from pathlib import Path

from companybrain.ask.engine import ask
from companybrain.config import Settings
from companybrain.graph.connection import Store
from companybrain.ingest.extract import EXTRACTION_VERSION
from companybrain.ingest.pipeline import ingest
from companybrain.model.answer import RefusalCode
from tests.ingest.corpus_builder import ORG, md, write_corpus
from tests.ingest.test_pipeline import DIRECTORY, TRANSFER

NOW = "2026-12-20T12:00:00Z"
TO_DEE = md(
    {"id": "CC-9", "kind": "change_control", "at": "2026-11-02T09:00:00Z", "author": "cy",
     "about": ["billing-gateway"]},
    "Effective today, Dee Fox owns the Billing Gateway.",
)  # fmt: skip
CHAT = {
    "id": "msg-9", "kind": "chat", "at": "2026-11-20T09:00:00Z", "author": "cy",
    "text": "Bo Lind owns the Billing Gateway.",
}  # fmt: skip


def _owner(store: Store, settings: Settings) -> dict[str, object]:
    return ask(store, settings, "Who owns the Billing Gateway?", now=NOW).to_dict()


def test_a_corpus_record_ingested_on_its_own_is_unchanged(
    store: Store, settings: Settings, tmp_path: Path
) -> None:
    """The organisation read back from the graph (in order of id, `former` null) hashed
    differently from the same org.yaml, so a record read one way was "changed" the other:
    re-ingesting one unchanged file of the corpus re-wrote it."""
    corpus = write_corpus(tmp_path / "c", {"dir.md": DIRECTORY})
    ingest(store, corpus, settings)
    alone = ingest(store, corpus / "records" / "dir.md", settings)
    assert (alone.stored, alone.unchanged) == (0, 1)


def test_records_ingested_on_their_own_follow_a_new_person(
    store: Store, settings: Settings, tmp_path: Path
) -> None:
    corpus = write_corpus(tmp_path / "c", {"dir.md": DIRECTORY})
    single = tmp_path / "cc.md"
    single.write_text(TO_DEE)
    ingest(store, corpus, settings)
    ingest(store, single, settings)  # Dee is no one yet: no one can be named
    refused = _owner(store, settings)
    assert refused["refusal"]["code"] == "MISSING_PROVENANCE", refused
    assert "Dee Fox" in refused["refusal"]["message"]

    bigger = copy.deepcopy(ORG)
    bigger["people"].append({"id": "dee", "name": "Dee Fox", "team": "pay"})
    write_corpus(tmp_path / "c", {"dir.md": DIRECTORY}, org=bigger)
    report = ingest(store, corpus, settings)
    assert report.reread == 1

    answer = _owner(store, settings)
    assert answer["result"] == {"owner": {"id": "dee", "name": "Dee Fox"}}, answer
    assert [c["record"] for c in answer["citations"]] == ["CC-9"]
    assert answer["citations"][0]["quote"] in TO_DEE


def test_records_ingested_on_their_own_follow_a_new_authority_table(
    store: Store, settings: Settings, tmp_path: Path
) -> None:
    corpus = write_corpus(tmp_path / "c", {"dir.md": DIRECTORY})
    single = tmp_path / "chat.jsonl"
    single.write_text(json.dumps(CHAT) + "\n")
    ingest(store, corpus, settings)
    ingest(store, single, settings)
    assert _owner(store, settings)["result"] == {"owner": {"id": "ana", "name": "Ana Ruiz"}}

    trusted = copy.deepcopy(ORG)
    trusted["authority"] = {"chat": 95}  # this company trusts its chat above its directory
    write_corpus(tmp_path / "c", {"dir.md": DIRECTORY}, org=trusted)
    ingest(store, corpus, settings)

    answer = _owner(store, settings)
    assert answer["result"] == {"owner": {"id": "bo", "name": "Bo Lind"}}, answer
    assert [(c["record"], c["authority"]) for c in answer["citations"]] == [("msg-9", 95)]
    again = ingest(store, corpus, settings)
    assert (again.stored, again.reread) == (0, 0)


EFFECTIVE_AT_ITS_TIME = md(
    {"id": "CC-9", "kind": "change_control", "at": "2026-10-01T09:00:00Z",
     "effective_at": "2026-10-01T09:00:00Z", "about": ["billing-gateway"]},
    "Effective 5 October 2026, ownership of the Billing Gateway transfers to Bo Lind.",
)  # fmt: skip


def test_a_record_read_again_keeps_an_effective_at_equal_to_its_time(
    store: Store, settings: Settings, tmp_path: Path
) -> None:
    """Read again from the graph, a record whose `effective_at` was its `at` lost it (only
    a different one was kept), and a sentence's own day then decided: "Effective 5 October",
    which disagrees with the effective_at the file gives and names no owner, named Bo from
    5 October, citing CC-9, once org.yaml changed."""
    corpus = write_corpus(tmp_path / "c", {"dir.md": DIRECTORY})
    single = tmp_path / "cc.md"
    single.write_text(EFFECTIVE_AT_ITS_TIME)
    ingest(store, corpus, settings)
    assert ingest(store, single, settings).rejected_facts["effective_time"] == 1

    bigger = copy.deepcopy(ORG)
    bigger["people"].append({"id": "dee", "name": "Dee Fox", "team": "pay"})
    write_corpus(corpus, {}, org=bigger)
    again = ingest(store, corpus, settings)
    assert (again.reread, again.rejected_facts["effective_time"]) == (1, 1)
    answer = ask(store, settings, "Who owns the Billing Gateway on 2026-10-10?", now=NOW)
    assert answer.result is None  # not Bo: when CC-9 takes effect cannot be read
    assert answer.refusal is not None
    assert answer.refusal.code is RefusalCode.MISSING_PROVENANCE


def test_records_ingested_on_their_own_are_read_again_by_newer_rules(
    store: Store, settings: Settings, tmp_path: Path
) -> None:
    """A record the corpus does not hold (a file ingested on its own, a typed record) was
    read again only for another organisation, never for newer extraction rules: what rules
    since fixed had made of it stayed for good (here, older rules that missed CC-1's
    transfer: Ana answered, citing dir-1)."""
    corpus = write_corpus(tmp_path / "c", {"dir.md": DIRECTORY})
    single = tmp_path / "cc.md"
    single.write_text(TRANSFER)
    chat = tmp_path / "msg.md"
    chat.write_text(md({k: v for k, v in CHAT.items() if k != "text"}, str(CHAT["text"])))
    ingest(store, corpus, settings)
    ingest(store, single, settings)
    ingest(store, chat, settings)
    store.query(
        "MATCH (s:Source {id: 'CC-1'})-[:ATTESTS]->(c:OwnershipClaim) "
        "SET s.proposer = $older DETACH DELETE c",
        {"older": f"rules@{EXTRACTION_VERSION - 1}"},
    )  # as older rules left it
    model = f"model:m@{EXTRACTION_VERSION}"  # read by a model: not for the rules to read again
    store.query("MATCH (s:Source {id: 'msg-9'}) SET s.proposer = $m", {"m": model})
    assert ingest(store, corpus, settings).reread == 1
    assert store.read("MATCH (s:Source {id: 'msg-9'}) RETURN s.proposer AS p") == [{"p": model}]
    answer = ask(store, settings, "Who owns the Billing Gateway?", now=NOW)
    assert answer.result["owner"]["id"] == "bo", answer.result
    assert ingest(store, corpus, settings).reread == 0
