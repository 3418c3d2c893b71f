"""Cypher that the repository tools read with: decisions and what they rest on, files and
their renames, who changed what, where things came from, and the agent instructions in
force at a commit. Read-only; every value a $param."""

from __future__ import annotations

from collections.abc import Collection
from typing import TYPE_CHECKING, Any

from companybrain.graph.ident import ident

if TYPE_CHECKING:
    from companybrain.graph.connection import Store

Rows = list[dict[str, Any]]

_DECISION_FIELDS = """
    d.id AS id, d.title AS title, d.status AS status, d.date AS date, d.path AS path,
    d.heading AS heading, d.line_start AS line_start, d.line_end AS line_end, d.text AS text,
    d.present AS present, d.commit AS commit, d.recorded_at AS recorded_at,
    d.recorded_ms AS recorded_ms, d.repo AS repo
"""


def has_repository(store: Store) -> bool:
    rows = store.read("MATCH (m:Meta) WHERE m.key STARTS WITH 'repo:' RETURN count(m) AS n")
    return bool(rows and rows[0]["n"])


def repositories(store: Store) -> Rows:
    return store.read(
        "MATCH (m:Meta) WHERE m.key STARTS WITH 'repo:' "
        "RETURN m.repo AS repo, m.path AS path, m.head AS head ORDER BY m.repo"
    )


def shallow_boundary(store: Store) -> set[str]:
    """Commits where a shallow clone's history was cut off, in any repository of the graph:
    what such a commit "added" was there before it."""
    rows = store.read(
        "MATCH (m:Meta) WHERE m.key STARTS WITH 'repo:' AND m.shallow IS NOT NULL "
        "UNWIND m.shallow AS sha RETURN DISTINCT sha"
    )
    return {row["sha"] for row in rows}


# -- decisions ---------------------------------------------------------------------------


def decisions(store: Store) -> Rows:
    """Every decision that came from a repository, with who superseded it."""
    return store.read(
        "MATCH (d:Decision) WHERE d.repo IS NOT NULL "
        "OPTIONAL MATCH (n:Decision)-[:SUPERSEDES]->(d) "
        "WITH d, collect(n.id) AS superseded_by RETURN " + _DECISION_FIELDS + ", superseded_by "
        "ORDER BY d.id"
    )


def decision(store: Store, decision_id: str) -> dict[str, Any] | None:
    """A decision that came from a repository. A company ADR shares the label, but is read
    by the company tools, which apply record access; the repository tools never see it."""
    rows = store.read(
        "MATCH (d:Decision {id: $id}) WHERE d.repo IS NOT NULL "
        "OPTIONAL MATCH (n:Decision)-[:SUPERSEDES]->(d) "
        "WITH d, collect(n.id) AS superseded_by RETURN " + _DECISION_FIELDS + ", superseded_by",
        {"id": decision_id},
    )
    return rows[0] if rows else None


def supersessions(store: Store) -> Rows:
    """Every SUPERSEDES edge between repository decisions: newer, older, quote, recorded_in,
    line, via."""
    return store.read(
        "MATCH (n:Decision)-[e:SUPERSEDES]->(o:Decision) "
        "WHERE n.repo IS NOT NULL AND o.repo IS NOT NULL "
        "RETURN n.id AS newer, o.id AS older, e.quote AS quote, e.recorded_in AS recorded_in, "
        "e.line AS line, e.via AS via ORDER BY newer, older"
    )


def decisions_resting_on(store: Store, paths: list[str]) -> Rows:
    """Decisions with a RATIONALE edge to any of `paths`: the decision, the file, and how
    (via 'text' with the line that names it, or via 'commit')."""
    return store.read(
        "UNWIND $paths AS p MATCH (d:Decision)-[e:RATIONALE]->(f:File {id: p}) "
        "OPTIONAL MATCH (n:Decision)-[:SUPERSEDES]->(d) "
        "WITH d, e, f, collect(n.id) AS superseded_by "
        "RETURN " + _DECISION_FIELDS + ", superseded_by, f.id AS file, e.via AS via, "
        "e.line AS rationale_line, e.quote AS rationale_quote ORDER BY d.id, f.id",
        {"paths": paths},
    )


def file_finding_decisions(store: Store, paths: list[str]) -> Rows:
    """Decisions whose checked `file` findings name one of `paths` (from the board)."""
    return store.read(
        "UNWIND $paths AS p MATCH (d:Decision)-[:HAS_FINDING]->(x:Finding {kind: 'file'}) "
        "WHERE x.value = p "
        "OPTIONAL MATCH (n:Decision)-[:SUPERSEDES]->(d) "
        "WITH d, x, collect(n.id) AS superseded_by "
        "RETURN " + _DECISION_FIELDS + ", superseded_by, x.value AS file, 'finding' AS via, "
        "x.quote AS rationale_quote, null AS rationale_line ORDER BY d.id",
        {"paths": paths},
    )


# -- files -------------------------------------------------------------------------------


def file_exists(store: Store, path: str) -> bool:
    rows = store.read("MATCH (f:File {id: $id}) RETURN count(f) AS n", {"id": path})
    return bool(rows and rows[0]["n"])


def files_under(store: Store, folder: str, limit: int) -> list[str]:
    rows = store.read(
        # STARTS WITH as a range, so that the index on File.id answers it: every string
        # that starts with "dir/" sorts from "dir/" up to (not including) "dir0".
        "MATCH (f:File) WHERE f.id >= $low AND f.id < $high "
        "RETURN f.id AS id ORDER BY id LIMIT $limit",
        {"low": folder.rstrip("/") + "/", "high": folder.rstrip("/") + "0", "limit": limit},
    )
    return [r["id"] for r in rows]


def files_named(store: Store, name: str, limit: int) -> list[str]:
    """Files whose path is `name` or ends with `/name`."""
    rows = store.read(
        "MATCH (f:File) WHERE f.id = $name OR f.id ENDS WITH $suffix "
        "RETURN f.id AS id ORDER BY id LIMIT $limit",
        {"name": name, "suffix": "/" + name, "limit": limit},
    )
    return [r["id"] for r in rows]


def file_names(store: Store) -> list[str]:
    """Every file path the history knows (for matching names in a question)."""
    return [r["id"] for r in store.read("MATCH (f:File) RETURN f.id AS id")]


def renames(store: Store, paths: list[str]) -> Rows:
    """Rename edges touching `paths`, either way: old, new, commit."""
    return store.read(
        # Either end, each through the index (an OR of the two would scan every file).
        "UNWIND $paths AS p MATCH (o:File {id: p})-[e:RENAMED_TO]->(n:File) "
        "RETURN o.id AS old, n.id AS new, e.commit AS commit "
        "UNION "
        "UNWIND $paths AS p MATCH (o:File)-[e:RENAMED_TO]->(n:File {id: p}) "
        "RETURN o.id AS old, n.id AS new, e.commit AS commit",
        {"paths": paths},
    )


def path_events(store: Store, paths: list[str]) -> Rows:
    """What began or ended a file at each of `paths`: path, kind ('made': added or copied;
    'in': renamed from `other`; 'away': renamed to `other`), other, commit, ms (landed)."""
    return store.read(
        # From the file (index on File.id), as in _SPAN_TOUCHES below.
        "UNWIND $paths AS p MATCH (f:File {id: p}) WITH f, p "
        "MATCH (c)-[t:TOUCHED]->(f) WHERE c:Commit AND t.change IN ['A', 'C', 'R'] "
        "RETURN p AS path, CASE t.change WHEN 'R' THEN 'in' ELSE 'made' END AS kind, "
        "t.old_path AS other, c.id AS commit, c.landed_ms AS ms "
        "UNION ALL "
        "UNWIND $paths AS p MATCH (f:File {id: p})-[e:RENAMED_TO]->(n:File) "
        "MATCH (c)-[:TOUCHED]->(n) WHERE c:Commit AND c.id = e.commit "  # the renaming one
        "RETURN p AS path, 'away' AS kind, n.id AS other, c.id AS commit, c.landed_ms AS ms",
        {"paths": paths},
    )


# A span of a file's history (ask/repo/lineage.py): the commits that touched `s.path`
# landing from `s.start` up to `s.upto` (a null bound: none), but those of `$skip` (where a
# shallow clone's history is cut off: they seem to add every file there was).
_SPAN_TOUCHES = (
    # From the file (index on File.id) to its commits: a filter on the commit in the
    # same MATCH would make the planner start from every commit instead.
    "UNWIND $spans AS s MATCH (f:File {id: s.path}) WITH f, s "
    "MATCH (c)-[t:TOUCHED]->(f) WHERE c:Commit "
    "AND (s.start IS NULL OR c.landed_ms >= s.start) "
    "AND (s.upto IS NULL OR c.landed_ms <= s.upto) AND NOT c.id IN $skip "
)


def touches(
    store: Store, spans: list[dict[str, Any]], limit: int, skip: Collection[str] = ()
) -> Rows:
    """Commits that touched the files of `spans`, newest first, with author and co-authors;
    none of `skip`."""
    return store.read(
        _SPAN_TOUCHES + "WITH DISTINCT c, t, f "
        "MATCH (a:Person)-[:AUTHORED]->(c) "
        "OPTIONAL MATCH (co:Person)-[:CO_AUTHORED]->(c) "
        "WITH c, t, f, a, collect(co.id) AS co_ids "
        "RETURN c.id AS commit, c.subject AS subject, c.committer_at AS committer_at, "
        "c.landed_at AS landed_at, c.landed_ms AS landed_ms, f.id AS file, t.change AS change, "
        "t.old_path AS old_path, t.added AS added, t.removed AS removed, a.id AS author, "
        "a.name AS author_name, a.is_agent AS author_is_agent, co_ids "
        "ORDER BY c.landed_ms DESC, c.id LIMIT $limit",
        {"spans": spans, "limit": limit, "skip": sorted(skip)},
    )


def expertise(store: Store, spans: list[dict[str, Any]], skip: Collection[str] = ()) -> Rows:
    """Per person (author or co-author): commits on the files of `spans` (none of `skip`),
    lines changed, last touch."""
    return store.read(
        _SPAN_TOUCHES + "WITH DISTINCT c, t, f "
        "MATCH (who:Person)-[r:AUTHORED|CO_AUTHORED]->(c) "
        "WITH who, type(r) AS role, c, sum(coalesce(t.added, 0) + coalesce(t.removed, 0)) AS lines "
        "RETURN who.id AS id, who.name AS name, coalesce(who.is_agent, false) AS is_agent, "
        "role, count(c) AS commits, sum(lines) AS lines, max(c.landed_ms) AS last_ms, "
        "min(c.landed_ms) AS first_ms ORDER BY id, role",
        {"spans": spans, "skip": sorted(skip)},
    )


def people(store: Store, ids: list[str]) -> Rows:
    return store.read(
        "UNWIND $ids AS id MATCH (p:Person {id: id}) "
        "RETURN p.id AS id, p.name AS name, coalesce(p.is_agent, false) AS is_agent",
        {"ids": ids},
    )


# -- commits -----------------------------------------------------------------------------

_COMMIT_FIELDS = """
    c.id AS commit, c.subject AS subject, c.message AS message, c.author_at AS author_at,
    c.committer_at AS committer_at, c.landed_at AS landed_at, c.landed_ms AS landed_ms,
    c.landed_by AS landed_by, c.first_parent AS first_parent, c.instructions AS instructions,
    a.id AS author, a.name AS author_name, coalesce(a.is_agent, false) AS author_is_agent
"""


def commit(store: Store, sha: str) -> dict[str, Any] | None:
    rows = store.read(
        "MATCH (a:Person)-[:AUTHORED]->(c:Commit {id: $id}) RETURN " + _COMMIT_FIELDS,
        {"id": sha},
    )
    return rows[0] if rows else None


def commits_with_prefix(store: Store, prefix: str, limit: int = 2) -> list[str]:
    rows = store.read(
        "MATCH (c:Commit) WHERE c.id STARTS WITH $p AND c.subject IS NOT NULL "
        "RETURN c.id AS id LIMIT $limit",
        {"p": prefix, "limit": limit},
    )
    return [r["id"] for r in rows]


def co_authors_of(store: Store, sha: str) -> Rows:
    return store.read(
        "MATCH (p:Person)-[:CO_AUTHORED]->(:Commit {id: $id}) "
        "RETURN p.id AS id, p.name AS name, coalesce(p.is_agent, false) AS is_agent ORDER BY id",
        {"id": sha},
    )


def files_changed(store: Store, sha: str) -> list[str]:
    """The paths commit `sha` changed (a rename: both names)."""
    rows = store.read(
        "MATCH (:Commit {id: $id})-[t:TOUCHED]->(f:File) RETURN f.id AS path, t.old_path AS old",
        {"id": sha},
    )
    return sorted({p for r in rows for p in (r["path"], r["old"]) if p})


def first_adds(store: Store, paths: list[str]) -> Rows:
    """The commits that added (or copied into being) any of `paths`, oldest landing first."""
    return store.read(
        "UNWIND $paths AS p MATCH (a:Person)-[:AUTHORED]->(c:Commit)-[t:TOUCHED]->(f:File {id: p}) "
        "WHERE t.change IN ['A', 'C'] "
        "RETURN " + _COMMIT_FIELDS + ", f.id AS file, t.change AS change "
        "ORDER BY c.landed_ms, c.committer_at LIMIT 5",
        {"paths": paths},
    )


def last_delete(store: Store, path: str) -> dict[str, Any] | None:
    rows = store.read(
        "MATCH (a:Person)-[:AUTHORED]->(c:Commit)-[t:TOUCHED {change: 'D'}]->(:File {id: $id}) "
        "RETURN " + _COMMIT_FIELDS + " ORDER BY c.landed_ms DESC LIMIT 1",
        {"id": path},
    )
    return rows[0] if rows else None


def mainline_last_landed(store: Store, until_ms: int) -> Rows:
    """The first-parent commits that landed last by `until_ms`: one, or several committed
    in the same second (a rebase, a script), which only their parent links order."""
    return store.read(
        "MATCH (c:Commit {mainline: true}) WHERE c.landed_ms <= $t "
        "WITH max(c.landed_ms) AS last "
        "MATCH (a:Person)-[:AUTHORED]->(c:Commit {mainline: true}) WHERE c.landed_ms = last "
        "RETURN " + _COMMIT_FIELDS + " ORDER BY c.id",
        {"t": until_ms},
    )


def mainline_child(store: Store, sha: str) -> dict[str, Any] | None:
    """The first-parent commit whose first parent is `sha`: the next on the main line."""
    rows = store.read(
        "MATCH (p:Commit {id: $id}) MATCH (c)-[:PARENT {n: 0}]->(p) WHERE c.mainline = true "
        "MATCH (a:Person)-[:AUTHORED]->(c) RETURN " + _COMMIT_FIELDS + " ORDER BY c.id LIMIT 1",
        {"id": sha},
    )
    return rows[0] if rows else None


def mainline_landed_before_parent(store: Store, until_ms: int) -> Rows:
    """A first-parent commit that landed by `until_ms` whose first parent landed after it
    (committer dates out of order on the main line), with that parent; at most one."""
    return store.read(
        "MATCH (p:Commit) WHERE p.landed_ms > $t AND p.mainline = true "
        "MATCH (c)-[:PARENT {n: 0}]->(p) WHERE c.mainline = true AND c.landed_ms <= $t "
        "RETURN c.id AS commit, c.landed_at AS landed_at, p.id AS parent, "
        "p.landed_at AS parent_landed_at, p.landed_ms AS parent_landed_ms "
        "ORDER BY commit LIMIT 1",
        {"t": until_ms},
    )


# -- agent instructions ------------------------------------------------------------------


def instructions(store: Store, ids: list[str]) -> Rows:
    """Instruction versions with their sections (sections sorted by position)."""
    return store.read(
        "UNWIND $ids AS id MATCH (i:Instruction {id: id}) "
        "OPTIONAL MATCH (i)-[:HAS_SECTION]->(s:InstructionSection) "
        "WITH i, s ORDER BY s.n "
        "RETURN i.id AS id, i.file AS file, i.blob AS blob, i.commit AS commit, i.date AS date, "
        "i.text AS text, i.not_utf8 AS not_utf8, collect({heading: s.heading, level: s.level, "
        "line_start: s.line_start, line_end: s.line_end, text: s.text}) AS sections "
        "ORDER BY id",
        {"ids": ids},
    )


def instruction_files(store: Store) -> list[str]:
    rows = store.read("MATCH (i:Instruction) RETURN DISTINCT i.file AS file ORDER BY file")
    return [r["file"] for r in rows]


# -- graph algorithms --------------------------------------------------------------------


def rationale_rank(store: Store, limit: int) -> Rows:
    """Files ranked by algo.pageRank over RATIONALE edges: where the reasoning concentrates."""
    return store.read(
        "CALL algo.pageRank(NULL, 'RATIONALE') YIELD node, score "
        "WITH node, score WHERE node:File "
        "RETURN node.id AS file, score ORDER BY score DESC, file LIMIT $limit",
        {"limit": limit},
    )


def connection(store: Store, source: str, target: str, max_len: int = 6) -> dict[str, Any] | None:
    """The shortest path (algo.SPpaths, either direction) between two nodes named by id.
    The ends are found through each label's id index (a node of any label may carry the
    id), then the shortest path over every pair of ends."""
    ends = [_labels_with_id(store, source), _labels_with_id(store, target)]
    best: dict[str, Any] | None = None
    for a in ends[0]:
        for b in ends[1]:
            rows = store.read(
                f"MATCH (a:{ident(a)} {{id: $a}}), (b:{ident(b)} {{id: $b}}) "
                "CALL algo.SPpaths({sourceNode: a, targetNode: b, relDirection: 'both', "
                "maxLen: $len, pathCount: 1}) YIELD path, pathWeight "
                "RETURN path, pathWeight ORDER BY pathWeight LIMIT 1",
                {"a": source, "b": target, "len": max_len},
            )
            if rows and (best is None or rows[0]["pathWeight"] < best["pathWeight"]):
                best = rows[0]
    return best


def _labels_with_id(store: Store, node_id: str) -> list[str]:
    """The labels (among those with an id index) of the nodes whose id is `node_id`."""
    from companybrain.graph.schema import KEYED_LABELS

    rows = store.read(
        " UNION ".join(
            f"MATCH (n:{ident(label)} {{id: $id}}) RETURN labels(n) AS labels"
            for label in KEYED_LABELS
        ),
        {"id": node_id},
    )
    return sorted({label for r in rows for label in r["labels"] if label in KEYED_LABELS})
