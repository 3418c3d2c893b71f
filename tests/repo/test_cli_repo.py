"""The repository commands end to end: `brain ingest-repo`, the tools with --json and as
text, and `brain review --format markdown|json`."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from tests.conftest import REPO_ROOT
from tests.repo import scenario
from tests.repo.conftest import ROUTER


def test_ingest_repo_and_ask_from_the_command_line(run_cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    root = tmp_path / "demo"
    shas = scenario.build(root)
    done = run_cli("ingest-repo", str(root), "--json")
    assert done.exit_code == 0, done.output
    report = json.loads(done.output)
    assert (report["mode"], report["commits_total"], report["decisions"]) == ("full", 12, 9)
    again = run_cli("ingest", str(root))  # `brain ingest` on a git repository
    assert again.exit_code == 0, again.output
    assert "unchanged" in again.output

    why = run_cli("why", "src/router.py", "--json")
    assert why.exit_code == 0, why.output
    body = json.loads(why.output)
    assert body["tool"] == "why" and body["result"]["decisions"][0]["id"] == ROUTER
    assert body["citations"][0]["lines"] == [16, 16]
    text = run_cli("who-knows", "src/router.py")
    assert "Bob Stone" in text.output and "Bus factor 1" in text.output
    told = run_cli("told", "tests", "--at", "2025-03-01", "--file", "AGENTS.md", "--json")
    assert json.loads(told.output)["result"]["text"] == "## Tests\n\nRun pytest before committing."
    refused = run_cli("why", "kubernetes deployment")
    assert refused.exit_code == 0 and refused.output.startswith("NO_CLAIM not recorded")
    for args in (
        ("what-breaks", "src/router.py"),
        ("disproven",),
        ("trace", "docs/adr/0002-use-postgresql.md"),
        ("origin", "src/legacy.py"),
    ):
        out = run_cli(*args, "--json")
        assert out.exit_code == 0, out.output
        assert json.loads(out.output)["tool"] == args[0].replace("-", "_")

    md = run_cli("review", shas["coauthored"], "--repo", str(root), "--format", "markdown")
    assert md.exit_code == 0, md.output
    assert md.output.startswith("<!-- companybrain-decision-review -->")
    assert "**R1** Keep the wrong router rule" in md.output
    as_json = run_cli("review", shas["coauthored"], "--repo", str(root), "--format", "json")
    assert json.loads(as_json.output)["result"]["rev"] == shas["coauthored"]
    bad = run_cli("review", "no-such-rev", "--repo", str(root))
    assert bad.exit_code != 0


def test_ingest_repo_on_this_projects_own_repository(run_cli) -> None:  # type: ignore[no-untyped-def]
    done = run_cli("ingest-repo", str(REPO_ROOT), "--json")
    assert done.exit_code == 0, done.output
    count = subprocess.run(
        ["git", "rev-list", "--count", "HEAD"], cwd=REPO_ROOT, capture_output=True, text=True,
        check=True,
    ).stdout  # fmt: skip
    assert json.loads(done.output)["commits_total"] == int(count)


def test_ingest_repo_refuses_a_folder_that_is_not_a_repository(run_cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    out = run_cli("ingest-repo", str(tmp_path))
    assert out.exit_code != 0


def test_an_undecodable_byte_in_an_argument_is_named_by_it(run_cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """`brain why $'src/\\xff.py'` said "the value given for $id is not valid Unicode text",
    naming the database query's parameter, not what was typed."""
    root = tmp_path / "demo"
    scenario.build(root)
    assert run_cli("ingest-repo", str(root)).exit_code == 0
    for args, named in (
        (("why", "src/\udcff.py"), "'SUBJECT'"),
        (("who-knows", "src/\udcff.py"), "'PATH'"),
        (("told", "tests", "--file", "AGENTS\udcff.md"), "'--file'"),
        (("review", "HEAD", "--base", "HEAD\udcff", "--repo", str(root)), "'--base'"),
    ):
        out = run_cli(*args)
        assert out.exit_code == 2, out.output
        assert f"Invalid value for {named}: is not valid Unicode text" in out.output
        assert "$" not in out.output
