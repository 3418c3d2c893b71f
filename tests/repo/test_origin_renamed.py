"""origin of a renamed file asked about a day before the rename said "it was later renamed
to src/export/writer.py", as if that had happened by then; of a folder it said the file
"was later renamed to src" (a folder). It says the name the file had on that day, and that
a file came into a folder by a move."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from companybrain.ask.engine import ask
from companybrain.ask.repo import history_tools
from companybrain.config import Settings
from companybrain.graph.connection import Store
from companybrain.repo.ingest import ingest_repo
from tests.repo.gitrepo import GitRepo

NOW = datetime(2026, 1, 1, tzinfo=UTC)


def test_origin_names_the_file_as_it_was_on_the_day(
    store: Store, settings: Settings, tmp_path: Path
) -> None:
    r = GitRepo(tmp_path / "r")
    r.write("src/exporter.py", "def export(rows):\n    return rows\n")
    r.commit("Start", "2025-01-03T10:00:00Z")
    r.mv("src/exporter.py", "src/export/writer.py")
    r.commit("Move the exporter", "2025-05-01T10:00:00Z")
    r.write("other.txt", "x\n")
    r.commit("Later", "2025-06-01T10:00:00Z")
    ingest_repo(store, r.root)

    def said(question: str) -> str:
        a = ask(store, settings, question, now=NOW)
        assert a.status == "answered", a.refusal
        return a.explanation

    before = said("Where did src/export/writer.py come from as of 2025-03-01?")
    assert "later renamed" not in before
    assert "it was named src/exporter.py, renamed to src/export/writer.py after that day" in before
    after = said("Where did src/export/writer.py come from as of 2025-05-20?")
    assert after.endswith("; it was later renamed to src/export/writer.py.")
    old_name = said("Where did src/exporter.py come from as of 2025-05-20?")
    assert "it was named src/export/writer.py." in old_name
    assert "was later renamed to src" not in history_tools.origin(store, "src").explanation
    folder = history_tools.origin(store, "src/export").explanation
    assert folder.endswith("; it was later moved into src/export.")
