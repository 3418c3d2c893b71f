"""A branch whose one commit writes a decision into the log ("keep the wrong line in
src/router.py") and, in the same change, edits src/router.py: `review` listed the decision
as one to follow, as if it had been recorded before, and said nothing of the change writing
it. The change's own entries are now named as added by it; an entry moved with its log, or
given a new heading, is not new."""

from __future__ import annotations

from pathlib import Path

from companybrain.ask.repo import review_markdown
from companybrain.ask.repo.review import review
from companybrain.graph.connection import Store
from companybrain.repo.ingest import ingest_repo
from tests.repo.gitrepo import GitRepo

RULE = "DECISIONS.md#Keep the wrong router rule"
LOG = (
    "# Decisions\n\n## Keep the wrong router rule\n\nDate: 2025-02-01\n\n"
    "The line in src/router.py is wrong and stays: the fix routed 0 times out of 20.\n"
)


def test_a_decision_the_change_itself_adds_is_said_to_be(store: Store, tmp_path: Path) -> None:
    r = GitRepo(tmp_path / "r")
    r.write("src/router.py", "x = 1\n")
    r.commit("Start", "2025-01-10T09:00:00Z")
    r.git("checkout", "-q", "-b", "feat")
    r.write("DECISIONS.md", LOG)
    r.write("src/router.py", "x = 2\n")
    both = r.commit("Record the rule and break it", "2025-02-01T09:00:00Z")
    r.write("src/router.py", "x = 3\n")
    later = r.commit("Break it again", "2025-02-02T09:00:00Z")
    r.mv("DECISIONS.md", "docs/DECISIONS.md")
    r.write("src/router.py", "x = 4\n")
    moved = r.commit("Move the log", "2025-02-03T09:00:00Z")
    r.git("checkout", "-q", "main")
    ingest_repo(store, r.root)

    a = review(store, both, repo=r.root)
    assert [(d["id"], d.get("added_by_change")) for d in a.result["decisions"]] == [(RULE, True)]
    assert "this change itself adds R1" in a.explanation
    assert "**this change adds it**" in review_markdown.render(a)
    branch = review(store, "feat", "main", repo=r.root)
    assert branch.result["decisions"][0]["added_by_change"] is True

    b = review(store, later, repo=r.root)  # recorded before this change
    assert "added_by_change" not in b.result["decisions"][0] and "adds" not in b.explanation
    c = review(store, moved, repo=r.root)  # the same entry, its log moved
    assert [d["id"] for d in c.result["decisions"]] == [
        "docs/DECISIONS.md#Keep the wrong router rule"
    ]
    assert "added_by_change" not in c.result["decisions"][0], c.result


def test_a_root_commit_adds_the_decisions_it_holds(store: Store, tmp_path: Path) -> None:
    r = GitRepo(tmp_path / "r")
    r.write("src/router.py", "x = 1\n")
    r.write("DECISIONS.md", LOG)
    root = r.commit("Start", "2025-01-10T09:00:00Z")
    ingest_repo(store, r.root)
    a = review(store, root, repo=r.root)
    assert a.result["base"] is None
    assert [(d["id"], d.get("added_by_change")) for d in a.result["decisions"]] == [(RULE, True)]
