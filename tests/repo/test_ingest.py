"""`ingest_repo` on the scenario repository: what lands in the graph, provenance dated by
history, agents, .mailmap, instruction versions; then incremental runs and a force push."""

from __future__ import annotations

import subprocess
from pathlib import Path

from companybrain.ask.repo import tools
from companybrain.graph.connection import Store
from companybrain.graph.queries import findings_q, repo_read, repo_write, schema_q
from companybrain.repo.ingest import ingest_repo
from tests.repo import scenario
from tests.repo.checks import assert_citations_hold
from tests.repo.conftest import BATCH, Scenario
from tests.repo.gitrepo import GitRepo


def _count(root: Path) -> int:
    out = subprocess.run(
        ["git", "rev-list", "--count", "HEAD"], cwd=root, capture_output=True, text=True, check=True
    )
    return int(out.stdout)


def test_history_people_and_agents(built: Scenario) -> None:
    s, r = built.store, built.report
    assert r.mode == "full" and r.commits_read == r.commits_total == _count(built.root) == 12
    people = {p["id"]: p for p in repo_read.people(
        s, ["bob@example.com", "bob@old.example", "noreply@anthropic.com", "carol@example.com",
            "198982749+copilot@users.noreply.github.com", "ann@example.com"])}  # fmt: skip
    assert "bob@old.example" not in people  # .mailmap merged the old identity
    assert people["bob@example.com"]["name"] == "Bob Stone"
    assert people["noreply@anthropic.com"]["is_agent"] is True
    assert people["198982749+copilot@users.noreply.github.com"]["is_agent"] is True
    assert people["carol@example.com"]["is_agent"] is False
    co = repo_read.co_authors_of(s, built.shas["coauthored"])
    assert [(p["id"], p["is_agent"]) for p in co] == [
        ("carol@example.com", False),
        ("noreply@anthropic.com", True),
    ]


def test_decisions_ids_dates_and_provenance(built: Scenario) -> None:
    rows = {d["id"]: d for d in repo_read.decisions(built.store)}
    assert set(rows) == {
        "DECISIONS.md#2025-03-01: Batch exporter writes",
        "DECISIONS.md#2025-03-01: Keep the wrong router rule",
        "DECISIONS.md#2025-05-01: Stream exporter writes",
        "docs/adr/0001-record-architecture-decisions.md",
        "docs/adr/0002-use-postgresql.md",
        "docs/adr/0003-use-falkordb.md",
        "docs/adr/0004-keep-legacy-import.md",
        "docs/adr/20250401-use-falkordb-for-the-board.md",  # two records of the same day,
        "docs/adr/20250401-use-redis-streams.md",  # kept apart
        "docs/decisions/0001-use-madr.md",
    }
    assert built.report.decisions == 9 and built.report.decisions_removed == 1
    # blame links each decision to the commit that recorded it
    assert (
        rows["DECISIONS.md#2025-03-01: Keep the wrong router rule"]["commit"]
        == built.shas["log_v1"]
    )
    assert rows["DECISIONS.md#2025-05-01: Stream exporter writes"]["commit"] == built.shas["rename"]
    assert rows["docs/adr/0003-use-falkordb.md"]["commit"] == built.shas["rename"]
    # written in January, merged in June: dated by the merge, its own date kept beside it
    legacy = rows["docs/adr/0004-keep-legacy-import.md"]
    assert legacy["commit"] == built.shas["written_early"]
    assert legacy["recorded_at"] == "2025-06-01T09:00:00+00:00"
    assert legacy["date"] == "2025-01-15"
    assert legacy["present"] is False  # deleted in July; its past still answers
    assert rows["docs/adr/0002-use-postgresql.md"]["superseded_by"] == [
        "docs/adr/0003-use-falkordb.md"
    ]


def test_rationale_links_and_rank(built: Scenario) -> None:
    rows = repo_read.decisions_resting_on(built.store, ["src/router.py", "src/store.py"])
    got = {(r["id"], r["file"], r["via"], r["rationale_line"]) for r in rows}
    assert got == {
        ("DECISIONS.md#2025-03-01: Keep the wrong router rule", "src/router.py", "text", 16),
        ("docs/adr/0002-use-postgresql.md", "src/store.py", "text", 9),
        ("docs/adr/0003-use-falkordb.md", "src/store.py", "text", 13),
    }
    ranked = repo_read.rationale_rank(built.store, 3)
    assert ranked[0]["file"] in {"src/store.py", "src/export/writer.py"}  # two decisions each
    path = repo_read.connection(built.store, "src/router.py", "ann@example.com")
    assert path is not None and path["path"]["nodes"][0]["id"] == "src/router.py"


def test_instruction_versions_per_commit(built: Scenario) -> None:
    assert built.report.instruction_versions == 3  # AGENTS.md twice, CLAUDE.md once
    before = repo_write.commit_instructions(built.store, built.shas["adrs"])
    v1 = repo_write.commit_instructions(built.store, built.shas["log_v1"])
    v2 = repo_write.commit_instructions(built.store, built.shas["agents_v2"])
    assert before == []
    assert v1 is not None and v2 is not None
    assert sorted(i.split("@")[0] for i in v1) == ["AGENTS.md", "CLAUDE.md"]
    assert set(v1) & set(v2) == {next(i for i in v1 if i.startswith("CLAUDE.md"))}
    # the branch was written before the files existed: its commit saw none
    assert repo_write.commit_instructions(built.store, built.shas["written_early"]) == []


def test_incremental_run_reads_only_new_commits_and_changed_records(
    store: Store, tmp_path: Path
) -> None:
    root = tmp_path / "inc"
    shas = scenario.build(root)
    first = ingest_repo(store, root)
    findings_q.add_findings(store, BATCH, [])  # the entry exists; nothing to add
    again = ingest_repo(store, root)
    assert (again.mode, again.commits_read, again.decisions_changed) == ("unchanged", 0, 0)
    r = GitRepo(root, create=False)
    r.write(
        "DECISIONS.md",
        scenario.DECISIONS_V2 + "\n## 2025-08-01: Cache the router\n\nIn src/router.py.\n",
    )
    r.commit("Decision: cache the router", "2025-08-01T10:00:00+00:00", scenario.ANN)
    third = ingest_repo(store, root)
    assert third.mode == "incremental" and third.commits_read == 1
    assert third.decisions_changed == 1  # only the new entry was blamed and linked again
    assert third.commits_total == first.commits_total + 1 == _count(root)
    new = repo_read.decision(store, "DECISIONS.md#2025-08-01: Cache the router")
    assert new is not None and new["commit"] == r.head() and shas["init"] != r.head()
    # an entry inserted on top moves the others: they are linked again, at their new lines
    log = (root / "DECISIONS.md").read_text()
    r.write(
        "DECISIONS.md",
        log.replace("Entries, newest last.\n", "Entries.\n\n## Pinned\n\nRead me.\n"),
    )
    r.commit("Pin a note", "2025-08-02T10:00:00+00:00", scenario.ANN)
    fourth = ingest_repo(store, root)
    assert fourth.decisions_changed == 5  # the new one and the four below it
    answer = tools.why(store, "src/router.py")
    router = next(c for c in answer.citations if c.record.endswith("Keep the wrong router rule"))
    assert router.lines == (20, 20)  # was line 16
    assert_citations_hold(answer, root)


def test_force_push_is_detected_and_read_again(store: Store, tmp_path: Path) -> None:
    root = tmp_path / "fp"
    shas = scenario.build(root)
    ingest_repo(store, root)
    r = GitRepo(root, create=False)
    r.git("reset", "-q", "--hard", shas["bot"])  # drop the merge and the deletion
    r.write("NOTES.md", "rewritten\n")
    rewritten = r.commit("A different future", "2025-06-15T10:00:00+00:00", scenario.ANN)
    report = ingest_repo(store, root)
    assert report.mode == "rewritten"
    assert report.commits_total == _count(root) == 10
    assert report.swept["commits"] == 3  # written_early, merge, delete
    assert repo_read.commit(store, shas["merge"]) is None
    assert repo_read.commit(store, rewritten) is not None
    # the legacy ADR never existed in the new history: gone, not left behind as present
    assert repo_read.decision(store, "docs/adr/0004-keep-legacy-import.md") is None
    labels = schema_q.label_counts(store)
    assert labels["Commit"] == 10
    assert repo_read.files_named(store, "legacy.py", 5) == []
