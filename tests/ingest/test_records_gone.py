"""A record deleted from the corpus stays in the graph until `--prune`, and answers still
cite it. The ingest said nothing of it: the person who deleted a wrong record saw its owner
answered as before. The report now names such records, and how to remove them."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, cast

import pytest

from companybrain.ask.engine import ask
from companybrain.config import Settings
from companybrain.graph.connection import Store
from companybrain.graph.queries import records_q
from companybrain.graph.queries.digest_q import record_digests
from companybrain.ingest.extract import EXTRACTION_VERSION
from companybrain.ingest.pipeline import ingest
from companybrain.surfaces.cli.ingest import print_report
from tests.ingest.corpus_builder import write_corpus
from tests.ingest.test_pipeline import DIRECTORY, TRANSFER


def test_records_gone_from_the_corpus_are_reported_until_pruned(
    store: Store, settings: Settings, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    corpus = write_corpus(tmp_path / "c", {"dir.md": DIRECTORY, "cc.md": TRANSFER})
    assert ingest(store, corpus, settings).gone == []
    (corpus / "records" / "cc.md").unlink()

    report = ingest(store, corpus, settings)
    assert report.gone == ["CC-1"]
    assert report.to_dict()["gone"] == ["CC-1"]
    print_report(report)
    assert "gone     1 record(s)" in capsys.readouterr().out

    # A single file is not the corpus: nothing is said to be gone.
    assert ingest(store, corpus / "records" / "dir.md", settings).gone == []

    pruned = ingest(store, corpus, settings, prune=True)
    assert (pruned.pruned, pruned.gone) == (1, [])
    assert ingest(store, corpus, settings).gone == []


def test_a_record_whose_file_fails_to_read_is_not_gone(
    store: Store, settings: Settings, tmp_path: Path
) -> None:
    corpus = write_corpus(tmp_path / "c", {"dir.md": DIRECTORY, "cc.md": TRANSFER})
    ingest(store, corpus, settings)
    (corpus / "records" / "cc.md").write_text("---\nid: CC-1\nkind: [broken\n---\n")
    report = ingest(store, corpus, settings)
    assert report.gone == []
    assert report.rejected


def test_a_record_first_ingested_on_its_own_becomes_the_corpus_s_once_found_in_it(
    store: Store, settings: Settings, tmp_path: Path
) -> None:
    """Counted unchanged, it stayed a record of no corpus: --prune never removed it once
    it left the corpus, and the report could not say it was gone."""
    corpus = write_corpus(tmp_path / "c", {"dir.md": DIRECTORY})
    ingest(store, corpus, settings)
    (corpus / "records" / "cc.md").write_text(TRANSFER)
    ingest(store, corpus / "records" / "cc.md", settings)  # on its own first
    assert ingest(store, corpus, settings).stored == 1
    assert ingest(store, corpus, settings).stored == 0
    (corpus / "records" / "cc.md").unlink()
    assert ingest(store, corpus, settings).gone == ["CC-1"]
    assert ingest(store, corpus, settings, prune=True).pruned == 1


def test_records_read_by_older_rules_are_read_again(
    store: Store, settings: Settings, tmp_path: Path
) -> None:
    """A record counted unchanged by its content, organisation and proposer name kept what
    older rules had made of it: a graph built before a fix kept the fixed wrong claims
    until it was rebuilt. The stored proposer carries the extraction version."""
    corpus = write_corpus(tmp_path / "c", {"dir.md": DIRECTORY, "cc.md": TRANSFER})
    ingest(store, corpus, settings)
    assert ingest(store, corpus, settings).stored == 0
    for older in ("rules", f"rules@{EXTRACTION_VERSION - 1}"):  # before versions; the last
        store.query(
            "MATCH (s:Source {id: $id}) SET s.proposer = $older", {"id": "CC-1", "older": older}
        )
        again = ingest(store, corpus, settings)
        assert (again.stored, again.unchanged) == (1, 1), older


def test_a_corpus_record_changed_and_ingested_on_its_own_stays_the_corpus_s(
    store: Store, settings: Settings, tmp_path: Path
) -> None:
    """Edited and ingested as a single file, a corpus record became a record of no corpus:
    once its file was deleted, --prune left it, and answers still cited it."""
    corpus = write_corpus(tmp_path / "c", {"dir.md": DIRECTORY, "cc.md": TRANSFER})
    ingest(store, corpus, settings)
    cc = corpus / "records" / "cc.md"
    cc.write_text(TRANSFER.replace("Effective Wednesday", "Effective on Wednesday"))
    assert ingest(store, cc, settings).stored == 1
    cc.unlink()
    assert ingest(store, corpus, settings, prune=True).pruned == 1


class _CutOff(Exception):
    """The process dying (kill -9) right after a write of a prune."""


class _DiesAfter:
    """`store`, whose process dies right after its `writes`-th write."""

    def __init__(self, store: Store, writes: int) -> None:
        self.store, self.left = store, writes

    def query(self, *args: Any, **kwargs: Any) -> Any:
        rows = self.store.query(*args, **kwargs)
        self.left -= 1
        if self.left == 0:
            raise _CutOff
        return rows


def _dying_after(
    delete: Callable[[Store, list[str]], int], writes: int
) -> Callable[[Store, list[str]], int]:
    return lambda store, ids: delete(cast(Store, _DiesAfter(store, writes)), ids)


def test_a_prune_cut_off_midway_leaves_no_record_without_its_claims(
    store: Store, settings: Settings, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A prune removed a record's claims, then (in writes of their own) its decisions and
    the record itself. Cut off in between, the record stayed with no claim and its stored
    hash: once its file was back (deleted by mistake, restored), every run counted it
    unchanged and the directory's Ana answered for the billing gateway, citing dir-1,
    while CC-1 says Bo. A prune is now one write: a record goes whole or not at all."""
    corpus = write_corpus(tmp_path / "c", {"dir.md": DIRECTORY, "cc.md": TRANSFER})
    ingest(store, corpus, settings)
    whole = record_digests(store)["CC-1"]
    cc = corpus / "records" / "cc.md"
    delete = records_q.delete_sources
    for writes in range(1, 10):  # cut off after each of its writes in turn
        cc.unlink()
        monkeypatch.setattr(records_q, "delete_sources", _dying_after(delete, writes))
        try:
            ingest(store, corpus, settings, prune=True)
            break  # it wrote less than that
        except _CutOff:
            pass
        finally:
            monkeypatch.setattr(records_q, "delete_sources", delete)
        cc.write_text(TRANSFER)  # restored
        ingest(store, corpus, settings)
        assert record_digests(store)["CC-1"] == whole, f"cut off after write {writes}"
        answer = ask(store, settings, "Who owns the billing gateway?", now="2026-10-20T12:00:00Z")
        assert answer.result == {"owner": {"id": "bo", "name": "Bo Lind"}}
    assert writes > 1


BROKEN = "---\nid: CC-1\nkind: [broken\n---\n"  # its id cannot be read


def test_a_file_that_fails_to_read_is_not_gone_however_the_corpus_folder_is_spelled(
    store: Store, settings: Settings, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Which records a file held was looked up by the path the run that stored them was
    given: ingested as `corpus` once and as `/home/.../corpus` since (another shell, a
    cron job), a file that failed to read was taken for one deleted: the run called its
    record gone and --prune removed it, so the company forgot what the file said because
    of a typo in it."""
    corpus = write_corpus(tmp_path / "c", {"dir.md": DIRECTORY, "cc.md": TRANSFER})
    monkeypatch.chdir(tmp_path)
    ingest(store, "c", settings)
    (corpus / "records" / "cc.md").write_text(BROKEN)
    assert ingest(store, corpus, settings).gone == []
    assert ingest(store, corpus, settings, prune=True).pruned == 0
    answer = ask(store, settings, "Who owns the billing gateway?", now="2026-10-20T12:00:00Z")
    assert answer.result == {"owner": {"id": "bo", "name": "Bo Lind"}}


def test_a_renamed_file_that_fails_to_read_is_not_gone(
    store: Store, settings: Settings, tmp_path: Path
) -> None:
    """Renamed, a record is unchanged (its text is), so the graph keeps the name it was
    stored from; once the renamed file failed to read, its record was called gone and
    pruned although the refusal named it."""
    corpus = write_corpus(tmp_path / "c", {"dir.md": DIRECTORY, "cc.md": TRANSFER})
    ingest(store, corpus, settings)
    cc = corpus / "records" / "cc.md"
    cc.rename(cc.with_name("cc-1.md"))
    assert ingest(store, corpus, settings).unchanged == 2
    cc.with_name("cc-1.md").write_text(TRANSFER.replace("author: cy", "author: nobody-here"))
    report = ingest(store, corpus, settings, prune=True)
    assert (report.pruned, report.kept_stored) == (0, ["CC-1"])


def test_a_renamed_file_whose_id_can_no_longer_be_read_is_not_gone(
    store: Store, settings: Settings, tmp_path: Path
) -> None:
    """Renamed, the record was unchanged and the graph kept the old file name as where it
    came from; once the renamed file's front matter broke (its id unreadable), nothing tied
    the record to it: --prune removed it and Ana answered for the billing gateway, citing
    dir-1. An unchanged record now follows its file's new name, without being read again."""
    corpus = write_corpus(tmp_path / "c", {"dir.md": DIRECTORY, "cc.md": TRANSFER})
    ingest(store, corpus, settings)
    cc = corpus / "records" / "cc.md"
    moved = cc.rename(cc.with_name("transfer.md"))
    renamed = ingest(store, corpus, settings)
    assert (renamed.stored, renamed.unchanged) == (0, 2)
    copy = tmp_path / "copy.md"  # a copy elsewhere, ingested on its own: the file stays
    copy.write_text(TRANSFER)
    assert ingest(store, copy, settings).unchanged == 1
    moved.write_text(BROKEN)
    report = ingest(store, corpus, settings, prune=True)
    assert (report.pruned, report.kept_stored) == (0, ["CC-1"])
    answer = ask(store, settings, "Who owns the billing gateway?", now="2026-10-20T12:00:00Z")
    assert answer.result == {"owner": {"id": "bo", "name": "Bo Lind"}}
