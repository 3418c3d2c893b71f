"""A commit dated years ahead (a clock set wrong) was read without a word, and then every
question about a day after a commit following it refused, saying only that the history's
dates are out of order. The ingest names each such commit and its date."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from companybrain.graph.connection import Store
from companybrain.repo.ingest import ingest_repo
from tests.repo.gitrepo import GitRepo


def _repo(root: Path) -> tuple[GitRepo, str]:
    r = GitRepo(root)
    r.write("src/pay.py", "x = 1\n")
    r.commit("Start", "2025-01-01T09:00:00Z")
    r.write("src/pay.py", "x = 2\n")
    late = r.commit("Clock ahead", "2035-06-01T09:00:00Z")
    r.write("src/pay.py", "x = 3\n")
    r.commit("Clock right", "2025-02-01T09:00:00Z")
    return r, late


def test_a_commit_dated_in_the_future_is_reported(store: Store, tmp_path: Path) -> None:
    r, late = _repo(tmp_path / "r")
    report = ingest_repo(store, r.root)
    assert report.future_commits == [{"commit": late, "committed_at": "2035-06-01T09:00:00+00:00"}]
    r.write("src/pay.py", "x = 4\n")
    r.commit("Next", "2025-03-01T09:00:00Z")
    assert ingest_repo(store, r.root).future_commits == []  # reported once, when read


def test_the_command_line_names_it(run_cli: Any, tmp_path: Path) -> None:
    r, late = _repo(tmp_path / "r")
    done = run_cli("ingest-repo", str(r.root))
    assert done.exit_code == 0, done.output
    assert f"commit {late[:12]} is dated 2035-06-01T09:00:00+00:00, in the future" in done.output
    assert json.loads(run_cli("ingest-repo", str(r.root), "--json").output)["future_commits"] == []
