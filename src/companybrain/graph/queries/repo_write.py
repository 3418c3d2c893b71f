"""Cypher that writes a code repository into the graph: commits, people, files, decisions,
agent instructions and the repository's ingestion state. Rows arrive in batches (UNWIND).

Every node this writes carries `repo`; commits, decisions and instructions also carry
`seen`, the run that last confirmed them, so that a rewritten history can be swept."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from companybrain.errors import StoreError

if TYPE_CHECKING:
    from companybrain.graph.connection import Store

Rows = list[dict[str, Any]]


# -- ingestion state ---------------------------------------------------------------------


def read_state(store: Store, repo: str) -> dict[str, Any] | None:
    rows = store.read(
        "MATCH (m:Meta {key: $key}) RETURN m.head AS head, m.path AS path, m.run AS run, "
        "m.commits AS commits, m.ingested_at AS ingested_at, m.shallow AS shallow, "
        "m.mailmap AS mailmap",
        {"key": f"repo:{repo}"},
    )
    return rows[0] if rows else None


def write_state(store: Store, repo: str, state: dict[str, Any]) -> None:
    store.query(
        "MERGE (m:Meta {key: $key}) SET m.repo = $repo, m.head = $head, m.path = $path, "
        "m.run = $run, m.commits = $commits, m.ingested_at = $ingested_at, "
        "m.shallow = $shallow, m.mailmap = $mailmap",
        {"key": f"repo:{repo}", "repo": repo, **state},
    )


def repositories(store: Store) -> list[dict[str, Any]]:
    """Every repository ingested into this graph, with its path and head."""
    return store.read(
        "MATCH (m:Meta) WHERE m.key STARTS WITH 'repo:' "
        "RETURN m.repo AS repo, m.path AS path, m.head AS head, m.commits AS commits "
        "ORDER BY m.repo"
    )


# -- commits, people, files --------------------------------------------------------------


# One query per batch of commits. Its lists arrive as columns (`$c_id[i]`, `$c_message[i]`,
# ...): a list of plain values costs the client far less to encode than a list of maps.
# People, files and commits are each sent once, sorted by id, and collected in that order,
# so that edges name their ends by position instead of looking them up again (a lookup of
# a commit created earlier in the same query is slow). The parents from earlier batches are
# looked up first, before anything is created.
_BATCH_PEOPLE = """
CALL {
    UNWIND range(0, size($p_id) - 1) AS i
    MERGE (p:Person {id: $p_id[i]})
    ON CREATE SET p.name = $p_name[i], p.email = $p_email[i], p.from_git = true
    SET p.is_agent = coalesce(p.is_agent, false) OR $p_agent[i] IS NOT NULL,
        p.agent = coalesce(p.agent, $p_agent[i])
    WITH p ORDER BY p.id
    RETURN collect(p) AS people
}
CALL {
    UNWIND $o_id AS sha
    MERGE (p:Commit {id: sha})
    WITH p ORDER BY p.id
    RETURN collect(p) AS outside
}
CALL {
    UNWIND $f_path AS path
    MERGE (f:File {id: path})
    ON CREATE SET f.repo = $repo
    WITH f ORDER BY f.id
    RETURN collect(f) AS files
}
"""
# A fresh run into a graph without commits: nothing it writes can exist yet (the unique
# constraint on Commit.id would refuse a second one), so commits and their edges are created,
# each as landed by itself on the main line until the landing pass says otherwise.
_BATCH_CREATE = """
CALL {
    WITH people
    UNWIND range(0, size($c_id) - 1) AS i
    CREATE (c:Commit {id: $c_id[i], repo: $repo, seen: $run,
        author_at: $c_author_at[i], author_ms: $c_author_ms[i],
        committer_at: $c_committer_at[i], committer_ms: $c_committer_ms[i],
        message: $c_message[i], subject: $c_subject[i], is_merge: $c_is_merge[i],
        first_parent: $c_first_parent[i], instructions: $c_instructions[i],
        landed_at: $c_committer_at[i], landed_ms: $c_committer_ms[i],
        landed_by: $c_id[i], mainline: true})
    WITH c, people[$c_author[i]] AS a, people[$c_committer[i]] AS m
    CREATE (a)-[:AUTHORED]->(c), (m)-[:COMMITTED]->(c)
    WITH c ORDER BY c.id
    RETURN collect(c) AS commits
}
CALL {
    WITH commits
    UNWIND range(0, size($e_child) - 1) AS i
    WITH commits[$e_child[i]] AS c, commits[$e_parent[i]] AS p, i
    CREATE (c)-[:PARENT {n: $e_n[i]}]->(p)
}
CALL {
    WITH commits, outside
    UNWIND range(0, size($o_child) - 1) AS i
    WITH commits[$o_child[i]] AS c, outside[$o_parent[i]] AS p, i
    CREATE (c)-[:PARENT {n: $o_n[i]}]->(p)
}
CALL {
    WITH commits, people
    UNWIND range(0, size($a_commit) - 1) AS i
    WITH commits[$a_commit[i]] AS c, people[$a_person[i]] AS p
    CREATE (p)-[:CO_AUTHORED]->(c)
}
CALL {
    WITH commits, files
    UNWIND range(0, size($t_commit) - 1) AS i
    WITH commits[$t_commit[i]] AS c, files[$t_file[i]] AS f, i
    CREATE (c)-[:TOUCHED {change: $t_change[i], old_path: $t_old_path[i],
        added: $t_added[i], removed: $t_removed[i]}]->(f)
}
RETURN size(commits) AS n
"""
# Any other run: what a run before (or a run cut short) wrote is merged with.
_BATCH_MERGE = """
CALL {
    // A commit read again names its people as .mailmap does now: those it named before go
    UNWIND $c_id AS id
    MATCH (:Commit {id: id})<-[old:AUTHORED|COMMITTED|CO_AUTHORED]-(:Person)
    DELETE old
}
CALL {
    WITH people
    UNWIND range(0, size($c_id) - 1) AS i
    MERGE (c:Commit {id: $c_id[i]})
    SET c.repo = $repo, c.seen = $run,
        c.author_at = $c_author_at[i], c.author_ms = $c_author_ms[i],
        c.committer_at = $c_committer_at[i], c.committer_ms = $c_committer_ms[i],
        c.message = $c_message[i], c.subject = $c_subject[i], c.is_merge = $c_is_merge[i],
        c.first_parent = $c_first_parent[i], c.instructions = $c_instructions[i],
        c.landed_at = coalesce(c.landed_at, $c_committer_at[i]),
        c.landed_ms = coalesce(c.landed_ms, $c_committer_ms[i])
    WITH c, people[$c_author[i]] AS a, people[$c_committer[i]] AS m
    MERGE (a)-[:AUTHORED]->(c)
    MERGE (m)-[:COMMITTED]->(c)
    WITH c ORDER BY c.id
    RETURN collect(c) AS commits
}
CALL {
    WITH commits
    UNWIND range(0, size($e_child) - 1) AS i
    WITH commits[$e_child[i]] AS c, commits[$e_parent[i]] AS p, i
    MERGE (c)-[e:PARENT]->(p)
    SET e.n = $e_n[i]
}
CALL {
    WITH commits, outside
    UNWIND range(0, size($o_child) - 1) AS i
    WITH commits[$o_child[i]] AS c, outside[$o_parent[i]] AS p, i
    MERGE (c)-[e:PARENT]->(p)
    SET e.n = $o_n[i]
}
CALL {
    WITH commits, people
    UNWIND range(0, size($a_commit) - 1) AS i
    WITH commits[$a_commit[i]] AS c, people[$a_person[i]] AS p
    MERGE (p)-[:CO_AUTHORED]->(c)
}
CALL {
    // A commit read again may have other changes than the first time: a shallow clone's
    // first commit "added" every file there was, until the history before it was fetched.
    WITH commits
    UNWIND commits AS c
    MATCH (c)-[old:TOUCHED]->()
    DELETE old
}
CALL {
    WITH commits, files
    UNWIND range(0, size($t_commit) - 1) AS i
    WITH commits[$t_commit[i]] AS c, files[$t_file[i]] AS f, i
    MERGE (c)-[t:TOUCHED]->(f)
    SET t.change = $t_change[i], t.old_path = $t_old_path[i], t.added = $t_added[i],
        t.removed = $t_removed[i]
}
RETURN size(commits) AS n
"""
WRITE_BATCH_CREATE = _BATCH_PEOPLE + _BATCH_CREATE
WRITE_BATCH_MERGE = _BATCH_PEOPLE + _BATCH_MERGE


def write_commit_batch(
    store: Store, repo: str, run: str, columns: dict[str, list[Any]], *, fresh: bool
) -> None:
    """A batch of commits with their people, parents, co-authors and touched files, in one
    query. columns (each a list, one entry per row of its group):
    people p_id (sorted), p_name, p_email, p_agent; files f_path (sorted);
    commits c_id (sorted), c_first_parent, c_is_merge, c_author and c_committer (positions
    in p_id), c_author_at, c_author_ms, c_committer_at, c_committer_ms, c_message,
    c_subject, c_instructions; parents in the batch e_child, e_parent (positions in c_id),
    e_n; parents from before o_id (their shas, sorted, distinct), edges to them o_child
    (position in c_id), o_parent (position in o_id), o_n; co-authors a_commit, a_person; touches t_commit, t_file (position in f_path), t_change,
    t_old_path, t_added, t_removed. `fresh`: no commit of the batch, nor any edge to one,
    can exist yet (no two rows may repeat a commit, parent edge or co-author edge)."""
    rows = store.query(
        WRITE_BATCH_CREATE if fresh else WRITE_BATCH_MERGE, {"repo": repo, "run": run, **columns}
    )
    if not rows or rows[0]["n"] != len(columns["c_id"]):
        raise StoreError(f"repository {repo!r}: a batch of commits was not written whole")


def has_commits(store: Store) -> bool:
    """Does the graph hold any commit at all (of any repository)?"""
    return bool(store.read("MATCH (c:Commit) RETURN c.id AS id LIMIT 1"))


def write_touches(store: Store, repo: str, rows: Rows) -> None:
    """rows: commit, path, change (A M D R C T), old_path, added, removed. For the touches
    of one commit beyond what a batch query carries."""
    store.query(
        """
        UNWIND $rows AS r
        MATCH (c:Commit {id: r.commit})
        MERGE (f:File {id: r.path})
        ON CREATE SET f.repo = $repo
        MERGE (c)-[t:TOUCHED]->(f)
        SET t.change = r.change, t.old_path = r.old_path, t.added = r.added,
            t.removed = r.removed
        """,
        {"repo": repo, "rows": rows},
    )


def write_renames(store: Store, repo: str, rows: Rows) -> None:
    """rows: old_path, path, commit. `(:File old)-[:RENAMED_TO {commit}]->(:File new)`."""
    store.query(
        """
        UNWIND $rows AS r
        MERGE (o:File {id: r.old_path})
        ON CREATE SET o.repo = $repo
        MERGE (n:File {id: r.path})
        ON CREATE SET n.repo = $repo
        MERGE (o)-[e:RENAMED_TO {commit: r.commit}]->(n)
        """,
        {"repo": repo, "rows": rows},
    )


def write_landed(store: Store, rows: Rows) -> None:
    """rows: id, landed_at, landed_ms, landed_by, mainline. When a commit reached the
    first-parent line of the branch: itself, or the merge that brought it in."""
    store.query(
        """
        UNWIND $rows AS r
        MATCH (c:Commit {id: r.id})
        SET c.landed_at = r.landed_at, c.landed_ms = r.landed_ms, c.landed_by = r.landed_by,
            c.mainline = r.mainline
        """,
        {"rows": rows},
    )


def commit_instructions(store: Store, sha: str) -> list[str] | None:
    """The instruction versions in force in commit `sha`'s tree (None: commit unknown)."""
    rows = store.read(
        "MATCH (c:Commit {id: $id}) RETURN c.instructions AS ids, c.subject AS subject",
        {"id": sha},
    )
    if not rows or rows[0]["subject"] is None:
        return None
    return list(rows[0]["ids"] or [])


def commit_times(store: Store, shas: list[str]) -> dict[str, dict[str, Any]]:
    rows = store.read(
        "UNWIND $ids AS id MATCH (c:Commit {id: id}) "
        "RETURN c.id AS id, c.committer_at AS committer_at, c.committer_ms AS committer_ms, "
        "c.landed_at AS landed_at, c.landed_ms AS landed_ms",
        {"ids": shas},
    )
    return {r["id"]: r for r in rows}


def files_touched_by(store: Store, shas: list[str]) -> dict[str, list[str]]:
    rows = store.read(
        "UNWIND $ids AS id MATCH (c:Commit {id: id})-[t:TOUCHED]->(f:File) "
        "WHERE t.change <> 'D' RETURN c.id AS id, collect(f.id) AS paths",
        {"ids": shas},
    )
    return {r["id"]: sorted(r["paths"]) for r in rows}


def count_commits(store: Store, repo: str) -> int:
    rows = store.read(
        "MATCH (c:Commit {repo: $repo}) WHERE c.subject IS NOT NULL RETURN count(c) AS n",
        {"repo": repo},
    )
    return int(rows[0]["n"]) if rows else 0


# -- agent instructions ------------------------------------------------------------------


def write_instructions(store: Store, repo: str, run: str, rows: Rows) -> None:
    """rows: id (PATH@BLOB), file, blob, commit, date, date_ms, text, not_utf8 (lines),
    sections [{heading, level, line_start, line_end, text}]."""
    store.query(
        """
        UNWIND $rows AS r
        MERGE (i:Instruction {id: r.id})
        SET i.repo = $repo, i.seen = $run, i.file = r.file, i.blob = r.blob,
            i.commit = r.commit, i.date = r.date, i.date_ms = r.date_ms, i.text = r.text,
            i.not_utf8 = r.not_utf8
        WITH i, r
        OPTIONAL MATCH (i)-[:HAS_SECTION]->(old:InstructionSection)
        DETACH DELETE old
        """,
        {"repo": repo, "run": run, "rows": rows},
    )
    sections = [
        {"instruction": r["id"], "n": n, **s} for r in rows for n, s in enumerate(r["sections"])
    ]
    if sections:
        store.query(
            """
            UNWIND $rows AS s
            MATCH (i:Instruction {id: s.instruction})
            CREATE (i)-[:HAS_SECTION]->(:InstructionSection {n: s.n, heading: s.heading,
                level: s.level, line_start: s.line_start, line_end: s.line_end, text: s.text})
            """,
            {"rows": sections},
        )
    store.query(
        """
        UNWIND $rows AS r
        MATCH (i:Instruction {id: r.id}), (c:Commit {id: r.commit})
        MERGE (c)-[:SET_INSTRUCTION]->(i)
        """,
        {"rows": rows},
    )


def known_instructions(store: Store, ids: list[str]) -> set[str]:
    rows = store.read(
        "UNWIND $ids AS id MATCH (i:Instruction {id: id}) RETURN i.id AS id", {"ids": ids}
    )
    return {r["id"] for r in rows}


# -- decisions ---------------------------------------------------------------------------


def decision_hashes(store: Store, repo: str) -> dict[str, dict[str, Any]]:
    """id -> {hash, present, commit} of every decision of the repository."""
    rows = store.read(
        "MATCH (d:Decision {repo: $repo}) "
        "RETURN d.id AS id, d.hash AS hash, d.present AS present, d.commit AS commit",
        {"repo": repo},
    )
    return {r["id"]: r for r in rows}


def write_decisions(store: Store, repo: str, run: str, rows: Rows) -> None:
    """rows: id, path, heading, title, status, date, number, format, line_start, line_end,
    text, hash, present, removed_in."""
    store.query(
        """
        UNWIND $rows AS r
        MERGE (d:Decision {id: r.id})
        SET d.repo = $repo, d.seen = $run, d.path = r.path, d.heading = r.heading,
            d.title = r.title, d.status = r.status, d.date = r.date, d.number = r.number,
            d.format = r.format, d.line_start = r.line_start, d.line_end = r.line_end,
            d.text = r.text, d.hash = r.hash, d.present = r.present,
            d.removed_in = r.removed_in, d.source = r.path
        """,
        {"repo": repo, "run": run, "rows": rows},
    )


def write_provenance(store: Store, rows: Rows) -> None:
    """rows: id, commit, last_commit, recorded_at, recorded_ms. Replaces RECORDED_IN."""
    store.query(
        """
        UNWIND $rows AS r
        MATCH (d:Decision {id: r.id})
        OPTIONAL MATCH (d)-[old:RECORDED_IN]->()
        DELETE old
        WITH DISTINCT d, r
        SET d.commit = r.commit, d.last_commit = r.last_commit,
            d.recorded_at = r.recorded_at, d.recorded_ms = r.recorded_ms
        WITH d, r
        MATCH (c:Commit {id: r.commit})
        MERGE (d)-[:RECORDED_IN]->(c)
        """,
        {"rows": rows},
    )


def replace_rationale(store: Store, ids: list[str], rows: Rows) -> None:
    """Drop the RATIONALE edges of decisions `ids`, then write rows: id, path, via
    ('text' | 'commit'), line, quote, commit."""
    store.query(
        """
        UNWIND $ids AS id
        MATCH (:Decision {id: id})-[e:RATIONALE]->()
        DELETE e
        """,
        {"ids": ids},
    )
    if rows:
        store.query(
            """
            UNWIND $rows AS r
            MATCH (d:Decision {id: r.id})
            MERGE (f:File {id: r.path})
            ON CREATE SET f.repo = d.repo
            MERGE (d)-[e:RATIONALE {via: r.via}]->(f)
            SET e.line = r.line, e.quote = r.quote, e.commit = r.commit
            """,
            {"rows": rows},
        )


def replace_supersessions(store: Store, repo: str, rows: Rows) -> None:
    """The supersessions the repository's decision texts state (rows: newer, older, quote,
    recorded_in, line), replacing those written from text before. Edges a board wrote from
    confirmed findings (via 'finding') are left alone."""
    store.query(
        """
        MATCH (:Decision {repo: $repo})-[e:SUPERSEDES {via: 'text'}]->(:Decision)
        DELETE e
        """,
        {"repo": repo},
    )
    if rows:
        store.query(
            """
            UNWIND $rows AS r
            MATCH (n:Decision {id: r.newer}), (o:Decision {id: r.older})
            MERGE (n)-[e:SUPERSEDES {via: 'text'}]->(o)
            SET e.quote = r.quote, e.recorded_in = r.recorded_in, e.line = r.line
            """,
            {"rows": rows},
        )


def delete_decisions(store: Store, repo: str, ids: list[str]) -> None:
    """Delete these decisions, with their findings (a text that can no longer be quoted)."""
    if ids:
        store.query(
            "UNWIND $ids AS id MATCH (d:Decision {id: id, repo: $repo}) "
            "OPTIONAL MATCH (d)-[:HAS_FINDING]->(f:Finding) DETACH DELETE f, d",
            {"ids": ids, "repo": repo},
        )


def mark_absent(store: Store, repo: str, present_ids: list[str], head: str) -> int:
    """Decisions no longer in the tree at `head` stay (their past still answers) but are
    marked not present; returns how many were newly marked."""
    rows = store.query(
        """
        MATCH (d:Decision {repo: $repo})
        WHERE d.present AND NOT d.id IN $ids
        SET d.present = false, d.removed_in = coalesce(d.removed_in, $head)
        RETURN count(d) AS n
        """,
        {"repo": repo, "ids": present_ids, "head": head},
    )
    return int(rows[0]["n"]) if rows else 0


# -- a rewritten history -----------------------------------------------------------------


def sweep(store: Store, repo: str, run: str) -> dict[str, int]:
    """After a full re-read, delete what the new history no longer holds: commits,
    instruction versions and decisions (with their findings) not seen in run `run`, and
    files that nothing points at any more."""
    counts: dict[str, int] = {}
    for label, cypher in (
        (
            "commits",
            "MATCH (c:Commit {repo: $repo}) WHERE c.seen <> $run OR c.seen IS NULL "
            "DETACH DELETE c RETURN count(c) AS n",
        ),
        (
            "instructions",
            "MATCH (i:Instruction {repo: $repo}) WHERE i.seen <> $run "
            "OPTIONAL MATCH (i)-[:HAS_SECTION]->(s:InstructionSection) "
            "DETACH DELETE s, i RETURN count(DISTINCT i) AS n",
        ),
        (
            "decisions",
            "MATCH (d:Decision {repo: $repo}) WHERE d.seen <> $run "
            "OPTIONAL MATCH (d)-[:HAS_FINDING]->(f:Finding) "
            "DETACH DELETE f, d RETURN count(DISTINCT d) AS n",
        ),
        (
            "files",
            "MATCH (f:File {repo: $repo}) WHERE NOT (f)<-[:TOUCHED]-() "
            "AND NOT (f)<-[:RATIONALE]-() DETACH DELETE f RETURN count(f) AS n",
        ),
        (
            "people",
            "MATCH (p:Person {from_git: true}) WHERE NOT (p)-->() AND NOT (p)<--() "
            "DELETE p RETURN count(p) AS n",
        ),
    ):
        rows = store.query(cypher, {"repo": repo, "run": run})
        counts[label] = int(rows[0]["n"]) if rows else 0
    return counts
