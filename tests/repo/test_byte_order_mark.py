"""A decision log saved with a byte-order mark (as Windows editors save UTF-8) and starting
with its first entry lost that entry without a word: "\\ufeff## Use Postgres" was no
heading, so `why src/db.py` refused NO_CLAIM; an ADR's front matter behind one was no front
matter. The mark is no text: the entry and its status are read."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from companybrain.ask.repo import tools
from companybrain.graph.connection import Store
from companybrain.repo.ingest import ingest_repo
from tests.repo.gitrepo import GitRepo

NOW = datetime(2026, 1, 1, tzinfo=UTC)


def test_a_byte_order_mark_loses_no_entry(store: Store, tmp_path: Path) -> None:
    r = GitRepo(tmp_path / "r")
    r.write("src/db.py", "x = 1\n")
    r.write("src/web.py", "y = 1\n")
    (r.root / "DECISIONS.md").write_bytes(
        "\ufeff## Use Postgres\r\n\r\nsrc/db.py stores rows in Postgres.\r\n\r\n"
        "## Render on the server\r\n\r\nsrc/web.py renders pages.\r\n".encode()
    )
    (r.root / "docs/adr").mkdir(parents=True)
    (r.root / "docs/adr/0001-use-redis.md").write_bytes(
        "\ufeff---\r\ntitle: Use Redis\r\nstatus: deprecated\r\n---\r\n\r\n"
        "src/web.py caches pages in Redis.\r\n".encode()
    )
    r.git("add", "-A")
    r.commit("Decide", "2025-01-01T09:00:00Z")
    report = ingest_repo(store, r.root)
    assert report.decisions == 3

    db = tools.why(store, "src/db.py", now=NOW)
    assert db.status == "answered", db.refusal
    assert [d["id"] for d in db.result["decisions"]] == ["DECISIONS.md#Use Postgres"]
    assert db.citations[0].quote == "src/db.py stores rows in Postgres."
    web = tools.why(store, "src/web.py", now=NOW)
    by_id = {d["id"]: (d["title"], d["status"]) for d in web.result["decisions"]}
    assert by_id["docs/adr/0001-use-redis.md"] == ("Use Redis", "deprecated")
