"""An organisation that drops a service, a project, a team or a person: the graph follows
on the next ingest. Merged in and never removed, a dropped service was still answered for,
from the records about it written before."""

from __future__ import annotations

import copy
from datetime import UTC, datetime
from pathlib import Path

import pytest

from companybrain.ask.engine import ask
from companybrain.config import Settings
from companybrain.errors import InputError
from companybrain.graph.connection import Store
from companybrain.graph.queries import ask_q
from companybrain.ingest.pipeline import add_typed_record, ingest
from companybrain.model.records import Record
from tests.ingest.corpus_builder import ORG, md, write_corpus
from tests.ingest.test_pipeline import CHAT, DIRECTORY
from tests.ingest.test_pipeline import TRANSFER as BILLING_TRANSFER

NOW = "2026-10-20T12:00:00Z"
AT = datetime(2026, 10, 16, tzinfo=UTC)
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


def _without(person: str) -> dict[str, object]:
    smaller = copy.deepcopy(ORG)
    smaller["people"] = [p for p in ORG["people"] if p["id"] != person]
    smaller["teams"] = [
        {k: v for k, v in t.items() if not (k == "lead" and v == person)} for t in ORG["teams"]
    ]
    return smaller


def test_an_owner_who_left_is_still_the_owner_the_records_name(
    store: Store, settings: Settings, tmp_path: Path
) -> None:
    """The transfer to Bo stays a claim once Bo leaves: dropped, it let the directory's
    older owner (the one the transfer took it from) answer with a citation."""
    files = {"dir.md": DIRECTORY, "cc.md": BILLING_TRANSFER}
    corpus = write_corpus(tmp_path / "c", files, jsonl=[CHAT], org=ORG)
    ingest(store, corpus, settings)
    write_corpus(tmp_path / "c", files, jsonl=[CHAT], org=_without("bo"))
    report = ingest(store, corpus, settings)
    assert report.rejected == [] and report.stored == 3  # re-read against the new org

    answer = ask(store, settings, "Who owns the billing gateway?", now=NOW)
    assert answer.status == "answered" and answer.result is not None, answer.to_dict()
    assert answer.result["owner"] == {"id": "bo", "name": "Bo Lind"}
    assert [c.record for c in answer.citations] == ["CC-1"]
    assert "Note: Bo Lind is no longer in the organisation" in answer.explanation
    about = ask(store, settings, "Tell me about Bo Lind.", now=NOW)
    assert about.tool != "person_or_team", "not a person of the organisation"  # a search
    with pytest.raises(InputError, match="unknown person id 'bo'"):
        add_typed_record(
            store, Record(id="t-1", kind="chat", at=AT, text="hi", author="bo"), settings
        )

    write_corpus(tmp_path / "c", files, jsonl=[CHAT], org=ORG)  # Bo is back
    ingest(store, corpus, settings)
    answer = ask(store, settings, "Who owns the billing gateway?", now=NOW)
    assert answer.result == {"owner": {"id": "bo", "name": "Bo Lind"}}
    assert "Note:" not in answer.explanation


def test_the_note_on_an_owner_who_left_says_nothing_the_records_deny(
    store: Store, settings: Settings, tmp_path: Path
) -> None:
    """Ana left; asked about 1 October, the directory names her. The note said "and no
    later record names another owner", while CC-1 hands the gateway to Bo a fortnight
    later (and a chat names her too, outranked): the user was told no successor was
    recorded."""
    files = {"dir.md": DIRECTORY, "cc.md": BILLING_TRANSFER}
    corpus = write_corpus(tmp_path / "c", files, jsonl=[CHAT], org=ORG)
    ingest(store, corpus, settings)
    write_corpus(tmp_path / "c", files, jsonl=[CHAT], org=_without("ana"))
    ingest(store, corpus, settings)
    answer = ask(store, settings, "Who owned the billing gateway on 2026-10-01?", now=NOW)
    assert answer.result == {"owner": {"id": "ana", "name": "Ana Ruiz"}}
    assert [c.record for c in answer.citations] == ["dir-1"]
    assert "Note: Ana Ruiz is no longer in the organisation" in answer.explanation
    assert "no later record" not in answer.explanation, answer.explanation
    later = ask(store, settings, "Who owns the billing gateway?", now=NOW)
    assert later.result == {"owner": {"id": "bo", "name": "Bo Lind"}}


def test_records_by_someone_who_left_stay_and_they_are_no_one_to_ask(
    store: Store, settings: Settings, tmp_path: Path
) -> None:
    files = {"dir.md": DIRECTORY, "cc.md": BILLING_TRANSFER}
    corpus = write_corpus(tmp_path / "c", files, jsonl=[CHAT], org=ORG)
    ingest(store, corpus, settings)
    assert ask(store, settings, "Who knows the billing gateway?", now=NOW).status == "answered"

    write_corpus(tmp_path / "c", files, jsonl=[CHAT], org=_without("cy"))
    report = ingest(store, corpus, settings)
    assert report.rejected == [], "Cy wrote them while here: they are still records"
    owner = ask(store, settings, "Who owns the billing gateway?", now=NOW)
    assert owner.result == {"owner": {"id": "bo", "name": "Bo Lind"}}
    knows = ask(store, settings, "Who knows the billing gateway?", now=NOW)
    assert knows.status == "refused" and knows.refusal is not None
    assert "only Cy Park, who are no longer in the organisation" in knows.refusal.message


def _renamed(new_id: str, email: str | None = None) -> dict[str, object]:
    """ORG with Bo listed under another id (and e-mail)."""
    org = copy.deepcopy(ORG)
    for person in org["people"]:
        if person["id"] == "bo":
            person["id"] = new_id
            if email:
                person["email"] = email
    return org


def test_a_person_whose_id_changed_keeps_what_the_records_name_them(
    store: Store, settings: Settings, tmp_path: Path
) -> None:
    """`id: bo` became `id: bo.lind`, the name Bo Lind unchanged. The old id stayed as a
    former member with the same name, so "transfers to Bo Lind" named two people, and who
    owns the billing gateway was refused for good ("list them"), whatever the user did
    short of `brain reset`. A member now takes the name over from a former member of the
    same name, and the run says so once."""
    files = {"dir.md": DIRECTORY, "cc.md": BILLING_TRANSFER}
    corpus = write_corpus(tmp_path / "c", files, jsonl=[CHAT], org=ORG)
    ingest(store, corpus, settings)
    write_corpus(tmp_path / "c", files, jsonl=[CHAT], org=_renamed("bo.lind"))
    report = ingest(store, corpus, settings)
    [warning] = report.warnings
    assert warning.where.endswith("org.yaml") and not warning.fatal
    assert warning.message.startswith(
        "org.yaml no longer lists bo and lists bo.lind under the same name, Bo Lind: taken "
        "for the same person under a new id, so records naming Bo Lind name bo.lind"
    )
    answer = ask(store, settings, "Who owns the billing gateway?", now=NOW)
    assert answer.result == {"owner": {"id": "bo.lind", "name": "Bo Lind"}}, answer.to_dict()
    assert [c.record for c in answer.citations] == ["CC-1"]
    assert "Note:" not in answer.explanation
    again = ingest(store, corpus, settings)
    assert again.warnings == [] and again.stored == 0
    answer = ask(store, settings, "Who owns the billing gateway?", now=NOW)
    assert answer.result == {"owner": {"id": "bo.lind", "name": "Bo Lind"}}


def test_other_people_sharing_a_name_with_someone_who_left_still_name_no_one(
    store: Store, settings: Settings, tmp_path: Path
) -> None:
    """The rule is for one person under a new id: a member of that name with another
    e-mail, or two members of that name, are not taken for the one who left."""
    files = {"dir.md": DIRECTORY, "cc.md": BILLING_TRANSFER}
    first = _renamed("bo", email="bo@testco.example")
    corpus = write_corpus(tmp_path / "c", files, jsonl=[CHAT], org=first)
    ingest(store, corpus, settings)
    write_corpus(
        tmp_path / "c", files, jsonl=[CHAT], org=_renamed("bo.lind", email="lind@testco.example")
    )
    report = ingest(store, corpus, settings)
    assert [w.message for w in report.warnings if "org.yaml gives that name to 2" in w.message]
    refused = ask(store, settings, "Who owns the billing gateway?", now=NOW)
    assert refused.refusal is not None and refused.refusal.code == "MISSING_PROVENANCE"

    two = _renamed("bo.lind")
    two["people"].append({"id": "bo.l", "name": "Bo Lind"})  # type: ignore[attr-defined]
    write_corpus(tmp_path / "c", files, jsonl=[CHAT], org=two)
    report = ingest(store, corpus, settings)
    assert not [w for w in report.warnings if "under the same name" in w.message]
    refused = ask(store, settings, "Who owns the billing gateway?", now=NOW)
    assert refused.refusal is not None and refused.refusal.code == "MISSING_PROVENANCE"


def test_a_person_whose_id_changed_keeps_their_expertise(
    store: Store, settings: Settings, tmp_path: Path
) -> None:
    """Records whose front matter names the old id (`resolved_by: bo`, `author: bo`)
    stayed with the former `bo`, no one to ask: "Who knows the billing gateway?" left Bo
    Lind out (or refused, naming him as someone who left), and who worked with whom lost
    him. They are the member's under the rule that gives them the names (one member now
    with the same full name and no other e-mail); two people of that name keep theirs."""
    ticket = md(
        {"id": "T-1", "kind": "ticket", "at": "2026-10-02T09:00:00Z", "status": "resolved",
         "author": "ana", "resolved_by": "bo", "about": ["billing-gateway"]},
        "Billing gateway timeouts: fixed the retry budget.",
    )  # fmt: skip
    comment = md(
        {"id": "T-1-c1", "kind": "comment", "at": "2026-10-02T10:00:00Z", "author": "bo",
         "parent": "T-1"},
        "The retry budget was 0.",
    )  # fmt: skip
    chat = {"id": "m-1", "kind": "chat", "at": "2026-10-03T09:00:00Z", "author": "ana",
            "text": "Billing gateway retries look fine now."}  # fmt: skip
    files = {"t1.md": ticket, "c1.md": comment}
    corpus = write_corpus(tmp_path / "c", files, jsonl=[chat], org=ORG)
    ingest(store, corpus, settings)

    def experts() -> list[str]:
        answer = ask(store, settings, "Who knows the billing gateway?", now=NOW)
        assert answer.result is not None, answer.to_dict()
        return [e["id"] for e in answer.result["experts"]]

    assert experts() == ["bo", "ana"]
    write_corpus(tmp_path / "c", files, jsonl=[chat], org=_renamed("bo.lind"))
    ingest(store, corpus, settings)
    assert experts() == ["bo.lind", "ana"]
    ask_q.refresh_worked_with(store)
    worked = store.read("MATCH (a:Person)-[:WORKED_WITH]->(b:Person) RETURN a.id AS a, b.id AS b")
    assert {(r["a"], r["b"]) for r in worked} == {("ana", "bo.lind"), ("bo.lind", "ana")}

    two = _renamed("bo.lind")
    two["people"].append({"id": "bo.l", "name": "Bo Lind"})  # type: ignore[attr-defined]
    write_corpus(tmp_path / "c", files, jsonl=[chat], org=two)
    ingest(store, corpus, settings)
    assert experts() == ["ana"]  # the records' `bo` is neither of them
