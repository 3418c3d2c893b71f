"""The verifier: plain code, and the only way a proposed fact reaches the graph. A fact is
kept only when every check passes; otherwise it becomes a Rejection naming the first check
that refused it and why, for people. It never raises on what a proposer said."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, replace
from datetime import date, datetime
from functools import lru_cache

from companybrain.model.facts import DecisionFact, OwnershipFact, Proposal, Rejection, Verified
from companybrain.model.records import Org, Record
from companybrain.policy import effective, injection, segments, unknown_owner, wording
from companybrain.policy.mentions import CLAUSE_END, PERSON, SERVICE, Template, template
from companybrain.policy.text import fold_name, normalise, quote_in

MAX_QUOTE_CHARS = segments.LONGEST_SENTENCE  # a sentence, a row or a line, not a page
# Records whose `Owner:` line may speak of the service the record is about.
_DOCUMENT_KINDS = frozenset(("runbook", "service_directory", "adr", "change_control", "wiki"))
_NOT_A_NAME = frozenset(("the", "a", "an"))  # words a table cell naming a service may hold

# The checks, in the order they run.
MALFORMED = "malformed"
WRONG_RECORD = "wrong_record"
UNKNOWN_ID = "unknown_id"
QUOTE_TOO_LONG = "quote_too_long"
QUOTE_NOT_IN_RECORD = "quote_not_in_record"
OWNER_NOT_IN_QUOTE = "owner_not_in_quote"
SERVICE_NOT_IN_QUOTE = "service_not_in_quote"
PREVIOUS_OWNER = "previous_owner"
NEGATED = "negated"
NOT_ASSERTED = "not_asserted"  # asked or supposed ("Does Aria own it?", "if Aria owns it")
NO_OWNERSHIP_STATEMENT = "no_ownership_statement"
DUPLICATE = "duplicate"
DECISION_NOT_FROM_ADR = "decision_not_from_adr"
NOT_A_DECISION = "not_a_decision"
EFFECTIVE_TIME = "effective_time"  # the quote's own time is not the record's, or no one time
INSTRUCTION = "instruction"  # the record addresses orders to its reader (prompt injection)
HIDDEN_TEXT = "hidden_text"


class Refused(Exception):
    """One check refused a fact (internal: always turned into a Rejection)."""

    def __init__(self, check: str, reason: str) -> None:
        super().__init__(reason)
        self.check = check
        self.reason = reason


def verify(proposal: Proposal, record: Record, org: Org) -> Verified:
    kept: list[OwnershipFact] = []
    decisions: list[DecisionFact] = []
    rejected: list[Rejection] = []
    for item in proposal.malformed:
        rejected.append(_malformed(record.id, item))
    facts: list[OwnershipFact | DecisionFact] = [*proposal.ownership, *proposal.decisions]
    if not facts and not proposal.unread:  # nothing to keep or refuse (the costly checks
        # below read every line)
        return Verified(record.id, (), (), tuple(rejected))
    ordered = injection.instructs(record.title or "", record.text, *_said_elsewhere(record))
    if ordered:  # nothing a record that gives orders says is taken as a fact
        why = f"{record.id} is not a statement: {ordered}"
        rejected += [Rejection(record.id, fact, INSTRUCTION, why) for fact in facts]
        return Verified(record.id, (), (), tuple(rejected))
    seen: set[tuple[str, str]] = set()
    unlisted: list[OwnershipFact] = []
    unclear: list[Rejection] = []
    parts = proposal.proposer != "rules"  # the rules quote whole sentences, rows and lines
    for fact in proposal.ownership:
        try:
            keep = kept
            try:
                check_ownership(fact, record, org, parts=parts)
            except Refused as refusal:
                if not _unlisted_owner(fact, record, org, refusal, parts=parts):
                    raise
                keep = unlisted
            key = (fact.service, fact.owner)
            if key in seen:
                raise Refused(DUPLICATE, "the same owner and service were already kept from it")
            try:
                in_effect, ends = _in_effect(fact, record, org, parts=parts)
            except Refused as refusal:  # an owner from a time that cannot be read
                unclear.append(Rejection(record.id, fact, refusal.check, refusal.reason))
                raise
            keep.append(in_effect)
            if ends is not None:  # the owner from then on cannot be read
                unclear.append(Rejection(record.id, ends[0], EFFECTIVE_TIME, ends[1]))
            seen.add(key)
        except Refused as refusal:
            rejected.append(Rejection(record.id, fact, refusal.check, refusal.reason))
    unclear += _released(rejected, (*kept, *unlisted, *(r.fact for r in unclear)), org)
    unclear += _unread(proposal.unread, record, (*kept, *unlisted, *(r.fact for r in unclear)))
    for decision in proposal.decisions:
        try:
            decisions.append(check_decision(decision, record, already=bool(decisions)))
        except Refused as refusal:
            rejected.append(Rejection(record.id, decision, refusal.check, refusal.reason))
    return Verified(
        record.id, tuple(kept), tuple(decisions), tuple(rejected), tuple(unlisted), tuple(unclear)
    )


def _in_effect(
    fact: OwnershipFact, record: Record, org: Org, *, parts: bool = True
) -> tuple[OwnershipFact, tuple[OwnershipFact, str] | None]:
    """`fact` with the time it takes effect: the record's, unless the sentence it is quoted
    from (read whole, whoever cut the quote) states its own ("Effective 1 May 2026, ...");
    refused when the two disagree or the sentence names no one time (policy/effective.py).
    `parts`: as for check_ownership (the rules' quotes are whole: a fifth of extraction's
    time went to cutting every record into sentences again to find that out).

    With it, when the record says the service changes hands later, naming no one, and
    `fact` tells who owns it, not a change (a directory's row beside "Effective 1 June 2026
    the billing gateway changes hands."): `fact` from then on, with why its owner cannot be
    read (None: it lasts). Such a day already past when written is the claim's start.
    A change told as done on a day the record does not give ("took over last week"): `fact`
    from the record's time, and before it, back to the first day the change may have come
    on, a claim whose owner cannot be read."""
    stated = _stating_sentence(fact.quote, fact.owner, fact.service, record, org) if parts else None
    sentence = stated or fact.quote
    row = _table_row(fact.quote, record)
    around = _said_around(
        fact, sentence, record, org, tells=" ".join(row[0].header) + sentence if row else sentence
    )
    hands = around.pop("hands", ())
    ends = None
    if hands:
        change = effective.effective_time("", record.at, None, org.timezone, back=hands)
        if isinstance(change, datetime) and change > record.at:
            ends = change
        else:
            around["back"] = (*around.get("back", ()), *hands)

    def when_said(around: dict[str, tuple[str, ...]]) -> datetime | str | effective.Unsure:
        return effective.effective_time(
            _without_others(
                injection.shown_text(_with_start_columns(*row) if row else sentence), fact, org
            ),
            record.at,
            record.effective_at,
            org.timezone,
            row=row is not None,
            title=_title_about(fact.service, record, org),
            **around,
        )

    when = when_said(around)
    if ends is not None and not (isinstance(when, datetime) and ends > when):
        ends, when = None, when_said({**around, "back": (*around.get("back", ()), *hands)})
    if isinstance(when, str):
        raise Refused(EFFECTIVE_TIME, when)
    if isinstance(when, effective.Unsure):  # "took over last week": the days before unclear
        return replace(fact, effective=when.at), (replace(fact, effective=when.since), when.why)
    if ends is None:
        return replace(fact, effective=when), None
    why = (
        f'who owns it once it changes hands cannot be read: the record says "'
        f'{" ".join(hands[0].split())}" and does not say to whom'
    )
    return replace(fact, effective=when), (replace(fact, effective=ends), why)


def _released(rejected: list[Rejection], stated: Iterable[object], org: Org) -> list[Rejection]:
    """For a service whose owner the record says no longer owns it ("Kofi Mensah no longer
    owns the billing gateway.") and that it names no other owner of: a statement that the
    service changed hands to someone it does not name, kept as unclear from the record's
    time. Refused as a previous owner and nothing else, the directory's Kofi answered on."""
    named = {f.service for f in stated if isinstance(f, OwnershipFact)}
    out: list[Rejection] = []
    for r in rejected:
        fact = r.fact
        if (
            r.check == PREVIOUS_OWNER
            and isinstance(fact, OwnershipFact)
            and fact.service not in named
            and _RELEASED.search(fact.quote)
        ):
            named.add(fact.service)
            who = person.name if (person := org.person(fact.owner)) else fact.owner
            why = (
                f'who owns it once it changes hands cannot be read: the record says "'
                f'{" ".join(fact.quote.split())}" ({who} no longer owns it) and does not say '
                "who does"
            )
            out.append(Rejection(r.record, replace(fact, effective=None), EFFECTIVE_TIME, why))
    return out


def _unread(
    unread: Iterable[OwnershipFact], record: Record, stated: Iterable[object]
) -> list[Rejection]:
    """A sentence quoted whole from the record that says a service it names changes or
    changed hands in words no pattern reads, where the record states no owner of it that is
    read: kept as unclear from the record's time, so that the owner before it is not named
    on as if nothing had been said."""
    named = {f.service for f in stated if isinstance(f, OwnershipFact)}
    out: list[Rejection] = []
    for fact in unread:
        if fact.service in named or not quote_in(fact.quote, record.text):
            continue
        named.add(fact.service)
        why = (
            'who owns it once it changes hands cannot be read: the record says "'
            f'{" ".join(fact.quote.split())}" in words the rules do not read an owner from'
        )
        out.append(Rejection(record.id, fact, EFFECTIVE_TIME, why))
    return out


# An owner who has let a service go by the time the record is written ("no longer owns it",
# "used to own it", "owned it until yesterday", "resigned as owner", "the former owner"),
# not one the record names as a past one only ("owned it in 2024").
_RELEASED = re.compile(
    r"\bno longer\b|\bnot\b.{0,40}\bany ?more\b|\bused to\b|\bformerly\b|\buntil\b"
    r"|\bresign\w*|\b(?:former|previous|outgoing) owner\b|\bwho (?:once |formerly )?owned\b"
    r"|\b(?:hand(?:s|ed|ing)?|transfer\w*|reassign\w*)\b.{0,60}\bto\b",  # "handed it to"
    re.I,
)


def _without_others(sentence: str, fact: OwnershipFact, org: Org) -> str:
    """`sentence` with its clauses about another service only, and not the claim's owner,
    blanked: "Bo owns the billing gateway, and Cy takes over the search index from 1 June"
    (or "last week") does not date Bo's claim. A part joined by a bare "and" is a clause of
    its own only when it names someone ("Bo owns the billing gateway and Cy takes over the
    search index next month"): in "Bo took over the billing gateway and the search index
    last week" it is an item of a list, and its time is the claim's."""
    if _CLAUSE.search(sentence) is None or not (
        effective.may_say_when(sentence)
        or effective.may_tell_a_past(sentence)
        or effective.may_name_a_stretch(sentence)
    ):
        return sentence
    parts = _CLAUSE.split(sentence)  # clauses, and the words between them
    kept = []
    for i, part in enumerate(parts):
        if i % 2 == 0:
            words = template(part, org)
            named, people = words.ids(SERVICE), words.ids(PERSON)
            bare = any(0 <= j < len(parts) and _BARE.fullmatch(parts[j]) for j in (i - 1, i + 1))
            if named and fact.service not in named and fact.owner not in people:
                part = " " * len(part) if people or not bare else part
        kept.append(part)
    return "".join(kept)


# Where a sentence's clauses part: a semicolon, or a comma before "and", "but", "while" ...
# (or those words alone, `_BARE`).
_CLAUSE = re.compile(r"(;|,\s+(?:and|but|while|whereas)\b|\s+(?:and|but|while|whereas)\s+)", re.I)
_BARE = re.compile(r"\s+(?:and|but|while|whereas)\s+", re.I)


def _title_about(service: str, record: Record, org: Org) -> str:
    """The record's title (as shown) when it may say when the record's change starts and is
    about `service` or no service: "Search index handover, effective 1 May" does not date
    what the record says of the billing gateway."""
    title = _title_saying_when(record.title or "")
    if not title:
        return ""
    named = template(title, org).ids(SERVICE)
    return title if not named or service in named else ""


@lru_cache(maxsize=8)  # asked once per fact: a directory's rows share their title
def _title_saying_when(title: str) -> str:
    """`title` as shown, when it may say when something starts, or name a day that may be
    its change's ("Billing gateway handover 1 May 2026"); else ""."""
    shown = injection.shown_text(title)
    if effective.may_say_when(shown) or effective.may_name_a_stretch(shown):
        return shown
    return shown if effective.may_name_a_day(shown) else ""


def _with_start_columns(table: segments.Table, cells: tuple[str, ...]) -> str:
    """A table row as a sentence would say when it starts: each cell under a column such as
    "Effective" or "Start date" led by its header ("Effective: 2026-05-01"), so that its day
    is the row's start, not another column's ("Last reviewed")."""
    said = (
        f"{head}: {cell}" if effective.start_column(head) else cell
        for head, cell in zip(table.header, cells, strict=False)
    )
    return " | ".join(said)


def _said_around(
    fact: OwnershipFact, sentence: str, record: Record, org: Org, *, tells: str = ""
) -> dict[str, tuple[str, ...]]:
    """The record's other sentences, lines and headings that may say when its change starts:
    `elsewhere`, those that date the change ("Effective 1 May 2026 the billing gateway
    changes hands.", "Effective: 2026-05-01"); `aside`, those about the service, or no
    service, that may give the day of something else ("The review is on 5 May 2026."). Those
    about other services only are left out ("From 1 June the ledger moves to Kofi"). The
    front-matter fields the format does not know are lines of it too ("effective_date:
    2026-05-01" is "effective date: 2026-05-01"). A sentence naming others than the claim's
    owner may tell another change ("Effective 1 June the billing gateway moves to Cy"): it
    says nothing of a claim that its owner owns the service ("Bo owns the billing gateway",
    a directory's row), unless it ends then ("Ana keeps it until 31 October"), and leaves a
    claim of a change unclear ("... transfers to Bo"). `back`: those that may date the change
    with a day already past when the record was written, as its title may: the front-matter
    fields, `Effective: 2026-05-01` lines, and sentences naming no one that say this service
    changes hands ("The billing gateway changed hands effective 1 May 2026."); `hands`: those
    sentences, beside a claim that tells who owns the service, not a change (`tells`: its
    sentence, or its row after the table's header), which may tell when it ends instead.
    `days`: see `_days_beside`."""
    fields = _fields(record)
    days = _days_beside(fact, sentence, record, org, tells or sentence)
    if (
        _times_said(record.text) <= effective.times_said(sentence)
        and _stretches_said(record.text) <= effective.stretches_said(sentence)
        and _pasts_said(record.text) <= effective.pasts_said(sentence)
    ):  # none but the sentence's own: no need to cut the text
        return {"back": fields, "days": days} if days else {"back": fields}
    own = normalise(sentence)
    changes = None  # does the claim's sentence tell a change (asked only when needed)?
    tells_change = None  # and with its table's header, for a row
    elsewhere: list[str] = []
    aside: list[str] = []
    back: list[str] = list(fields)
    hands: list[str] = []
    for unit in _units_saying_when(record.text, org):
        label, text, named, people = unit.label, unit.text, unit.named, unit.people
        if unit.said in own or own in unit.said:
            continue
        if named and fact.service not in named:
            continue
        if people and fact.owner not in people:  # another's change?
            if changes is None:
                changes = bool(_A_CHANGE.search(template(sentence, org).text))
            if changes or effective.says_until(text):  # "Ana keeps it until 31 October"
                aside.append(text)
            continue
        handover = unit.states_ownership or unit.hands_change
        if not people and not unit.start_field and unit.hands_change:
            if tells_change is None:
                tells_change = bool(_A_CHANGE.search(template(tells or sentence, org).text))
            if not tells_change:  # "| Billing Gateway | Ana Ruiz |": Ana's until then
                hands.append(text)
                continue
        if (named and not people and unit.hands_change) or (
            label and not named and unit.start_field
        ):
            back.append(text)  # the day this service changed hands, even a past one
        else:
            (elsewhere if handover or (label and not named) else aside).append(text)
    around = {"elsewhere": tuple(elsewhere), "aside": tuple(aside), "back": tuple(back)}
    around |= {"days": days} if days else {}
    return {**around, "hands": tuple(hands)} if hands else around


def _days_beside(
    fact: OwnershipFact, sentence: str, record: Record, org: Org, tells: str
) -> tuple[str, ...]:
    """Beside a claim telling a change ("ownership of the billing gateway transfers to Bo"),
    the record's `Key: value` lines and table rows that name a day without saying what
    starts then ("- Date: 2026-06-01", "- Go-live: 2026-06-01", "| Handover | 2026-06-01
    |"), about this service and owner or none: a day to come there may be the change's."""
    if _days_named(record.text) <= effective.days_named(sentence):
        return ()  # (most records: no day outside the claim's sentence)
    if not (_A_CHANGE.search(tells.casefold()) and _A_CHANGE.search(template(tells, org).text)):
        return ()
    own = normalise(sentence)
    found = []
    for line in _dated_lines(record.text):
        said = normalise(line)
        if said in own or own in said:
            continue
        words = template(line, org)
        named, people = words.ids(SERVICE), words.ids(PERSON)
        if (not named or fact.service in named) and (not people or fact.owner in people):
            found.append(line)
    return tuple(found)


_days_named = lru_cache(maxsize=4)(effective.days_named)


# A `Key: value` line, its key also with hyphens ("Go-live: 2026-06-01").
_KEY_LINE = re.compile(r"^[\s>*_`-]*[A-Za-z][\w /-]{0,30}?[*_`]*\s*:[*_`]*\s")


@lru_cache(maxsize=4)
def _dated_lines(text: str) -> tuple[str, ...]:
    """The `Key: value` lines and table rows of a record's `text` (as shown) that name a day
    and do not say it is when something starts (cut once per record)."""
    return tuple(
        shown
        for u in segments.units(text)
        if u.kind == segments.ROW or _KEY_LINE.match(u.text)
        if effective.may_name_a_day(shown := injection.shown_text(u.text))
        and not effective.may_say_when(shown)
    )


def _start_field(line: str) -> bool:
    """Is `line` a `Key: value` line whose key says when the record's change starts
    ("Effective: 2026-05-01", "- Handover date: 1 May 2026")?"""
    field = segments.field_of(line.lstrip("*_>-` "))
    return field is not None and effective.start_column(field[0])


def _fields(record: Record) -> tuple[str, ...]:
    """The record's fields the format does not know that may say when it starts, as lines
    ("effective date: 2026-05-01")."""
    lines = (
        f"{' '.join(re.split(r'[_-]+', key))}: "
        + (value.isoformat() if isinstance(value, date) else value)
        for key, value in record.extra.items()
        if isinstance(key, str) and isinstance(value, str | date)
    )
    return tuple(line for line in lines if effective.may_say_when(line))


_times_said = lru_cache(maxsize=4)(effective.times_said)  # asked once per fact of a record
_stretches_said = lru_cache(maxsize=4)(effective.stretches_said)
_pasts_said = lru_cache(maxsize=4)(effective.pasts_said)
# A sentence telling a change of owner, not who owns a service ("transfers to Bo").
_A_CHANGE = re.compile(
    r"\b(?:transfer\w*|hand\w*|(?:take|takes|taken|taking|took) over|new owner|incoming"
    r"|successor|(?:move|moves|moved|moving|pass|passes|passed|passing|goes|went) to"
    r"|reassign\w*|chang\w* hands|will own|becomes?|became)\b"
)
# A sentence saying that the service's ownership changes (naming no one): the day it gives
# as its start dates the change, even one before the record ("The billing gateway changed
# hands effective 1 May 2026.", written 10 May).
_HANDS_CHANGE = re.compile(
    r"\bchang(?:e|es|ed|ing) hands\b|\bhand(?:ed|s)? ?over\b|\bhandover\b|\bnew owner\b"
    r"|\bownership\b.*\b(?:transfer\w*|chang\w*|pass\w*|mov\w*|reassign\w*)\b"
    r"|\b(?:transfer\w*|reassign\w*)\b.*\bownership\b"
)


@dataclass(frozen=True)
class _Unit:
    """A sentence, line or heading of a record that may say when its change starts, with
    what `_said_around` asks of it whatever the fact (a directory's rows share its lines)."""

    label: bool  # a heading or a `Key: value` line
    text: str
    said: str  # normalised
    named: frozenset[str]  # services it names
    people: frozenset[str]
    states_ownership: bool
    hands_change: bool
    start_field: bool


def _units_saying_when(text: str, org: Org) -> tuple[_Unit, ...]:
    """`_may_say_when(text)` read against `org`, once per record (the last few kept)."""
    for known, said, units in _UNITS:
        if known is org and said == text:
            return units
    units = tuple(
        _Unit(
            label,
            line,
            normalise(line),
            frozenset(words.ids(SERVICE)),
            frozenset(words.ids(PERSON)),
            bool(wording.states_ownership(words.text)),
            bool(_HANDS_CHANGE.search(words.text)),
            _start_field(line),
        )
        for label, line in _may_say_when(text)
        for words in (template(line, org),)
    )
    _UNITS[:] = [(org, text, units), *_UNITS[:3]]
    return units


_UNITS: list[tuple[Org, str, tuple[_Unit, ...]]] = []


@lru_cache(maxsize=4)
def _may_say_when(text: str) -> tuple[tuple[bool, str], ...]:
    """(is it a heading or a `Key: value` line, as shown) for the sentences, lines and
    headings of a record's `text` that may say when something starts (cut once per record,
    and only when a fact's sentence does not hold all such words of the record)."""
    return tuple(
        (u.kind == segments.HEADING or segments.field_of(u.text) is not None, shown)
        for u in segments.units(text)
        if effective.may_say_when(shown := injection.shown_text(u.text))
        or effective.may_name_a_stretch(shown)
        or effective.may_tell_a_past(shown)
    )


def _unlisted_owner(
    fact: OwnershipFact, record: Record, org: Org, refusal: Refused, *, parts: bool = True
) -> bool:
    """Does `fact`, refused because org.yaml lists no such person, state ownership by a
    name the organisation does not know? Checked as a listed person's would be, with the
    name standing in for one; a refusal of that check is not reported (the first stands)."""
    if refusal.check != UNKNOWN_ID or not isinstance(fact.owner, str):
        return False
    if org.person(fact.owner) is not None or org.service(fact.service) is None:
        return False
    if fact.owner == unknown_owner.VACANT:
        return _states_vacancy(fact, record, org)
    name = " ".join(fact.owner.split())
    if not unknown_owner.unknown(name, org) or not _said_apart(name, fact.quote, org):
        return False
    try:
        check_ownership(
            replace(fact, owner=unknown_owner.STAND_IN),
            record,
            unknown_owner.stand_in_org(org, name),
            parts=parts,
        )
    except Refused:
        return False
    return True


def _said_apart(name: str, quote: str, org: Org) -> bool:
    """Does `quote` say `name` other than as a part of a listed person's name? "Okafor"
    (of Ben Okafor, from whom the service moves) or "Novak" (of Aria Novak, to whom it
    moves) is no one new; a name several people share is no one in particular."""
    if len(unknown_owner.shared_by(name, org)) > 1:
        return True
    words = template(injection.shown_text(quote), org).text
    apart = fold_name(re.sub(r"<p:[^>]*>", " zzlistedzz ", words))
    return f" {fold_name(name)} " in f" {apart} "


def check_ownership(fact: OwnershipFact, record: Record, org: Org, *, parts: bool = True) -> None:
    """Raise Refused for the first check `fact` fails. `parts`: the quote may be a part of
    a sentence, which is then read whole (False: it is a whole sentence, row or line)."""
    _well_formed(fact, ("record", "service", "owner", "quote"))
    if fact.record != record.id:
        raise Refused(WRONG_RECORD, f"the fact names record {fact.record!r}, not {record.id!r}")
    person, service = org.person(fact.owner), org.service(fact.service)
    if person is None:
        raise Refused(UNKNOWN_ID, f"{fact.owner!r} is not a person in the organisation")
    if service is None:
        raise Refused(UNKNOWN_ID, f"{fact.service!r} is not a service in the organisation")
    _quote_in_record(fact.quote, record)
    shown = injection.shown_text(fact.quote)  # what it says without struck-through text
    quote = template(shown, org)
    if person.id not in quote.ids(PERSON):
        raise Refused(OWNER_NOT_IN_QUOTE, f"the quote does not name {person.name} ({person.id})")
    row = _table_row(fact.quote, record)
    field = segments.field_of(fact.quote)
    field_role = wording.field_role(field[0]) if field else None
    if field and field_role is None and _listed_as_owner(fact.quote, field[0], record, org):
        field_role = "owner"  # "## Owners" ... "- Billing gateway: Bo Lind"
    if service.id not in quote.ids(SERVICE) and not (
        field_role
        and _starts_a_line(fact.quote, record)
        and _record_is_about(record, service.id, org)
    ):
        raise Refused(
            SERVICE_NOT_IN_QUOTE, f"the quote does not name {service.name} ({service.id})"
        )
    if row is not None:
        _check_row(row, person.id, service.id, org)
        return
    if field_role == "previous":
        raise Refused(PREVIOUS_OWNER, f"the quote lists {person.name} as a previous owner")
    if field_role == "owner" and field and template(field[1], org).ids(PERSON)[:1] != [person.id]:
        raise Refused(
            NO_OWNERSHIP_STATEMENT, f"the line names someone else than {person.name} as owner"
        )
    standing = wording.standing(quote, person.id)
    sentence = (
        None
        if standing or field_role or not parts
        else _stating_sentence(fact.quote, person.id, service.id, record, org)
    )
    if sentence is not None:  # "Bo owns X" cut from "Is it true that Bo owns X?"
        standing = wording.standing(template(injection.shown_text(sentence), org), person.id)
    if field and field_role == "owner":  # "Owner: unassigned (ask Kofi)", "Owner: Kofi?"
        standing = standing or wording.cell_standing(template(field[1], org), person.id)
    if not standing and _answered_no(sentence or fact.quote, record):
        standing = NOT_ASSERTED, 'in a question the record answers "no" to'
    if not standing and row is None and field_role is None:  # "owns X or Y, I forget which"
        said = template(injection.shown_text(sentence), org) if sentence else quote
        standing = (
            wording.alternative(said, service.id)
            or wording.owned_before(said, person.id, service.id)
            or wording.hedged(
                said, person.id, to_come=effective.tells_a_change_to_come(sentence or fact.quote)
            )
            or wording.part_owned(said, person.id, service.id)
        )
    if not standing and _asks_whose(sentence or fact.quote, person.id, service.id, org):
        standing = NOT_ASSERTED, f"beside a question of who owns {service.name}"
    if standing:
        check, as_what = standing
        raise Refused(check, f"the quote names {person.name} {as_what}, not as the owner")
    if field_role != "owner" and not _ownership_sentence(shown, person.id, service.id, org):
        raise Refused(
            NO_OWNERSHIP_STATEMENT,
            f"no sentence of the quote names {person.name} and {service.name} with ownership "
            "wording (owns, owned by, owner, taken over, handed over to, point of contact)",
        )


def _asks_whose(quote: str, person: str, service: str, org: Org) -> bool:
    """Does every sentence of the quote naming both ask who owns the service ("Cora, who
    owns the search index, asked who owns the billing gateway.")?"""
    if "who" not in quote.casefold():
        return False  # (most quotes: no need to cut them into sentences again)
    both = [
        t
        for t in (template(injection.shown_text(s), org) for s in segments.sentences(quote))
        if person in t.ids(PERSON) and service in t.ids(SERVICE)
    ]
    return bool(both) and all(wording.asks_whose(t, service) for t in both)


def check_decision(fact: DecisionFact, record: Record, *, already: bool = False) -> DecisionFact:
    """The decision to keep (titled as the record is, else by its id, as the rules title it:
    never by a title the proposer wrote), or raise Refused. A quote cut from a
    sentence is kept as the whole sentence, which is what is checked and shown: "use Kafka
    until the audit closes" cut from "We will not use Kafka until the audit closes." is
    not the decision. A record with a Decision section states its decision there, not in
    the options it weighed ("Option 1: we will use Kafka.")."""
    _well_formed(fact, ("record", "title", "quote"))
    if fact.record != record.id:
        raise Refused(WRONG_RECORD, f"the fact names record {fact.record!r}, not {record.id!r}")
    if record.kind != "adr":
        raise Refused(
            DECISION_NOT_FROM_ADR,
            f"only an adr record can state a decision; {record.id} is a {record.kind} record",
        )
    _quote_in_record(fact.quote, record)
    quote = _sentence_around(fact.quote, record) or fact.quote
    decision_section = segments.section_text(record.text, "decision")
    if decision_section is not None and not quote_in(quote, decision_section):
        raise Refused(
            NOT_A_DECISION, "the quote is not in the record's Decision section, which states it"
        )
    if decision_section is None and not wording.DECISION_WORDING.search(_folded(quote)):
        raise Refused(
            NOT_A_DECISION,
            "the quote is neither in the record's Decision section nor worded as a decision",
        )
    if already:
        raise Refused(DUPLICATE, "a decision was already kept from this record")
    return DecisionFact(record.id, record.title or record.id, quote)


def _well_formed(fact: object, fields: Iterable[str]) -> None:
    for name in fields:
        value = getattr(fact, name, None)
        if not isinstance(value, str):
            raise Refused(MALFORMED, f"{name!r} must be a string, got {type(value).__name__}")
        if not value.strip():
            raise Refused(MALFORMED, f"{name!r} is empty")


def _malformed(record_id: str, item: dict[str, object]) -> Rejection:
    problem = item.get("problem") if isinstance(item, dict) else None
    return Rejection(
        record_id,
        item if isinstance(item, dict) else {"item": repr(item)},
        MALFORMED,
        str(problem or "the proposer's output could not be read as a fact"),
    )


def _quote_in_record(quote: str, record: Record) -> None:
    if len(quote) > MAX_QUOTE_CHARS:
        raise Refused(
            QUOTE_TOO_LONG,
            f"the quote is {len(quote)} characters; a quote is one sentence, row or line "
            f"(at most {MAX_QUOTE_CHARS})",
        )
    wanted = normalise(quote)
    if not (wanted and wanted in _normalised(record.text)):
        raise Refused(QUOTE_NOT_IN_RECORD, f"the quote is not in {record.id}: {quote[:80]!r}")
    if hidden := injection.hidden_characters(quote):
        raise Refused(HIDDEN_TEXT, hidden)
    if _unshown(record.text) and (
        normalise(injection.shown_text(quote)) not in _normalised_shown(record.text)
    ):
        raise Refused(
            HIDDEN_TEXT,
            "the quote is struck through or inside an HTML comment: no reader sees it as said",
        )


def _said_elsewhere(record: Record) -> list[str]:
    """Front-matter values a proposer also reads (the id and kind are in the model's prompt,
    then the channel, status, parent and the fields the format does not know)."""
    values = [record.id, record.kind, record.channel or "", record.status or ""]
    values += [record.parent or "", *(str(k) for k in record.extra)]
    return values + [str(v) for v in record.extra.values() if isinstance(v, str | int | float)]


def _folded(text: str) -> str:
    return " ".join(normalise(text).replace("'", " ").split())


def _starts_a_line(quote: str, record: Record) -> bool:
    """Is the quote a field line of its own (not a fragment from the middle of prose)?"""
    wanted = normalise(quote).lstrip("*_>-` ")
    return any(
        normalise(line).lstrip("*_>-` ").startswith(wanted) for line in record.text.splitlines()
    )


def _answered_no(sentence: str, record: Record) -> bool:
    """Is `sentence` a question ("Bo owns the billing gateway?") that the record answers
    "no" to right after it ("No, Kofi still does.")? Worded as a statement, such a question
    otherwise still says what it asks."""
    asked = normalise(sentence)
    if not asked.endswith("?"):
        return False
    text = _normalised(record.text)
    at = text.find(asked)
    while at != -1:
        if _NO.match(text, at + len(asked)):
            return True
        at = text.find(asked, at + 1)
    return False


# Right after a question, an answer saying it is not so.
_NO = re.compile(r"[\s\"'*_>-]*(?:no|nope|nah|wrong|incorrect)\b")


def _sentence_around(quote: str, record: Record) -> str | None:
    """The sentence of `record` that `quote` is a part of, when it is a part: whether it
    names someone as the owner, or asks, supposes or denies it, is read from the whole
    sentence, as the rules proposer quotes it ("Bo owns the gateway" cut from "Is it true
    that Bo owns the gateway?" asserts nothing). None when the quote is a whole sentence
    or more (the rules' quotes: nothing to read again)."""
    wanted = normalise(quote)
    for sentence in _sentences(record.text):
        if wanted in sentence[0]:
            return sentence[1] if sentence[0] != wanted else None
    return None


def _stating_sentence(
    quote: str, person: str, service: str, record: Record, org: Org
) -> str | None:
    """The sentence of `record` in which `quote` names `person` as owner of `service`, read
    whole, as the rules quote it: the one around the quote, or, for a quote running over
    several sentences ("Bo owns X? I doubt" cut from "Is it true that Bo owns X? I doubt
    it."), around the one of its sentences that names both with ownership wording; whether
    it asserts it, and when it takes effect, is read from that sentence alone. None when
    the quote is one whole sentence, or none of its sentences states it."""
    around = _sentence_around(quote, record)
    if around is not None or len(pieces := segments.sentences(quote)) < 2:
        return around
    if org.person(person) is None and unknown_owner.unknown(person, org):  # a name
        org, person = unknown_owner.stand_in_org(org, person), unknown_owner.STAND_IN
    for piece in pieces:
        if _ownership_sentence(piece, person, service, org):
            return _sentence_around(piece, record) or piece
    return None


@lru_cache(maxsize=4)
def _sentences(text: str) -> tuple[tuple[str, str], ...]:
    """(normalised, as written) for every sentence of `text` (cut once per record)."""
    return tuple(
        (normalise(u.text), u.text) for u in segments.units(text) if u.kind == segments.SENTENCE
    )


def _states_vacancy(fact: OwnershipFact, record: Record, org: Org) -> bool:
    """Is the quote a table row of the record whose owner column, or an `Owner:` line
    whose value, says that no one owns the service ("vacant", "unassigned", "TBD")?"""
    try:
        _quote_in_record(fact.quote, record)
    except Refused:
        return False
    row = _table_row(fact.quote, record)
    if row is not None:
        table, cells = row
        roles = [wording.column_role(h) for h in table.header]
        services = [i for i, r in enumerate(roles) if r == "service"] or [0]
        owners = [cells[i] for i, r in enumerate(roles) if r == "owner" and i < len(cells)]
        return any(
            i < len(cells) and fact.service in template(cells[i], org).ids(SERVICE)
            for i in services
        ) and any(wording.says_vacant(c) for c in owners)
    field = segments.field_of(fact.quote)
    if not field or not wording.says_vacant(field[1]):
        return False
    if wording.field_role(field[0]) != "owner" and not _listed_as_owner(
        fact.quote, field[0], record, org
    ):
        return False
    return _starts_a_line(fact.quote, record) and (
        fact.service in template(fact.quote, org).ids(SERVICE)
        or _record_is_about(record, fact.service, org)
    )


def _listed_as_owner(quote: str, key: str, record: Record, org: Org) -> bool:
    """Is `quote` a `Key: value` line of `record` under a heading naming owners ("##
    Owners"), its key a service's name and nothing else ("- Billing gateway: Bo Lind")?"""
    return wording.names_only(template(key, org)) and normalise(quote) in _under_owners(record.text)


@lru_cache(maxsize=4)
def _under_owners(text: str) -> frozenset[str]:
    """The lines of `text` (normalised) under a heading naming owners."""
    return frozenset(
        normalise(u.text)
        for u in segments.units(text)
        if u.kind == segments.SENTENCE and wording.column_role(u.section) == "owner"
    )


def _record_is_about(record: Record, service: str, org: Org) -> bool:
    """For an `Owner: X` line: is the record a document about this service and no other?
    In a ticket, a comment or a message, such a line names who the ticket or the task is
    assigned to, not the owner of what it is about."""
    if record.kind not in _DOCUMENT_KINDS:
        return False
    about = [s for s in record.about if org.service(s) is not None]
    if about:
        return about == [service]
    return template(record.title or "", org).ids(SERVICE) == [service]


def _ownership_sentence(quote: str, person: str, service: str, org: Org) -> bool:
    """Some sentence of the quote names both and uses ownership wording; or names the person,
    no service and "it" or "its" once, after a sentence naming the service and no other
    ("The billing gateway changed hands. Bo Lind now owns it.")."""
    before: list[str] = []
    for sentence in segments.sentences(quote):
        t = template(sentence, org)
        if person in t.ids(PERSON) and wording.states_ownership(t.text):
            if service in t.ids(SERVICE):
                return True
            if (
                not t.ids(SERVICE)
                and sum(token in ("it", "its") for token in t.tokens) == 1
                and before == [service]
            ):
                return True
        before = t.ids(SERVICE)
    return False


def _table_row(quote: str, record: Record) -> tuple[segments.Table, tuple[str, ...]] | None:
    """The table row of `record` the quote is taken from, if it is one."""
    return _row_of(quote, record.text) if "|" in quote else None


@lru_cache(maxsize=16)  # asked by the ownership check and again by the effective time
def _row_of(quote: str, text: str) -> tuple[segments.Table, tuple[str, ...]] | None:
    wanted = normalise(quote).strip("| ")
    if not wanted:
        return None
    if found := _whole_rows(text).get(wanted):  # the rules quote whole rows: no scan
        return found
    for line, table, cells in _rows(text):
        if wanted in line:
            return table, cells
    return None


@lru_cache(maxsize=4)
def _whole_rows(text: str) -> dict[str, tuple[segments.Table, tuple[str, ...]]]:
    """Each table row of `text`, normalised without its outer bars, to its row (the first
    of rows alike)."""
    rows: dict[str, tuple[segments.Table, tuple[str, ...]]] = {}
    for line, table, cells in _rows(text):
        rows.setdefault(line.strip("| "), (table, cells))
    return rows


@lru_cache(maxsize=4)
def _normalised(text: str) -> str:
    """`normalise(text)` of a record, once for all the quotes taken from it (quote_in's
    test, without normalising a directory of hundreds of rows once per row)."""
    return normalise(text)


_unshown = lru_cache(maxsize=4)(injection.unshown)  # asked once per fact of a record


@lru_cache(maxsize=4)
def _normalised_shown(text: str) -> str:
    """The normalised text of a record without what Markdown does not show as said."""
    return normalise(injection.shown_text(text))


@lru_cache(maxsize=4)
def _rows(text: str) -> tuple[tuple[str, segments.Table, tuple[str, ...]], ...]:
    """Every table row of `text`, normalised: a directory's rows are each checked against
    the same record, which is cut once (the last few records' texts are kept)."""
    return tuple(
        (normalise(line), table, cells)
        for table in segments.tables(text)
        for line, cells in table.rows
    )


def _check_row(
    row: tuple[segments.Table, tuple[str, ...]], person: str, service: str, org: Org
) -> None:
    table, cells = row
    roles = [wording.column_role(h) for h in table.header]

    def columns(kind: str, entity: str) -> set[str | None]:
        found: set[str | None] = set()
        for i, cell in enumerate(cells):
            if entity in template(cell, org).ids(kind):
                found.add(roles[i] if i < len(roles) else None)
        return found

    person_in, service_in = columns(PERSON, person), columns(SERVICE, service)
    for i, cell in enumerate(cells):  # "| Billing Gateway | Ben (was Aria) |"
        if (
            i < len(roles)
            and roles[i] == "owner"
            and (said := wording.cell_standing(template(cell, org), person))
        ):
            raise Refused(said[0], f"the row's owner column names them {said[1]}")
    if "owner" not in person_in:
        if "previous" in person_in:
            raise Refused(PREVIOUS_OWNER, "the row lists the person in a previous-owner column")
        raise Refused(NO_OWNERSHIP_STATEMENT, "the row does not list the person as owner")
    has_service_column = "service" in roles
    if (has_service_column and "service" not in service_in) or not service_in:
        raise Refused(NO_OWNERSHIP_STATEMENT, "the row does not list the service as its subject")
    subjects = [
        (cell, t)
        for i, cell in enumerate(cells)
        if (i < len(roles) and roles[i] == "service") or not has_service_column
        if service in (t := template(cell, org)).ids(SERVICE)
    ]
    if subjects and not any(_names_only(t) for _, t in subjects):
        raise Refused(
            NO_OWNERSHIP_STATEMENT,
            f"the row's subject {subjects[0][0].strip()!r} is more than the service's name "
            "(a task or a part of it)",
        )
    if subjects and all(wording.scoped_cell(t) for _, t in subjects):  # "Billing Gateway (EU)"
        raise Refused(
            NO_OWNERSHIP_STATEMENT,
            f"the row's subject {subjects[0][0].strip()!r} is one environment or region of "
            "the service",
        )


def _names_only(cell: Template) -> bool:
    """Is a table cell a service's name (or several), with at most an article and words in
    brackets ("Billing Gateway (billing-gw)"), not a text that mentions one?"""
    depth = 0
    for token in cell.tokens:
        if token in ("(", "["):
            depth += 1
        elif token in (")", "]"):
            depth = max(depth - 1, 0)
        elif (
            depth == 0
            and token not in CLAUSE_END
            and token not in _NOT_A_NAME
            and not token.startswith("<s:")
        ):
            return False
    return True
