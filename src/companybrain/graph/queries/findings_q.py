"""Cypher for findings: what board workers read out of a decision entry (or a record) once
the checks passed. `(:Decision|:Source)-[:HAS_FINDING]->(:Finding)`.

A finding's id is derived from what it says (entry, kind, value, quote, verdict, relation),
never from who produced it, so two workers that read the same thing write one node and
re-running a worker changes nothing."""

from __future__ import annotations

import hashlib
from typing import TYPE_CHECKING, Any

from companybrain.errors import InputError
from companybrain.model.findings import Finding, FindingKind, Verdict
from companybrain.policy.statuses import NEVER_IN_FORCE

if TYPE_CHECKING:
    from companybrain.graph.connection import Store


def finding_id(entry_id: str, finding: Finding) -> str:
    """`ENTRY|kind|12 hex digits` of what the finding says."""
    said = "\x1f".join(
        (
            finding.kind.value,
            finding.value,
            finding.quote,
            finding.verdict.value if finding.verdict else "",
            finding.relation or "",
        )
    )
    digest = hashlib.sha1(said.encode("utf-8")).hexdigest()[:12]
    return f"{entry_id}|{finding.kind.value}|{digest}"


def _rows(entry_id: str, findings: list[Finding]) -> list[dict[str, Any]]:
    rows: dict[str, dict[str, Any]] = {}
    for f in findings:
        if f.entry != entry_id:
            raise InputError(f"finding for entry {f.entry!r} passed to add_findings({entry_id!r})")
        fid = finding_id(entry_id, f)
        rows[fid] = {
            "id": fid,
            "kind": f.kind.value,
            "quote": f.quote,
            "value": f.value,
            "verdict": f.verdict.value if f.verdict else None,
            "relation": f.relation,
            "by": f.by,
        }
    return list(rows.values())


_ADD = {
    "Decision": """
        MATCH (e:Decision {id: $entry})
        UNWIND $rows AS row
        MERGE (f:Finding {id: row.id})
        SET f.kind = row.kind, f.quote = row.quote, f.value = row.value,
            f.verdict = row.verdict, f.relation = row.relation, f.by = row.by,
            f.entry = $entry
        MERGE (e)-[:HAS_FINDING]->(f)
        RETURN count(f) AS n
    """,
    "Source": """
        MATCH (e:Source {id: $entry})
        UNWIND $rows AS row
        MERGE (f:Finding {id: row.id})
        SET f.kind = row.kind, f.quote = row.quote, f.value = row.value,
            f.verdict = row.verdict, f.relation = row.relation, f.by = row.by,
            f.entry = $entry
        MERGE (e)-[:HAS_FINDING]->(f)
        RETURN count(f) AS n
    """,
}

_DROP_OTHERS = {
    "Decision": """
        MATCH (:Decision {id: $entry})-[:HAS_FINDING]->(f:Finding)
        WHERE NOT f.id IN $keep
        DETACH DELETE f
    """,
    "Source": """
        MATCH (:Source {id: $entry})-[:HAS_FINDING]->(f:Finding)
        WHERE NOT f.id IN $keep
        DETACH DELETE f
    """,
}


# A confirmed relation that says the entry replaces another decision becomes the same
# SUPERSEDES edge that decision texts give (via 'finding'), so every reader sees one shape;
# and as there, a decision rejected, withdrawn or only proposed supersedes nothing.
SUPERSEDING = ("supersedes", "replaces")
_NEVER = sorted(NEVER_IN_FORCE)

_SUPERSEDES = """
    MATCH (e:Decision {id: $entry})
    WHERE NOT toLower(trim(coalesce(e.status, ''))) IN $never
    UNWIND $rows AS row
    MATCH (o:Decision {id: row.value})
    WHERE o <> e
    MERGE (e)-[s:SUPERSEDES {via: 'finding'}]->(o)
    SET s.quote = row.quote, s.by = row.by, s.finding = row.id, s.recorded_in = $entry
"""

_DROP_FINDING_EDGES = """
    MATCH (e:Decision {id: $entry})-[s:SUPERSEDES {via: 'finding'}]->(:Decision)
    WHERE NOT s.finding IN $keep OR toLower(trim(coalesce(e.status, ''))) IN $never
    DELETE s
"""


_DROP_NOT_IN_FORCE = """
    MATCH (e:Decision)-[s:SUPERSEDES {via: 'finding'}]->(:Decision)
    WHERE toLower(trim(coalesce(e.status, ''))) IN $never
    DELETE s
"""


def drop_not_in_force(store: Store) -> None:
    """Take away board-written supersessions of decisions not in force (rejected, withdrawn,
    proposed, draft): what a board run wrote before they were refused, on entries that
    nothing reads again."""
    store.query(_DROP_NOT_IN_FORCE, {"never": _NEVER})


_READ = {
    "Decision": "MATCH (e:Decision {id: $entry}) SET e.read_hash = $hash",
    "Source": "MATCH (e:Source {id: $entry}) SET e.read_hash = $hash",
}


def add_findings(
    store: Store,
    entry_id: str,
    findings: list[Finding],
    *,
    replace: bool = False,
    read_hash: str | None = None,
) -> int:
    """MERGE `findings` under the Decision (or else Source) `entry_id`; returns how many.

    Idempotent. With `replace=True` the entry's other findings are removed first, so that
    re-reading an entry that changed leaves only what it says now. A relation finding that
    supersedes or replaces another decision (its `value` is that decision's id) also
    writes `(entry)-[:SUPERSEDES {via: 'finding'}]->(value)`. `read_hash` marks the entry
    as read from the text with that hash, so that the board knows the brain holds this
    reading (a brain graph reset or re-ingested has lost it). Raises InputError when no
    Decision or Source has that id.
    """
    rows = _rows(entry_id, findings)
    for label in ("Decision", "Source"):
        if not entry_exists(store, label, entry_id):
            continue
        if replace:
            store.query(_DROP_OTHERS[label], {"entry": entry_id, "keep": [r["id"] for r in rows]})
        if replace and label == "Decision":
            store.query(
                _DROP_FINDING_EDGES,
                {"entry": entry_id, "keep": [r["id"] for r in rows], "never": _NEVER},
            )
        if read_hash is not None:
            store.query(_READ[label], {"entry": entry_id, "hash": read_hash})
        if not rows:
            return 0
        written = store.query(_ADD[label], {"entry": entry_id, "rows": rows})
        supersede = [r for r in rows if r["kind"] == "relation" and r["relation"] in SUPERSEDING]
        if supersede and label == "Decision":
            store.query(_SUPERSEDES, {"entry": entry_id, "rows": supersede, "never": _NEVER})
        return int(written[0]["n"]) if written else 0
    raise InputError(f"no decision or record with id {entry_id!r} to attach findings to")


def entry_exists(store: Store, label: str, entry_id: str) -> bool:
    if label == "Decision":
        rows = store.read("MATCH (e:Decision {id: $id}) RETURN count(e) AS n", {"id": entry_id})
    elif label == "Source":
        rows = store.read("MATCH (e:Source {id: $id}) RETURN count(e) AS n", {"id": entry_id})
    else:
        raise InputError(f"findings attach to a Decision or a Source, not {label!r}")
    return bool(rows and rows[0]["n"])


def _finding(row: dict[str, Any]) -> Finding:
    return Finding(
        entry=row["entry"],
        kind=FindingKind(row["kind"]),
        quote=row["quote"],
        value=row["value"],
        verdict=Verdict(row["verdict"]) if row.get("verdict") else None,
        relation=row.get("relation"),
        by=row.get("by") or "rules",
    )


def findings_of(store: Store, entry_id: str) -> list[Finding]:
    """Every finding recorded under one entry (a Decision, else a Source), in a stable order."""
    rows = store.read(
        """
        MATCH (e:Decision {id: $entry})-[:HAS_FINDING]->(f:Finding)
        RETURN e.id AS entry, f.kind AS kind, f.quote AS quote, f.value AS value,
               f.verdict AS verdict, f.relation AS relation, f.by AS by
        ORDER BY f.id
        """,
        {"entry": entry_id},
    ) or store.read(
        """
        MATCH (e:Source {id: $entry})-[:HAS_FINDING]->(f:Finding)
        RETURN e.id AS entry, f.kind AS kind, f.quote AS quote, f.value AS value,
               f.verdict AS verdict, f.relation AS relation, f.by AS by
        ORDER BY f.id
        """,
        {"entry": entry_id},
    )
    return [_finding(r) for r in rows]


# What "tried and failed" means to the tools: disproven outright, or done and undone.
TRIED_AND_FAILED = ("disproven", "reverted")


def experiments(
    store: Store,
    *,
    verdict: str | tuple[str, ...] | None = "disproven",
    entries: list[str] | None = None,
) -> list[dict[str, Any]]:
    """Experiment findings under decisions (optionally only these decision ids), with the
    decision they were read from and the decisions that superseded it (newest edge only).
    `verdict` is one verdict, several (TRIED_AND_FAILED) or None for any.

    Each row: id, decision, verdict, quote, value, by, decision_title, decision_status,
    decision_text, decision_line_start, decision_recorded_at, superseded_by (decision ids).
    """
    rows = store.read(
        """
        MATCH (d:Decision)-[:HAS_FINDING]->(f:Finding {kind: 'experiment'})
        WHERE ($verdicts IS NULL OR f.verdict IN $verdicts)
          AND ($entries IS NULL OR d.id IN $entries)
        OPTIONAL MATCH (newer:Decision)-[:SUPERSEDES]->(d)
        WITH d, f, collect(newer.id) AS superseded_by
        RETURN f.id AS id, d.id AS decision, f.verdict AS verdict, f.quote AS quote,
               f.value AS value, f.by AS by, d.title AS decision_title,
               d.status AS decision_status, d.text AS decision_text,
               d.line_start AS decision_line_start, d.recorded_at AS decision_recorded_at,
               superseded_by
        ORDER BY d.id, f.id
        """,
        {"verdicts": _verdicts(verdict), "entries": entries},
    )
    for row in rows:
        row["superseded_by"] = sorted(x for x in row["superseded_by"] if x)
    return rows


def _verdicts(verdict: str | tuple[str, ...] | None) -> list[str] | None:
    if verdict is None:
        return None
    return [verdict] if isinstance(verdict, str) else list(verdict)


def measurements(store: Store, entries: list[str]) -> dict[str, list[dict[str, Any]]]:
    """Measurement findings (quote, value) per decision id."""
    rows = store.read(
        """
        UNWIND $entries AS entry
        MATCH (d:Decision {id: entry})-[:HAS_FINDING]->(f:Finding {kind: 'measurement'})
        RETURN d.id AS decision, f.quote AS quote, f.value AS value ORDER BY decision, f.id
        """,
        {"entries": entries},
    )
    out: dict[str, list[dict[str, Any]]] = {}
    for r in rows:
        out.setdefault(r["decision"], []).append({"quote": r["quote"], "value": r["value"]})
    return out


def finding_counts(store: Store) -> dict[str, int]:
    """How many findings of each kind the graph holds."""
    rows = store.read("MATCH (f:Finding) RETURN f.kind AS kind, count(f) AS n ORDER BY kind")
    return {r["kind"]: r["n"] for r in rows}
