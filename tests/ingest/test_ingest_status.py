"""`brain status` says when the last ingest did not finish (or is still running)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companybrain.graph.connection import Store
from companybrain.graph.queries import records_q
from companybrain.ingest import lock, writer
from companybrain.ingest.status import summarize
from tests.ingest.corpus_builder import md, write_corpus
from tests.ingest.test_pipeline import CHAT, DIRECTORY, TRANSFER

CHAT_MD = md(
    {"id": "msg-x", "kind": "chat", "at": "2026-10-16T09:00:00Z", "author": "cy"}, "hello all"
)
UNFINISHED = {"run": "r1a2b3c4d5e6", "complete": False, "durable": 3500, "last": "CC-000123"}


@pytest.fixture
def corpus(tmp_path: Path) -> Path:
    return write_corpus(tmp_path / "corpus", {"dir.md": DIRECTORY, "cc.md": TRANSFER}, jsonl=[CHAT])


def test_status_warns_that_an_interrupted_ingest_did_not_finish(run_cli, store: Store) -> None:  # type: ignore[no-untyped-def]
    # What a run killed after 3500 durable records leaves: its checkpoint, no lock.
    records_q.write_checkpoint(store, writer.CHECKPOINT_KEY, UNFINISHED)
    text = run_cli("status")
    assert text.exit_code == 0, text.output
    assert (
        "warning: last ingest did not finish (run r1a2b3c4d5e6, 3500 records durable): "
        "run `brain ingest` again to complete it"
    ) in text.output
    info = json.loads(run_cli("status", "--json").output)
    assert {"graph", "labels", "relationships", "falkordb_version"} <= info.keys()
    assert info["last_ingest"]["state"] == "interrupted"
    assert info["last_ingest"]["run"] == "r1a2b3c4d5e6"
    assert info["last_ingest"]["durable"] == 3500
    assert info["last_ingest"]["warning"].startswith("last ingest did not finish")


def test_status_after_a_finished_ingest_has_no_warning(run_cli, corpus: Path) -> None:  # type: ignore[no-untyped-def]
    assert run_cli("status", "--json").exit_code == 0
    assert json.loads(run_cli("status", "--json").output)["last_ingest"] is None  # never ran
    assert run_cli("ingest", str(corpus)).exit_code == 0
    assert "did not finish" not in run_cli("status").output
    last = json.loads(run_cli("status", "--json").output)["last_ingest"]
    assert (last["state"], last["durable"], last["warning"]) == ("complete", 3, None)


def test_status_while_an_ingest_runs_says_so_not_interrupted(run_cli, store: Store) -> None:  # type: ignore[no-untyped-def]
    records_q.write_checkpoint(store, writer.CHECKPOINT_KEY, UNFINISHED)
    assert store.take_lock(lock.LOCK_NAME, "r1a2b3c4d5e6", 60_000)
    try:
        text = run_cli("status").output
        assert "ingest running (run r1a2b3c4d5e6, 3500 records durable so far)" in text
        assert "did not finish" not in text
    finally:
        store.drop_lock(lock.LOCK_NAME, "r1a2b3c4d5e6")


def test_a_run_is_running_before_its_first_checkpoint(run_cli, store: Store) -> None:  # type: ignore[no-untyped-def]
    """A run writes the organisation (and reads the corpus) under its lock before its first
    checkpoint: meanwhile status said "complete" (the last run's checkpoint) or nothing (a
    first run), and answers said nothing either: a service it had just written was "not
    owned by anyone on record" (NO_CLAIM), with no word that records were on their way."""
    assert store.take_lock(lock.LOCK_NAME, "n3w4run5e6f7", 60_000)
    try:
        info = json.loads(run_cli("status", "--json").output)["last_ingest"]
        assert (info["state"], info["run"], info["durable"]) == ("running", "n3w4run5e6f7", 0)
        done = {**UNFINISHED, "complete": True}  # the previous run's, finished
        records_q.write_checkpoint(store, writer.CHECKPOINT_KEY, done)
        info = json.loads(run_cli("status", "--json").output)["last_ingest"]
        assert (info["state"], info["run"], info["durable"]) == ("running", "n3w4run5e6f7", 0)
        asked = run_cli("ask", "--now", "2026-10-20T12:00:00Z", "Who owns the billing gateway?")
        assert "warning: an ingest is running (run n3w4run5e6f7, 0 records" in asked.stderr
    finally:
        store.drop_lock(lock.LOCK_NAME, "n3w4run5e6f7")
    assert json.loads(run_cli("status", "--json").output)["last_ingest"]["state"] == "complete"


def test_a_record_added_on_its_own_does_not_finish_an_interrupted_ingest(  # type: ignore[no-untyped-def]
    run_cli, store: Store, corpus: Path, tmp_path: Path
) -> None:
    """After a killed corpus ingest, one typed record (`brain add`, the web's Add record
    page, POST /api/records) or one file ingested on its own wrote a complete checkpoint of
    its own: status said "complete" and answers stopped warning, while the records the
    killed run had yet to write were still missing."""
    assert run_cli("ingest", str(corpus)).exit_code == 0
    records_q.write_checkpoint(store, writer.CHECKPOINT_KEY, UNFINISHED)
    added = run_cli("add", "Ana Ruiz owns the search index, I think.", "--as", "bo")
    assert added.exit_code == 0, added.output
    one = write_corpus(tmp_path / "one", {"x.md": CHAT_MD})
    assert run_cli("ingest", str(one / "records" / "x.md")).exit_code == 0
    last = json.loads(run_cli("status", "--json").output)["last_ingest"]
    assert (last["state"], last["run"], last["durable"]) == ("interrupted", "r1a2b3c4d5e6", 3500)
    asked = run_cli("ask", "--now", "2026-10-20T12:00:00Z", "Who owns the billing gateway?")
    assert "warning: last ingest did not finish (run r1a2b3c4d5e6" in asked.stderr
    assert run_cli("ingest", str(corpus)).exit_code == 0  # the corpus again: that finishes it
    assert json.loads(run_cli("status", "--json").output)["last_ingest"]["state"] == "complete"


def test_summarize_reads_the_checkpoint_and_the_lock() -> None:
    assert summarize(None, None) is None
    assert summarize({**UNFINISHED, "complete": True}, None)["state"] == "complete"  # type: ignore[index]
    assert summarize(UNFINISHED, "r1a2b3c4d5e6") == {
        "state": "running", "run": "r1a2b3c4d5e6", "durable": 3500, "last": "CC-000123",
        "at_ms": None, "warning": None,
    }  # fmt: skip
    # another run holds the lock: nothing of it is durable yet, whatever the last one left
    for mark in (UNFINISHED, {**UNFINISHED, "complete": True}, None):
        assert summarize(mark, "other") == {
            "state": "running", "run": "other", "durable": 0, "last": None,
            "at_ms": None, "warning": None,
        }  # fmt: skip


def test_an_answer_after_an_interrupted_ingest_says_so(run_cli, store: Store, corpus: Path) -> None:  # type: ignore[no-untyped-def]
    """After a killed ingest, `brain ask` answered from the records stored so far without a
    word: the answer could cite a directory a later, unwritten change control replaces."""
    assert run_cli("ingest", str(corpus)).exit_code == 0
    question = ("ask", "--json", "--now", "2026-10-20T12:00:00Z", "Who owns the billing gateway?")
    assert "did not finish" not in run_cli(*question).stderr
    records_q.write_checkpoint(store, writer.CHECKPOINT_KEY, UNFINISHED)
    asked = run_cli(*question)
    assert asked.exit_code == 0, asked.output
    assert "warning: last ingest did not finish (run r1a2b3c4d5e6" in asked.stderr
    assert json.loads(asked.stdout)["status"] == "answered"  # standard output stays JSON
    agent = run_cli(*question[:-1], "--agent", question[-1])  # no model: the routed answer
    assert agent.exit_code == 0, agent.output
    assert "warning: last ingest did not finish (run r1a2b3c4d5e6" in agent.stderr
    assert store.take_lock(lock.LOCK_NAME, "r1a2b3c4d5e6", 60_000)  # a run still going
    try:
        running = run_cli(*question)
        assert "warning: an ingest is running (run r1a2b3c4d5e6" in running.stderr
    finally:
        store.drop_lock(lock.LOCK_NAME, "r1a2b3c4d5e6")
