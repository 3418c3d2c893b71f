"""A NUL byte in a decision log or an agent instruction file (git keeps any bytes) stopped
`brain ingest-repo` with "error: the value given for $rows contains a NUL character",
naming no file, after the commits were written and before any decision or instruction:
every decision of the repository was missing. The entry holding it is left out with a
warning naming the file and line, as one that is not UTF-8; in an instruction file its
line is never quoted."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from companybrain.ask.repo import told, tools
from companybrain.graph.connection import Store
from companybrain.repo.ingest import ingest_repo
from tests.repo.gitrepo import GitRepo

NOW = datetime(2026, 1, 1, tzinfo=UTC)


def test_a_nul_byte_leaves_out_its_entry_and_names_it(store: Store, tmp_path: Path) -> None:
    r = GitRepo(tmp_path / "r")
    (r.root / "DECISIONS.md").write_bytes(
        b"# Decisions\n\n## Use X\n\nsrc/a.py uses X\x00.\n\n## Keep Y\n\nsrc/b.py keeps Y.\n"
    )
    (r.root / "AGENTS.md").write_bytes(
        b"# Agents\n\n## Tests\n\nRun\x00 pytest.\n\n## Style\n\nUse black.\n"
    )
    r.write("src/a.py", "x = 1\n")
    r.write("src/b.py", "y = 1\n")
    r.git("add", "-A")
    r.commit("Start", "2025-01-10T09:00:00Z")
    report = ingest_repo(store, r.root)

    assert report.decisions == 1 and report.instruction_versions == 1
    assert report.not_utf8_decisions == [
        "DECISIONS.md line 5: a NUL byte, so the decision there is left out (save the file "
        "as UTF-8 text)"
    ]
    kept = tools.why(store, "src/b.py", now=NOW)
    assert kept.result is not None and kept.result["decisions"][0]["id"] == "DECISIONS.md#Keep Y"
    tests = told.told(store, "2025-02-01", "pytest", now=NOW)
    assert tests.status == "refused" and tests.refusal is not None, tests.result
    assert "line 5" in tests.refusal.message and "NUL" in tests.refusal.message
    style = told.told(store, "2025-02-01", "black", now=NOW)
    assert style.result is not None and style.result["text"] == "## Style\n\nUse black."
