"""A monorepo with a decision log per service. `services/api/DECISIONS.md` naming
`src/app.py` (its service's file) named no file, since two end so; and its entries were
said to rest on every file their recording commit changed, another service's too: `why`
and `review` of `services/billing/src/app.py` listed the api's decisions, citing them. A
path is read from the log's folders first, and a log in a folder speaks for the files
under it."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from companybrain.ask.repo import tools
from companybrain.ask.repo.review import review
from companybrain.graph.connection import Store
from companybrain.repo.ingest import ingest_repo
from tests.repo.gitrepo import GitRepo

NOW = datetime(2026, 1, 1, tzinfo=UTC)
API, BILLING = "services/api/src/app.py", "services/billing/src/app.py"
LOG = "services/api/DECISIONS.md"


def _ids(store: Store, path: str) -> list[str]:
    why = tools.why(store, path, now=NOW)
    return sorted(d["id"] for d in (why.result or {}).get("decisions", []))


def test_a_service_log_speaks_for_its_own_files(store: Store, tmp_path: Path) -> None:
    r = GitRepo(tmp_path / "r")
    r.write(API, "x = 1\n")
    r.write(BILLING, "x = 1\n")
    r.write(
        LOG,
        "# Decisions\n\n## Cache in Redis\n\nStatus: Accepted\n\nsrc/app.py caches in Redis.\n"
        "\n## Keep requests small\n\nStatus: Accepted\n\nNo request body over 1 MB.\n",
    )
    r.commit("Start both services", "2025-01-01T09:00:00Z")
    r.write(BILLING, "x = 2\n")
    change = r.commit("Change billing", "2025-02-01T09:00:00Z")
    ingest_repo(store, r.root)

    assert _ids(store, API) == [f"{LOG}#Cache in Redis", f"{LOG}#Keep requests small"]
    assert _ids(store, BILLING) == []
    why = tools.why(store, API, now=NOW)
    assert [c.quote for c in why.citations][:1] == ["src/app.py caches in Redis."]
    a = review(store, change, repo=r.root, now=NOW)
    assert a.result is not None and a.result["decisions"] == [], a.explanation
