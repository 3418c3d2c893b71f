"""The code-review story: a fix to a rule that was kept on purpose, reviewed before and after
a newer decision superseded it, and the original proposal reviewed again later."""

from __future__ import annotations

from pathlib import Path

import pytest

from companybrain.ask.repo import review_markdown
from companybrain.ask.repo.review import review
from companybrain.errors import InputError
from companybrain.graph.connection import Store
from companybrain.graph.queries import findings_q
from companybrain.model.findings import Finding, FindingKind, Verdict
from companybrain.repo.ingest import ingest_repo
from tests.repo import scenario
from tests.repo.checks import assert_citations_hold
from tests.repo.conftest import ROUTER, ROUTER_EXPERIMENT, board_findings
from tests.repo.gitrepo import GitRepo

RETIRE = "DECISIONS.md#2025-09-01: Retire the 7B router model"
RETIRE_TEXT = """
## 2025-09-01: Retire the 7B router model

The 7B is retired. On the supported model the corrected rule in src/router.py routes
20 of 20 (the old text: 19 of 20), so the rule can be fixed.
Still disproven: the corrected rule works for qwen2.5:7b.
"""
LATER_SENTENCE = "Tried a shorter prompt in October: 3 of 20."
FIXED = 'PROMPT = "memory can READ and SAVE facts"\n'


@pytest.fixture
def story(store: Store, tmp_path: Path) -> dict[str, str]:
    root = tmp_path / "story"
    shas = scenario.build(root)
    ingest_repo(store, root)
    board_findings(store)
    r = GitRepo(root, create=False)
    r.git("checkout", "-q", "-b", "fix-router")
    r.write("src/router.py", FIXED)
    shas["fix"] = r.commit("Fix the wrong router rule", "2025-08-01T10:00:00+00:00", scenario.CAROL)
    r.git("checkout", "-q", "main")
    shas["root"] = str(root)
    return shas


def test_a_fix_to_a_load_bearing_rule_gets_the_decision_and_the_warning(
    store: Store, story: dict[str, str]
) -> None:
    root = Path(story["root"])
    a = review(store, story["fix"], repo=root)
    assert [d["id"] for d in a.result["decisions"]] == [ROUTER]
    assert a.result["decisions"][0]["label"] == "R1"
    assert [(w["label"], w["quote"]) for w in a.result["warnings"]] == [("D1", ROUTER_EXPERIMENT)]
    assert a.result["superseded"] == []
    assert (a.result["experts"][0]["label"], a.result["experts"][0]["id"]) == (
        "P1",
        "bob@example.com",
    )
    assert_citations_hold(a, root, story["fix"])
    md = review_markdown.render(a)
    assert review_markdown.MARKER in md
    assert "**R1** Keep the wrong router rule" in md
    assert "⚠️ **D1**" in md and "0 times out of 20" in md
    assert "**P1** Bob Stone <bob@example.com>" in md


def test_after_a_newer_decision_the_old_one_is_history_not_a_warning(
    store: Store, story: dict[str, str]
) -> None:
    root = Path(story["root"])
    r = GitRepo(root, create=False)
    log = (root / "DECISIONS.md").read_text()
    log = log.replace(
        "of 20; with the old text, 16 out of 20.",
        f"of 20; with the old text, 16 out of 20.\n{LATER_SENTENCE}",
    )
    r.write("DECISIONS.md", log + RETIRE_TEXT)
    r.commit("Decision: retire the 7B", "2025-09-01T10:00:00+00:00", scenario.ANN)
    assert ingest_repo(store, root).mode == "incremental"
    # the board read it: an experiment, and a "supersedes" two agents confirmed
    findings_q.add_findings(
        store, RETIRE,
        [Finding(RETIRE, FindingKind.EXPERIMENT, "the corrected rule works for qwen2.5:7b",
                 "the corrected rule works for qwen2.5:7b", Verdict.DISPROVEN),
         Finding(RETIRE, FindingKind.RELATION, "The 7B is retired.", ROUTER,
                 relation="supersedes", by="worker-2")],
    )  # fmt: skip
    findings_q.add_findings(
        store, ROUTER,
        [Finding(ROUTER, FindingKind.EXPERIMENT, LATER_SENTENCE, "a shorter prompt",
                 Verdict.DISPROVEN)],
    )  # fmt: skip
    r.write("src/router.py", FIXED)
    resubmitted = r.commit("Fix the router rule again", "2025-09-02T10:00:00+00:00", scenario.CAROL)

    again = review(store, resubmitted, repo=root)
    assert [d["id"] for d in again.result["decisions"]] == [RETIRE]
    assert again.result["decisions"][0]["replaces"] == [ROUTER]
    assert [s["id"] for s in again.result["superseded"]] == [ROUTER]
    assert again.result["superseded"][0]["superseded_by"] == [RETIRE]
    # the old constraint's experiments are no longer warnings; the new decision's is
    assert [w["quote"] for w in again.result["warnings"]] == [
        "the corrected rule works for qwen2.5:7b"
    ]
    assert {e["quote"] for e in again.result["superseded_experiments"]} == {
        ROUTER_EXPERIMENT, LATER_SENTENCE,
    }  # fmt: skip
    assert_citations_hold(again, root, resubmitted)

    # the original proposal, reviewed again, is judged by what was known then
    original = review(store, story["fix"], repo=root)
    assert [d["id"] for d in original.result["decisions"]] == [ROUTER]
    assert [w["quote"] for w in original.result["warnings"]] == [ROUTER_EXPERIMENT]
    assert original.result["superseded"] == []


def test_a_change_no_decision_covers(store: Store, story: dict[str, str]) -> None:
    root = Path(story["root"])
    a = review(store, story["init"], repo=root)  # a root commit: everything is added
    assert a.result["base"] is None
    readme = review(store, story["agents_v1"], repo=root)
    assert readme.result["decisions"] == [] and readme.result["warnings"] == []
    assert "No recorded decision rests on" in review_markdown.render(readme)


def test_a_branch_is_reviewed_from_where_it_left_its_base(
    store: Store, story: dict[str, str]
) -> None:
    """`review BRANCH --base main` compared the two tips: what main changed after the
    branch was cut counted as the branch's change, and a pull request touching only the
    README was warned about the router's decision."""
    root = Path(story["root"])
    r = GitRepo(root, create=False)
    r.git("checkout", "-q", "-b", "docs-only", "main")
    r.write("README.md", "Read me.\n")
    docs = r.commit("Docs only", "2025-08-02T10:00:00+00:00", scenario.CAROL)
    r.git("checkout", "-q", "main")
    r.write("src/router.py", FIXED)
    r.commit("Main moves on", "2025-08-03T10:00:00+00:00", scenario.CAROL)
    a = review(store, docs, "main", repo=root)
    assert a.result is not None
    assert a.result["decisions"] == [] and a.result["warnings"] == [], a.result
    assert a.result["base"] == r.git("merge-base", "main", "docs-only")


def test_a_moved_repository_is_named_not_called_one_of_several(
    store: Store, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    r = GitRepo(tmp_path / "r")
    r.write("src/a.py", "a = 1\n")
    r.commit("Start", "2025-01-01T10:00:00Z")
    ingest_repo(store, r.root)
    r.root.rename(tmp_path / "moved")
    monkeypatch.chdir(tmp_path)  # not inside any repository
    with pytest.raises(InputError, match="is no longer there") as caught:
        review(store, "HEAD")
    assert "several" not in str(caught.value) and str(r.root) in str(caught.value)
    assert review(store, "HEAD", repo=tmp_path / "moved").status == "answered"
