"""A decision dated "Date: 03/04/2025" (March or April?), "4 avril 2025" or "2025-02-30"
was dated by the day its commit landed, and nothing said that the date it gives was not
read. The date is still not guessed; the ingest names the file, the line and the day used."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from companybrain.ask.repo import tools
from companybrain.graph.connection import Store
from companybrain.repo.ingest import ingest_repo
from tests.repo.gitrepo import GitRepo

NOW = datetime(2026, 1, 1, tzinfo=UTC)


def test_a_date_that_is_not_read_is_reported(store: Store, tmp_path: Path) -> None:
    r = GitRepo(tmp_path / "r")
    r.write("src/a.py", "x = 1\n")
    r.write("docs/adr/0001-use-a.md", "# 1. Use A\n\nDate: 03/04/2025\n\nsrc/a.py uses A.\n")
    r.write("docs/adr/0002-use-b.md", "---\ndate: 4 avril 2025\n---\n# Use B\n\nsrc/a.py uses B.\n")
    r.write(
        "DECISIONS.md",
        "# Decisions\n\n## 2025-02-01 Use C\n\nDate: 2025-02-30\n\nsrc/a.py uses C.\n\n"
        "## Use D\n\nDate: 2025-02-03\n\nsrc/a.py uses D.\n",
    )
    r.commit("Decide", "2025-06-01T09:00:00Z")
    report = ingest_repo(store, r.root)

    assert report.decision_problems == [
        "DECISIONS.md line 5: date “2025-02-30” is not read as a day (write it as YYYY-MM-DD), "
        "so its date is 2025-02-01",
        "docs/adr/0001-use-a.md line 3: date “03/04/2025” is not read as a day (write it as "
        "YYYY-MM-DD), so it is dated by the day its commit landed",
        "docs/adr/0002-use-b.md line 2: date “4 avril 2025” is not read as a day (write it as "
        "YYYY-MM-DD), so it is dated by the day its commit landed",
    ]
    why = tools.why(store, "src/a.py", now=NOW)
    dates = {d["title"]: d["date"] for d in why.result["decisions"]}
    assert dates == {"Use A": "2025-06-01", "Use B": "2025-06-01", "Use C": "2025-02-01",
                     "Use D": "2025-02-03"}  # fmt: skip
