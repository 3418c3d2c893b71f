"""A decision written "Status: Accepted" and reverted by the next commit: `brain why FILE`
(read before and after the revert) printed it as
"DECISIONS.md#Retry uploads · accepted · 2025-01-12", the explanation above
saying "(removed)" and only the JSON's `removed` telling which is true. The line says
removed."""

from __future__ import annotations

from pathlib import Path

from tests.repo.gitrepo import GitRepo

RETRY = "DECISIONS.md#Retry uploads"


def test_a_reverted_decision_prints_as_removed(run_cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    r = GitRepo(tmp_path / "r")
    r.write("src/upload.py", "def up():\n    pass\n")
    r.write("DECISIONS.md", "# Decisions\n")
    r.commit("Start", "2025-01-10T09:00:00Z")
    r.write(
        "DECISIONS.md",
        "# Decisions\n\n## Retry uploads\n\nStatus: Accepted\n\nsrc/upload.py retries 3 times.\n",
    )
    added = r.commit("Decide", "2025-01-12T09:00:00Z")
    assert run_cli("ingest-repo", str(r.root)).exit_code == 0  # read before the revert
    day = "2025-01-13T09:00:00Z"
    r.git("revert", "--no-edit", added, env={"GIT_COMMITTER_DATE": day, "GIT_AUTHOR_DATE": day})
    assert run_cli("ingest-repo", str(r.root)).exit_code == 0

    why = run_cli("why", "src/upload.py")
    assert why.exit_code == 0, why.output
    assert f"{RETRY} · removed · 2025-01-12" in why.output
    assert "· accepted ·" not in why.output
