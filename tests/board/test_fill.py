"""Filling the board from a repository ingested by `brain ingest-repo`: its decision
entries, summaries of the files they rest on, and folders that wait for their files."""

from __future__ import annotations

import subprocess
from dataclasses import replace
from pathlib import Path

import pytest

from companybrain.board.fill import fill
from companybrain.board.options import BoardOptions
from companybrain.board.worker import Worker
from companybrain.config import Settings
from companybrain.errors import InputError
from companybrain.graph.connection import Store
from companybrain.graph.queries import board_q, findings_q
from companybrain.repo.ingest import ingest_repo
from tests.board.conftest import (
    ADR_1,
    ADR_2,
    ADR_3,
    ADRS,
    Adr,
    commit_files,
    make_repo,
    remove_entry,
    seed_decisions,
    seed_files,
)
from tests.board.conftest import FILES as SEEDED_FILES

OPTIONS = BoardOptions(poll_s=0.01)
FILES = {
    ADR_1.id: ADR_1.text,
    ADR_2.id: ADR_2.text,
    ADR_3.id: ADR_3.text,
    "src/exporter.py": "class Exporter:\n    def flush(self):\n        ...\n",
    "src/outbox.py": (
        '"""The outbox: events written with the ledger row."""\n\ndef publish(event):\n    ...\n'
    ),
}


def test_an_ingested_repository_fills_entries_files_and_folders(
    tmp_path: Path, store: Store, board: Store, settings: Settings
) -> None:
    repo = make_repo(tmp_path / "ledger", FILES)
    ingest_repo(store, repo)

    report = fill(store, board, OPTIONS)  # the repository is found through the ingest

    assert report.repo == str(repo) and report.skipped_files == []
    kinds = sorted((i["kind"], i["entry"], i["waiting"]) for i in board_q.items(board))
    assert kinds == [
        ("dir", ".", 1),
        ("dir", "src", 2),
        ("entry", ADR_1.id, 0),
        ("entry", ADR_2.id, 0),
        ("entry", ADR_3.id, 0),
        ("file", "src/exporter.py", 0),
        ("file", "src/outbox.py", 0),
    ]
    Worker(settings, OPTIONS, "rules-1").run()
    Worker(settings, OPTIONS, "rules-2").run()  # confirms what rules-1 raised

    summaries = dict(
        (r["id"], r["summary"])
        for r in store.read(
            "MATCH (f:File) WHERE f.summary IS NOT NULL RETURN f.id AS id, f.summary AS summary"
        )
    )
    assert summaries == {
        "src/exporter.py": "Defines `Exporter`, `Exporter.flush`.",
        "src/outbox.py": "The outbox: events written with the ledger row. Defines `publish`.",
    }
    folder = next(i for i in board_q.items(board) if i["id"] == "dir:src")
    assert folder["summary"].startswith("2 part(s). exporter.py: Defines `Exporter`")
    kept = {(f.kind.value, f.value) for f in findings_q.findings_of(store, ADR_2.id)}
    assert {("measurement", "16/20"), ("file", "src/outbox.py")} <= kept
    assert ("relation", ADR_1.id) in kept
    assert {h["status"] for h in board_q.handoffs(board)} == {"confirmed", "rejected"}

    # A changed file is summarised again, and so are the folders above it.
    commit_files(repo, {"src/exporter.py": "class Exporter:\n    def drain(self):\n        ...\n"})
    again = fill(store, board, OPTIONS)
    assert again.files == 1 and again.entries == 0
    pending = sorted(i["id"] for i in board_q.items(board) if i["status"] == "pending")
    assert pending == ["dir:.", "dir:src", "file:src/exporter.py"]
    Worker(settings, OPTIONS, "rules-1").run()
    [exporter] = store.read("MATCH (f:File {id: 'src/exporter.py'}) RETURN f.summary AS s")
    assert exporter["s"] == "Defines `Exporter`, `Exporter.drain`."


def test_file_summaries_need_the_repository(store: Store, board: Store) -> None:
    store.query("MERGE (d:Decision {id: 'a.md'}) SET d.text = 'See src/x.py.', d.title = 'A'")
    store.query(
        "MERGE (f:File {id: 'src/x.py'}) WITH f MATCH (d:Decision {id: 'a.md'}) "
        "MERGE (d)-[:RATIONALE]->(f)"
    )
    report = fill(store, board, OPTIONS)
    assert report.skipped_files == ["file summaries need the repository: pass --repo PATH"]
    assert [i["kind"] for i in board_q.items(board)] == ["entry"]


def test_a_brain_that_lost_its_readings_is_read_again(
    store: Store, board: Store, settings: Settings
) -> None:
    seed_decisions(store, ADRS)
    seed_files(store, SEEDED_FILES)
    assert fill(store, board, OPTIONS).entries == 3
    Worker(settings, OPTIONS, "rules-1").run()
    Worker(settings, OPTIONS, "rules-2").run()
    assert findings_q.findings_of(store, ADR_2.id)
    again = fill(store, board, OPTIONS)
    assert (again.entries, again.unchanged) == (0, 3)

    # `brain reset` and a new ingest: same texts, but the brain holds none of the findings
    store.delete_graph()
    store.ensure_schema()
    seed_decisions(store, ADRS)
    seed_files(store, SEEDED_FILES)
    lost = fill(store, board, OPTIONS)
    assert (lost.entries, lost.unchanged) == (3, 0)
    Worker(settings, OPTIONS, "rules-1").run()
    kept = {(f.kind.value, f.value) for f in findings_q.findings_of(store, ADR_2.id)}
    assert ("measurement", "16/20") in kept
    assert ("relation", ADR_1.id) in kept  # confirmed through a handoff before the reset


def test_a_relation_whose_sentence_was_edited_away_leaves_the_brain(
    store: Store, board: Store, settings: Settings
) -> None:
    """ADR-2 lost its sentence "This supersedes ADR-1."; the board read it again, but put
    back the relation confirmed from the old text, and `trace` went on answering that ADR-2
    replaced ADR-1, citing the deleted sentence. A changed entry's handoffs are judged
    again, from the texts as they are now."""
    from companybrain.ask.repo.history_tools import trace

    def run() -> None:
        fill(store, board, OPTIONS)
        Worker(settings, OPTIONS, "rules-1").run()
        Worker(settings, OPTIONS, "rules-2").run()

    def cited() -> list[tuple[str, str]]:
        return [(c.record, c.quote) for c in trace(store, ADR_1.id).citations]

    seed_decisions(store, ADRS)
    seed_files(store, SEEDED_FILES)
    run()
    assert (ADR_2.id, "This supersedes ADR-1.") in cited()

    # ADR-1 still says it is superseded by ADR-2: that stays, quoted as it stands now.
    edited = ADR_2.text.replace("This supersedes ADR-1. ", "")
    seed_decisions(store, [replace(ADR_2, text=edited)])
    run()
    assert trace(store, ADR_1.id).result["chain"] == [ADR_2.id, ADR_1.id]
    texts = {ADR_1.id: ADR_1.text, ADR_2.id: edited}
    assert all(" ".join(q.split()) in " ".join(texts[r].split()) for r, q in cited())

    # Once neither says so, there is no supersession.
    seed_decisions(store, [replace(ADR_1, text=ADR_1.text.replace("Superseded by", "Follows"))])
    run()
    assert trace(store, ADR_1.id).result["chain"] == [ADR_1.id]
    assert [f for f in findings_q.findings_of(store, ADR_2.id) if f.relation] == []


def test_a_rejected_relation_the_entry_now_states_is_judged_again(
    store: Store, board: Store, settings: Settings
) -> None:
    """ADR-3 said "This does not supersede ADR-2." (rejected), then was edited to "This
    supersedes ADR-2.": read again, it raised the same handoff, which stayed rejected, and
    the supersession was never recorded."""
    from companybrain.ask.repo.history_tools import trace

    seed_decisions(store, ADRS)
    seed_files(store, SEEDED_FILES)
    for text in (ADR_3.text, ADR_3.text.replace("does not supersede", "supersedes")):
        seed_decisions(store, [replace(ADR_3, text=text)])
        fill(store, board, OPTIONS)
        Worker(settings, OPTIONS, "rules-1").run()
        Worker(settings, OPTIONS, "rules-2").run()
    [handoff] = [h for h in board_q.handoffs(board) if h["from_entry"] == ADR_3.id]
    assert handoff["status"] == "confirmed"
    assert trace(store, ADR_2.id).result["chain"] == [ADR_3.id, ADR_2.id, ADR_1.id]


def test_a_repo_that_is_not_the_ingested_one_is_refused(
    tmp_path: Path, store: Store, board: Store, settings: Settings
) -> None:
    """`board fill --repo` at a folder that is no repository read every file as "not in
    HEAD" and dropped their items; at another repository it summarised that repository's
    `src/exporter.py` into this graph's file. One error naming --repo, and nothing lost."""
    repo = make_repo(tmp_path / "ledger", FILES)
    ingest_repo(store, repo)
    fill(store, board, OPTIONS)
    Worker(settings, OPTIONS, "rules-1").run()
    before = sorted((i["id"], i["status"]) for i in board_q.items(board))
    plain = tmp_path / "plain"
    plain.mkdir()
    other = make_repo(tmp_path / "other", {"src/exporter.py": "def elsewhere():\n    ...\n"})

    for wrong in (plain, other):
        with pytest.raises(InputError, match="--repo"):
            fill(store, board, OPTIONS, repo=wrong)
        assert sorted((i["id"], i["status"]) for i in board_q.items(board)) == before
    [exporter] = store.read("MATCH (f:File {id: 'src/exporter.py'}) RETURN f.summary AS s")
    assert exporter["s"] == "Defines `Exporter`, `Exporter.flush`."

    # the same repository, cloned elsewhere, is the repository
    clone = tmp_path / "clone"
    subprocess.run(["git", "clone", "-q", str(repo), str(clone)], check=True)
    assert fill(store, board, OPTIONS, repo=clone).repo == str(clone)


def test_an_open_handoff_to_an_entry_that_left_the_brain_goes_with_it(
    store: Store, board: Store, settings: Settings
) -> None:
    """ADR-2 raised "supersedes ADR-1" and ADR-1 left the brain before another agent judged
    it: the handoff failed three times with "run `brain board fill`", and a fill, a retry
    and a run left it failed and open for good."""
    seed_decisions(store, ADRS)
    seed_files(store, SEEDED_FILES)
    fill(store, board, OPTIONS)
    Worker(settings, OPTIONS, "rules-1").run()  # raises it; only another agent may judge it
    assert ADR_1.id in {h["to_entry"] for h in board_q.handoffs(board, "open")}

    remove_entry(store, ADR_1.id)
    report = fill(store, board, OPTIONS)
    assert report.removed == 1 and report.entries == 0
    Worker(settings, OPTIONS, "rules-2").run()
    assert board_q.handoffs(board, "open") == []
    assert board_q.failed_items(board) == []
    assert {i["status"] for i in board_q.items(board)} == {"done"}


def test_a_confirmed_relation_the_checks_now_refuse_leaves_the_brain(
    store: Store, board: Store, settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A relation confirmed under looser checks ("A later decision might supersede ADR-1."
    read as ADR-4 superseding ADR-1, before such sentences were refused) stayed in the brain
    for good: a fill only asked whether its quotes were still in the texts. Each fill judges
    confirmed relations again with today's checks."""
    from companybrain.ask.repo.history_tools import trace
    from companybrain.board import handoffs
    from companybrain.policy.finding_checks import Confirmation

    hedged = Adr(
        "docs/adr/0004-later.md",
        "Later",
        "2025-08-01",
        "# 4. Later\n\nA later decision might supersede ADR-1 once Postgres is ready.\n",
    )
    seed_decisions(store, [ADR_1, hedged])
    loose = Confirmation("confirmed", "confirmed under the old checks")
    with monkeypatch.context() as m:
        m.setattr(handoffs, "check_confirmation", lambda *a, **k: loose)
        fill(store, board, OPTIONS)
        Worker(settings, OPTIONS, "rules-1").run()
        Worker(settings, OPTIONS, "rules-2").run()
    assert trace(store, ADR_1.id).result["chain"] == [hedged.id, ADR_1.id]

    fill(store, board, OPTIONS)
    Worker(settings, OPTIONS, "rules-1").run()
    Worker(settings, OPTIONS, "rules-2").run()
    assert trace(store, ADR_1.id).result["chain"] == [ADR_1.id]
    [handoff] = board_q.handoffs(board)
    assert handoff["status"] == "rejected" and "only supposes it" in handoff["reason"]
