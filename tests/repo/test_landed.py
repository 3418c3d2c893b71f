"""Landing times of a whole history read in one `git log` pass agree with their definition:
per first-parent merge, `git rev-list ^FIRST-PARENT OTHER-PARENT` is what it brought in."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from companybrain.repo import landed
from tests.repo.gitrepo import GitRepo

ANN = ("Ann Lee", "ann@example.com")


def _by_definition(repo: GitRepo) -> dict[str, dict[str, Any]]:
    """Every commit's landing, straight from the definition: a first-parent commit landed
    itself, any other commit with the merge whose other parent reaches it and whose first
    parent does not."""
    out: dict[str, dict[str, Any]] = {}
    for line in repo.git("log", "--first-parent", "--format=%H %P").splitlines():
        sha, *parents = line.split()
        out[sha] = {"mainline": True, "landed_by": sha}
        first, others = (parents[0], parents[1:]) if parents else ("", [])
        for other in others:
            for brought in repo.git("rev-list", f"^{first}", other).split():
                assert brought not in out  # each commit lands once
                out[brought] = {"mainline": False, "landed_by": sha}
    return out


def _tangled(root: Path) -> GitRepo:
    """Branches off branches, a branch merged twice, an old commit merged late, and a side
    branch that merges main into itself before it is merged back."""
    r = GitRepo(root)
    day = iter(range(1, 60))

    def commit(message: str) -> str:
        return r.commit(message, f"2025-03-{next(day) % 28 + 1:02d}T09:00:00+00:00", ANN)

    def merge(branch: str) -> str:
        return r.merge(branch, f"Merge {branch}", f"2025-05-{next(day) % 28 + 1:02d}T09:00:00", ANN)

    commit("root")
    r.git("checkout", "-q", "-b", "feature")
    commit("feature one")
    r.git("checkout", "-q", "-b", "sub")
    commit("sub one")
    commit("sub two")
    r.git("checkout", "-q", "feature")
    commit("feature two")
    merge("sub")
    r.git("checkout", "-q", "main")
    commit("main one")
    merge("feature")
    r.git("checkout", "-q", "feature")
    commit("feature three")
    merge("main")
    commit("feature four")
    r.git("checkout", "-q", "main")
    commit("main two")
    merge("feature")
    r.git("checkout", "-q", "sub")
    commit("sub three, long forgotten")
    r.git("checkout", "-q", "main")
    commit("main three")
    merge("sub")
    return r


def test_one_pass_landing_matches_the_definition(tmp_path: Path) -> None:
    r = _tangled(tmp_path / "tangled")
    expected = _by_definition(r)
    rows = list(landed._whole_history(r.root, r.head()))
    got = {row["id"]: {"mainline": row["mainline"], "landed_by": row["landed_by"]} for row in rows}
    assert len(rows) == len(got) == int(r.git("rev-list", "--count", "HEAD"))
    assert got == expected
    assert sum(not v["mainline"] for v in got.values()) >= 6
    dates = dict(line.split() for line in r.git("log", "--format=%H %cI").splitlines())
    for row in rows:
        assert row["landed_at"] == dates[row["landed_by"]]
    brought = list(landed._whole_history(r.root, r.head(), mainline=False))
    assert brought == [row for row in rows if not row["mainline"]]
