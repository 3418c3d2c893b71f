"""A record that hands a service to someone org.yaml does not list yet (a new hire). The
offline extractor only knew listed names, so the statement was dropped without a word and
the owner before it answered, with a citation, although the newest and highest record says
ownership moved away from them. Such an owner is now kept as a name: the answer is refused
while that record decides it, the ingest says why, and listing the person answers."""

from __future__ import annotations

import copy
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from companybrain.ask.engine import ask
from companybrain.config import Settings
from companybrain.graph.connection import Store
from companybrain.ingest.org import org_from_mapping
from companybrain.ingest.pipeline import ingest
from companybrain.model.facts import OwnershipFact, Proposal
from companybrain.model.records import Record
from companybrain.policy import verify as verifier
from companybrain.policy.unknown_owner import VACANT
from companybrain.proposers import rules
from tests.ingest.corpus_builder import ORG, md, write_corpus
from tests.ingest.test_pipeline import DIRECTORY
from tests.support.model_server import ScriptedModelServer, tool_call

NOW = "2026-12-20T12:00:00Z"


def _cc(body: str, at: str = "2026-11-02T09:00:00Z", rid: str = "CC-9") -> str:
    return md(
        {"id": rid, "kind": "change_control", "at": at, "author": "cy",
         "about": ["billing-gateway"]},
        body,
    )  # fmt: skip


TO_ZARA = _cc("Ownership of the Billing Gateway transfers from Ana Ruiz to Zara Quinn.")


def _ask(store: Store, settings: Settings, question: str) -> dict[str, object]:
    return ask(store, settings, question, now=NOW).to_dict()


def test_a_transfer_to_an_unlisted_person_refuses_instead_of_naming_the_owner_before(
    store: Store, settings: Settings, tmp_path: Path
) -> None:
    corpus = write_corpus(tmp_path / "c", {"dir.md": DIRECTORY, "cc.md": TO_ZARA})
    report = ingest(store, corpus, settings)
    assert [w.message for w in report.warnings if "Zara Quinn" in w.message], report.warnings

    answer = _ask(store, settings, "Who owns the Billing Gateway?")
    assert answer["status"] == "refused", answer
    assert answer["refusal"]["code"] == "MISSING_PROVENANCE"
    assert "Zara Quinn" in answer["refusal"]["message"]
    assert [c["record"] for c in answer["citations"]] == ["CC-9"]
    assert [(o["record"], o["owner"]) for o in answer["outranked"]] == [("dir-1", "ana")]

    # Before the transfer, the directory still answers.
    before = _ask(store, settings, "Who owned the Billing Gateway on 2026-10-01?")
    assert before["result"] == {"owner": {"id": "ana", "name": "Ana Ruiz"}}, before

    # Once org.yaml lists her, the same record names her.
    bigger = copy.deepcopy(ORG)
    bigger["people"].append({"id": "zara", "name": "Zara Quinn", "team": "pay"})
    write_corpus(tmp_path / "c", {"dir.md": DIRECTORY, "cc.md": TO_ZARA}, org=bigger)
    assert not ingest(store, corpus, settings).warnings
    after = _ask(store, settings, "Who owns the Billing Gateway?")
    assert after["result"] == {"owner": {"id": "zara", "name": "Zara Quinn"}}, after


def test_an_unlisted_owner_outranked_changes_nothing(
    store: Store, settings: Settings, tmp_path: Path
) -> None:
    chat = {"id": "msg-1", "kind": "chat", "at": "2026-11-20T09:00:00Z", "author": "cy",
            "text": "Zara Quinn owns the Billing Gateway now."}  # fmt: skip
    corpus = write_corpus(tmp_path / "c", {"dir.md": DIRECTORY}, jsonl=[chat])
    ingest(store, corpus, settings)
    answer = _ask(store, settings, "Who owns the Billing Gateway?")
    assert answer["result"] == {"owner": {"id": "ana", "name": "Ana Ruiz"}}, answer
    assert [(o["record"], o["owner"], o["why"]) for o in answer["outranked"]] == [
        ("msg-1", None, "lower authority")
    ]
    assert "naming no one org.yaml lists" in answer["explanation"]


def test_a_newer_directory_row_naming_an_unlisted_person_refuses(
    store: Store, settings: Settings, tmp_path: Path
) -> None:
    newer = DIRECTORY.replace("dir-1", "dir-2").replace("2026-09-01", "2026-11-01")
    newer = newer.replace("Ana Ruiz", "Zara Quinn")
    corpus = write_corpus(tmp_path / "c", {"dir.md": DIRECTORY, "dir2.md": newer})
    ingest(store, corpus, settings)
    answer = _ask(store, settings, "Who owns the Billing Gateway?")
    assert answer["refusal"]["code"] == "MISSING_PROVENANCE", answer
    assert [c["record"] for c in answer["citations"]] == ["dir-2"]


def _record(text: str) -> Record:
    at = datetime(2026, 11, 2, tzinfo=UTC)
    return Record("CC-9", "change_control", at, text, about=("billing-gateway",))


def _unlisted(text: str) -> list[tuple[str, str]]:
    org = org_from_mapping(ORG)
    record = _record(text)
    verified = verifier.verify(rules.propose(record, org), record, org)
    return [(f.service, f.owner) for f in verified.unlisted]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("The Billing Gateway is handed over to Zara Quinn on Monday.", "Zara Quinn"),
        ("Owner: Zara Quinn", "Zara Quinn"),
        ("Zara owns the Billing Gateway from today.", "Zara"),
        # Not current owners, or not names: nothing is kept.
        ("Zara Quinn used to own the Billing Gateway.", None),
        ("Zara Quinn does not own the Billing Gateway.", None),
        ("The Billing Gateway moves to the payments team.", None),
        ("Ownership of the Billing Gateway moves to TBD.", None),
        # A line or row that says there is no owner: a claim of no one.
        ("Owner: (vacant, see PLAT-77)", VACANT),
        ("Owner: TBD", VACANT),
        ("| Service | Owner |\n| --- | --- |\n| Billing Gateway | unassigned |", VACANT),
        ("| Service | Owner |\n| --- | --- |\n| Billing Gateway | TBD (Bo proposed) |", VACANT),
        ("Owner: vacant, ask Bo Lind", VACANT),
        ("| Service | Owner |\n| --- | --- |\n| Billing Gateway | Bo Lind (vacant soon) |", None),
        ("| Service | Backup |\n| --- | --- |\n| Billing Gateway | none |", None),
        ("The Billing Gateway moves to Payments.", None),  # a team, not a person
        ("Zara Quinn reviewed the Billing Gateway runbook.", None),
        ("Who owns the Billing Gateway?", None),
        ("Everyone owns the Billing Gateway.", None),
        ("\u0412o Lind owns the Billing Gateway.", None),  # a Cyrillic look-alike of Bo
    ],
)
def test_which_names_are_kept_as_unlisted_owners(text: str, expected: str | None) -> None:
    assert _unlisted(text) == ([("billing-gateway", expected)] if expected else [])


def test_a_newer_directory_row_saying_vacant_refuses_instead_of_naming_the_owner_before(
    store: Store, settings: Settings, tmp_path: Path
) -> None:
    """A directory that lists the service as vacant had no claim at all: the older
    directory's owner answered, with a citation, for a service no one owns any more."""
    newer = DIRECTORY.replace("dir-1", "dir-2").replace("2026-09-01", "2026-11-01")
    newer = newer.replace("Ana Ruiz", "(vacant, see PLAT-77)")
    corpus = write_corpus(tmp_path / "c", {"dir.md": DIRECTORY, "dir2.md": newer})
    report = ingest(store, corpus, settings)
    assert not report.warnings  # nothing to add to org.yaml
    answer = _ask(store, settings, "Who owns the Billing Gateway?")
    assert answer["refusal"]["code"] == "NO_CLAIM", answer
    assert "dir-2 lists no owner" in answer["refusal"]["message"]
    assert [c["record"] for c in answer["citations"]] == ["dir-2"]
    assert [(o["record"], o["owner"]) for o in answer["outranked"]] == [("dir-1", "ana")]
    before = _ask(store, settings, "Who owned the Billing Gateway on 2026-10-01?")
    assert before["result"] == {"owner": {"id": "ana", "name": "Ana Ruiz"}}, before


def test_a_listed_person_written_by_name_is_not_an_unlisted_owner() -> None:
    """A model that gives a listed person's name instead of their id is refused as before:
    the name is someone the organisation knows."""
    org = org_from_mapping(ORG)
    record = _record("Ownership of the Billing Gateway transfers to Bo Lind.")
    fact = OwnershipFact("CC-9", "billing-gateway", "Bo Lind", record.text)
    verified = verifier.verify(Proposal("CC-9", (fact,), proposer="model"), record, org)
    assert verified.unlisted == ()
    assert [r.check for r in verified.rejected] == [verifier.UNKNOWN_ID]


def test_a_part_of_a_listed_persons_name_is_no_unlisted_owner(
    store: Store,
    model_settings: Settings,
    model_server: ScriptedModelServer,
    tmp_path: Path,
) -> None:
    """A model giving "Lind" (of Bo Lind, the new owner) or "Ruiz" (of Ana Ruiz, the old
    one) as the owner had it kept as someone org.yaml does not list: every answer about the
    billing gateway from the transfer on was refused MISSING_PROVENANCE naming "Lind",
    instead of naming Bo. The rules never read a part of a listed name as a new one."""
    cc = _cc("Ownership of the Billing Gateway transfers from Ana Ruiz to Bo Lind.")
    quote = "Ownership of the Billing Gateway transfers from Ana Ruiz to Bo Lind."
    row = {"service": "billing-gateway", "owner": "ana", "quote": "| Billing Gateway | Ana Ruiz |"}
    said = [
        {"service": "billing-gateway", "owner": owner, "quote": quote}
        for owner in ("bo", "Lind", "Ruiz")
    ]

    def reply(request: dict[str, Any]) -> dict[str, Any]:
        user = request["messages"][-1]["content"]
        found = said if "Record CC-9 (" in user else [row]
        return tool_call("record_facts", {"ownership": found, "decisions": []})

    model_server.play(reply, reply)
    llm = model_settings.with_(proposer="model", home=tmp_path / "home")
    report = ingest(store, write_corpus(tmp_path / "c", {"dir.md": DIRECTORY, "cc.md": cc}), llm)
    assert not [w.message for w in report.warnings if "Lind" in w.message or "Ruiz" in w.message]
    assert sorted(
        (r["check"], r["reason"]) for r in report.rejected_detail if r["record"] == "CC-9"
    ) == [
        ("unknown_id", "'Lind' is not a person in the organisation"),
        ("unknown_id", "'Ruiz' is not a person in the organisation"),
    ]
    answer = _ask(store, llm, "Who owns the Billing Gateway?")
    assert answer["result"] == {"owner": {"id": "bo", "name": "Bo Lind"}}, answer


def test_a_name_two_people_share_refuses_instead_of_naming_the_owner_before(
    store: Store, settings: Settings, tmp_path: Path
) -> None:
    """'Ace' is an alias of two people: the sentence names no one person, and was dropped
    without a word, so the directory's older owner answered, with a citation."""
    org = copy.deepcopy(ORG)
    org["people"][1]["aliases"] = ["Ace"]
    org["people"][2]["aliases"] = ["Ace"]
    cc = _cc("Effective today, Ace owns the Billing Gateway.")
    corpus = write_corpus(tmp_path / "c", {"dir.md": DIRECTORY, "cc.md": cc}, org=org)
    report = ingest(store, corpus, settings)
    assert [w.message for w in report.warnings if "to 2 people (bo, cy)" in w.message], report
    answer = _ask(store, settings, "Who owns the Billing Gateway?")
    assert answer["refusal"]["code"] == "MISSING_PROVENANCE", answer
    assert "names Ace as the owner" in answer["refusal"]["message"]
