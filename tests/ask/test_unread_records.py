"""A record whose file fails to read on a later run keeps its stored version (answers may
still cite it), and every answer citing it says so, from the first run that could not read
it until a run reads the file again."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from companybrain.ask.engine import ask
from companybrain.config import Settings
from companybrain.graph.connection import Store
from companybrain.graph.queries import records_q
from companybrain.ingest.pipeline import ingest
from companybrain.ingest.unread import next_marks
from tests.ingest.corpus_builder import md, write_corpus
from tests.ingest.test_pipeline import CHAT, DIRECTORY, TRANSFER

NOW = datetime(2026, 10, 20, 12, tzinfo=UTC)
QUESTION = "Who owns the billing gateway?"
NOTE = "Note: CC-1 was refused by every ingest since"


@pytest.fixture
def corpus(tmp_path: Path) -> Path:
    return write_corpus(tmp_path / "corpus", {"dir.md": DIRECTORY, "cc.md": TRANSFER}, jsonl=[CHAT])


def _owner(store: Store, settings: Settings, person: str | None = None) -> tuple[str, str]:
    answer = ask(store, settings, QUESTION, now=NOW, as_person=person)
    assert answer.status == "answered" and answer.result is not None
    assert [c.record for c in answer.citations] == ["CC-1"]
    return answer.result["owner"]["id"], answer.explanation


def test_an_answer_citing_a_record_whose_file_failed_says_so_until_it_reads(
    store: Store, settings: Settings, corpus: Path
) -> None:
    ingest(store, corpus, settings)
    owner, explained = _owner(store, settings)
    assert owner == "bo" and "Note:" not in explained

    cc = corpus / "records" / "cc.md"
    cc.write_text(TRANSFER.replace("at: '2026-10-13T09:12:00Z'", "at: someday"))
    assert ingest(store, corpus, settings).kept_stored == ["CC-1"]
    owner, explained = _owner(store, settings)
    assert owner == "bo", "the stored version still answers"
    assert NOTE in explained and "the version stored before" in explained
    since = records_q.unread_records(store)["CC-1"]

    # A run of another file leaves it marked; a run that fails again keeps the first time.
    ingest(store, corpus / "records" / "dir.md", settings)
    assert NOTE in _owner(store, settings)[1]
    ingest(store, corpus, settings)
    assert records_q.unread_records(store) == {"CC-1": since}

    cc.write_text(TRANSFER)  # fixed, back to what the graph holds: nothing to rewrite
    report = ingest(store, corpus, settings)
    assert report.stored == 0 and report.unchanged == 3
    assert records_q.unread_records(store) == {}
    assert "Note:" not in _owner(store, settings)[1]
    assert store.read("MATCH (m:Meta {key: 'unread'}) RETURN count(m) AS n") == [{"n": 0}]


def test_a_pruned_record_leaves_no_mark(store: Store, settings: Settings, corpus: Path) -> None:
    ingest(store, corpus, settings)
    cc = corpus / "records" / "cc.md"
    cc.write_text(TRANSFER.replace("author: cy", "author: nobody-here"))
    ingest(store, corpus, settings)
    assert set(records_q.unread_records(store)) == {"CC-1"}
    cc.unlink()
    ingest(store, corpus, settings, prune=True)
    assert records_q.unread_records(store) == {}


def test_next_marks() -> None:
    assert next_marks({}, set(), [], 5) == {}
    assert next_marks({}, set(), ["a"], 5) == {"a": 5}
    assert next_marks({"a": 1}, set(), ["a"], 5) == {"a": 1}, "since the first refusal"
    assert next_marks({"a": 1, "b": 2}, {"a"}, [], 5) == {"b": 2}, "read fine: cleared"


def test_a_file_whose_id_cannot_be_read_is_kept_and_said_so(
    store: Store, settings: Settings, corpus: Path
) -> None:
    """The most common way a file fails, front matter YAML cannot parse, names no record:
    the run said only "rejected 1", and answers went on citing CC-1's stored version as if
    the file still said it. The records stored from a file that failed to read, and not
    read from anywhere else this time, are the ones kept."""
    ingest(store, corpus, settings)
    cc = corpus / "records" / "cc.md"
    cc.write_text("---\nid: CC-1\nkind: [broken\n---\nOwnership moves to Cy Park.\n")
    report = ingest(store, corpus, settings)
    assert [p.record for p in report.rejected] == [None]
    assert report.kept_stored == ["CC-1"]
    owner, explained = _owner(store, settings)
    assert owner == "bo" and NOTE in explained

    cc.write_text(TRANSFER)
    ingest(store, corpus, settings)
    assert records_q.unread_records(store) == {}


def test_a_broken_copy_beside_the_file_read_marks_nothing(
    store: Store, settings: Settings, corpus: Path
) -> None:
    """A second file with CC-1's id that failed to read (a copy left half-edited) made the
    run say it kept the stored CC-1 until the file is fixed, and every answer citing CC-1
    say it "was refused by every ingest since", while cc.md was read and is what the graph
    holds."""
    ingest(store, corpus, settings)
    copy = corpus / "records" / "cc-copy.md"
    copy.write_text(TRANSFER.replace("author: cy", "author: nobody-here"))
    report = ingest(store, corpus, settings)
    assert [p.record for p in report.rejected] == ["CC-1"]
    assert report.kept_stored == []
    assert "Note:" not in _owner(store, settings)[1]


def test_an_answer_resting_on_a_replacing_record_whose_file_failed_says_so(
    store: Store, settings: Settings, corpus: Path
) -> None:
    """CC-2 cancels CC-1 (`supersedes`), then its file stops reading. The run kept it as
    stored, and the answer (Ana, CC-1 "replaced by CC-2") said nothing of CC-2 being read
    from its stored version: CC-2 was no citation, only the reason CC-1 was set aside."""
    cancel = md(
        {"id": "CC-2", "kind": "change_control", "at": "2026-10-15T09:00:00Z",
         "supersedes": ["CC-1"]},
        "CC-1 is cancelled.",
    )  # fmt: skip
    (corpus / "records" / "cc2.md").write_text(cancel)
    ingest(store, corpus, settings)
    answer = ask(store, settings, QUESTION, now=NOW)
    assert answer.result == {"owner": {"id": "ana", "name": "Ana Ruiz"}}
    assert "Note:" not in answer.explanation

    (corpus / "records" / "cc2.md").write_text(cancel.replace("supersedes:", "supersedes: [\n"))
    assert ingest(store, corpus, settings).kept_stored == ["CC-2"]
    answer = ask(store, settings, QUESTION, now=NOW)
    assert answer.result == {"owner": {"id": "ana", "name": "Ana Ruiz"}}
    assert [c.record for c in answer.citations] == ["dir-1"]
    assert "Note: CC-2 was refused by every ingest since" in answer.explanation
    assert "that CC-2 replaces CC-1 is read from the version stored before" in answer.explanation
    assert "replaced_by" not in answer.outranked[0].to_dict()  # (not part of the answer object)
