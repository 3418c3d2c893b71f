"""A decision log moved after a commit (DECISIONS.md to docs/DECISIONS.md): reviewing that
commit again showed the decision but not the experiment already tried and disproven under
it, nor its measurements, because the board's findings are kept under the entry's new
id. They are read under every name the log's file had."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from companybrain.ask.engine import ask
from companybrain.ask.repo.review import review
from companybrain.config import Settings
from companybrain.graph.connection import Store
from companybrain.graph.queries import findings_q
from companybrain.model.findings import Finding, FindingKind, Verdict
from companybrain.repo.ingest import ingest_repo
from tests.repo.checks import assert_citations_hold
from tests.repo.gitrepo import GitRepo

EXPERIMENT = "We tried the corrected text: it routed memory 0 times out of 20."
LOG = f"""# Decision log

## Keep the wrong router rule

The wrong rule in src/router.py stays on purpose.
{EXPERIMENT}
"""
OLD_ID = "DECISIONS.md#Keep the wrong router rule"
NEW_ID = "docs/DECISIONS.md#Keep the wrong router rule"


def _moved(store: Store, tmp_path: Path) -> tuple[GitRepo, str]:
    r = GitRepo(tmp_path / "r")
    r.write("src/router.py", "RULE = 'memory can only READ'\n")
    r.write("DECISIONS.md", LOG)
    r.commit("Log the rule", "2025-01-01T10:00:00Z")
    r.write("src/router.py", "RULE = 'memory can READ and SAVE'\n")
    fix = r.commit("Fix the router rule", "2025-01-10T10:00:00Z")
    (r.root / "docs").mkdir()
    r.mv("DECISIONS.md", "docs/DECISIONS.md")
    r.commit("Move the log", "2025-02-01T10:00:00Z")
    ingest_repo(store, r.root)
    findings_q.add_findings(
        store,
        NEW_ID,
        [
            Finding(NEW_ID, FindingKind.EXPERIMENT, EXPERIMENT, "corrected text",
                    Verdict.DISPROVEN),
            Finding(NEW_ID, FindingKind.MEASUREMENT, "0 times out of 20", "0/20"),
        ],
    )  # fmt: skip
    return r, fix


def test_an_older_commit_keeps_its_warning_after_the_log_moved(
    store: Store, tmp_path: Path
) -> None:
    r, fix = _moved(store, tmp_path)
    a = review(store, fix, repo=r.root)
    assert a.result is not None
    assert [d["id"] for d in a.result["decisions"]] == [OLD_ID]
    assert a.result["decisions"][0]["date"] == "2025-01-01"
    assert a.result["decisions"][0]["evidence"] == ["0 times out of 20"]
    assert [(w["label"], w["decision"], w["quote"]) for w in a.result["warnings"]] == [
        ("D1", OLD_ID, EXPERIMENT)
    ]
    assert_citations_hold(a, r.root, fix)


def test_a_past_day_reads_the_entry_under_the_name_it_had(
    store: Store, settings: Settings, tmp_path: Path
) -> None:
    _moved(store, tmp_path)
    now = datetime(2026, 12, 1, tzinfo=UTC)
    broke = ask(store, settings, "What breaks if I change src/router.py on 2025-01-15?", now=now)
    assert broke.result is not None, broke.refusal
    assert [d["id"] for d in broke.result["decisions"]] == [OLD_ID]
    assert [(e["decision"], e["quote"]) for e in broke.result["disproven"]] == [
        (OLD_ID, EXPERIMENT)
    ]
    for named in (OLD_ID, NEW_ID):
        why = ask(store, settings, f"Why `{named}` as of 2025-01-15?", now=now)
        assert why.result is not None, why.refusal
        assert [d["id"] for d in why.result["decisions"]] == [OLD_ID]
