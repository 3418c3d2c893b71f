"""An ADR whose front matter does not parse (`title: [unclosed`) lost its `status:
superseded` with no word, so `why` listed it as a recorded decision for the file, as if in
force; `status: [accepted]`, `status: 3`, a date or a mapping were read as no status at all.
A status line in broken front matter is read alone; a list of one status is that status;
anything else is "unknown", never nothing; and the ingest names each file and line."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from companybrain.ask.repo import tools
from companybrain.ask.repo.review import review
from companybrain.graph.connection import Store
from companybrain.repo.ingest import ingest_repo
from tests.repo.gitrepo import GitRepo

NOW = datetime(2026, 1, 1, tzinfo=UTC)
ADRS = {
    "docs/adr/0001-use-sqlite.md": "title: [unclosed\nstatus: superseded",
    "docs/adr/0002-use-redis.md": "status: [accepted]",
    "docs/adr/0003-use-kafka.md": "status: 3",
    "docs/adr/0004-use-mongo.md": "status: {superseded: ADR-2}",
    "docs/adr/0005-use-etcd.md": "status: 2025-01-01",
    "docs/adr/0006-use-nats.md": "status: accepted\nstatus: superseded",
}


def test_a_status_in_odd_front_matter_is_read_or_unknown(store: Store, tmp_path: Path) -> None:
    r = GitRepo(tmp_path / "r")
    r.write("src/store.py", "x = 1\n")
    for path, fm in ADRS.items():
        title = path.split("-", 1)[1].removesuffix(".md").replace("-", " ").capitalize()
        r.write(path, f"---\n{fm}\n---\n# {title}\n\nsrc/store.py keeps its rows so.\n")
    r.commit("ADRs", "2025-01-01T09:00:00Z")
    report = ingest_repo(store, r.root)

    why = tools.why(store, "src/store.py", now=NOW)
    assert why.result is not None
    status = {d["id"].split("/")[-1][:4]: d["status"] for d in why.result["decisions"]}
    assert status == {
        "0001": "superseded",
        "0002": "accepted",
        "0003": "unknown",
        "0004": "unknown",
        "0005": "unknown",
        "0006": "unknown",
    }
    where = [p.split(":")[0] for p in report.decision_problems]
    assert where == [
        "docs/adr/0001-use-sqlite.md line 2",
        "docs/adr/0003-use-kafka.md line 2",
        "docs/adr/0004-use-mongo.md line 2",
        "docs/adr/0005-use-etcd.md line 2",
        "docs/adr/0006-use-nats.md line 3",
    ], report.decision_problems
    assert "its status line reads superseded" in report.decision_problems[0]

    r.write("src/store.py", "x = 2\n")
    change = r.commit("Change the store", "2025-02-01T09:00:00Z")
    a = review(store, change, repo=r.root, now=NOW)
    assert a.explanation.startswith("1 decision(s) to follow"), a.explanation
    assert "4 more whose status cannot be read" in a.explanation
