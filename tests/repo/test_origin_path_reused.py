"""A file renamed away (src/a.py to src/b.py, then lib/c.py) and a new, different src/a.py
added months later: "Where did src/a.py come from?" named the commit that added the first
src/a.py, the file now at lib/c.py, and, asked about a day after the new file was added,
said src/a.py "was named lib/c.py" by then. The file at a path added again after its file
was renamed away begins with that later add."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from companybrain.ask.repo import history_tools
from companybrain.graph.connection import Store
from companybrain.repo.ingest import ingest_repo
from tests.repo.gitrepo import GitRepo

NOW = datetime(2026, 1, 1, tzinfo=UTC)


def test_a_path_added_again_after_a_rename_is_a_new_file(store: Store, tmp_path: Path) -> None:
    r = GitRepo(tmp_path / "r")
    r.write("src/a.py", "def f():\n    return 1\n")
    first = r.commit("Start", "2025-01-10T09:00:00Z")
    r.mv("src/a.py", "src/b.py")
    r.commit("a to b", "2025-02-01T09:00:00Z")
    r.mv("src/b.py", "lib/c.py")
    r.commit("b to c", "2025-03-01T09:00:00Z")
    r.write("src/a.py", "def g():\n    return 2\n")
    again = r.commit("A new a", "2025-05-01T09:00:00Z")
    ingest_repo(store, r.root)

    now = history_tools.origin(store, "src/a.py", now=NOW)
    assert now.result is not None and now.result["commit"] == again, now.explanation
    assert "lib/c.py" not in now.explanation
    later = history_tools.origin(store, "src/a.py", until=datetime(2025, 6, 1, tzinfo=UTC))
    assert later.result is not None and later.result["commit"] == again, later.explanation
    assert "lib/c.py" not in later.explanation
    # The renamed file keeps its own beginning, and so does the day before the new file.
    moved = history_tools.origin(store, "lib/c.py", now=NOW)
    assert moved.result is not None and moved.result["commit"] == first
    before = history_tools.origin(store, "src/a.py", until=datetime(2025, 4, 1, tzinfo=UTC))
    assert before.result is not None and before.result["commit"] == first
    assert "it was named lib/c.py" in before.explanation
