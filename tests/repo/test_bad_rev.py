"""`brain ingest-repo PATH --rev nosuch` on a repository with commits said "'nosuch' is not
a commit (is the repository empty?)": it is not. The error names the option and the value;
a repository with no commits says that."""

from __future__ import annotations

from pathlib import Path

import pytest

from companybrain.graph.connection import Store
from companybrain.repo.gitcmd import GitError
from companybrain.repo.ingest import ingest_repo
from tests.repo.gitrepo import GitRepo


def test_a_bad_rev_and_an_empty_repository_are_told_apart(store: Store, tmp_path: Path) -> None:
    empty = GitRepo(tmp_path / "empty")
    with pytest.raises(GitError, match="has no commits yet"):
        ingest_repo(store, empty.root)
    r = GitRepo(tmp_path / "r")
    r.write("a.py", "x = 1\n")
    r.commit("Start", "2025-01-10T09:00:00Z")
    with pytest.raises(GitError, match="--rev 'nosuch' is not a commit") as err:
        ingest_repo(store, r.root, rev="nosuch")
    assert "empty?" not in str(err.value)
