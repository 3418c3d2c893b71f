"""`told` on a day reads the tree at the tip of the branch that day, also when the last
commits were made in the same second (a rebase, a script): ordered by time they tie, and
the database returned one of them at random, quoting an instruction file already replaced."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from companybrain.ask.repo import told
from companybrain.graph.connection import Store
from companybrain.repo.ingest import ingest_repo
from tests.repo.gitrepo import GitRepo

NOW = datetime(2026, 12, 1, tzinfo=UTC)
SAME_SECOND = "2026-10-01T10:00:00Z"


def test_the_tip_of_commits_made_in_the_same_second_is_read(store: Store, tmp_path: Path) -> None:
    repo = GitRepo(tmp_path / "r")
    repo.write("AGENTS.md", "# Agents\n\n## Tests\n\nRun the tests with version0 of the runner.\n")
    repo.commit("start", "2026-09-01T10:00:00Z")
    shas = []
    for n in (1, 2, 3, 4, 5):
        repo.write(
            "AGENTS.md", f"# Agents\n\n## Tests\n\nRun the tests with version{n} of the runner.\n"
        )
        repo.commit(f"version {n}", SAME_SECOND)
        shas.append(repo.git("rev-parse", "HEAD"))
    ingest_repo(store, repo.root)
    for day in ("2026-10-01", "2026-10-02"):
        answer = told.told(store, day, "tests", "AGENTS.md", now=NOW)
        assert answer.status == "answered", answer.refusal
        assert answer.result is not None and "version5" in answer.result["text"], answer.result
        assert answer.result["commit"] == shas[-1]
    # A day named in words is also given as a date ("on yesterday" said nothing).
    yesterday = told.told(store, "yesterday", "tests", now=datetime(2026, 10, 2, 9, tzinfo=UTC))
    assert "on yesterday, 2026-10-01 (the branch at" in yesterday.explanation


def test_a_revision_git_names_is_a_commit(store: Store, tmp_path: Path) -> None:
    """`HEAD`, a branch or a tag is read like the sha it names: what the agent writing that
    commit was told (its parent's tree). It was refused as "neither a commit nor a day"."""
    repo = GitRepo(tmp_path / "r")
    for n in (1, 2, 3):
        repo.write("AGENTS.md", f"# Agents\n\n## Tests\n\nUse version{n} of the runner.\n")
        repo.commit(f"version {n}", f"2026-10-0{n}T10:00:00Z")
    repo.git("tag", "v2", "HEAD~1")
    ingest_repo(store, repo.root)
    head = told.told(store, "HEAD", "tests", now=NOW)
    assert head.result is not None and "version2" in head.result["text"], head.refusal
    tag = told.told(store, "v2", "tests", now=NOW)
    assert tag.result is not None and "version1" in tag.result["text"], tag.refusal
    unknown = told.told(store, "no-such-branch", "tests", now=NOW)
    assert unknown.refusal is not None and "neither a commit" in unknown.refusal.message
