"""A `.mailmap` added after a first ingest (Bo Lind changed e-mail): the next, incremental
run read only the new commits, so `who-knows` still counted Bo's old and new e-mail as two
people and named Cy Park, with fewer commits, as the one who knows the file best; a fresh
read named Bo. A changed `.mailmap` reads every commit again, as after a rewrite."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from companybrain.ask.repo import tools
from companybrain.graph.connection import Store
from companybrain.repo.ingest import ingest_repo
from tests.repo.gitrepo import GitRepo

NOW = datetime(2026, 1, 1, tzinfo=UTC)


def test_a_mailmap_added_later_names_authors_anew(store: Store, tmp_path: Path) -> None:
    r = GitRepo(tmp_path / "r")
    who = [("Bo Lind", "bo@old.example")] * 3 + [("Bo Lind", "bo@new.example")] * 2
    for n, author in enumerate(who + [("Cy Park", "cy@example.com")] * 3, start=1):
        r.write("src/a.py", f"x = {n}\n")
        r.commit(f"c{n}", f"2025-01-{n:02d}T09:00:00Z", author=author)
    ingest_repo(store, r.root)
    r.write(".mailmap", "Bo Lind <bo@new.example> <bo@old.example>\n")
    r.commit("Map Bo's old e-mail", "2025-02-01T09:00:00Z")
    report = ingest_repo(store, r.root)

    assert report.mode == "rewritten"
    a = tools.who_knows(store, "src/a.py", now=NOW)
    assert a.result is not None
    experts = [(e["name"], e["id"], e["commits"]) for e in a.result["experts"]]
    assert experts == [("Bo Lind", "bo@new.example", 5), ("Cy Park", "cy@example.com", 3)]
    assert ingest_repo(store, r.root).mode == "unchanged"
