"""Who owns a service at a time, decided from evidence rows by fixed rules.

Ownership is a claim made by a source, never a property of the service. The rules, each a
small function that returns its reason (None when it does not apply):

1. a claim that takes effect after the question's time is ignored, and so is one from a
   record written after the clock the question is read against (`--now`); a claim whose
   record another record replaces (front matter `supersedes`: a change control cancelling
   or correcting an earlier one) counts for no day, shown as outranked by that record;
   but records that replace one another round a circle contradict each other about which
   is newer: none of them is set aside by another, and one that would decide refuses
   CONFLICT naming the circle; nor is a claim set aside only by records replaced in turn
   (CC-3 replacing CC-2, which cancels CC-1: CC-3 may withdraw CC-2 or correct it), and
   one that would decide refuses CONFLICT naming the chain; nor by a record written
   before it (CC-1 saying it replaces CC-2, written later: a typo in an id, or CC-1 edited
   since?), refusing CONFLICT the same way;
2. a claim lacking its source, owner, authority or time refuses MISSING_PROVENANCE;
3. the highest authority wins, then the latest effective instant (instants, not text): for
   a claim taking effect before its record was written, as late as the record was written
   (up to the time asked about), since its record still states that owner then;
4. a winning claim whose owner org.yaml does not list (a name only) refuses
   MISSING_PROVENANCE: the owner cannot be named as a person, and the one before is not
   the owner any more; a winning claim that the service has no owner (a vacant directory
   row) refuses NO_CLAIM;
5. two different owners at the same authority and instant refuse CONFLICT;
6. when only sources below authority 60 name an owner, refuse LOW_AUTHORITY;
7. an evidence query that hit its row cap refuses ROW_CAP: a conflicting claim may be
   among the rows it cut off;
8. a claim whose time cannot be read ("Effective next month, ... transfers to Cora", no
   `effective_at`: kept without its owner) counts from when its record was written: where
   it has at least the authority of the claim that would decide, refuse MISSING_PROVENANCE
   naming it, its quote and why, never its owner (the owner before it may not be the owner
   any more). At the same authority it yields only to a record written after it that takes
   effect after it was written: the newer word; or, when it stands for the days before its
   record was written ("Bo took over last week"), to that record's own claim from then.

`decide` combines them into one decision: the claims an answer rests on (or the claims a
refusal is about), the others marked outranked with why, and the reason in words."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from companybrain.model.answer import RefusalCode
from companybrain.policy.unknown_owner import VACANT

MIN_AUTHORITY = 60  # ticket; comment, email, chat and wiki sit below it
# How the why of a claim passed over starts when its time cannot be read (it names no owner
# to show: explanations say so instead).
UNREADABLE = "its time cannot be read"


@dataclass(frozen=True)
class Evidence:
    """One ownership claim as the evidence query returns it. Any field but `service` may be
    missing: that is exactly what rule 2 looks for."""

    service: str
    claim: str | None = None
    record: str | None = None
    kind: str | None = None
    authority: int | None = None
    at: str | None = None
    at_ms: int | None = None
    effective_at: str | None = None
    effective_ms: int | None = None
    owner: str | None = None
    owner_name: str | None = None
    unlisted_owner: str | None = None  # the owner's name, when org.yaml does not list them
    time_unclear: str | None = None  # why when it takes effect cannot be read (no owner kept)
    quote: str | None = None
    acl: tuple[str, ...] | None = None
    replaced_by: tuple[str, ...] = ()  # records (seen, written by the clock) replacing it
    replaced_by_earlier: tuple[str, ...] = ()  # those of them written before it
    # those of them replaced in turn by such records, each with the records replacing it
    replaced_in_turn: tuple[tuple[str, tuple[str, ...]], ...] = ()
    # circles of such records replacing one another back to this one: the ids of each
    circles: tuple[tuple[str, ...], ...] = ()

    def label(self) -> str:
        return self.record or f"claim {self.claim or '?'}"


@dataclass(frozen=True)
class Passed:
    """A claim that did not decide the answer, and why."""

    evidence: Evidence
    why: str


@dataclass(frozen=True)
class OwnershipDecision:
    service: str
    code: RefusalCode | None  # None: answered
    reason: str
    cited: tuple[Evidence, ...] = ()  # what the answer rests on, or what a refusal is about
    outranked: tuple[Passed, ...] = ()
    ignored: tuple[Passed, ...] = field(default=(), repr=False)  # not yet in effect or written

    @property
    def answered(self) -> bool:
        return self.code is None

    @property
    def owner(self) -> str | None:
        return self.cited[0].owner if self.answered and self.cited else None

    @property
    def owner_name(self) -> str | None:
        return self.cited[0].owner_name if self.answered and self.cited else None


# -- the rules, one reason each ------------------------------------------------------------


def hit_row_cap(capped: bool, cap: int) -> str | None:
    if capped:
        return (
            f"the evidence query reached its cap of {cap} rows, so a conflicting claim may "
            "be among those it did not return"
        )
    return None


def not_yet_in_effect(row: Evidence, as_of_ms: int, now_ms: int | None = None) -> str | None:
    """`now_ms`: the clock. A record written after it (a retroactive change control read
    with an earlier --now) was not there to say anything then."""
    if now_ms is not None and row.at_ms is not None and row.at_ms > now_ms:
        return f"written later ({row.at})"
    if row.effective_ms is not None and row.effective_ms > as_of_ms:
        return f"takes effect later ({row.effective_at})"
    return None


def replaced(row: Evidence) -> str | None:
    if not row.replaced_by or not _standing_replacements(row):
        return None
    return f"replaced by {' and '.join(sorted(row.replaced_by))}"


def in_circle(tier: Sequence[Evidence]) -> str | None:
    """Deciding claims whose records replace one another round a circle: whichever of
    them is newest replaces the others, and the records do not say which that is."""
    circles = sorted({tuple(sorted(c)) for r in tier for c in r.circles})
    if not circles:
        return None
    told = "; ".join(f"{', '.join(c[:-1])} and {c[-1]}" for c in circles)
    return (
        f"{told} replace one another (front matter `supersedes`) round a circle: the "
        "records contradict each other about which is newer, so which of them still "
        "counts cannot be told"
    )


def replaced_in_turn(tier: Sequence[Evidence]) -> str | None:
    """Deciding claims set aside only by records that others replace in turn: CC-3
    replacing CC-2, which cancels CC-1, may withdraw the cancellation or correct it (a
    change control cancelling or correcting an earlier one), and the records do not say
    which; or by records written before them, which cannot have replaced what was not yet
    written (a typo in an id, or a record edited since?)."""
    chained = [r for r in tier if _unsettled(r)]
    if not chained:
        return None
    again = [
        f"{r.label()} is replaced by {later}, which {' and '.join(again)} "
        f"replace{'s' if len(again) == 1 else ''} in turn"
        for r in chained
        for later, again in r.replaced_in_turn
        if later in _replaced_outside_circles(r)
    ]
    earlier = [
        f"{before} says it replaces {r.label()}, written after it"
        for r in chained
        for before in sorted(set(r.replaced_by_earlier) & _replaced_outside_circles(r))
    ]
    records = " and ".join(sorted({r.label() for r in chained}))
    why = "; ".join(
        [
            *([f"{'; '.join(again)}: a record that replaces another may withdraw it or correct it"]
              if again else []),
            *([f"{'; '.join(earlier)}: a record cannot replace one not yet written (a typo in "
               "an id, or a record edited since?)"] if earlier else []),
        ]
    )  # fmt: skip
    return f"{why} (front matter `supersedes`), so whether {records} still counts cannot be told"


def missing_provenance(row: Evidence) -> str | None:
    missing = [
        name
        for name, value in (
            ("source", row.record),
            # (a claim whose time cannot be read is kept without its owner)
            ("owner", row.owner or row.unlisted_owner or row.time_unclear),
            ("authority", row.authority),
            ("time", row.effective_ms),
        )
        if value is None
    ]
    if not missing:
        return None
    return f"{row.label()} has no {' or '.join(missing)}"


def below_authority(rows: Sequence[Evidence], minimum: int = MIN_AUTHORITY) -> str | None:
    top = max(_authority(r) for r in rows)
    if top >= minimum:
        return None
    kinds = ", ".join(sorted({f"{r.kind} ({r.authority})" for r in rows}))
    return f"only sources below authority {minimum} name an owner: {kinds}"


def unlisted(tier: Sequence[Evidence]) -> str | None:
    named = [r for r in tier if r.unlisted_owner not in (None, VACANT) and not r.owner]
    if not named:
        return None
    return "; ".join(
        f"{r.label()} names {r.unlisted_owner} as the owner, a name org.yaml does not give "
        "to one person: list them (or make the name theirs alone) and ingest again"
        for r in named
    )


def vacant(tier: Sequence[Evidence]) -> str | None:
    if not tier or any(r.unlisted_owner != VACANT for r in tier):
        return None
    labels = sorted({r.label() for r in tier})
    verb = "lists" if len(labels) == 1 else "list"
    return f"{' and '.join(labels)} {verb} no owner from {tier[0].effective_at}"


def conflict(tier: Sequence[Evidence]) -> str | None:
    owners = sorted({r.owner_name or r.owner or "no one" for r in tier})
    if len(owners) < 2:
        return None
    records = " and ".join(sorted({r.label() for r in tier}))
    return (
        f"{records} name different owners ({', '.join(owners)}) with the same authority "
        f"({tier[0].authority}) from the same instant"
    )


def unreadable_time(deciding: Sequence[Evidence]) -> str | None:
    """Why claims whose time cannot be read, in effect where they would decide, leave the
    owner unknown. Their owner is not named, nor a time: neither is known to be right."""
    if not deciding:
        return None
    said = "; ".join(
        f"{r.label()} ({r.kind}, authority {r.authority}) leaves who owns it unclear: "
        f"{r.time_unclear}"
        for r in deciding
    )
    return f"{said}. The owner named before it may not be the owner any more"


def _yields(unclear: Evidence, top: Evidence) -> bool:
    """Does a claim whose time cannot be read give way to `top`: lower authority, or the
    same and `top` from a record written after it, taking effect after it was written, or
    from its own record, when it stands for the days before `top`'s ("Bo took over last
    week": who owned it then cannot be read, Bo from the record's time on; "handing it over
    to Tomas this week": who owns it until the week ends cannot be read, Tomas from then)?"""
    if _authority(unclear) != _authority(top):
        return _authority(unclear) < _authority(top)
    written = unclear.at_ms if unclear.at_ms is not None else -1
    if top.record is not None and top.record == unclear.record:
        since = unclear.effective_ms if unclear.effective_ms is not None else written
        return since <= written and since < (top.effective_ms or -1)
    return (top.at_ms or -1) > written and (top.effective_ms or -1) > written


def _why_passed(row: Evidence, unclear: Evidence) -> str:
    """Why a claim does not decide where a claim whose time cannot be read does."""
    if _authority(row) < _authority(unclear):
        return "lower authority"
    return f"{unclear.label()} may be newer"


def why_outranked(row: Evidence, winner: Evidence) -> str:
    if _authority(row) < _authority(winner):
        return "lower authority"
    if row.time_unclear and row.record is not None and row.record == winner.record:
        return f"only the days before {winner.label()} was written"  # "took over last week"
    if row.time_unclear:
        return f"{winner.label()} is newer"
    if (row.effective_ms or -1) > (winner.effective_ms or -1):  # (see _rank)
        return f"{winner.label()}, written later, names its owner from before"
    return "earlier effective time"


# -- combining them -----------------------------------------------------------------------


def decide(
    service: str,
    rows: Iterable[Evidence],
    as_of_ms: int,
    *,
    capped: bool = False,
    cap: int = 50,
    min_authority: int = MIN_AUTHORITY,
    now_ms: int | None = None,
) -> OwnershipDecision:
    """The ownership decision for `service` at `as_of_ms` from its claims (already filtered
    by what the asker may see), read at the clock `now_ms` (None: every record counts).
    `capped` says the evidence query hit its row cap."""
    claims = [r for r in rows if r.claim is not None or r.record is not None]
    reason = hit_row_cap(capped, cap)
    if reason:
        return OwnershipDecision(service, RefusalCode.ROW_CAP, reason, cited=tuple(claims))

    ignored = tuple(
        Passed(r, why)
        for r in claims
        if (why := not_yet_in_effect(r, as_of_ms, now_ms)) is not None
    )
    current = [r for r in claims if not_yet_in_effect(r, as_of_ms, now_ms) is None]
    # replaced: shown with the claims a decision passes over, whatever it decides
    gone = tuple(Passed(r, why) for r in current if (why := replaced(r)) is not None)
    current = [r for r in current if replaced(r) is None]
    decision = _decide(service, current, ignored, min_authority, as_of_ms)
    reason = in_circle(decision.cited) if decision.code in _CIRCLE_DECIDES else None
    if reason:  # cited: the claims of every record of those circles (a conflict's quotes)
        members = {rid for r in decision.cited for c in r.circles for rid in c}
        circled = tuple(r for r in current if r.record in members)
        decision = _conflict_over(service, reason, circled, current, ignored)
    chain = replaced_in_turn(decision.cited) if decision.code in _CIRCLE_DECIDES else None
    if chain and not reason:  # cited: the claims replaced in turn, and what decides without
        chained = tuple(r for r in decision.cited if _unsettled(r))
        settled = [r for r in current if not _unsettled(r)]
        other = _decide(service, settled, ignored, min_authority, as_of_ms)
        shown = (*chained, *(r for r in other.cited if other.code in _CIRCLE_DECIDES))
        decision = _conflict_over(service, chain, shown, current, ignored)
    passed = (
        Passed(p.evidence, f"{UNREADABLE}; {p.why}") if p.evidence.time_unclear else p
        for p in (*decision.outranked, *gone)
    )
    return dataclasses.replace(decision, outranked=tuple(passed))


def _conflict_over(
    service: str,
    reason: str,
    cited: tuple[Evidence, ...],
    current: Sequence[Evidence],
    ignored: tuple[Passed, ...],
) -> OwnershipDecision:
    """CONFLICT citing `cited`, the rest of `current` passed over unweighed."""
    return OwnershipDecision(
        service,
        RefusalCode.CONFLICT,
        reason,
        cited=cited,
        outranked=tuple(Passed(r, "not considered") for r in current if r not in cited),
        ignored=ignored,
    )


def _decide(
    service: str,
    current: list[Evidence],
    ignored: tuple[Passed, ...],
    min_authority: int,
    as_of_ms: int | None = None,
) -> OwnershipDecision:
    """`decide` for the claims in effect (not replaced) at the time asked about."""
    gaps = [(r, why) for r in current if (why := missing_provenance(r)) is not None]
    if gaps:
        return OwnershipDecision(
            service,
            RefusalCode.MISSING_PROVENANCE,
            "; ".join(why for _, why in gaps),
            cited=tuple(r for r, _ in gaps),
            outranked=tuple(Passed(r, "not considered") for r in current if r not in _rows(gaps)),
            ignored=ignored,
        )
    unclear = [r for r in current if r.time_unclear]
    current = [r for r in current if not r.time_unclear]
    decision = _decide_clear(service, current, ignored, min_authority, as_of_ms)
    top = decision.cited[0] if decision.cited else None  # the claim that would decide
    deciding = [
        r
        for r in unclear
        if _authority(r) >= min_authority and (top is None or not _yields(r, top))
    ]
    reason = unreadable_time(deciding)
    if reason:
        others = [*current, *(r for r in unclear if r not in deciding)]
        return OwnershipDecision(
            service,
            RefusalCode.MISSING_PROVENANCE,
            reason,
            cited=tuple(deciding),
            outranked=tuple(Passed(r, _why_passed(r, deciding[0])) for r in others),
            ignored=ignored,
        )
    passed = tuple(Passed(r, why_outranked(r, top) if top else "no other claim") for r in unclear)
    return dataclasses.replace(decision, outranked=(*decision.outranked, *passed))


def _decide_clear(
    service: str,
    current: list[Evidence],
    ignored: tuple[Passed, ...],
    min_authority: int,
    as_of_ms: int | None = None,
) -> OwnershipDecision:
    """`_decide` for claims whose time is read."""
    if not current:
        return OwnershipDecision(
            service, RefusalCode.NO_CLAIM, "no record names an owner at that time", ignored=ignored
        )

    def rank(row: Evidence) -> tuple[int, int]:
        return _rank(row, as_of_ms)

    ranked = sorted(current, key=rank, reverse=True)
    reason = below_authority(ranked, min_authority)
    if reason:
        return OwnershipDecision(
            service, RefusalCode.LOW_AUTHORITY, reason, cited=tuple(ranked), ignored=ignored
        )

    best, top = ranked[0], rank(ranked[0])
    tier = tuple(r for r in ranked if rank(r) == top)
    rest = tuple(Passed(r, why_outranked(r, best)) for r in ranked if rank(r) != top)
    reason = unlisted(tier)
    if reason:
        return OwnershipDecision(
            service,
            RefusalCode.MISSING_PROVENANCE,
            reason,
            cited=tier,
            outranked=rest,
            ignored=ignored,
        )
    reason = vacant(tier)
    if reason:
        return OwnershipDecision(
            service, RefusalCode.NO_CLAIM, reason, cited=tier, outranked=rest, ignored=ignored
        )
    reason = conflict(tier)
    if reason:
        return OwnershipDecision(
            service, RefusalCode.CONFLICT, reason, cited=tier, outranked=rest, ignored=ignored
        )
    return OwnershipDecision(
        service,
        None,
        _answer_reason(best, rest),
        cited=tier,
        outranked=rest,
        ignored=ignored,
    )


# A project's answer is refused when any of its services' answers is; this order picks
# which refusal to report when several are.
_PRECEDENCE = (
    RefusalCode.ROW_CAP,
    RefusalCode.MISSING_PROVENANCE,
    RefusalCode.CONFLICT,
    RefusalCode.LOW_AUTHORITY,
    RefusalCode.NO_CLAIM,
)


def first_refusal(decisions: Sequence[OwnershipDecision]) -> OwnershipDecision | None:
    """The refusal that decides a project's answer (None when every service is answered)."""
    refused = [d for d in decisions if not d.answered]
    if not refused:
        return None
    return min(refused, key=lambda d: _PRECEDENCE.index(d.code) if d.code in _PRECEDENCE else 99)


# -- helpers ------------------------------------------------------------------------------


# A circle refuses when a claim of it would be the answer, or an owner in a conflict, or
# the vacancy: other refusals (a gap, low authority, the cap) stand whichever is newer.
_CIRCLE_DECIDES = (None, RefusalCode.CONFLICT, RefusalCode.NO_CLAIM)


def _replaced_outside_circles(row: Evidence) -> set[str]:
    """The records replacing `row`'s that no circle through it holds."""
    return set(row.replaced_by) - {rid for c in row.circles for rid in c}


def _standing_replacements(row: Evidence) -> set[str]:
    """The records replacing `row`'s outside circles that nothing replaces in turn, written
    no earlier than it."""
    in_turn = {later for later, _ in row.replaced_in_turn}
    return _replaced_outside_circles(row) - in_turn - set(row.replaced_by_earlier)


def _unsettled(row: Evidence) -> bool:
    """Is `row`'s record replaced only by records replaced in turn (outside circles)?"""
    return bool(_replaced_outside_circles(row)) and not _standing_replacements(row)


def _authority(row: Evidence) -> int:
    return row.authority if row.authority is not None else -1


def _rank(row: Evidence, as_of_ms: int | None = None) -> tuple[int, int]:
    """Authority, then the latest instant up to `as_of_ms` at which the claim's record
    states its owner: its effective time, or, for one taking effect before its record was
    written ("has owned it since 1 February", written 10 May), as late as the record was
    written (else an older record of the same authority, taking effect between the two,
    outranked it for every day after: the newer word lost)."""
    effective = row.effective_ms if row.effective_ms is not None else -1
    if as_of_ms is not None and row.at_ms is not None and row.at_ms > effective:
        effective = min(row.at_ms, as_of_ms)
    return (_authority(row), effective)


def _rows(pairs: Sequence[tuple[Evidence, str]]) -> list[Evidence]:
    return [r for r, _ in pairs]


def _answer_reason(best: Evidence, rest: Sequence[Passed]) -> str:
    base = f"{best.record} ({best.kind}, authority {best.authority}) names {best.owner}"
    if not rest:
        return f"{base}; no other claim is in effect"
    return f"{base} and outranks {len(rest)} other claim(s)"
