"""A pull request that fixes the "wrong" router rule and, in the same change, deletes from
the decision the experiment that disproved the fix: `review --base main` judged it by the
decision log as the branch left it, so the warning "tried and disproven, do not retry"
disappeared and nothing said the change had edited the decision it rests on. The change's
own edit is now named, and an experiment it deletes stays a warning, cited where it was."""

from __future__ import annotations

from pathlib import Path

from companybrain.ask.repo import review_markdown
from companybrain.ask.repo.review import review
from companybrain.graph.connection import Store
from companybrain.graph.queries import findings_q
from companybrain.model.findings import Finding, FindingKind, Verdict
from companybrain.repo.ingest import ingest_repo
from tests.repo.gitrepo import GitRepo

RULE = "DECISIONS.md#Keep the wrong router rule"
TRIED = 'With the corrected text the 7B routed "remember this" to memory 0 times out of 20.'


def _log(body: str) -> str:
    return f"# Decisions\n\n## Keep the wrong router rule\n\nDate: 2025-03-01\n\n{body}\n"


def test_a_change_that_deletes_the_evidence_it_would_break(store: Store, tmp_path: Path) -> None:
    r = GitRepo(tmp_path / "r")
    r.write("src/router.py", 'PROMPT = "memory can only READ"\n')
    r.write("DECISIONS.md", _log(f"The rule in src/router.py is wrong and stays.\n{TRIED}"))
    r.commit("Start", "2025-03-01T09:00:00Z")
    ingest_repo(store, r.root)
    findings_q.add_findings(
        store,
        RULE,
        [Finding(RULE, FindingKind.EXPERIMENT, TRIED, "fix the rule", Verdict.DISPROVEN)],
    )
    r.git("checkout", "-q", "-b", "fix")
    r.write("src/router.py", 'PROMPT = "memory can READ and SAVE"\n')
    r.write("DECISIONS.md", _log("The rule in src/router.py was wrong; it is now fixed."))
    fix = r.commit("Fix the router rule", "2025-04-01T09:00:00Z")
    r.git("checkout", "-q", "main")

    a = review(store, fix, "main", repo=r.root)
    assert [(d["id"], d.get("edited_by_change")) for d in a.result["decisions"]] == [(RULE, True)]
    assert [(w["quote"], w.get("removed_by_change")) for w in a.result["warnings"]] == [
        (TRIED, True)
    ]
    cited = next(c for c in a.citations if c.quote == TRIED)
    assert cited.lines == (8, 8)  # where the decision said it before the change
    assert "this change edits R1" in a.explanation and "deletes 1" in a.explanation
    md = review_markdown.render(a)
    assert "**this change deletes it**" in md

    # A change that leaves the decision alone reads as before.
    r.git("checkout", "-q", "-b", "code-only", "main")
    r.write("src/router.py", 'PROMPT = "memory can READ"\n')
    code_only = r.commit("Reword the rule", "2025-04-02T09:00:00Z")
    b = review(store, code_only, "main", repo=r.root)
    assert "edited_by_change" not in b.result["decisions"][0]
    assert [(w["quote"], w.get("removed_by_change")) for w in b.result["warnings"]] == [
        (TRIED, None)
    ]


def test_a_change_that_deletes_the_decision_it_would_break(store: Store, tmp_path: Path) -> None:
    """The same fix deleting the whole entry was "No recorded decision rests on the files
    this change touches"."""
    r = GitRepo(tmp_path / "r")
    r.write("src/router.py", 'PROMPT = "memory can only READ"\n')
    r.write("DECISIONS.md", _log(f"The rule in src/router.py is wrong and stays.\n{TRIED}"))
    r.commit("Start", "2025-03-01T09:00:00Z")
    ingest_repo(store, r.root)
    findings_q.add_findings(
        store,
        RULE,
        [Finding(RULE, FindingKind.EXPERIMENT, TRIED, "fix the rule", Verdict.DISPROVEN)],
    )
    r.git("checkout", "-q", "-b", "fix")
    r.write("src/router.py", 'PROMPT = "memory can READ and SAVE"\n')
    r.write("DECISIONS.md", "# Decisions\n")
    fix = r.commit("Fix the router rule", "2025-04-01T09:00:00Z")

    a = review(store, fix, "main", repo=r.root)
    assert a.result["decisions"] == []
    assert [(d["label"], d["id"], d["rests_on"]) for d in a.result["deleted"]] == [
        ("X1", RULE, ["src/router.py"])
    ]
    assert [(w["quote"], w.get("removed_by_change")) for w in a.result["warnings"]] == [
        (TRIED, True)
    ]
    assert {c.lines for c in a.citations} == {(7, 7), (8, 8)}  # before the change
    assert "this change deletes X1" in a.explanation
    assert "**Decisions this change deletes**" in review_markdown.render(a)

    # Moving the log elsewhere deletes nothing.
    r.git("checkout", "-q", "-b", "move", "main")
    r.mv("DECISIONS.md", "docs/DECISIONS.md")
    r.write("src/router.py", 'PROMPT = "memory can READ"\n')
    moved = r.commit("Move the log", "2025-04-02T09:00:00Z")
    b = review(store, moved, "main", repo=r.root)
    assert b.result["deleted"] == []
    assert [d["id"] for d in b.result["decisions"]] == [f"docs/{RULE}"]


def test_a_change_that_retitles_the_decision_does_not_delete_it(
    store: Store, tmp_path: Path
) -> None:
    """A new heading over the same lines was listed as a decision the change deletes."""
    body = f"The rule in src/router.py is wrong and stays.\n{TRIED}"
    r = GitRepo(tmp_path / "r")
    r.write("src/router.py", 'PROMPT = "memory can only READ"\n')
    r.write("DECISIONS.md", _log(body))
    r.commit("Start", "2025-03-01T09:00:00Z")
    ingest_repo(store, r.root)
    r.git("checkout", "-q", "-b", "fix")
    r.write("src/router.py", 'PROMPT = "memory can READ and SAVE"\n')
    r.write("DECISIONS.md", _log(body).replace("Keep the wrong router rule", "Keep the rule"))
    fix = r.commit("Fix the rule, retitle its decision", "2025-04-01T09:00:00Z")

    a = review(store, fix, "main", repo=r.root)
    assert a.result["deleted"] == []
    assert [(d["id"], d.get("edited_by_change")) for d in a.result["decisions"]] == [
        ("DECISIONS.md#Keep the rule", True)
    ]
