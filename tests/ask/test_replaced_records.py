"""A record that replaces another (front matter `supersedes`, as the corpus format allows
for any record): the replaced record's ownership claims count for no day once the
replacing one is written, for those who may see it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from companybrain.ask.engine import ask
from companybrain.config import Settings
from companybrain.graph.connection import Store
from companybrain.ingest import pipeline, writer
from companybrain.ingest.pipeline import ingest
from tests.graph.test_no_label_scan import listing_queries, recording, scans
from tests.ingest.corpus_builder import md, write_corpus
from tests.ingest.test_pipeline import DIRECTORY

NOW = "2026-11-20T12:00:00Z"
ANNOUNCED = md(
    {"id": "CC-1", "kind": "change_control", "at": "2026-10-01T09:00:00Z",
     "effective_at": "2026-11-01T09:00:00Z", "about": ["billing-gateway"]},
    "Effective 1 November, ownership of the billing gateway transfers from Ana Ruiz to Bo Lind.",
)  # fmt: skip


def cancelled(acl: list[str] | None = None) -> str:
    front: dict[str, Any] = {"id": "CC-2", "kind": "change_control",
                             "at": "2026-10-10T09:00:00Z", "supersedes": ["CC-1"]}  # fmt: skip
    if acl is not None:
        front["acl"] = acl
    return md(front, "CC-1 is cancelled: Ana Ruiz remains the owner of the billing gateway.")


def owner(store: Store, settings: Settings, **kw: Any) -> tuple[str | None, list[str]]:
    kw.setdefault("now", NOW)
    answer = ask(store, settings, "Who owns the billing gateway on 2026-11-05?", **kw)
    found = answer.result["owner"]["id"] if answer.result else None
    return found, [c.record for c in answer.citations]


def test_a_cancelled_transfer_names_no_owner_once_cancelled(
    store: Store, settings: Settings, tmp_path: Path
) -> None:
    """CC-2 replaces CC-1, the transfer to Bo announced for 1 November. Asked about 5
    November, Bo was the answer, citing the cancelled CC-1 (its effective time is later
    than CC-2's, and the latest effective time wins a tie): the cancellation was shown
    as outranked."""
    files = {"dir.md": DIRECTORY, "cc1.md": ANNOUNCED, "cc2.md": cancelled()}
    ingest(store, write_corpus(tmp_path / "c", files), settings)
    assert owner(store, settings) == ("ana", ["CC-2"])
    answer = ask(store, settings, "Who owns the billing gateway on 2026-11-05?", now=NOW)
    [gone] = [o for o in answer.outranked if o.record == "CC-1"]
    assert gone.owner == "bo" and gone.why == "replaced by CC-2"
    # read with a clock before CC-2 was written, the transfer still stood
    assert owner(store, settings, now="2026-10-05T12:00:00Z") == ("bo", ["CC-1"])


def test_a_replacing_record_changes_nothing_for_those_who_may_not_see_it(
    store: Store, settings: Settings, tmp_path: Path
) -> None:
    files = {"dir.md": DIRECTORY, "cc1.md": ANNOUNCED, "cc2.md": cancelled(acl=["sec"])}
    ingest(store, write_corpus(tmp_path / "c", files), settings)
    assert owner(store, settings, as_person="bo") == ("ana", ["CC-2"])  # in group sec
    assert owner(store, settings, as_person="ana") == ("bo", ["CC-1"])


def test_which_records_replace_a_claim_s_record_is_read_from_an_index(
    store: Store, settings: Settings, tmp_path: Path
) -> None:
    """The replacements are read in a query of their own, only for rows whose record is
    marked replaced: it must start from the replaced record's index, not scan the Sources."""
    files = {"dir.md": DIRECTORY, "cc1.md": ANNOUNCED, "cc2.md": cancelled()}
    ingest(store, write_corpus(tmp_path / "c", files), settings)
    with recording(store) as recorded:
        assert owner(store, settings) == ("ana", ["CC-2"])
    assert any("SUPERSEDES" in cypher for cypher in recorded)
    assert scans(store, recorded, listing_queries(store)) == []


def test_a_record_no_longer_replaced_counts_again(
    store: Store, settings: Settings, tmp_path: Path
) -> None:
    """The mark on the replaced record goes with the record that replaced it."""
    corpus = write_corpus(
        tmp_path / "c", {"dir.md": DIRECTORY, "cc1.md": ANNOUNCED, "cc2.md": cancelled()}
    )
    ingest(store, corpus, settings)
    assert owner(store, settings) == ("ana", ["CC-2"])
    (corpus / "records" / "cc2.md").unlink()
    ingest(store, corpus, settings, prune=True)
    assert owner(store, settings) == ("bo", ["CC-1"])


def test_a_run_rewriting_either_record_never_counts_the_cancelled_one(
    store: Store, settings: Settings, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The replacement was rebuilt only once a run had written every record: a record
    rewritten lost its `replaced` mark, and a replacing one its SUPERSEDES link, until
    then. Asked meanwhile (the rest of a long run, or until the next one after a run cut
    off), who owns the billing gateway named Bo by the cancelled CC-1, citing it, when a
    typo was fixed in either record."""
    corpus = write_corpus(
        tmp_path / "c", {"dir.md": DIRECTORY, "cc1.md": ANNOUNCED, "cc2.md": cancelled()}
    )
    ingest(store, corpus, settings)
    during: list[tuple[str | None, list[str]]] = []
    finish = pipeline.finish
    monkeypatch.setattr(
        pipeline, "finish", lambda s: (during.append(owner(store, settings)), finish(s))
    )
    (corpus / "records" / "cc2.md").write_text(cancelled().replace("cancelled:", "cancelled;"))
    ingest(store, corpus, settings)
    (corpus / "records" / "cc1.md").write_text(ANNOUNCED.replace("Bo Lind.", "Bo Lind (IT)."))
    ingest(store, corpus, settings)
    assert during == [("ana", ["CC-2"])] * 2
    assert owner(store, settings) == ("ana", ["CC-2"])


def test_a_run_rewriting_a_superseding_decision_keeps_the_chain_meanwhile(
    store: Store, settings: Settings, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The same for decisions: while a run rewrote ADR-2, "What replaced ADR-1?" said
    nothing had."""

    def adr(n: int, body: str, supersedes: list[str]) -> str:
        front = {"id": f"ADR-{n}", "kind": "adr", "at": f"2026-0{n}-01T09:00:00Z",
                 "status": "accepted", "title": f"Queue {n}", "supersedes": supersedes}  # fmt: skip
        return md(front, body)

    first = adr(1, "We will use Kafka for the ledger events.", [])
    second = adr(2, "We will use NATS for the ledger events.", ["ADR-1"])
    corpus = write_corpus(tmp_path / "c", {"adr1.md": first, "adr2.md": second})
    ingest(store, corpus, settings)

    def chain() -> list[str]:
        answer = ask(store, settings, "What replaced ADR-1?", now=NOW)
        return list(answer.result["chain"]) if answer.result else []

    during: list[list[str]] = []
    finish = pipeline.finish
    monkeypatch.setattr(pipeline, "finish", lambda s: (during.append(chain()), finish(s)))
    (corpus / "records" / "adr2.md").write_text(second.replace("NATS", "NATS JetStream"))
    ingest(store, corpus, settings)
    assert during == [["ADR-2", "ADR-1"]]
    assert chain() == ["ADR-2", "ADR-1"]


def transfer(n: int, to: str, replaces: list[str], day: int, acl: list[str] | None = None) -> str:
    front: dict[str, Any] = {"id": f"CC-{n}", "kind": "change_control",
                             "at": f"2026-10-{day:02d}T09:00:00Z", "supersedes": replaces,
                             "about": ["billing-gateway"]}  # fmt: skip
    if acl is not None:
        front["acl"] = acl
    return md(front, f"Ownership of the billing gateway transfers from Ana Ruiz to {to}.")


def test_records_replacing_each_other_refuse_conflict_naming_them(
    store: Store, settings: Settings, tmp_path: Path
) -> None:
    """CC-1 (to Bo) replaces CC-2 and CC-2 (to Cy) replaces CC-1: each was set aside by the
    other, and Ana answered, citing the directory both transfers say is out of date."""
    files = {"dir.md": DIRECTORY, "cc1.md": transfer(1, "Bo Lind", ["CC-2"], 10),
             "cc2.md": transfer(2, "Cy Park", ["CC-1"], 11)}  # fmt: skip
    ingest(store, write_corpus(tmp_path / "c", files), settings)
    answer = ask(store, settings, "Who owns the billing gateway?", now=NOW)
    assert answer.status == "refused" and answer.refusal is not None, answer.to_dict()
    assert answer.refusal.code == "CONFLICT"
    assert answer.refusal.message.startswith("CC-1 and CC-2 replace one another")
    assert [c.record for c in answer.citations] == ["CC-1", "CC-2"]
    assert "Ana" not in answer.explanation.split("Evidence seen")[0]
    # before CC-2 was written, CC-1 stood
    assert owner(store, settings, now="2026-10-10T12:00:00Z") == ("bo", ["CC-1"])


def test_a_longer_circle_through_a_record_naming_no_owner_refuses_too(
    store: Store, settings: Settings, tmp_path: Path
) -> None:
    """CC-1 → CC-2 → CC-3 → CC-1, CC-3 only cancelling: the directory answered."""
    cancel = md(
        {"id": "CC-3", "kind": "change_control", "at": "2026-10-12T09:00:00Z",
         "supersedes": ["CC-1"]},
        "CC-1 is cancelled.",
    )  # fmt: skip
    files = {"dir.md": DIRECTORY, "cc1.md": transfer(1, "Bo Lind", ["CC-2"], 10),
             "cc2.md": transfer(2, "Cy Park", ["CC-3"], 11), "cc3.md": cancel}  # fmt: skip
    ingest(store, write_corpus(tmp_path / "c", files), settings)
    answer = ask(store, settings, "Who owns the billing gateway?", now=NOW)
    assert answer.refusal is not None and answer.refusal.code == "CONFLICT", answer.to_dict()
    assert answer.refusal.message.startswith("CC-1, CC-2 and CC-3 replace one another")
    assert [c.record for c in answer.citations] == ["CC-1", "CC-2"]


def test_a_circle_outranked_whichever_way_it_goes_does_not_refuse(
    store: Store, settings: Settings, tmp_path: Path
) -> None:
    later = transfer(9, "Cy Park", [], 20).replace("from Ana Ruiz", "from Bo Lind")
    files = {"dir.md": DIRECTORY, "cc1.md": transfer(1, "Bo Lind", ["CC-2"], 10),
             "cc2.md": transfer(2, "Cy Park", ["CC-1"], 11), "cc9.md": later}  # fmt: skip
    ingest(store, write_corpus(tmp_path / "c", files), settings)
    assert owner(store, settings) == ("cy", ["CC-9"])


def test_a_circle_closed_by_a_hidden_record_is_no_circle_to_those_who_may_not_see_it(
    store: Store, settings: Settings, tmp_path: Path
) -> None:
    files = {"dir.md": DIRECTORY, "cc1.md": transfer(1, "Bo Lind", ["CC-2"], 10),
             "cc2.md": transfer(2, "Cy Park", ["CC-1"], 11, acl=["sec"])}  # fmt: skip
    ingest(store, write_corpus(tmp_path / "c", files), settings)
    refused = ask(store, settings, "Who owns the billing gateway?", now=NOW, as_person="bo")
    assert refused.refusal is not None and refused.refusal.code == "CONFLICT"
    assert owner(store, settings, as_person="ana") == ("bo", ["CC-1"])  # CC-2 unseen


def test_a_record_written_after_the_one_replacing_it_never_counts_meanwhile(
    store: Store, settings: Settings, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """CC-2 (cancelling CC-1) is in the graph, or in an earlier batch of the run, before
    CC-1: the batch writing CC-1 linked what CC-1 replaces, not what replaces it, so until
    the run's end who owns the billing gateway named Bo by the cancelled CC-1, citing it."""
    during: list[tuple[str | None, list[str]]] = []
    finish = pipeline.finish
    monkeypatch.setattr(
        pipeline, "finish", lambda s: (during.append(owner(store, settings)), finish(s))
    )
    one_by_one = writer.batches  # one record a write, in the order of the files
    monkeypatch.setattr(writer, "batches", lambda records: one_by_one(records, 1))
    corpus = write_corpus(
        tmp_path / "c", {"a-dir.md": DIRECTORY, "b-cc2.md": cancelled(), "c-cc1.md": ANNOUNCED}
    )
    ingest(store, corpus, settings)
    ingest(store, corpus / "records" / "c-cc1.md", settings)  # unchanged: nothing written
    (corpus / "records" / "c-cc1.md").unlink()
    ingest(store, corpus, settings, prune=True)
    write_corpus(tmp_path / "c", {"c-cc1.md": ANNOUNCED})
    ingest(store, corpus / "records" / "c-cc1.md", settings)  # back, on its own
    assert during == [("ana", ["CC-2"])] * 3
    assert owner(store, settings) == ("ana", ["CC-2"])


def test_a_record_of_lower_authority_does_not_replace_a_change_control(
    store: Store, settings: Settings, tmp_path: Path
) -> None:
    """A chat message "lol" with `supersedes: [CC-1]` took the change control's transfer
    out of every answer: the directory's Ana answered, citing it. A record cannot raise
    its own authority, and replacing a record outranks everything it says."""
    chat = md(
        {"id": "m-1", "kind": "chat", "at": "2026-10-10T09:00:00Z", "supersedes": ["CC-1"]},
        "lol",
    )
    files = {"dir.md": DIRECTORY, "cc1.md": ANNOUNCED, "m.md": chat}
    ingest(store, write_corpus(tmp_path / "c", files), settings)
    assert owner(store, settings) == ("bo", ["CC-1"])
    # of the same authority or more, it does (a chat editing a chat, a change control
    # cancelling one)
    files["m.md"] = chat.replace("kind: chat", "kind: change_control")
    ingest(store, write_corpus(tmp_path / "c", files), settings)
    assert owner(store, settings) == ("ana", ["dir-1"])


def _cc(n: int, day: int, replaces: list[str], body: str, acl: list[str] | None = None) -> str:
    at = f"2026-10-{day:02d}T09:00:00Z"
    front: dict[str, Any] = {"id": f"CC-{n}", "kind": "change_control", "at": at,
                             "supersedes": replaces}  # fmt: skip
    if acl is not None:
        front["acl"] = acl
    return md(front, body)


WITHDRAWN = _cc(2, 10, ["CC-1"], "CC-1 is cancelled.")


def test_a_cancelled_cancellation_no_longer_answers_with_the_owner_before(
    store: Store, settings: Settings, tmp_path: Path
) -> None:
    """CC-2 cancels CC-1 (the transfer to Bo), and CC-3 replaces CC-2 ("CC-2 is withdrawn:
    CC-1 goes ahead as planned"). Ana answered, citing the directory, "CC-1 replaced by
    CC-2", although CC-2 is itself replaced. Whether CC-3 withdraws CC-2 or corrects it
    (README: a change control cancelling or correcting an earlier one) the records do not
    say: while CC-1 would decide, owner_of refuses CONFLICT naming the chain and citing
    both owners' quotes."""
    third = _cc(3, 12, ["CC-2"], "CC-2 is withdrawn: CC-1 goes ahead as planned.")
    files = {"dir.md": DIRECTORY, "cc1.md": ANNOUNCED, "cc2.md": WITHDRAWN, "cc3.md": third}
    ingest(store, write_corpus(tmp_path / "c", files), settings)
    with recording(store) as recorded:
        answer = ask(store, settings, "Who owns the billing gateway on 2026-11-05?", now=NOW)
    assert answer.refusal is not None and answer.refusal.code == "CONFLICT", answer.to_dict()
    assert answer.refusal.message.startswith("CC-1 is replaced by CC-2, which CC-3 replaces")
    assert [c.record for c in answer.citations] == ["CC-1", "dir-1"]
    assert scans(store, recorded, listing_queries(store)) == []  # the extra hop: no scan
    assert "Ana" not in answer.explanation.split("Evidence seen")[0]
    # before CC-3 was written, CC-2's cancellation stood; before CC-1 took effect, Ana
    assert owner(store, settings, now="2026-10-11T12:00:00Z") == ("ana", ["dir-1"])
    assert owner(store, settings, as_of="2026-10-20") == ("ana", ["dir-1"])
    # a later transfer decides whichever way the chain is read
    later = md(
        {"id": "CC-9", "kind": "change_control", "at": "2026-11-03T09:00:00Z"},
        "Ownership of the billing gateway transfers from Bo Lind to Cy Park.",
    )
    ingest(store, write_corpus(tmp_path / "c", {**files, "cc9.md": later}), settings)
    assert owner(store, settings) == ("cy", ["CC-9"])


def test_a_chain_of_three_cancellations_refuses_too_and_hidden_links_do_not_count(
    store: Store, settings: Settings, tmp_path: Path
) -> None:
    """CC-4 replaces CC-3, which replaces CC-2, which cancels CC-1: CC-1's replacement by
    CC-2 is as unsettled as with three. A hidden CC-3 is no link to those who may not see
    it (CC-2's cancellation stands for them), and a chat cannot replace a change control."""
    third = _cc(3, 12, ["CC-2"], "CC-2 is withdrawn.", acl=["sec"])
    fourth = _cc(4, 14, ["CC-3"], "CC-3 is withdrawn.")
    files = {"dir.md": DIRECTORY, "cc1.md": ANNOUNCED, "cc2.md": WITHDRAWN,
             "cc3.md": third, "cc4.md": fourth}  # fmt: skip
    ingest(store, write_corpus(tmp_path / "c", files), settings)
    refused = ask(store, settings, "Who owns the billing gateway on 2026-11-05?", now=NOW,
                  as_person="bo")  # fmt: skip
    assert refused.refusal is not None and refused.refusal.code == "CONFLICT", refused.to_dict()
    assert refused.refusal.message.startswith("CC-1 is replaced by CC-2, which CC-3 replaces")
    # ana may not see CC-3: for her, CC-2 is replaced by nothing, and CC-1 cancelled
    assert owner(store, settings, as_person="ana") == ("ana", ["dir-1"])
    chat = md({"id": "m-1", "kind": "chat", "at": "2026-10-12T09:00:00Z",
               "supersedes": ["CC-2"]}, "lol")  # fmt: skip
    files = {"dir.md": DIRECTORY, "cc1.md": ANNOUNCED, "cc2.md": WITHDRAWN, "m.md": chat}
    ingest(store, write_corpus(tmp_path / "d", files), settings, prune=True)
    assert owner(store, settings) == ("ana", ["dir-1"])


def test_a_record_saying_it_replaces_one_written_after_it_refuses_conflict(
    store: Store, settings: Settings, tmp_path: Path
) -> None:
    """CC-1, written 10 October, says it replaces CC-2, written 20 October (a typo in an id,
    or CC-1 edited since?): CC-2's transfer to Cy counted for no day, and CC-1's Bo answered
    for November, citing CC-1, although CC-2 is the newer record. Which counts cannot be
    told: while CC-2 would decide, owner_of refuses CONFLICT citing both; before it, CC-1."""
    files = {"dir.md": DIRECTORY, "cc1.md": transfer(1, "Bo Lind", ["CC-2"], 10),
             "cc2.md": transfer(2, "Cy Park", [], 20)}  # fmt: skip
    report = ingest(store, write_corpus(tmp_path / "c", files), settings)
    answer = ask(store, settings, "Who owns the billing gateway on 2026-11-05?", now=NOW)
    assert answer.refusal is not None and answer.refusal.code == "CONFLICT", answer.to_dict()
    assert answer.refusal.message.startswith("CC-1 says it replaces CC-2, written after it")
    assert sorted(c.record for c in answer.citations) == ["CC-1", "CC-2"]
    assert owner(store, settings, now="2026-10-15T12:00:00Z") == ("bo", ["CC-1"])
    # the ingest says so
    assert [w.where for w in report.warnings if "replaces CC-2, written after it" in w.message] == [
        "CC-1"
    ]
    # written the other way round, the later record replaces the earlier one
    files = {"dir.md": DIRECTORY, "cc1.md": transfer(1, "Bo Lind", [], 10),
             "cc2.md": transfer(2, "Cy Park", ["CC-1"], 20)}  # fmt: skip
    report = ingest(store, write_corpus(tmp_path / "c", files), settings)
    assert owner(store, settings) == ("cy", ["CC-2"])
    assert not any("written after it" in w.message for w in report.warnings)
