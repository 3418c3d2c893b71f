"""Cypher for answering questions: every query `brain ask` runs, each behind a name. All of
them read, except `derive_worked_with`, which rebuilds a derived who-worked-with-whom graph
for the PageRank tie-break when the tickets it comes from have changed."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from companybrain.graph.queries.records_q import UNREAD_KEY
from companybrain.policy.expertise import worked_with_pairs

if TYPE_CHECKING:
    from companybrain.graph.connection import Row, Store

# "wrote a doc about it": records a person writes as documentation, not conversation.
DOC_KINDS = ("adr", "runbook", "wiki", "service_directory", "change_control")
EXPERT_WEIGHTS = {"resolved_ticket": 6, "wrote_doc": 4, "commented_ticket": 2, "chat": 1}
# The query parameters of an unrestricted asker (see policy.access.query_scope).
EVERYONE: dict[str, Any] = {"everyone": True, "groups": []}


# -- what the graph knows ------------------------------------------------------------------


def org_meta(store: Store) -> Row | None:
    """The company's name and time zone, and the records whose file failed to read on a
    later run (`unread`, JSON; see ingest/unread.py)."""
    rows = store.read(
        "MATCH (m:Meta {key: 'org'}) OPTIONAL MATCH (u:Meta {key: $unread}) "
        "RETURN m.company AS company, m.timezone AS timezone, u.records AS unread",
        {"unread": UNREAD_KEY},
    )
    return rows[0] if rows else None


def services(store: Store) -> list[Row]:
    return store.read(
        "MATCH (s:Service) RETURN s.id AS id, s.name AS name, s.aliases AS aliases ORDER BY s.id"
    )


def projects(store: Store) -> list[Row]:
    return store.read(
        "MATCH (p:Project) OPTIONAL MATCH (p)-[:DEPENDS_ON]->(s:Service) "
        "WITH p, s ORDER BY s.id "
        "RETURN p.id AS id, p.name AS name, p.aliases AS aliases, collect(s.id) AS services "
        "ORDER BY p.id"
    )


def people(store: Store) -> list[Row]:
    """People of the organisation (not authors known only from git history)."""
    return store.read(
        "MATCH (p:Person) WHERE p.org = true "
        "RETURN p.id AS id, p.name AS name, p.aliases AS aliases, p.team AS team, "
        "p.groups AS groups ORDER BY p.id"
    )


def teams(store: Store) -> list[Row]:
    return store.read(
        "MATCH (t:Team) OPTIONAL MATCH (t)-[:LED_BY]->(l:Person) "
        "RETURN t.id AS id, t.name AS name, t.aliases AS aliases, l.id AS lead ORDER BY t.id"
    )


def decisions(store: Store) -> list[Row]:
    return store.read(
        "MATCH (d:Decision) OPTIONAL MATCH (d)-[:STATED_IN]->(s:Source) "
        "RETURN d.id AS id, d.title AS title, d.quote AS quote, d.status AS status, "
        "d.at_ms AS at_ms, s.id AS record, s.acl AS acl ORDER BY d.id"
    )


def person_groups(store: Store, person: str) -> list[str] | None:
    """The access groups of a person (None when there is no such person)."""
    rows = store.read(
        "MATCH (p:Person {id: $id}) OPTIONAL MATCH (p)-[:IN_GROUP]->(g:Group) "
        "RETURN p.groups AS groups, collect(g.id) AS linked",
        {"id": person},
    )
    if not rows:
        return None
    return sorted({*(rows[0]["groups"] or []), *(rows[0]["linked"] or [])})


def has_repository_data(store: Store) -> bool:
    return bool(store.read("MATCH (c:Commit) RETURN c.id AS id LIMIT 1"))


def service_by_id(store: Store, service: str) -> Row | None:
    """A plain indexed lookup: the baseline the owner_of benchmark compares against."""
    rows = store.read(
        "MATCH (s:Service {id: $id}) RETURN s.id AS id, s.name AS name", {"id": service}
    )
    return rows[0] if rows else None


# -- owner_of ------------------------------------------------------------------------------


# Every ownership claim about a service, with its source and owner; the two functions below
# end the RETURN clause (one with the records' texts as well) and add the order and cap.
_EVIDENCE = (
    "MATCH (svc:Service {id: $service}) "
    "OPTIONAL MATCH (claim:OwnershipClaim)-[:ABOUT]->(svc) "
    "OPTIONAL MATCH (src:Source)-[att:ATTESTS]->(claim) "
    "OPTIONAL MATCH (claim)-[:NAMES_OWNER]->(owner:Person) "
    "WITH svc, claim, src, att, owner "
    "WHERE ($everyone OR src IS NULL OR src.acl IS NULL OR any(g IN src.acl WHERE g IN $groups)) "
    # a claim taking effect after the time asked about, or from a record written after the
    # clock, says nothing then (policy rule 1): left out before the cap counts the rows
    "AND ($as_of IS NULL OR claim IS NULL OR claim.effective_ms IS NULL "
    "OR claim.effective_ms <= $as_of) "
    "AND ($now IS NULL OR src IS NULL OR src.at_ms IS NULL OR src.at_ms <= $now) "
    "RETURN claim.id AS claim, claim.effective_at AS effective_at, "
    "claim.effective_ms AS effective_ms, src.id AS record, src.kind AS kind, "
    "src.authority AS authority, src.at AS at, src.at_ms AS at_ms, src.acl AS acl, "
    "att.quote AS quote, owner.id AS owner, owner.name AS owner_name, "
    # whether a record replaces the claim's record (set by records_q.relink): which ones,
    # the asker may see and the clock has written, is read after, for those rows only (a
    # pattern here cost every question 40% of this query)
    "claim.unlisted_owner AS unlisted_owner, claim.time_unclear AS time_unclear, "
    "src.replaced AS replaced "
)
_EVIDENCE_ORDER = "ORDER BY claim.effective_ms, src.id LIMIT $limit"


def owner_evidence(
    store: Store,
    service: str,
    cap: int,
    scope: dict[str, Any] | None = None,
    *,
    as_of_ms: int | None = None,
    now_ms: int | None = None,
) -> tuple[list[Row], bool]:
    """Every ownership claim about `service` with its source, quote and owner, and whether
    the row cap was hit. OPTIONAL MATCH keeps a claim whose source (or owner) is missing as
    a row with nulls, so that the policy sees the gap instead of picking from what is left.
    The query asks for one row more than the cap to know whether the cap was reached.
    `scope` (policy.access.query_scope; None: everyone) leaves out claims from records the
    asker may not see before the cap counts them, so a hidden claim never causes ROW_CAP.
    `as_of_ms` and `now_ms` (None: every claim) leave out claims not yet in effect then and
    claims from records written after the clock, as the policy would: a day long past is
    not refused ROW_CAP for the claims made since."""
    params = _evidence_params(service, cap, scope, as_of_ms, now_ms)
    rows = store.read(_EVIDENCE + _EVIDENCE_ORDER, params)
    return _with_replacements(store, rows[:cap], params), len(rows) > cap


def owner_evidence_found_in_text(
    store: Store,
    service: str,
    cap: int,
    scope: dict[str, Any] | None = None,
    *,
    as_of_ms: int | None = None,
    now_ms: int | None = None,
) -> tuple[list[Row], bool]:
    """owner_evidence with `in_text`: true when the quote occurs exactly, character for
    character, in its record's text or title. Only a quote that does not (one that may
    match after normalising case, spaces, quotes and dashes, or not at all) needs its
    record's text read (records_text) and checked by owner_of: a directory of hundreds of
    rows is not sent once per claim it makes."""
    params = _evidence_params(service, cap, scope, as_of_ms, now_ms)
    rows = store.read(
        _EVIDENCE
        + ", (src.text CONTAINS att.quote OR src.title CONTAINS att.quote) AS in_text "
        + _EVIDENCE_ORDER,
        params,
    )
    return _with_replacements(store, rows[:cap], params), len(rows) > cap


def _evidence_params(
    service: str, cap: int, scope: dict[str, Any] | None, as_of_ms: int | None, now_ms: int | None
) -> dict[str, Any]:
    # one row more than the cap, to know whether it was reached
    return {"service": service, "limit": cap + 1, **(scope or EVERYONE), **_when(as_of_ms, now_ms)}


def _with_replacements(store: Store, rows: list[Row], params: dict[str, Any]) -> list[Row]:
    """Each row with its `service`, `replaced_by`: the records the asker may see that
    replace its record (front matter `supersedes`), written by the clock, of no less
    authority (a chat saying it replaces a change control does not make it say nothing:
    a record cannot raise its own authority), `replaced_by_earlier`: those of them written
    before it (a record cannot replace one not yet written: a typo in an id, or a record
    edited since?), `replaced_in_turn`: for each of those
    replaced by such records in turn, [its id, [theirs]], and `circles`:
    the records of each circle of such records replacing one another back to its record
    (sorted ids, the record's own among them). Asked only when a row's record is replaced
    by some record at all, which few are."""
    replaced = sorted({r["record"] for r in rows if r.pop("replaced", None)})
    by: dict[str, list[str]] = {}
    earlier: dict[str, list[str]] = {}
    in_turn: dict[str, list[list[Any]]] = {}
    circles: dict[str, list[tuple[str, ...]]] = {}
    if replaced:  # (rows are changed in place: this runs for every owner_of)
        found = store.read(
            # from the replaced record's index (filters on `later` in the MATCH made the
            # planner scan every Source for it)
            "UNWIND $ids AS id MATCH (src:Source {id: id})<-[:SUPERSEDES]-(later) "
            "WITH src, later WHERE ($everyone OR later.acl IS NULL OR any(g IN later.acl WHERE g IN $groups)) "
            "AND ($now IS NULL OR later.at_ms <= $now) AND later.authority >= src.authority "
            # ... and, for those marked replaced themselves, which records replace them in
            # turn (CC-3 withdrawing or correcting CC-2, which cancels CC-1): one hop more
            "OPTIONAL MATCH (later)<-[:SUPERSEDES]-(again) WHERE later.replaced = true "
            "AND ($everyone OR again.acl IS NULL OR any(g IN again.acl WHERE g IN $groups)) "
            "AND ($now IS NULL OR again.at_ms <= $now) AND again.authority >= later.authority "
            "WITH src, later, collect(again.id) AS again "
            # (a record saying it replaces one written after it: policy/ownership.py)
            "WITH src, collect(later.id) AS later, "
            "collect(CASE WHEN later.at_ms < src.at_ms THEN later.id END) AS earlier, "
            "collect(CASE WHEN size(again) > 0 THEN [later.id, again] END) AS in_turn "
            # ... and the circles back to it, through records seen and written by the clock
            # (of one authority: round a circle, none is below the one it replaces)
            "OPTIONAL MATCH p = (src)<-[:SUPERSEDES*1..6]-(src) "
            "WHERE all(n IN nodes(p) WHERE ($everyone OR n.acl IS NULL OR any(g IN n.acl WHERE g IN $groups)) "
            "AND ($now IS NULL OR n.at_ms <= $now) AND n.authority = src.authority) "
            # (which way round: startNode and endNode of a path's links are not to be
            # trusted here, FalkorDB 4.16 gives them reversed in some plans)
            "RETURN src.id AS record, later, earlier, in_turn, "
            "collect([n IN nodes(p) | n.id]) AS circles",
            {"ids": replaced, "everyone": params["everyone"], "groups": params["groups"],
             "now": params["now"]},
        )  # fmt: skip
        by = {row["record"]: row["later"] for row in found}
        earlier = {row["record"]: row["earlier"] for row in found}
        in_turn = {row["record"]: row["in_turn"] for row in found}
        circles = {
            row["record"]: sorted({tuple(sorted(set(c))) for c in row["circles"]}) for row in found
        }
    for r in rows:
        r["replaced_by"] = by.get(r["record"], [])
        r["replaced_by_earlier"] = earlier.get(r["record"], [])
        r["replaced_in_turn"] = in_turn.get(r["record"], [])
        r["circles"] = circles.get(r["record"], [])
        r["service"] = params["service"]  # (a column of one value cost the query 3%)
    return rows


def _when(as_of_ms: int | None, now_ms: int | None) -> dict[str, int | None]:
    return {"as_of": as_of_ms, "now": now_ms}


# -- who_knows -----------------------------------------------------------------------------


def expertise_paths(store: Store, subjects: list[str], as_of_ms: int) -> list[Row]:
    """One row per (person, path, record): resolved a ticket about it, wrote a doc about it,
    commented on a ticket about it, chatted about it. Four weighted paths, UNION ALL."""
    return store.read(
        "CALL { "
        "MATCH (p:Person)-[:RESOLVED]->(t:Source {kind: 'ticket'})-[:MENTIONS]->(x) "
        "WHERE x.id IN $subjects AND t.at_ms <= $as_of WITH DISTINCT p, t "
        "RETURN p.id AS person, p.name AS name, 'resolved_ticket' AS path, $w_resolved AS weight, "
        "t.id AS record, t.kind AS kind, t.acl AS acl, null AS via_acl "
        "UNION ALL "
        "MATCH (p:Person)-[:AUTHORED]->(d:Source)-[:MENTIONS]->(x) "
        "WHERE x.id IN $subjects AND d.kind IN $doc_kinds AND d.at_ms <= $as_of "
        "WITH DISTINCT p, d "
        "RETURN p.id AS person, p.name AS name, 'wrote_doc' AS path, $w_doc AS weight, "
        "d.id AS record, d.kind AS kind, d.acl AS acl, null AS via_acl "
        "UNION ALL "
        "MATCH (p:Person)-[:AUTHORED]->(c:Source {kind: 'comment'})-[:COMMENT_ON]->"
        "(t:Source {kind: 'ticket'})-[:MENTIONS]->(x) "
        "WHERE x.id IN $subjects AND c.at_ms <= $as_of WITH DISTINCT p, c, t "
        "RETURN p.id AS person, p.name AS name, 'commented_ticket' AS path, "
        "$w_comment AS weight, c.id AS record, c.kind AS kind, c.acl AS acl, t.acl AS via_acl "
        "UNION ALL "
        "MATCH (p:Person)-[:AUTHORED]->(m:Source {kind: 'chat'})-[:MENTIONS]->(x) "
        "WHERE x.id IN $subjects AND m.at_ms <= $as_of WITH DISTINCT p, m "
        "RETURN p.id AS person, p.name AS name, 'chat' AS path, $w_chat AS weight, "
        "m.id AS record, m.kind AS kind, m.acl AS acl, null AS via_acl "
        "} "
        "RETURN person, name, path, weight, record, kind, acl, via_acl "
        "ORDER BY person, path, record",
        {
            "subjects": subjects,
            "as_of": as_of_ms,
            "doc_kinds": list(DOC_KINDS),
            "w_resolved": EXPERT_WEIGHTS["resolved_ticket"],
            "w_doc": EXPERT_WEIGHTS["wrote_doc"],
            "w_comment": EXPERT_WEIGHTS["commented_ticket"],
            "w_chat": EXPERT_WEIGHTS["chat"],
        },
    )


def worked_with_fingerprint(store: Store) -> list[int]:
    """Counts that change whenever who took part in which ticket changes."""
    rows = store.read(
        "OPTIONAL MATCH (t:Source {kind: 'ticket'}) WITH count(t) AS tickets "
        "OPTIONAL MATCH (:Person)-[r:AUTHORED|RESOLVED]->(:Source {kind: 'ticket'}) "
        "WITH tickets, count(r) AS on_tickets "
        "OPTIONAL MATCH (:Person)-[a:AUTHORED]->(:Source {kind: 'comment'})-[:COMMENT_ON]->"
        "(:Source {kind: 'ticket'}) "
        "RETURN tickets, on_tickets, count(a) AS comments"
    )
    row = rows[0] if rows else {}
    return [int(row.get(k) or 0) for k in ("tickets", "on_tickets", "comments")]


def worked_with_stamp(store: Store) -> list[int] | None:
    rows = store.read("MATCH (m:Meta {key: 'worked_with'}) RETURN m.fingerprint AS fingerprint")
    return list(rows[0]["fingerprint"]) if rows and rows[0]["fingerprint"] is not None else None


def ticket_participants(store: Store) -> list[Row]:
    """(ticket, person) for everyone who wrote, resolved or commented on a ticket. Only
    records everyone may see count, so a ranking built from them leaks nothing."""
    return store.read(
        "MATCH (p:Person)-[:AUTHORED|RESOLVED]->(t:Source {kind: 'ticket'}) "
        "WHERE t.acl IS NULL "
        "RETURN t.id AS ticket, p.id AS person "
        "UNION "
        "MATCH (p:Person)-[:AUTHORED]->(c:Source {kind: 'comment'})-[:COMMENT_ON]->"
        "(t:Source {kind: 'ticket'}) WHERE t.acl IS NULL AND c.acl IS NULL "
        "RETURN t.id AS ticket, p.id AS person"
    )


def derive_worked_with(store: Store, pairs: list[list[str]], fingerprint: list[int]) -> None:
    """Replace the derived (:Person)-[:WORKED_WITH]->(:Person) edges with `pairs` (distinct:
    CREATE, in the same query as the delete, so no edge is made twice)."""
    store.query(
        "MATCH (:Person)-[r:WORKED_WITH]->(:Person) DELETE r WITH count(*) AS _ "
        "UNWIND $pairs AS pair MATCH (a:Person {id: pair[0]}), (b:Person {id: pair[1]}) "
        "CREATE (a)-[:WORKED_WITH]->(b)",
        {"pairs": pairs},
    )
    store.query(
        "MERGE (m:Meta {key: 'worked_with'}) SET m.fingerprint = $fingerprint",
        {"fingerprint": fingerprint},
    )


def refresh_worked_with(store: Store) -> bool:
    """Rebuild the WORKED_WITH edges when the tickets they come from changed (a write; the
    ingestion can call it at its end so that read-only connections find them ready).
    Returns whether it rebuilt them."""
    fingerprint = worked_with_fingerprint(store)
    if worked_with_stamp(store) == fingerprint:
        return False
    participants = [(r["ticket"], r["person"]) for r in ticket_participants(store)]
    pairs = [list(pair) for pair in worked_with_pairs(participants)]
    derive_worked_with(store, pairs, fingerprint)
    return True


def worked_with_rank(store: Store) -> dict[str, float]:
    """PageRank of every person over the WORKED_WITH graph."""
    rows = store.read(
        "CALL algo.pageRank('Person', 'WORKED_WITH') YIELD node, score RETURN node.id AS id, score"
    )
    return {row["id"]: float(row["score"]) for row in rows}


# -- trace_decision ------------------------------------------------------------------------


def supersession_links(store: Store, decision: str, steps: int = 6) -> list[Row]:
    """Every SUPERSEDES link (newer → older) within `steps` links of the decision, either
    way, so that the caller can walk the chain through decisions the asker may see only."""
    return store.read(
        "MATCH (d:Decision {id: $id}) "
        "OPTIONAL MATCH p = (d)-[:SUPERSEDES*1..6]-(:Decision) "
        "UNWIND CASE WHEN p IS NULL THEN [null] ELSE relationships(p) END AS r "
        "WITH DISTINCT r WHERE r IS NOT NULL "
        "RETURN startNode(r).id AS newer, endNode(r).id AS older ORDER BY newer, older",
        {"id": decision},
    )


def decision_details(store: Store, ids: list[str]) -> list[Row]:
    """Title, status, the record and quote that state it, and what motivated it."""
    return store.read(
        "UNWIND $ids AS id MATCH (d:Decision {id: id}) "
        "OPTIONAL MATCH (d)-[st:STATED_IN]->(s:Source) "
        "OPTIONAL MATCH (d)-[:MOTIVATED_BY]->(m:Source) "
        "WITH d, st, s, m ORDER BY m.id "
        "RETURN d.id AS id, d.title AS title, d.status AS status, d.at_ms AS at_ms, "
        "st.quote AS quote, s.id AS record, s.kind AS kind, s.authority AS authority, "
        "s.at AS at, s.acl AS acl, "
        "collect(CASE WHEN m IS NULL THEN null ELSE {id: m.id, title: m.title, kind: m.kind, "
        "acl: m.acl, at_ms: m.at_ms} END) AS motivated_by",
        {"ids": ids},
    )


def records_replacing(
    store: Store, ids: list[str], scope: dict[str, Any] | None, as_of_ms: int
) -> list[Row]:
    """Records that replace the records of these decisions (front matter `supersedes`)
    without stating a decision themselves (a change control retiring an ADR, an ADR whose
    decision no rule could read): only those `scope` may see, written by `as_of_ms`, of no
    less authority than the record they replace (a chat cannot retire an ADR), each with
    `again`: the records ({id, status}) replacing it in turn on the same terms."""
    return store.read(
        # WITH: in one pattern the planner scanned every Source for `s` (the filters on it)
        "UNWIND $ids AS id MATCH (old:Source {id: id}) WITH old "
        "MATCH (old)<-[:SUPERSEDES]-(s:Source) "
        "WHERE ($everyone OR s.acl IS NULL OR any(g IN s.acl WHERE g IN $groups)) "
        "AND s.at_ms <= $as_of AND s.authority >= old.authority "
        "AND NOT (s)<-[:STATED_IN]-(:Decision) "
        # ... and the records replacing each of them in turn, on the same terms
        "OPTIONAL MATCH (s)<-[:SUPERSEDES]-(again:Source) "
        "WHERE ($everyone OR again.acl IS NULL OR any(g IN again.acl WHERE g IN $groups)) "
        "AND again.at_ms <= $as_of AND again.authority >= s.authority "
        "RETURN s.id AS id, old.id AS older, s.title AS title, s.status AS status, "
        "s.at_ms AS at_ms, s.id AS record, s.kind AS kind, s.authority AS authority, "
        "s.at AS at, s.acl AS acl, "
        "collect(CASE WHEN again IS NULL THEN null ELSE {id: again.id, status: again.status} "
        "END) AS again ORDER BY id, older",
        {"ids": ids, "as_of": as_of_ms, **(scope or EVERYONE)},
    )


# -- person_or_team ------------------------------------------------------------------------


def person_profile(store: Store, person: str) -> Row | None:
    rows = store.read(
        "MATCH (p:Person {id: $id}) "
        "OPTIONAL MATCH (p)-[:MEMBER_OF]->(t:Team) "
        "OPTIONAL MATCH (led:Team)-[:LED_BY]->(p) "
        "RETURN p.id AS id, p.name AS name, p.email AS email, p.aliases AS aliases, "
        "t.id AS team, t.name AS team_name, "
        "collect(DISTINCT CASE WHEN led IS NULL THEN null ELSE {id: led.id, name: led.name} END) "
        "AS leads",
        {"id": person},
    )
    return rows[0] if rows else None


def team_profile(store: Store, team: str) -> Row | None:
    rows = store.read(
        "MATCH (t:Team {id: $id}) "
        "OPTIONAL MATCH (t)-[:LED_BY]->(l:Person) "
        "OPTIONAL MATCH (m:Person)-[:MEMBER_OF]->(t) "
        "WITH t, l, m ORDER BY m.id "
        "RETURN t.id AS id, t.name AS name, l.id AS lead, l.name AS lead_name, "
        "collect(CASE WHEN m IS NULL THEN null ELSE {id: m.id, name: m.name} END) AS members",
        {"id": team},
    )
    return rows[0] if rows else None


# -- search_records ------------------------------------------------------------------------


def search_sources(
    store: Store,
    query: str,
    limit: int,
    scope: dict[str, Any] | None = None,
    as_of_ms: int | None = None,
) -> list[Row]:
    """Records whose title or text match the full-text query, only those `scope` may see
    (policy.access.query_scope; None: everyone) and, given `as_of_ms`, written by then, at
    most `limit`. The index's score weighs words by every record in the index, hidden ones
    too: it picks the `limit` only for a viewer who may see everything; anyone else gets
    them by id, and the caller ranks the hits from their own text either way."""
    return store.read(
        "CALL db.idx.fulltext.queryNodes('Source', $q) YIELD node, score "
        "WITH node, score "
        "WHERE ($everyone OR node.acl IS NULL OR any(g IN node.acl WHERE g IN $groups)) "
        "AND ($as_of IS NULL OR node.at_ms <= $as_of) "
        "RETURN node.id AS record, node.title AS title, node.text AS text, node.kind AS kind, "
        "node.acl AS acl ORDER BY CASE WHEN $everyone THEN -score ELSE 0 END, record "
        "LIMIT $limit",
        {"q": query, "limit": limit, "as_of": as_of_ms, **(scope or EVERYONE)},
    )


def sources_named(
    store: Store, ids: list[str], scope: dict[str, Any] | None = None, as_of_ms: int | None = None
) -> list[Row]:
    """The records with these ids, as search_sources returns them, only those `scope` may
    see and, given `as_of_ms`, written by then (a search naming a record by its id)."""
    return store.read(
        "UNWIND $ids AS id MATCH (node:Source {id: id}) "
        "WHERE ($everyone OR node.acl IS NULL OR any(g IN node.acl WHERE g IN $groups)) "
        "AND ($as_of IS NULL OR node.at_ms <= $as_of) "
        "RETURN node.id AS record, node.title AS title, node.text AS text, node.kind AS kind, "
        "node.acl AS acl",
        {"ids": ids, "as_of": as_of_ms, **(scope or EVERYONE)},
    )


def records_text(store: Store, ids: list[str]) -> dict[str, Any]:
    """Title and text of records, to check quotes against what the record says."""
    rows = store.read(
        "UNWIND $ids AS id MATCH (s:Source {id: id}) "
        "RETURN s.id AS id, s.title AS title, s.text AS text",
        {"ids": ids},
    )
    return {row["id"]: row for row in rows}
