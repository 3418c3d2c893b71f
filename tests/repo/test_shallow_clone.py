"""A shallow clone's history begins where it was cut off: the first commit it holds seems
to add every file and record every decision there was by then. `origin` named that commit,
its author and date, with a citation; the answer is now that the history read does not hold
where they came from."""

from __future__ import annotations

import subprocess
from datetime import UTC, datetime
from pathlib import Path

import pytest

from companybrain.ask.engine import ask
from companybrain.ask.repo import history_tools, told, tools
from companybrain.ask.repo.review import review
from companybrain.config import Settings
from companybrain.graph.connection import Store
from companybrain.repo.gitcmd import GitError
from companybrain.repo.ingest import ingest_repo
from tests.repo.gitrepo import GitRepo

NOW = datetime(2026, 12, 1, tzinfo=UTC)
ANN = ("Ann Lee", "ann@example.com")
CAROL = ("Carol Diaz", "carol@example.com")


def test_origin_before_a_shallow_clone_s_cut_is_not_recorded(store: Store, tmp_path: Path) -> None:
    repo = GitRepo(tmp_path / "full")
    repo.write("src/old.py", "x = 1\n")
    repo.write("DECISIONS.md", "# Decisions\n\n## Use Redis\n\nWe use Redis for the cache.\n")
    repo.commit("Start", "2024-01-10T10:00:00Z", author=ANN)
    for n in range(3):
        repo.write(f"src/new{n}.py", f"y = {n}\n")
        repo.commit(f"Add new{n}", f"2024-0{n + 2}-01T10:00:00Z", author=CAROL)
    shallow = tmp_path / "shallow"
    subprocess.run(
        ["git", "clone", "-q", "--depth", "2", f"file://{repo.root}", str(shallow)], check=True
    )
    ingest_repo(store, shallow)

    for subject in ("src/old.py", "DECISIONS.md#Use Redis", "src/new1.py"):
        answer = history_tools.origin(store, subject, now=NOW)
        assert answer.status == "refused" and answer.refusal is not None, answer.result
        assert answer.refusal.code.value == "NO_CLAIM"
        assert "shallow clone" in answer.refusal.message
        assert answer.citations == []
    added = history_tools.origin(store, "src/new2.py", now=NOW)  # inside the history read
    assert added.result is not None and added.result["author_name"] == "Carol Diaz"

    # The whole history fetched and read again: where they came from is known.
    subprocess.run(["git", "-C", str(shallow), "fetch", "-q", "--unshallow"], check=True)
    ingest_repo(store, shallow)
    for subject in ("src/old.py", "DECISIONS.md#Use Redis"):
        got = history_tools.origin(store, subject, now=NOW).result
        assert got is not None and got["author_name"] == "Ann Lee", subject


def test_a_day_before_a_shallow_clone_s_cut_is_not_said_to_have_no_commits(
    store: Store, settings: Settings, tmp_path: Path
) -> None:
    repo = GitRepo(tmp_path / "full")
    repo.write("DECISIONS.md", "# Decisions\n\n## Use Redis\n\nsrc/cache.py uses Redis.\n")
    repo.write("src/cache.py", "x = 1\n")
    repo.write("AGENTS.md", "# Agents\n\n## Cache\n\nKeep Redis for the cache.\n")
    repo.commit("Start", "2024-01-10T10:00:00Z", author=ANN)
    for n in range(3):
        repo.write("src/cache.py", f"x = {n}\n")
        repo.commit(f"Tune {n}", f"2024-0{n + 2}-01T10:00:00Z", author=CAROL)
    shallow = tmp_path / "shallow"
    subprocess.run(
        ["git", "clone", "-q", "--depth", "1", f"file://{repo.root}", str(shallow)], check=True
    )
    ingest_repo(store, shallow)
    for question in (
        "Why src/cache.py as of 2024-01-20?",
        "What did AGENTS.md say about the cache on 2024-01-20?",
    ):
        answer = ask(store, settings, question, now=NOW)
        assert answer.refusal is not None and answer.refusal.code.value == "NO_CLAIM"
        assert "shallow clone" in answer.refusal.message, answer.refusal.message
        assert "no commit had landed" not in answer.refusal.message


def test_who_knows_does_not_credit_a_shallow_clone_s_first_commit(
    store: Store, tmp_path: Path
) -> None:
    """Its first commit seems to add every file there was: "Who knows src/old.py?" named
    the author of that commit, who never touched it, citing the commit."""
    repo = GitRepo(tmp_path / "full")
    repo.write("src/old.py", "x = 1\n")
    repo.commit("Start", "2024-01-10T10:00:00Z", author=ANN)
    repo.write("src/new.py", "y = 1\n")
    repo.commit("Add new", "2024-02-01T10:00:00Z", author=CAROL)
    repo.write("src/new.py", "y = 2\n")
    repo.commit("Change new", "2024-03-01T10:00:00Z", author=CAROL)
    shallow = tmp_path / "shallow"
    subprocess.run(
        ["git", "clone", "-q", "--depth", "2", f"file://{repo.root}", str(shallow)], check=True
    )
    ingest_repo(store, shallow)

    old = tools.who_knows(store, "src/old.py", now=NOW)
    assert old.status == "refused" and old.refusal is not None, old.result
    assert "shallow clone" in old.refusal.message and old.citations == []
    new = tools.who_knows(store, "src/new.py", now=NOW)
    assert new.result is not None
    assert [(e["name"], e["commits"]) for e in new.result["experts"]] == [("Carol Diaz", 1)]


def test_told_at_a_shallow_clone_s_first_commit_is_not_said_to_have_no_instructions(
    store: Store, tmp_path: Path
) -> None:
    """Asked what the agent was told when the clone's first commit was written, `told` said
    "no agent instruction file was in the tree": its parent's tree, with AGENTS.md in it,
    is outside the history read."""
    repo = GitRepo(tmp_path / "full")
    repo.write("AGENTS.md", "# Agents\n\n## Tests\n\nRun pytest.\n")
    repo.commit("Start", "2024-01-10T10:00:00Z", author=ANN)
    repo.write("a.py", "x = 1\n")
    first = repo.commit("Add a", "2024-02-01T10:00:00Z", author=CAROL)
    repo.write("a.py", "x = 2\n")
    repo.commit("Change a", "2024-03-01T10:00:00Z", author=CAROL)
    shallow = tmp_path / "shallow"
    subprocess.run(
        ["git", "clone", "-q", "--depth", "2", f"file://{repo.root}", str(shallow)], check=True
    )
    ingest_repo(store, shallow)

    a = told.told(store, first, "tests", now=NOW)
    assert a.status == "refused" and a.refusal is not None, a.result
    assert "shallow clone" in a.refusal.message
    later = told.told(store, "HEAD", "tests", now=NOW)
    assert later.result is not None and later.result["file"] == "AGENTS.md"


def test_review_of_a_shallow_clone_s_first_commit_is_one_clear_error(
    store: Store, tmp_path: Path
) -> None:
    """Reviewed, the clone's first commit was taken for a root commit that adds every file
    there was: the decisions resting on any of them listed as touched by it."""
    repo = GitRepo(tmp_path / "full")
    repo.write("src/cache.py", "x = 1\n")
    repo.write("DECISIONS.md", "# Decisions\n\n## Use Redis\n\nsrc/cache.py uses Redis.\n")
    repo.commit("Start", "2024-01-10T10:00:00Z", author=ANN)
    repo.write("a.py", "x = 1\n")
    first = repo.commit("Add a", "2024-02-01T10:00:00Z", author=CAROL)
    repo.write("a.py", "x = 2\n")
    repo.commit("Change a", "2024-03-01T10:00:00Z", author=CAROL)
    shallow = tmp_path / "shallow"
    subprocess.run(
        ["git", "clone", "-q", "--depth", "2", f"file://{repo.root}", str(shallow)], check=True
    )
    ingest_repo(store, shallow)

    with pytest.raises(GitError, match="shallow clone"):
        review(store, first, repo=shallow)
    later = review(store, "HEAD", repo=shallow, now=NOW)
    assert later.result is not None and [f["path"] for f in later.result["files"]] == ["a.py"]
