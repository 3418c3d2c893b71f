"""The five read-only company question types. Each is a store read plus a policy call and
returns the answer envelope of spec/answers.md (explanations are added by explain.py)."""

from __future__ import annotations

import re
from contextlib import suppress
from dataclasses import dataclass
from typing import Any, TypeVar

from companybrain.ask.catalog import PERSON, PROJECT, TEAM, Catalog, Entity
from companybrain.config import Settings
from companybrain.errors import StoreError
from companybrain.graph.connection import Row, Store
from companybrain.graph.queries import ask_q
from companybrain.model.answer import Answer, Citation, Outranked, RefusalCode
from companybrain.policy import expertise, ownership, search_rank, stopped
from companybrain.policy.access import Viewer, can_see, query_scope, visible
from companybrain.policy.statuses import NEVER_IN_FORCE
from companybrain.policy.text import normalise, quote_in
from companybrain.policy.time import QuestionTime, format_instant

T = TypeVar("T")

SEARCH_HITS = 5
# Matching records the ranking sees (by id, visible ones only); past this, the first by id.
SEARCH_FETCH = 500
SNIPPET_CHARS = 180
MAX_EXPERTS = 5
APPROVAL_NOT_RECORDED = "not recorded"


@dataclass
class AskContext:
    store: Store
    settings: Settings
    catalog: Catalog
    viewer: Viewer
    question: str
    time: QuestionTime

    @property
    def as_of(self) -> str:
        return format_instant(self.time.as_of, self.catalog.timezone)

    def answered(
        self, tool: str, subject: Entity | None, result: dict[str, Any], **kw: Any
    ) -> Answer:
        return Answer(
            question=self.question,
            tool=tool,
            subject=subject.subject() if subject else None,
            as_of=self.as_of,
            status="answered",
            result=result,
            **kw,
        )

    def refused(
        self, tool: str, subject: Entity | None, code: RefusalCode, message: str, **kw: Any
    ) -> Answer:
        return Answer.refused(
            self.question,
            code,
            message,
            tool=tool,
            subject=subject.subject() if subject else None,
            as_of=self.as_of,
            **kw,
        )


# -- owner_of -------------------------------------------------------------------------------


def owner_of(ctx: AskContext, subject: Entity, *, sign_off: bool = False) -> Answer:
    """The owner of a service, or the owners of a project's services, at the question's
    time. Ownership is a review contact: nothing here says that anything is approved."""
    services = subject.extra.get("services", []) if subject.type == PROJECT else [subject.id]
    if subject.type == PROJECT and not services:
        return ctx.refused(
            "owner_of", subject, RefusalCode.NO_CLAIM, f"{subject.name} depends on no service"
        )
    decisions = [service_decision(ctx, sid) for sid in services]
    citations = _dedupe([c for d in decisions for c in _citations(d.cited)])
    outranked = _dedupe([o for d in decisions for o in _outranked(d.outranked)])
    refusal = ownership.first_refusal(decisions)
    if refusal is not None:
        message = refusal.reason
        if subject.type == PROJECT:
            name = _name(ctx.catalog, refusal.service)
            message = f"{subject.name} depends on {name}, whose owner cannot be named: {message}"
        return ctx.refused(
            "owner_of",
            subject,
            refusal.code or RefusalCode.NO_CLAIM,
            message,
            citations=citations,
            outranked=outranked,
        )
    result: dict[str, Any]
    if subject.type == PROJECT:
        result = {
            "owners": [
                {"service": d.service, "owner": {"id": d.owner, "name": d.owner_name}}
                for d in decisions
            ]
        }
    else:
        result = {"owner": {"id": decisions[0].owner, "name": decisions[0].owner_name}}
    if sign_off:
        result["approval"] = APPROVAL_NOT_RECORDED
    return ctx.answered("owner_of", subject, result, citations=citations, outranked=outranked)


def service_decision(ctx: AskContext, service: str) -> ownership.OwnershipDecision:
    rows, capped = ask_q.owner_evidence_found_in_text(
        ctx.store,
        service,
        ctx.settings.row_cap,
        query_scope(ctx.viewer),
        as_of_ms=ctx.time.as_of_ms,
        now_ms=ctx.time.now_ms,
    )
    exact = {(row["claim"], row["record"]) for row in rows if row.get("in_text") is True}
    evidence = [_evidence(row) for row in rows]
    seen = visible(evidence, ctx.viewer, lambda e: e.acl)
    unsure = sorted({e.record for e in seen if e.record and (e.claim, e.record) not in exact})
    texts = ask_q.records_text(ctx.store, unsure) if unsure else {}
    seen = _check_quotes(seen, exact, texts)
    return ownership.decide(
        service,
        seen,
        ctx.time.as_of_ms,
        capped=capped,
        cap=ctx.settings.row_cap,
        now_ms=ctx.time.now_ms,
    )


def _evidence(row: Row) -> ownership.Evidence:
    acl = row.get("acl")
    return ownership.Evidence(
        service=row["service"],
        claim=row.get("claim"),
        record=row.get("record"),
        kind=row.get("kind"),
        authority=row.get("authority"),
        at=row.get("at"),
        at_ms=row.get("at_ms"),
        effective_at=row.get("effective_at"),
        effective_ms=row.get("effective_ms"),
        owner=row.get("owner"),
        owner_name=row.get("owner_name"),
        unlisted_owner=row.get("unlisted_owner"),
        time_unclear=row.get("time_unclear"),
        quote=row.get("quote"),
        acl=tuple(acl) if acl is not None else None,
        replaced_by=tuple(row.get("replaced_by") or ()),
        replaced_by_earlier=tuple(row.get("replaced_by_earlier") or ()),
        replaced_in_turn=tuple(
            (later, tuple(sorted(again))) for later, again in row.get("replaced_in_turn") or ()
        ),
        circles=tuple(tuple(c) for c in row.get("circles") or ()),
    )


def _check_quotes(
    rows: list[ownership.Evidence], exact: set[tuple[str, str]], texts: dict[str, Row]
) -> list[ownership.Evidence]:
    """A quote that is not verbatim in its record is no provenance: the row loses its
    source, so that the policy refuses MISSING_PROVENANCE instead of citing it."""
    return [
        ownership.Evidence(**{**row.__dict__, "record": None, "kind": None})
        if row.record and not _verbatim(row, exact, texts)
        else row
        for row in rows
    ]


# A word character: a quote holding one is not empty once normalised (no need to normalise)
_WORDY = re.compile(r"\w")


def _verbatim(row: ownership.Evidence, exact: set[tuple[str, str]], texts: dict[str, Row]) -> bool:
    """`exact`: (claim, record) pairs whose quote the evidence query found character for
    character in the record; any other quote is checked against `texts` (title and text by
    record id) after normalising case, spaces, quotes and dashes."""
    if not (row.quote and (_WORDY.search(row.quote) or normalise(row.quote))):
        return False  # an empty quote quotes nothing
    if (row.claim or "", row.record or "") in exact:
        return True
    said = texts.get(row.record or "", {})
    return quote_in(row.quote, f"{said.get('title') or ''}\n{said.get('text') or ''}")


def _citations(rows: tuple[ownership.Evidence, ...]) -> list[Citation]:
    return [
        Citation(
            record=r.record,
            kind=r.kind,
            authority=r.authority,
            at=r.at,
            effective_at=None if r.time_unclear else r.effective_at,  # not a time it gives
            quote=r.quote,
        )
        for r in rows
        if r.record
    ]


def _outranked(passed: tuple[ownership.Passed, ...]) -> list[Outranked]:
    return [
        Outranked(
            record=p.evidence.record,
            kind=p.evidence.kind,
            authority=p.evidence.authority,
            owner=p.evidence.owner,
            quote=p.evidence.quote,
            why=p.why,
            replaced_by=p.evidence.replaced_by if ownership.replaced(p.evidence) else (),
        )
        for p in passed
        if p.evidence.record
    ]


# -- who_knows ------------------------------------------------------------------------------


def who_knows(ctx: AskContext, subject: Entity) -> Answer:
    subjects = [subject.id, *subject.extra.get("services", [])]
    rows = [
        r
        for r in ask_q.expertise_paths(ctx.store, subjects, ctx.time.written_by_ms)
        if can_see(r.get("acl"), ctx.viewer) and can_see(r.get("via_acl"), ctx.viewer)
    ]
    paths = [
        expertise.PathRow(
            r["person"], r.get("name"), r["path"], int(r["weight"]), r["record"], r.get("kind")
        )
        for r in rows
    ]
    # Someone who has left the organisation is no one to ask; their work still shows who
    # else took part (the same records' other people).
    here = [p for p in paths if ctx.catalog.get(p.person, PERSON) is not None]
    scored = expertise.score_experts(here)
    gone = sorted({p.name or p.person for p in paths} - {p.name or p.person for p in here})
    if not scored:
        left = f" (only {', '.join(gone)}, who are no longer in the organisation)" if gone else ""
        return ctx.refused(
            "who_knows",
            subject,
            RefusalCode.NO_CLAIM,
            f"no record you may see shows anyone working on {subject.name}{left}",
        )
    tie_break = _worked_with_rank(ctx.store) if expertise.has_ties(scored) else {}
    ranked = expertise.rank_experts(scored, tie_break)
    factor = expertise.bus_factor(ranked)
    top = ranked[:MAX_EXPERTS]
    result: dict[str, Any] = {"experts": [e.to_dict() for e in top], "bus_factor": factor}
    if factor == 1:
        alone = len(ranked) == 1
        # (people who left appear there too: "only" is said of those still here)
        among = " of the people in the organisation" if gone else ""
        result["warning"] = (
            f"bus factor 1: only {top[0].name}{among} appears in the records about {subject.name}"
            if alone
            else f"bus factor 1: {top[0].name} holds more than half of what the records show "
            f"about {subject.name}"
        )
    if gone:  # the work they did is in the records; the answer says whose it was
        result["former"] = gone
    kinds = {r.record: r.kind for r in paths}
    records = _dedupe([rec for e in top for rec in e.records])
    citations = [Citation(record=rec, kind=kinds.get(rec)) for rec in records]
    return ctx.answered("who_knows", subject, result, citations=citations)


def _worked_with_rank(store: Store) -> dict[str, float]:
    """PageRank over who worked with whom on tickets, rebuilt when the tickets changed.
    A read-only connection cannot rebuild them and uses them as they are; with none at
    all, ties fall back to ids, which is still deterministic."""
    with suppress(StoreError):
        ask_q.refresh_worked_with(store)
    try:
        return ask_q.worked_with_rank(store)
    except StoreError:
        return {}


# -- trace_decision -------------------------------------------------------------------------


def trace_decision(ctx: AskContext, subject: Entity) -> Answer:
    links = [(r["newer"], r["older"]) for r in ask_q.supersession_links(ctx.store, subject.id)]
    ids = sorted({subject.id, *(i for link in links for i in link)})
    details = {d["id"]: d for d in ask_q.decision_details(ctx.store, ids)}
    # A decision rejected, withdrawn or only proposed replaces nothing (as in a repository's
    # log, repo/links.py): "supersedes: [ADR-1]" in a proposal does not make it the decision
    # in force, nor ADR-1 replaced.
    links = [(new, old) for new, old in links if not _never_in_force(details.get(new))]
    if subject.id not in details:
        return ctx.refused(
            "trace_decision", subject, RefusalCode.NOT_IN_GRAPH, f"{subject.id} is not a decision"
        )
    # The chain runs through decisions the asker may see only: a link through a hidden
    # one would show that it exists. And through those recorded by the time asked about:
    # "what replaced ADR-004 as of May 1" is not answered with a decision from September.
    # (and never past the clock: a record written after --now counts for no day)
    recorded = {i for i, d in details.items() if _written_by(d, ctx.time.written_by_ms)}
    if subject.id not in recorded:
        return ctx.refused(
            "trace_decision",
            subject,
            RefusalCode.NO_CLAIM,
            f"{subject.id} was not recorded yet on {ctx.as_of}",
        )
    seen = {i for i in recorded if can_see(details[i].get("acl"), ctx.viewer)}
    positions = chain_positions(subject.id, links, seen)

    def stated(did: str) -> list[Citation]:
        d = details[did]
        if not d.get("record"):
            return []
        return [
            Citation(
                record=d["record"],
                kind=d.get("kind"),
                authority=d.get("authority"),
                at=d.get("at"),
                quote=d.get("quote"),
            )
        ]

    if cycle := superseding_cycle(links, set(positions)):
        circle = f"{cycle[0]} supersedes " + ", which supersedes ".join([*cycle[1:], cycle[0]])
        return ctx.refused(
            "trace_decision",
            subject,
            RefusalCode.CONFLICT,
            f"{circle}: the records contradict each other about which decision is newer",
            citations=_dedupe([c for did in cycle for c in stated(did)]),
        )
    # A record that replaces a decision of the chain but states none itself (a change
    # control retiring it, an ADR whose decision no rule could read) still replaced it:
    # left out, the decision it replaced was the newest of its chain, "accepted".
    # (only records stating no decision: a decision, seen or not, is walked above)
    in_turn: list[str] = []  # "CC-9 retires ADR-5, and CC-10 replaces CC-9 in turn"
    for row in ask_q.records_replacing(
        ctx.store, sorted(positions), query_scope(ctx.viewer), ctx.time.written_by_ms
    ):
        if _never_in_force(row):
            continue
        again = sorted(a["id"] for a in row.get("again") or [] if a and not _never_in_force(a))
        if again:
            # it may be withdrawn or restated (as owner_of reads a cancelled cancellation),
            # or it is replaced by the very decision it replaces: the records do not say
            back = row["older"] in again  # replaced by the decision it replaces
            in_turn.append(
                f"{row['older']} supersedes {row['id']}, which supersedes {row['older']}: a circle"
                if back
                else f"{row['id']} replaces {row['older']}, and {' and '.join(again)} "
                f"replace{'s' if len(again) == 1 else ''} {row['id']} in turn, which may "
                "withdraw it or restate it"
            )
        details[row["id"]] = {**row, "quote": None, "motivated_by": []}
        links.append((row["id"], row["older"]))
        positions[row["id"]] = min(
            positions[row["older"]] - 1, positions.get(row["id"], positions[row["older"]])
        )
    # a record cannot replace one not yet written (a typo in an id?), as owner_of reads it
    in_turn += [
        f"{new} says it replaces {old}, written after it (a typo in an id?)"
        for new, old in links
        if new in positions
        and old in positions
        and (details[new].get("at_ms") or 0) < (details[old].get("at_ms") or 0)
    ]
    if in_turn:
        return ctx.refused(
            "trace_decision",
            subject,
            RefusalCode.CONFLICT,
            f"{'; '.join(in_turn)} (front matter `supersedes`): the records contradict each "
            f"other, so whether {subject.id} is still in force cannot be told",
            citations=_dedupe([c for did in sorted(positions) for c in stated(did)]),
        )
    replaced = [details[o] for n, o in links if n == subject.id and o in positions]
    if refusal := _never_stopped(ctx, subject, details[subject.id], positions, replaced):
        return ctx.refused(
            "trace_decision",
            subject,
            RefusalCode.NO_CLAIM,
            refusal,
            citations=stated(subject.id),
        )
    chain = sorted(positions, key=lambda i: (positions[i], -(details[i].get("at_ms") or 0)))
    # A status is the record's as it is now: asked about a day before the decision that
    # superseded it, "superseded" is not what it was then (and what it was is not kept).
    superseded_by_then = {older for newer, older in links if newer in positions}

    def status(did: str) -> str | None:
        now = details[did].get("status")
        if ctx.time.phrase and now == "superseded" and did not in superseded_by_then:
            return None
        return now

    motivated: list[str] = []
    motivated_each: dict[str, list[str]] = {}  # which decision each motivation is for
    citations: list[Citation] = []
    for did in chain:
        d = details[did]
        citations += stated(did)
        for m in d.get("motivated_by") or []:
            # (a record written after the day asked about motivated nothing on that day)
            if m and can_see(m.get("acl"), ctx.viewer) and _written_by(m, ctx.time.written_by_ms):
                motivated_each.setdefault(did, []).append(m["id"])
                if m["id"] not in motivated:
                    motivated.append(m["id"])
                    citations.append(Citation(record=m["id"], kind=m.get("kind")))
    result = {
        "decision": subject.id,
        "chain": chain,
        "motivated_by": motivated,
        "decisions": [
            {
                "id": i,
                "title": details[i].get("title"),
                "status": status(i),
                "motivated_by": motivated_each.get(i, []),
                # what it replaces in the chain: several may replace one decision, or one
                # several, and the chain's order alone does not say which replaced which
                "supersedes": [o for o in chain if (i, o) in set(links)],
            }
            for i in chain
        ],
    }
    return ctx.answered("trace_decision", subject, result, citations=_dedupe(citations))


def _never_stopped(
    ctx: AskContext,
    subject: Entity,
    decision: Row,
    positions: dict[str, int],
    replaced: list[Row],
) -> str | None:
    """Why "why did we stop X?" is not answered by `decision`, else None: nothing newer in
    the chain replaces it, its record does not call it superseded, and it does not stop X
    itself (in its words, or by replacing a decision about X, one of `replaced`), so its
    motivation is why X was started (the chain would be cited as why)."""
    words = stopped.asks_why_stopped(ctx.question)
    status = str(decision.get("status") or "").strip().lower()
    statement = _statement(decision)
    if (
        words is None
        or any(p < 0 for p in positions.values())
        # (a status is the record's as it is now, not as it was on a day asked about)
        or (status in stopped.ENDED_STATUSES and ctx.time.phrase is None)
        or (
            not stopped.asks_why_it_ended(ctx.question)  # (what it ends is not asked)
            and (
                stopped.stops_what_is_asked(ctx.question, statement)
                or any(
                    stopped.asks_about_the_replaced(ctx.question, _statement(old), statement)
                    for old in replaced
                )
            )
        )
    ):
        return None
    said = f", {status}" if status and status not in stopped.ENDED_STATUSES else ""
    return (
        f'the question asks why something was stopped ("{words}"), but no record you may see '
        f"says that {subject.id} ({subject.name}{said}) was stopped or replaced by "
        f"{ctx.as_of}, nor does it stop that itself: its reasons are why it was adopted"
    )


def _statement(decision: Row) -> str:
    return f"{decision.get('title') or ''} {decision.get('quote') or ''}"


def _written_by(record: Row, as_of_ms: int) -> bool:
    return (record.get("at_ms") or 0) <= as_of_ms


def _never_in_force(decision: Row | None) -> bool:
    status = str((decision or {}).get("status") or "")
    return status.strip().lower() in NEVER_IN_FORCE


def chain_positions(
    start: str, links: list[tuple[str, str]], seen: set[str], steps: int = 6
) -> dict[str, int]:
    """How far each decision is from `start` along (newer, older) links, walking through
    `seen` decisions only: negative for newer ones, positive for older ones."""
    positions = {start: 0} if start in seen else {}
    for sign, step in ((-1, lambda x: [n for n, o in links if o == x]),
                       (1, lambda x: [o for n, o in links if n == x])):  # fmt: skip
        frontier = [start] if start in seen else []
        for distance in range(1, steps + 1):
            frontier = [y for x in frontier for y in step(x) if y in seen and y not in positions]
            for y in frontier:
                positions[y] = sign * distance
    return positions


def superseding_cycle(links: list[tuple[str, str]], among: set[str]) -> list[str]:
    """Decisions of `among` that supersede one another round a circle (ADR-1 supersedes
    ADR-2, which supersedes ADR-1), in order; [] when there are none. Their records
    contradict each other about which is newer, so no chain can be told from them. A
    decision that names itself says nothing about order and is passed over."""
    older: dict[str, list[str]] = {}
    for newer, old in links:
        if newer != old and newer in among and old in among:
            older.setdefault(newer, []).append(old)
    done: set[str] = set()
    for root in sorted(older):
        path, todo = [root], [iter(older[root])]
        while todo:
            step = next(todo[-1], None)
            if step is None:
                done.add(path.pop())
                todo.pop()
            elif step in path:
                return path[path.index(step) :]
            elif step not in done:
                path.append(step)
                todo.append(iter(older.get(step, ())))
    return []


# -- person_or_team -------------------------------------------------------------------------


def person_or_team(ctx: AskContext, subject: Entity) -> Answer:
    time = ctx.time
    if time.phrase is not None and time.now_ms is not None and time.as_of_ms < time.now_ms:
        # "Who was on the security team on 2026-01-01?" listed today's members under that day
        return ctx.refused(
            "person_or_team",
            subject,
            RefusalCode.OUT_OF_SCOPE,
            "org.yaml says who is on a team, and who a person is, as it is now; the graph "
            f"keeps no history of it, so it cannot say so for {ctx.as_of}: ask without a date",
        )
    if subject.type == TEAM:
        team = ask_q.team_profile(ctx.store, subject.id)
        if team is None:
            return ctx.refused(
                "person_or_team", subject, RefusalCode.NOT_IN_GRAPH, f"no team {subject.id}"
            )
        lead = {"id": team["lead"], "name": team["lead_name"]} if team.get("lead") else None
        members = [m for m in team.get("members") or [] if m]
        result = {
            "team": {"id": team["id"], "name": team["name"], "lead": lead, "members": members}
        }
        return ctx.answered("person_or_team", subject, result)
    person = ask_q.person_profile(ctx.store, subject.id)
    if person is None:
        return ctx.refused(
            "person_or_team", subject, RefusalCode.NOT_IN_GRAPH, f"no person {subject.id}"
        )
    team_ref = {"id": person["team"], "name": person["team_name"]} if person.get("team") else None
    profile = {
        "id": person["id"],
        "name": person["name"],
        "team": team_ref,
        "email": person.get("email"),
        # each team as {"id", "name"}, as `team` is: "... and leads ops" showed the id
        "leads": sorted((t for t in person.get("leads") or [] if t), key=lambda t: t["id"]),
    }
    return ctx.answered("person_or_team", subject, {"person": profile})


# -- search_records -------------------------------------------------------------------------


_ID_LIKE = re.compile(r"[A-Za-z][\w.]*(?:-[\w.]+)+")  # CC-1047, dir-2026-09, ADR-004


def search_records(ctx: AskContext, query: str, hits_wanted: int = SEARCH_HITS) -> Answer:
    """The best `hits_wanted` records the viewer may see for `query` (the answer lists
    SEARCH_HITS; benchmarks ask for more to score recall at 10)."""
    # -word, "a phrase" and @title:word are honoured; another @field: is not read
    asked = search_rank.read_query(query)
    if asked.unread:
        return ctx.refused(
            "search_records",
            None,
            RefusalCode.OUT_OF_SCOPE,
            f'the search reads -word, "a phrase" and @title:word, not '
            f"{', '.join(dict.fromkeys(asked.unread))} (ask without it)",
        )
    words = asked.words
    # A day the question names ("... on 2026-09-01", "yesterday") is when to search as of,
    # not words to search for: the records written by then.
    day_words = {w.lower() for w in re.findall(r"[^\W_]+", ctx.time.phrase or "")}
    words = [w for w in words if w.lower() not in day_words] or words
    # Without one, the records written by the clock (--now): a record written after it
    # counts for no day, as for the other question types (nor with one: "today").
    as_of_ms = ctx.time.written_by_ms if ctx.time.phrase else ctx.time.now_ms
    hits: list[Row] = []
    scope = query_scope(ctx.viewer)  # hidden records are left out before anything is ranked
    # (lower case: the full-text index folds the case of ASCII letters only, "ZÜRICH")
    lowered = [w.lower() for w in words]
    for text in (" ".join(lowered), " | ".join(lowered)):  # every word first, then any word
        found = (
            ask_q.search_sources(ctx.store, text, SEARCH_FETCH, scope, as_of_ms) if words else []
        )
        found = [h for h in found if can_see(h.get("acl"), ctx.viewer) and _allowed(asked, h)]
        by_id = {h["record"]: h for h in found}
        texts = [(rid, h.get("title") or "", h.get("text") or "") for rid, h in by_id.items()]
        hits = [by_id[rid] for rid in search_rank.rank_titled(texts, words)[:hits_wanted]]
        if hits:
            break
    # A record the query names by its id ("Search for CC-1047") comes first: the full-text
    # index holds titles and texts, and a record seldom names itself.
    ids = _ID_LIKE.findall(ctx.question)
    named = ask_q.sources_named(ctx.store, ids, scope, as_of_ms) if ids else []
    named = [h for h in named if can_see(h.get("acl"), ctx.viewer) and _allowed(asked, h)]
    if named:
        first = {h["record"] for h in named}
        hits = [*named, *(h for h in hits if h["record"] not in first)][:hits_wanted]
    if not hits:
        shown = _searched(asked, words) or f'"{query}"'
        return ctx.refused(
            "search_records",
            None,
            RefusalCode.NO_CLAIM,
            f"no record you may see matches {shown}"
            + (f" by {ctx.as_of}" if ctx.time.phrase else ""),
        )
    results, citations = [], []
    for hit in hits:
        snip = snippet(hit.get("text") or "", words) or (hit.get("title") or "")
        results.append({"record": hit["record"], "title": hit.get("title") or "", "snippet": snip})
        citations.append(Citation(record=hit["record"], kind=hit.get("kind"), quote=snip or None))
    return ctx.answered(
        "search_records", None, {"query": query, "hits": results}, citations=citations
    )


def _allowed(asked: search_rank.Query, hit: Row) -> bool:
    """A hit the query's operators allow ("-LED-52" leaves out LED-52 itself too)."""
    left_out = {w.lower() for w in asked.excluded}
    return str(hit["record"]).lower() not in left_out and search_rank.matches(
        asked, hit.get("title") or "", hit.get("text") or ""
    )


def _searched(asked: search_rank.Query, words: list[str]) -> str:
    """The search as a refusal repeats it: its words, and what its operators asked."""
    if not (asked.phrases or asked.in_title or asked.excluded):
        return f'"{" ".join(words)}"' if words else ""
    return " ".join(
        [
            *(f'"{p}"' for p in asked.phrases),
            *(f"@title:{_quoted(w)}" for w in asked.in_title),
            *(f"-{_quoted(w)}" for w in asked.excluded),
            *(w for w in words if all(w not in x for x in (*asked.phrases, *asked.in_title))),
        ]
    )


def _quoted(words: str) -> str:
    return f'"{words}"' if " " in words.strip() else words


def snippet(text: str, words: list[str], width: int = SNIPPET_CHARS) -> str:
    """A verbatim piece of `text` around the first word it shares with the query, cut at
    word boundaries, white space collapsed (quotes are compared after normalising it)."""
    flat = " ".join(text.split())
    lowered = flat.lower()
    starts = [
        m.start()
        for w in words
        for m in [re.search(rf"\b{re.escape(_stem(w.lower()))}", lowered)]
        if m
    ]
    if not flat:
        return ""
    at = min(starts) if starts else 0
    begin = max(0, at - width // 3)
    end = min(len(flat), begin + width)
    if begin > 0:
        begin = flat.find(" ", begin) + 1 or begin
    if end < len(flat):
        end = flat.rfind(" ", begin, end) if flat.rfind(" ", begin, end) > begin else end
    piece = flat[begin:end].strip()
    return piece if quote_in(piece, text) else ""


def _stem(word: str) -> str:
    for suffix in ("ings", "ing", "es", "s"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            return word[: -len(suffix)]
    return word


# -- helpers --------------------------------------------------------------------------------


def _name(catalog: Catalog, entity_id: str) -> str:
    entity = catalog.get(entity_id)
    return entity.name if entity else entity_id


def _dedupe(items: list[T]) -> list[T]:
    """`items` without repeats, in order (citations are frozen: equal when alike)."""
    return list(dict.fromkeys(items))
