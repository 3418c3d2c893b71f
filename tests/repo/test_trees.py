"""Trees read through `git cat-file --batch` list the same files as `git ls-tree -r`."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from companybrain.repo import trees
from companybrain.repo.gitcmd import GitError
from tests.repo.gitrepo import GitRepo


def test_trees_match_ls_tree_at_every_commit(tmp_path: Path) -> None:
    r = GitRepo(tmp_path / "t")
    r.write("README.md", "hi\n")
    r.write("src/app/deep/x.py", "x\n")
    r.write("src/app/with space.py", "y\n")
    r.write("docs/é.md", "z\n")
    first = r.commit("files", "2025-01-01T09:00:00+00:00")
    os.symlink("README.md", r.root / "link.md")
    r.git("add", "link.md")
    r.rm("src/app/deep/x.py")
    r.write("src/lib/y.py", "y\n")
    second = r.commit("more", "2025-01-02T09:00:00+00:00")
    with trees.Trees(r.root) as t:
        for rev in (first, second, f"{second}^"):
            assert t.at(rev).paths == {p for _, p in trees.entries(r.root, rev)}
        assert "link.md" in t.at(second).paths and "src/app/deep/x.py" not in t.at(second).paths
        with pytest.raises(GitError):
            t.at(f"{first}^")  # the first commit has no parent


def test_a_named_path_is_found_as_in_the_whole_tree(tmp_path: Path) -> None:
    r = GitRepo(tmp_path / "n")
    r.write("src/app/deep/x.py", "x\n")
    r.write("src/lib/x.py", "x\n")
    r.write("docs/guide.md", "g\n")
    rev = r.commit("files", "2025-01-01T09:00:00+00:00")
    tokens = ["src/app/deep/x.py", "deep/x.py", "x.py", "guide.md", "`./docs/guide.md`,",
              "src/app", "src/", "missing.py", "../docs/guide.md", "e.g", "README"]  # fmt: skip
    with trees.Trees(r.root) as t:
        found = {tok: t.named(rev).find(tok) for tok in tokens}
        assert found == {tok: t.at(rev).find(tok) for tok in tokens}
    assert found["deep/x.py"] == "src/app/deep/x.py" and found["x.py"] is None  # two x.py
    assert found["`./docs/guide.md`,"] == "docs/guide.md" == found["guide.md"]
