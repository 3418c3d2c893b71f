"""Cypher that writes a code repository into the graph: commits, people, files, decisions,
agent instructions and the repository's ingestion state. Rows arrive in batches (UNWIND).

Every node this writes carries `repo`; commits, decisions and instructions also carry
`seen`, the run that last confirmed them, so that a rewritten history can be swept."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from companybrain.graph.connection import Store

Rows = list[dict[str, Any]]


# -- ingestion state ---------------------------------------------------------------------


def read_state(store: Store, repo: str) -> dict[str, Any] | None:
    rows = store.read(
        "MATCH (m:Meta {key: $key}) RETURN m.head AS head, m.path AS path, m.run AS run, "
        "m.commits AS commits, m.ingested_at AS ingested_at",
        {"key": f"repo:{repo}"},
    )
    return rows[0] if rows else None


def write_state(store: Store, repo: str, state: dict[str, Any]) -> None:
    store.query(
        "MERGE (m:Meta {key: $key}) SET m.repo = $repo, m.head = $head, m.path = $path, "
        "m.run = $run, m.commits = $commits, m.ingested_at = $ingested_at",
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


def write_commits(store: Store, repo: str, run: str, rows: Rows) -> None:
    """rows: id, parents, first_parent, is_merge, author_*, committer_*, message, subject,
    instructions (ids in force in its tree)."""
    store.query(
        """
        UNWIND $rows AS r
        MERGE (c:Commit {id: r.id})
        SET c.repo = $repo, c.seen = $run, c.author_at = r.author_at, c.author_ms = r.author_ms,
            c.committer_at = r.committer_at, c.committer_ms = r.committer_ms,
            c.message = r.message, c.subject = r.subject, c.is_merge = r.is_merge,
            c.first_parent = r.first_parent, c.instructions = r.instructions,
            c.landed_at = coalesce(c.landed_at, r.committer_at),
            c.landed_ms = coalesce(c.landed_ms, r.committer_ms)
        MERGE (a:Person {id: r.author_id})
        ON CREATE SET a.name = r.author_name, a.email = r.author_email, a.from_git = true
        SET a.is_agent = coalesce(a.is_agent, false) OR r.author_is_agent,
            a.agent = coalesce(a.agent, r.author_agent)
        MERGE (a)-[:AUTHORED]->(c)
        MERGE (m:Person {id: r.committer_id})
        ON CREATE SET m.name = r.committer_name, m.email = r.committer_email, m.from_git = true
        SET m.is_agent = coalesce(m.is_agent, false) OR r.committer_is_agent,
            m.agent = coalesce(m.agent, r.committer_agent)
        MERGE (m)-[:COMMITTED]->(c)
        """,
        {"repo": repo, "run": run, "rows": rows},
    )


def write_parents(store: Store, rows: Rows) -> None:
    """rows: child, parent, n (0 for the first parent)."""
    store.query(
        """
        UNWIND $rows AS r
        MATCH (c:Commit {id: r.child})
        MERGE (p:Commit {id: r.parent})
        MERGE (c)-[e:PARENT]->(p)
        SET e.n = r.n
        """,
        {"rows": rows},
    )


def write_co_authors(store: Store, rows: Rows) -> None:
    """rows: commit, id, name, email, is_agent, agent."""
    store.query(
        """
        UNWIND $rows AS r
        MATCH (c:Commit {id: r.commit})
        MERGE (p:Person {id: r.id})
        ON CREATE SET p.name = r.name, p.email = r.email, p.from_git = true
        SET p.is_agent = coalesce(p.is_agent, false) OR r.is_agent,
            p.agent = coalesce(p.agent, r.agent)
        MERGE (p)-[:CO_AUTHORED]->(c)
        """,
        {"rows": rows},
    )


def write_touches(store: Store, repo: str, rows: Rows) -> None:
    """rows: commit, path, change (A M D R C T), old_path, added, removed."""
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
    """rows: id (PATH@BLOB), file, blob, commit, date, date_ms, text, sections
    [{heading, level, line_start, line_end, text}]."""
    store.query(
        """
        UNWIND $rows AS r
        MERGE (i:Instruction {id: r.id})
        SET i.repo = $repo, i.seen = $run, i.file = r.file, i.blob = r.blob,
            i.commit = r.commit, i.date = r.date, i.date_ms = r.date_ms, i.text = r.text
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
