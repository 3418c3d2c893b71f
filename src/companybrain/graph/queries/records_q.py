"""Cypher for company records: the organisation, sources, ownership claims, decisions,
expertise edges and the audit trail of rejected proposals."""

from __future__ import annotations

import json
from typing import Any

from companybrain.graph.connection import Prepared, Store

# -- the organisation ---------------------------------------------------------------------


def upsert_org(store: Store, org: dict[str, Any]) -> None:
    """People, teams, groups, services, projects and their edges, replaced as a whole:
    what the organisation no longer lists is removed (a person stays, out of it)."""
    store.query(
        "UNWIND $people AS p MERGE (n:Person {id: p.id}) "
        "SET n.name = p.name, n.aliases = p.aliases, n.email = p.email, n.team = p.team, "
        "n.groups = p.groups, n.org = true, n.former = null",
        {"people": org["people"]},
    )
    store.query(
        "UNWIND $teams AS t MERGE (n:Team {id: t.id}) SET n.name = t.name, n.aliases = t.aliases",
        {"teams": org["teams"]},
    )
    store.query("MATCH (:Person {org: true})-[r:MEMBER_OF|IN_GROUP]->() DELETE r")
    store.query("MATCH (:Team)-[r:LED_BY]->() DELETE r")
    store.query(
        "UNWIND $people AS p MATCH (n:Person {id: p.id}) "
        "OPTIONAL MATCH (t:Team {id: p.team}) "
        "FOREACH (_ IN CASE WHEN t IS NULL THEN [] ELSE [1] END | MERGE (n)-[:MEMBER_OF]->(t)) "
        "WITH n, p UNWIND p.groups AS g MERGE (grp:Group {id: g}) MERGE (n)-[:IN_GROUP]->(grp)",
        {"people": org["people"]},
    )
    store.query(
        "UNWIND $teams AS t MATCH (team:Team {id: t.id}) MATCH (lead:Person {id: t.lead}) "
        "MERGE (team)-[:LED_BY]->(lead)",
        {"teams": [t for t in org["teams"] if t.get("lead")]},
    )
    store.query(
        "UNWIND $services AS s MERGE (n:Service {id: s.id}) SET n.name = s.name, n.aliases = s.aliases",
        {"services": org["services"]},
    )
    store.query(
        "UNWIND $projects AS p MERGE (n:Project {id: p.id}) SET n.name = p.name, n.aliases = p.aliases",
        {"projects": org["projects"]},
    )
    # What the organisation no longer lists leaves the graph (people stay, as former
    # members, named by what they wrote and owned): kept, a removed service still answered.
    store.query(
        "MATCH (n:Person {org: true}) WHERE NOT n.id IN $ids "
        "SET n.org = false, n.former = true, n.team = null, n.groups = []",
        {"ids": [p["id"] for p in org["people"]]},
    )
    store.query(
        "MATCH (n:Team) WHERE NOT n.id IN $ids DETACH DELETE n",
        {"ids": [t["id"] for t in org["teams"]]},
    )
    store.query(
        "MATCH (n:Service) WHERE NOT n.id IN $ids DETACH DELETE n",
        {"ids": [x["id"] for x in org["services"]]},
    )
    store.query(
        "MATCH (n:Project) WHERE NOT n.id IN $ids DETACH DELETE n",
        {"ids": [x["id"] for x in org["projects"]]},
    )
    store.query("MATCH (:Project)-[r:DEPENDS_ON]->(:Service) DELETE r")
    store.query(
        "UNWIND $projects AS p MATCH (n:Project {id: p.id}) UNWIND p.services AS sid "
        "MATCH (s:Service {id: sid}) MERGE (n)-[:DEPENDS_ON]->(s)",
        {"projects": org["projects"]},
    )
    store.query(
        "MERGE (m:Meta {key: 'org'}) SET m.company = $company, m.timezone = $timezone, "
        "m.authority_json = $authority_json, m.hash = $hash",
        {
            "company": org["company"],
            "timezone": org["timezone"],
            "authority_json": json.dumps(org["authority"], sort_keys=True),
            "hash": org["hash"],
        },
    )


def org_hash(store: Store) -> str | None:
    """The hash of the organisation last written (None: none yet)."""
    rows = store.read("MATCH (m:Meta {key: 'org'}) RETURN m.hash AS hash")
    return rows[0]["hash"] if rows else None


def read_org(store: Store) -> dict[str, Any] | None:
    """The organisation as stored, or None when no corpus was ever ingested."""
    meta = store.read(
        "MATCH (m:Meta {key: 'org'}) RETURN m.company AS company, m.timezone AS timezone, "
        "m.authority_json AS authority_json, m.hash AS hash"
    )
    if not meta:
        return None
    people = store.read(
        "MATCH (p:Person) WHERE p.org = true OR p.former = true "
        "RETURN p.id AS id, p.name AS name, p.aliases AS aliases, p.team AS team, "
        "p.email AS email, p.groups AS groups, p.former = true AS former ORDER BY p.id"
    )
    teams = store.read(
        "MATCH (t:Team) OPTIONAL MATCH (t)-[:LED_BY]->(l:Person) "
        "RETURN t.id AS id, t.name AS name, t.aliases AS aliases, l.id AS lead ORDER BY t.id"
    )
    services = store.read(
        "MATCH (s:Service) RETURN s.id AS id, s.name AS name, s.aliases AS aliases ORDER BY s.id"
    )
    projects = store.read(
        "MATCH (p:Project) OPTIONAL MATCH (p)-[:DEPENDS_ON]->(s:Service) "
        "WITH p, s ORDER BY s.id "
        "RETURN p.id AS id, p.name AS name, p.aliases AS aliases, collect(s.id) AS services "
        "ORDER BY p.id"
    )
    return {**meta[0], "people": people, "teams": teams, "services": services, "projects": projects}


# -- sources ------------------------------------------------------------------------------


def holds_sources(store: Store) -> bool:
    """Does the graph hold any record yet? (A first ingestion has no states to read.)"""
    return bool(store.read("MATCH (s:Source) RETURN s.id AS id LIMIT 1"))


def source_states(store: Store, ids: list[str]) -> dict[str, dict[str, Any]]:
    """What the graph holds for these record ids: hash and proposer, to skip unchanged ones."""
    rows = store.read(
        "UNWIND $ids AS id MATCH (s:Source {id: id}) "
        "RETURN s.id AS id, s.hash AS hash, s.proposer AS proposer, s.org_hash AS org_hash, "
        "s.in_corpus AS in_corpus, s.origin AS origin",
        {"ids": ids},
    )
    return {row["id"]: row for row in rows}


# One write per batch of records: every clause below runs in one GRAPH.QUERY, so a batch is
# applied whole or not at all. `WITH count(*) AS _` closes each step: an aggregate always
# yields one row, so the next UNWIND runs even when the previous list was empty.
_CLEAR_OLD = (
    # What the replaced records said before (none for records new to the graph).
    "UNWIND $replaced AS id MATCH (:Source {id: id})-[:ATTESTS]->(c:OwnershipClaim) "
    "DETACH DELETE c WITH count(*) AS _ "
    "UNWIND $replaced AS id MATCH (r:Rejection {record: id}) DETACH DELETE r "
    "WITH count(*) AS _ "
    "UNWIND $replaced AS id MATCH (:Source {id: id})-[r:MENTIONS|COMMENT_ON|REPLY_TO|SUPERSEDES]->() "
    "DELETE r WITH count(*) AS _ "
    "UNWIND $replaced AS id MATCH (:Source {id: id})<-[r:AUTHORED|RESOLVED]-() DELETE r "
    "WITH count(*) AS _ "
    "UNWIND $replaced AS id "
    "MATCH (:Decision {source: id})-[r:SUPERSEDES|MOTIVATED_BY|STATED_IN]->() DELETE r "
    "WITH count(*) AS _ "
    "UNWIND $replaced AS id MATCH (d:Decision {source: id}) WHERE NOT d.id IN $decision_ids "
    "DETACH DELETE d WITH count(*) AS _ "
)
# Who worked with whom (ask_q.refresh_worked_with) is rebuilt when its stamp no longer
# matches a few counts; a batch that may change who took part in a ticket without changing
# a count (a ticket changing hands, or becoming restricted) removes the stamp instead.
_STALE_WORKED_WITH = "OPTIONAL MATCH (w:Meta {key: 'worked_with'}) DELETE w "
_TICKET_WORK = frozenset(("ticket", "comment"))
# How a record `s` hangs off its parent `t` (as relink has it): a comment on its ticket,
# anything else a reply.
_PARENT_LINK = (
    "FOREACH (_ IN CASE WHEN s.kind = 'comment' THEN [1] ELSE [] END | "
    "MERGE (s)-[:COMMENT_ON]->(t)) "
    "FOREACH (_ IN CASE WHEN s.kind = 'comment' THEN [] ELSE [1] END | "
    "MERGE (s)-[:REPLY_TO]->(t)) WITH count(*) AS _ "
)
_WRITE_NEW = (
    # Identity needs MERGE only for the record itself and its decision; what hangs off the
    # record was cleared above (replaced) or never existed (new), so it is CREATEd.
    "UNWIND $sources AS row MERGE (s:Source {id: row.id}) "
    "ON CREATE SET s = row ON MATCH SET s = row WITH count(*) AS _ "
    # a record rewritten is still replaced by those that replace it: the links into it
    # stay, its mark (relink's) is set again from them (carrying the old mark through the
    # MERGE above cost it a quarter of its time)
    "UNWIND $replaced AS id MATCH (o:Source {id: id})<-[:SUPERSEDES]-(:Source) "
    "SET o.replaced = true WITH count(*) AS _ "
    # ... and one that replaces others does so from this write on, not from the end of the
    # run (relink): a cancelled record counted again meanwhile
    "UNWIND $superseding AS row UNWIND row.supersedes AS old MATCH (s:Source {id: row.id}) "
    "MATCH (o:Source {id: old}) WHERE o <> s MERGE (s)-[:SUPERSEDES]->(o) "
    "SET o.replaced = true WITH count(*) AS _ "
    # ... and a record new to the graph is replaced by those already there that name it
    # (an earlier batch, an earlier run), not only from the end of the run
    "UNWIND $fresh AS id MATCH (s:Source) WHERE id IN s.supersedes "
    "MATCH (o:Source {id: id}) WHERE o <> s MERGE (s)-[:SUPERSEDES]->(o) "
    "SET o.replaced = true WITH count(*) AS _ "
    # A comment's ticket and a reply's message (`parent`), either end written first, as
    # relink links them at the end: a comment counted for no one's expertise meanwhile
    "UNWIND $parented AS row MATCH (s:Source {id: row.id}) MATCH (t:Source {id: row.parent}) "
    + _PARENT_LINK
    + "UNWIND $fresh AS id MATCH (s:Source {parent: id}) MATCH (t:Source {id: id}) "
    + _PARENT_LINK
    + "UNWIND $authored AS e MATCH (s:Source {id: e.source}) MATCH (p:Person {id: e.person}) "
    "CREATE (p)-[:AUTHORED]->(s) WITH count(*) AS _ "
    "UNWIND $resolved AS e MATCH (s:Source {id: e.source}) MATCH (p:Person {id: e.person}) "
    "CREATE (p)-[:RESOLVED]->(s) WITH count(*) AS _ "
    "UNWIND $service_mentions AS m MATCH (s:Source {id: m.source}) "
    "MATCH (t:Service {id: m.id}) CREATE (s)-[:MENTIONS {how: m.how}]->(t) WITH count(*) AS _ "
    "UNWIND $project_mentions AS m MATCH (s:Source {id: m.source}) "
    "MATCH (t:Project {id: m.id}) CREATE (s)-[:MENTIONS {how: m.how}]->(t) WITH count(*) AS _ "
    "UNWIND $claims AS c MATCH (s:Source {id: c.source}) "
    "MATCH (svc:Service {id: c.service}) MATCH (p:Person {id: c.owner}) "
    "CREATE (claim:OwnershipClaim {id: c.id, effective_at: c.effective_at, "
    "effective_ms: c.effective_ms}) "
    "CREATE (s)-[:ATTESTS {quote: c.quote}]->(claim) "
    "CREATE (claim)-[:ABOUT]->(svc) CREATE (claim)-[:NAMES_OWNER]->(p) WITH count(*) AS _ "
    # A claim whose owner org.yaml does not list (policy/unknown_owner.py): the name as
    # written, and no NAMES_OWNER.
    "UNWIND $unlisted AS c MATCH (s:Source {id: c.source}) MATCH (svc:Service {id: c.service}) "
    "CREATE (claim:OwnershipClaim {id: c.id, effective_at: c.effective_at, "
    "effective_ms: c.effective_ms, unlisted_owner: c.name}) "
    "CREATE (s)-[:ATTESTS {quote: c.quote}]->(claim) CREATE (claim)-[:ABOUT]->(svc) "
    "WITH count(*) AS _ "
    # A claim whose effective time cannot be read (policy/effective.py): why, and no owner.
    "UNWIND $unclear AS c MATCH (s:Source {id: c.source}) MATCH (svc:Service {id: c.service}) "
    "CREATE (claim:OwnershipClaim {id: c.id, effective_at: c.effective_at, "
    "effective_ms: c.effective_ms, time_unclear: c.reason}) "
    "CREATE (s)-[:ATTESTS {quote: c.quote}]->(claim) CREATE (claim)-[:ABOUT]->(svc) "
    "WITH count(*) AS _ "
    "UNWIND $decisions AS d MATCH (s:Source {id: d.source}) "
    "MERGE (dec:Decision {id: d.id}) "
    "ON CREATE SET dec.title = d.title, dec.quote = d.quote, dec.status = d.status, "
    "dec.source = d.source, dec.supersedes = d.supersedes, dec.motivated_by = d.motivated_by, "
    "dec.at = d.at, dec.at_ms = d.at_ms "
    "ON MATCH SET dec.title = d.title, dec.quote = d.quote, dec.status = d.status, "
    "dec.source = d.source, dec.supersedes = d.supersedes, dec.motivated_by = d.motivated_by, "
    "dec.at = d.at, dec.at_ms = d.at_ms "
    "MERGE (dec)-[st:STATED_IN]->(s) SET st.quote = d.quote WITH count(*) AS _ "
    "UNWIND $decisions AS d UNWIND d.supersedes AS old MATCH (dec:Decision {id: d.id}) "
    "MATCH (o:Decision {id: old}) MERGE (dec)-[:SUPERSEDES]->(o) WITH count(*) AS _ "
    # ... and the decisions already there that supersede one written now, and what
    # motivated each, whichever end is written first (relink does it again at the end)
    "UNWIND $decision_ids AS id MATCH (dec:Decision) WHERE id IN dec.supersedes "
    "MATCH (o:Decision {id: id}) MERGE (dec)-[:SUPERSEDES]->(o) WITH count(*) AS _ "
    "UNWIND $decisions AS d UNWIND d.motivated_by AS why MATCH (dec:Decision {id: d.id}) "
    "MATCH (t:Source {id: why}) MERGE (dec)-[:MOTIVATED_BY]->(t) WITH count(*) AS _ "
    "UNWIND $fresh AS id MATCH (dec:Decision) WHERE id IN dec.motivated_by "
    "MATCH (t:Source {id: id}) MERGE (dec)-[:MOTIVATED_BY]->(t) WITH count(*) AS _ "
    # unchanged records found in another file: only where they come from is written
    "UNWIND $moved AS m MATCH (s:Source {id: m.id}) SET s.origin = m.origin "
    "WITH count(*) AS _ "
    "UNWIND $rejections AS r MATCH (s:Source {id: r.record}) "
    "CREATE (rej:Rejection {id: r.id, record: r.record, check: r.check, reason: r.reason, "
    "fact_json: r.fact_json, proposer: r.proposer}) "
    "CREATE (rej)-[:REJECTED_FROM]->(s) "
    "WITH count(*) AS rejections "
)
_DONE = "RETURN rejections"


def write_sources(store: Store, rows: list[dict[str, Any]], replaced: list[str]) -> None:
    """Write a batch of records and everything derived from each, replacing what the
    `replaced` ones (already in the graph) had before. One query: atomic.
    Each row is {"source": properties, "links": {mentions, claims, unlisted, unclear,
    decisions, rejections}}."""
    send(store, sources_write(rows, replaced))


def send(store: Store, prepared: Prepared) -> None:
    """Run a write prepared (parameters encoded) beforehand, e.g. by `sources_write`."""
    store.query(prepared)


def sources_write(
    rows: list[dict[str, Any]], replaced: list[str], moved: list[dict[str, str]] | None = None
) -> Prepared:
    """`write_sources`'s query with its parameters encoded, to send later (see Prepared).
    `moved`: unchanged records of the batch ({"id", "origin"}) read from another file."""
    sources, authored, resolved, claims, decisions, rejections = [], [], [], [], [], []
    unlisted: list[dict[str, Any]] = []
    unclear: list[dict[str, Any]] = []
    mentions: dict[tuple[str, str], dict[str, Any]] = {}
    for row in rows:
        source, links = row["source"], row["links"]
        sid = source["id"]
        sources.append(source)
        # (the links' ids: a former member's front-matter id is their successor's)
        if author := links.get("author", source.get("author")):
            authored.append({"source": sid, "person": author})
        if resolver := links.get("resolved_by", source.get("resolved_by")):
            resolved.append({"source": sid, "person": resolver})
        for m in links["mentions"]:  # one edge per record and subject; the last `how` stands
            mentions.pop((sid, m["id"]), None)
            mentions[(sid, m["id"])] = {**m, "source": sid}
        claims += [{**c, "source": sid} for c in links["claims"]]
        unlisted += [{**c, "source": sid} for c in links.get("unlisted", ())]
        unclear += [{**c, "source": sid} for c in links.get("unclear", ())]
        decisions += [{**d, "source": sid} for d in links["decisions"]]
        rejections += [{**r, "record": sid} for r in links["rejections"]]
    stale = bool(replaced) or any(source["kind"] in _TICKET_WORK for source in sources)
    return Store.prepare(
        (_CLEAR_OLD if replaced else "")
        + _WRITE_NEW
        + (_STALE_WORKED_WITH if stale else "")
        + _DONE,
        {
            "replaced": replaced,
            # (a record rewritten keeps the links into it)
            "fresh": sorted({s["id"] for s in sources} - set(replaced)),
            "decision_ids": [d["id"] for d in decisions],
            "sources": sources,
            # (only the records that name one: most name none)
            "superseding": [
                {"id": s["id"], "supersedes": s["supersedes"]}
                for s in sources
                if s.get("supersedes")
            ],
            "parented": [
                {"id": s["id"], "parent": s["parent"]} for s in sources if s.get("parent")
            ],
            "authored": authored,
            "resolved": resolved,
            "service_mentions": [m for m in mentions.values() if m.get("service", True)],
            "project_mentions": [m for m in mentions.values() if m.get("project", True)],
            "claims": claims,
            "unlisted": unlisted,
            "unclear": unclear,
            "decisions": decisions,
            "rejections": rejections,
            "moved": moved or [],
        },
    )


def write_checkpoint(store: Store, key: str, props: dict[str, Any]) -> None:
    """The ingestion checkpoint: what a run has made durable so far (see ingest/writer.py)."""
    store.query("MERGE (m:Meta {key: $key}) SET m += $props", {"key": key, "props": props})


def read_checkpoint(store: Store, key: str) -> dict[str, Any] | None:
    rows = store.read("MATCH (m:Meta {key: $key}) RETURN properties(m) AS props", {"key": key})
    return dict(rows[0]["props"]) if rows else None


UNREAD_KEY = "unread"  # its `records`: JSON of {record id: ms since its file failed to read}


def unread_records(store: Store) -> dict[str, int]:
    """Records whose file failed to read on a later run (see ingest/unread.py)."""
    rows = store.read("MATCH (m:Meta {key: $key}) RETURN m.records AS records", {"key": UNREAD_KEY})
    return decode_unread(rows[0]["records"] if rows else None)


def decode_unread(value: str | None) -> dict[str, int]:
    return {str(k): int(v) for k, v in json.loads(value).items()} if value else {}


def write_unread(store: Store, marks: dict[str, int]) -> None:
    if marks:
        store.query(
            "MERGE (m:Meta {key: $key}) SET m.records = $records",
            {"key": UNREAD_KEY, "records": json.dumps(marks, sort_keys=True)},
        )
    else:
        store.query("MATCH (m:Meta {key: $key}) DELETE m", {"key": UNREAD_KEY})


def relink(store: Store) -> None:
    """Structure named by ids in front matter (parent, supersedes, motivated_by) becomes edges
    once both ends exist, whatever order the records arrived in. Idempotent."""
    store.query(
        "MATCH (s:Source) WHERE s.parent IS NOT NULL AND s.kind = 'comment' "
        "MATCH (t:Source {id: s.parent}) MERGE (s)-[:COMMENT_ON]->(t)"
    )
    store.query(
        "MATCH (s:Source) WHERE s.parent IS NOT NULL AND s.kind <> 'comment' "
        "MATCH (t:Source {id: s.parent}) MERGE (s)-[:REPLY_TO]->(t)"
    )
    store.query(
        "MATCH (d:Decision) WHERE d.supersedes IS NOT NULL UNWIND d.supersedes AS old "
        "MATCH (o:Decision {id: old}) MERGE (d)-[:SUPERSEDES]->(o)"
    )
    # a record that replaces others (a change control cancelling or correcting one): their
    # ownership claims count no longer (policy/ownership.py)
    store.query(
        "MATCH (s:Source) WHERE size(coalesce(s.supersedes, [])) > 0 UNWIND s.supersedes AS old "
        "MATCH (o:Source {id: old}) WHERE o <> s MERGE (s)-[:SUPERSEDES]->(o)"
    )
    # ... marked on the replaced record, so that owner_of asks which replace it only then
    store.query(
        "MATCH (o:Source) WHERE o.replaced = true AND NOT (o)<-[:SUPERSEDES]-(:Source) "
        "SET o.replaced = NULL"
    )
    store.query(
        "MATCH (:Source)-[:SUPERSEDES]->(o:Source) WHERE o.replaced IS NULL SET o.replaced = true"
    )
    store.query(
        "MATCH (d:Decision) WHERE d.motivated_by IS NOT NULL UNWIND d.motivated_by AS why "
        "MATCH (t:Source {id: why}) MERGE (d)-[:MOTIVATED_BY]->(t)"
    )


def replacing_later(store: Store) -> list[dict[str, Any]]:
    """Each record that says it replaces one of no higher authority written after it
    ({"record", "replaces", "written"}): which counts cannot be told (policy/ownership.py),
    and the ingest says so. (A scan of the records, once a run, as relink's.)"""
    return store.read(
        "MATCH (s:Source)-[:SUPERSEDES]->(o:Source) "
        "WHERE s.at_ms < o.at_ms AND s.authority >= o.authority "
        "RETURN s.id AS record, o.id AS replaces, o.at AS written ORDER BY record, replaces"
    )


def sources_read_against_another_org(
    store: Store, org_hash: str, proposer: str, after: str = "", limit: int = 2000
) -> list[dict[str, Any]]:
    """Records last read against an organisation other than `org_hash`, or by another
    version of `proposer` ("rules@3": older rules, not a model), such as a record file
    ingested on its own, a typed record, one left out of a corpus without --prune: what is
    needed to read each again from its stored text. A page of `limit`, by id after
    `after`: there may be a whole graph of them."""
    family = proposer.partition("@")[0]
    return store.read(
        "MATCH (s:Source) WHERE s.org_hash IS NOT NULL "
        "AND (s.org_hash <> $org_hash OR (s.proposer <> $proposer "
        "AND (s.proposer = $family OR s.proposer STARTS WITH $versioned))) "
        "AND s.text IS NOT NULL AND s.id > $after "
        "RETURN s.id AS id, s.kind AS kind, s.at AS at, s.effective_at AS effective_at, "
        "s.effective_given AS effective_given, "
        "s.text AS text, s.title AS title, s.author AS author, s.parent AS parent, "
        "s.channel AS channel, s.status AS status, s.supersedes AS supersedes, "
        "s.motivated_by AS motivated_by, s.resolved_by AS resolved_by, s.about AS about, "
        "s.acl AS acl, s.origin AS origin, s.extra_json AS extra_json, "
        "s.in_corpus AS in_corpus ORDER BY s.id LIMIT $limit",
        {
            "org_hash": org_hash,
            "proposer": proposer,
            "family": family,
            "versioned": f"{family}@",
            "after": after,
            "limit": limit,
        },
    )


def corpus_sources(store: Store) -> dict[str, str]:
    """Records that came from a whole-corpus ingest (the ones --prune may remove): id → origin."""
    rows = store.read(
        "MATCH (s:Source) WHERE s.in_corpus = true RETURN s.id AS id, s.origin AS origin"
    )
    return {r["id"]: r["origin"] or "" for r in rows}


def corpus_source_count(store: Store) -> int:
    """How many records came from a whole-corpus ingest (a count, far cheaper than the ids)."""
    return int(store.read("MATCH (s:Source) WHERE s.in_corpus = true RETURN count(s) AS n")[0]["n"])


def delete_sources(store: Store, ids: list[str]) -> int:
    """Remove records with everything derived from them. One query, as a batch is written:
    cut off midway, a record kept its hash and lost its claims, and counted unchanged once
    its file was back."""
    if not ids:
        return 0
    rows = store.query(
        "UNWIND $ids AS id MATCH (:Source {id: id})-[:ATTESTS]->(c:OwnershipClaim) "
        "DETACH DELETE c WITH count(*) AS _ "
        "UNWIND $ids AS id MATCH (r:Rejection {record: id}) DETACH DELETE r WITH count(*) AS _ "
        "UNWIND $ids AS id MATCH (d:Decision {source: id}) DETACH DELETE d WITH count(*) AS _ "
        + _STALE_WORKED_WITH
        + "WITH count(*) AS _ "
        "UNWIND $ids AS id MATCH (s:Source {id: id}) DETACH DELETE s RETURN count(*) AS n",
        {"ids": ids},
    )
    return int(rows[0]["n"]) if rows else 0


def rejections(store: Store) -> list[dict[str, Any]]:
    return store.read(
        "MATCH (r:Rejection) RETURN r.record AS record, r.check AS check, r.reason AS reason, "
        "r.fact_json AS fact_json ORDER BY r.id"
    )
