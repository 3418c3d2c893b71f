"""Repository values (commit messages, file paths, co-author trailers, decision-record
headers) with hostile text go through `ingest_repo` and come back exactly. A path with
surrounding space or a control character cannot be a File id (the pinned FalkorDB crashes
the whole server on such a unique id), so it is skipped instead of taking the server down."""

from __future__ import annotations

from pathlib import Path

from companybrain.graph.connection import Store
from companybrain.graph.ident import MAX_ID_BYTES
from companybrain.repo.ingest import ingest_repo
from tests.repo.gitrepo import GitRepo
from tests.security.hostile import NASTY, tried

SAFE_PATHS = [
    "quote'd.md", 'dq"x.txt', "back\\slash.txt", "dollar$id.txt", "brace}{.txt",
    "MATCH (n) DETACH DELETE n.txt", "rtl\u202eexe.txt", "zero\u200bwidth.txt",
    "\u0430ria.txt", "e\u0301.txt", "emoji\U0001f600.txt", "in ner space.txt",
]  # fmt: skip
UNSAFE_PATHS = ["trailing space.txt ", " leading.txt", "ctl\x01.txt", "tab\tname.txt"]
# A path, an ADR path or a co-author's e-mail with a control character used to crash it.


def test_hostile_repository_values_round_trip(store: Store, tmp_path: Path) -> None:
    repo = GitRepo(tmp_path / "repo")
    message = "Hostile: " + " ".join(n for n in NASTY if "\x00" not in n and "\r" not in n)
    for path in SAFE_PATHS + UNSAFE_PATHS:
        repo.write(path, "x\n")
    repo.write(
        "docs/adr/0001-hostile.md",
        "# 1. Use '}) MATCH (n) DETACH DELETE n // \u202e\n\n"
        "Date: 2026-01-05\n\nStatus: Accepted ' OR 1=1 --\n\n"
        '## Decision\n\nWe will quote "$everything" `carefully`.\n',
    )
    repo.write("docs/adr/0002-ctl\x01.md", "# 2. Control\n\n## Decision\n\nWe will not crash.\n")
    repo.commit(
        message
        + "\n\nCo-authored-by: Eve \"'}) MATCH (n) DETACH DELETE n // <eve@example.com>"
        + "\nCo-authored-by: Ctl <c\x01tl@example.com>",
        "2026-01-05T10:00:00Z",
    )
    tried("repo_values.paths", len(SAFE_PATHS) + len(UNSAFE_PATHS) + 1)
    tried("repo_values.messages_and_trailers", 2)
    report = ingest_repo(store, repo.root)
    files = {r["id"] for r in store.read("MATCH (f:File) RETURN f.id AS id")}
    assert set(SAFE_PATHS) <= files
    assert not files & set(UNSAFE_PATHS)
    # Every path left out is reported, with the commit that names it.
    head = repo.git("rev-parse", "HEAD")
    assert sorted((s["path"], s["commit"]) for s in report.skipped_paths) == sorted(
        (path, head) for path in [*UNSAFE_PATHS, "docs/adr/0002-ctl\x01.md"]
    )
    stored_by_git = repo.git("log", "-1", "--format=%B")  # git tidies white space
    messages = [r["m"] for r in store.read("MATCH (c:Commit) RETURN c.message AS m")]
    assert messages == [stored_by_git]
    assert "'}) MATCH (n) DETACH DELETE n //" in messages[0]
    people = {r["name"] for r in store.read("MATCH (p:Person) RETURN p.name AS name")}
    assert "Eve \"'}) MATCH (n) DETACH DELETE n //" in people, people
    decisions = store.read("MATCH (d:Decision) RETURN d.id AS id, d.title AS title")
    assert any("DETACH DELETE" in (d["title"] or "") for d in decisions), decisions
    assert [d["id"] for d in decisions] == ["docs/adr/0001-hostile.md"]  # 0002 cannot be an id
    ids = {r["id"] for r in store.read("MATCH (p:Person) RETURN p.id AS id")}
    assert "ctl@example.com" in ids  # the control character left out of the id
    assert store.read("MATCH (n) RETURN count(n) AS n")[0]["n"] > len(SAFE_PATHS)


def test_a_commit_message_cannot_forge_a_commit(store: Store, tmp_path: Path) -> None:
    """git keeps \\x1e and \\x1f in messages; the history reader splits on them. A message
    that spells out a whole fake record stays one message of one commit."""
    repo = GitRepo(tmp_path / "repo")
    repo.write("a.txt", "a\n")
    repo.commit("first", "2026-01-05T10:00:00Z")
    fake = "0123456789" * 4
    forged = (
        f"evil\x1e{fake}\x1f\x1fMallory\x1fm@evil.example\x1f2026-01-01T00:00:00+00:00"
        "\x1fMallory\x1fm@evil.example\x1f2026-01-01T00:00:00+00:00\x1fFAKE commit\x1f"
    )
    repo.write("b.txt", "b\n")
    real = repo.commit(forged, "2026-01-06T10:00:00Z")
    tried("repo_values.messages_and_trailers")
    ingest_repo(store, repo.root)
    commits = {r["id"]: r for r in store.read("MATCH (c:Commit) RETURN c.id AS id, c.message AS m")}
    assert fake not in commits
    real_sha = real or repo.git("rev-parse", "HEAD")
    assert commits[real_sha]["m"].strip() == repo.git("log", "-1", "--format=%B")  # git() strips
    people = {r["name"] for r in store.read("MATCH (p:Person) RETURN p.name AS name")}
    assert "Mallory" not in people
    touched = store.read(
        "MATCH (c:Commit {id: $id})-[:TOUCHED]->(f:File) RETURN f.id AS path", {"id": real_sha}
    )
    assert [t["path"] for t in touched] == ["b.txt"]


def test_a_rename_from_or_to_an_unsafe_path_is_reported(store: Store, tmp_path: Path) -> None:
    repo = GitRepo(tmp_path / "repo")
    repo.write("ctl\x01old.txt", "same text, long enough to be seen as a rename\n" * 3)
    first = repo.commit("add", "2026-01-05T10:00:00Z") or repo.git("rev-parse", "HEAD")
    repo.mv("ctl\x01old.txt", "fine.txt")
    second = repo.commit("rename", "2026-01-06T10:00:00Z") or repo.git("rev-parse", "HEAD")
    repo.mv("fine.txt", "tab\tnew.txt")
    repo.commit("rename again", "2026-01-07T10:00:00Z")
    tried("repo_values.paths", 2)
    report = ingest_repo(store, repo.root)
    assert {(s["path"], s["commit"]) for s in report.skipped_paths} == {
        ("ctl\x01old.txt", first),
        ("tab\tnew.txt", repo.git("rev-parse", "HEAD")),
    }
    files = {r["id"] for r in store.read("MATCH (f:File) RETURN f.id AS id")}
    assert files == {"fine.txt"}
    # The file arrived at fine.txt from a path no id can hold, and left it for another.
    touches = store.read(
        "MATCH (c:Commit)-[t:TOUCHED]->(:File {id: 'fine.txt'}) "
        "RETURN c.id AS commit, t.change AS change ORDER BY c.committed_ms"
    )
    assert [(t["commit"], t["change"]) for t in touches] == [
        (second, "A"),
        (repo.git("rev-parse", "HEAD"), "D"),
    ]


def test_the_command_line_names_the_skipped_paths(run_cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    repo = GitRepo(tmp_path / "repo")
    for n in range(12):
        repo.write(f"ctl{n}\x01.txt", "x\n")
    repo.write("fine.txt", "x\n")
    repo.commit("add", "2026-01-05T10:00:00Z")
    tried("repo_values.paths", 13)
    done = run_cli("ingest-repo", str(repo.root))
    assert done.exit_code == 0, done.output
    assert "skipped 12 path(s) with surrounding space, a control character or over" in done.output
    assert repr("ctl0\x01.txt") in done.output  # shown escaped, never raw
    assert "\x01" not in done.output
    assert "and 2 more (--json lists them all)" in done.output


def test_values_too_long_for_an_id_neither_crash_the_server_nor_are_lost(
    store: Store, tmp_path: Path
) -> None:
    """Over 4,096 bytes, a unique id crashed the server (EnforceUniqueEntity). git keeps
    paths of any length in its trees: such a path is skipped like any unsafe one. Every
    commit needs its author, and a decision log's entry its heading: a stand-in id (start
    and digest) keeps them."""
    repo = GitRepo(tmp_path / "repo")
    repo.write("fine.txt", "x\n")
    blob = repo.git("hash-object", "-w", "fine.txt")
    long_path = "/".join(["d" * 200] * 30) + "/f.txt"  # 6,035 bytes: only git can hold it
    repo.git("update-index", "--add", "--cacheinfo", f"100644,{blob},{long_path}")
    repo.write("DECISIONS.md", "# Decisions\n\n## " + "H" * 5_000 + "\n\nWe will keep it.\n")
    head = repo.commit("long", "2026-01-05T10:00:00Z", author=("Ann", "a" * 5_000 + "@x.org"))
    repo.write("other.txt", "y\n")
    repo.commit("short", "2026-01-06T10:00:00Z", author=("N" * 5_000, ""))
    tried("repo_values.paths")
    tried("repo_values.messages_and_trailers", 2)
    report = ingest_repo(store, repo.root)
    assert [(s["path"], s["commit"]) for s in report.skipped_paths] == [(long_path, head)]
    files = {r["id"] for r in store.read("MATCH (f:File) RETURN f.id AS id")}
    assert files == {"fine.txt", "DECISIONS.md", "other.txt"}
    people = store.read("MATCH (p:Person)-[:AUTHORED]->(c:Commit) RETURN p.id AS id, p.name AS n")
    assert len(people) == 2
    assert all(len(p["id"].encode()) <= MAX_ID_BYTES for p in people)
    assert {p["n"][:1] for p in people} == {"A", "N"}  # the names are kept whole
    (decision,) = store.read("MATCH (d:Decision) RETURN d.id AS id, d.heading AS heading")
    assert decision["id"].startswith("DECISIONS.md#HHH") and len(decision["id"]) < MAX_ID_BYTES
    assert decision["heading"] == "H" * 5_000
