"""Landing times of a whole history read in one `git log` pass agree with their definition:
per first-parent merge, `git rev-list ^FIRST-PARENT OTHER-PARENT` is what it brought in."""

from __future__ import annotations

import subprocess
from pathlib import Path
from typing import Any

from companybrain.graph.connection import Store
from companybrain.graph.queries import repo_read
from companybrain.repo import history, landed
from companybrain.repo.ingest import ingest_repo
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


def test_a_commit_whose_offset_no_clock_has_is_read_at_its_instant(
    store: Store, tmp_path: Path
) -> None:
    """Git stores a commit's offset as written, and old imports and broken tools wrote
    +9959 or -2460; `git log` prints them as they are (2026-09-25T18:12:20+99:59). Python
    makes no offset of a day or more, and `brain ingest-repo` stopped on the whole
    repository with 'unexpected ValueError'."""
    r = GitRepo(tmp_path)
    root = r.commit("root", "2026-09-01T09:00:00+00:00", ANN)
    r.write("b.txt", "b")
    raw = (
        f"tree {r.git('write-tree')}\nparent {root}\n"
        "author Ann Lee <ann@example.com> 1790000000 +9959\n"
        "committer Ann Lee <ann@example.com> 1790000060 -2460\n\nodd offsets\n"
    )
    made = subprocess.run(
        ["git", "hash-object", "-t", "commit", "-w", "--stdin"],
        cwd=tmp_path, input=raw, capture_output=True, text=True, check=True,
    )  # fmt: skip
    odd = made.stdout.strip()
    r.git("update-ref", "refs/heads/main", odd)
    assert r.git("log", "-1", "--format=%aI %cI").split() == [
        "2026-09-25T18:12:20+99:59",
        "2026-09-20T13:14:20-24:60",
    ]
    ingest_repo(store, tmp_path)
    stored = repo_read.commit(store, odd)
    assert stored is not None and stored["landed_ms"] == 1_790_000_060_000
    assert history.iso_ms("2026-09-25T18:12:20+99:59") == 1_790_000_000_000
