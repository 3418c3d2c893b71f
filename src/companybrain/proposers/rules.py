"""The offline proposer: deterministic wording rules over mention templates. It proposes
liberally (a transfer's old owner, "used to own", decisions taken in chat): the verifier
decides, and every refusal is kept for audit."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Collection, Sequence

from companybrain.model.facts import DecisionFact, OwnershipFact, Proposal
from companybrain.model.records import Org, Record
from companybrain.policy import segments, unknown_owner, wording
from companybrain.policy.mentions import (
    CLAUSE_END,
    MARKER,
    PERSON,
    SERVICE,
    Template,
    marker,
    template,
)
from companybrain.policy.text import quote_in

NAME = "rules"

_ID = r"[a-z0-9._-]+"
_P = rf"(?P<p><p:{_ID}>)"
_PL = rf"(?P<p>(?:<p:{_ID}> and )*<p:{_ID}>)"  # "Aria and Ben own ..."
_SL = rf"(?P<slist><s:{_ID}>(?: (?:and |or |as well as )?(?:the )?<s:{_ID}>)*)"
_FROM = r"(?: from (?P<oldspan>(?:\S+ ){0,5}?\S+))?"
_ADV = (
    r"(?:(?:now|still|also|currently|officially|formally|jointly|effectively|already|just"
    r"|fully|temporarily|provisionally|nominally) )*"
)
_ART = r"(?:(?:the|our|its|their) )?"
_AUX = (
    r"(?:(?:is|are|has|have|been|will|shall|be|remains|remain|being|now|still|currently"
    r"|officially|jointly|also|effectively|already|temporarily|provisionally|nominally) )*"
)
_ROLE = (
    r"(?:(?:new|current|sole|primary|main|acting|interim|temporary|provisional|nominal|co) )?"
    r"(?:owner|owners"
    r"|point of contact"
    r"|review contact"
    r"|contact person|poc)"
)
_IS = (
    r"(?:is|are|will be|is now|becomes|became|has become|have become|remains|stays|has been"
    r"|have been)"
)
_SUCCEEDS = (
    r"(?:replaces|replaced|has replaced|have replaced|will replace|is replacing|succeeds"
    r"|succeeded|has succeeded|will succeed|is succeeding|relieves|relieved|has relieved)"
)
_TAKE_OVER = rf"(?:takes|take|took|(?:has|have) {_ADV}taken|is taking|will take) over"
_MOVES = (
    r"(?:transfers|transferred|will transfer|moves|moved|will move|is moving|passes|passed"
    r"|will pass|goes|went|will go|handed|is handed|was handed)"
)
_GIVE = (
    r"(?:transfer|transfers|transferred|transferring|hand|hands|handed|handing|pass|passes"
    r"|passed|passing|give|gives|gave|giving|reassign|reassigns|reassigned|reassigning)"
)

# Each names the current owner (group p) of the services in group slist.
_CURRENT = [
    # "Kenji owns reco-engine", "Linnea Berg has taken over the Identity Service"
    # "Omar Haddad, who owns the ledger service, ..."; "Aria and Ben own the gateway"
    # "Bo Lind was on call last week and owns the billing gateway" (no one else between)
    # "Bo Lind, not Kofi Mensah, owns the billing gateway"
    rf"{_PL} (?:(?:and |but )?not <p:{_ID}> )?(?:(?:(?!<)\S+ ){{1,8}}?and )?(?:who )?{_ADV}"
    rf"(?:(?:will|shall) {_ADV})?"
    rf"(?:(?:co )?owns|(?:co )?own|has owned|have owned"
    rf"|{_TAKE_OVER}(?: as {_ART}{_ROLE} (?:of|for))?) {_ART}{_SL}",
    # "Kofi, who owned the billing gateway, now owns the search index" (no one else between)
    rf"{_P} (?:who|which) (?:(?!<p:)\S+ ){{1,8}}?{_ADV}(?:owns|has taken over|took over"
    rf"|has become (?:the )?owner of) {_ART}{_SL}",
    # "Bo Lind took the billing gateway over" (and "took it over", read for its service)
    rf"{_PL} {_ADV}(?:takes|take|took|has taken|have taken|is taking|will take) {_ART}{_SL} over",
    # "Bo Lind co-owns the billing gateway with Cy Park": both ("oldspan" names more people)
    rf"{_PL} {_ADV}co owns? {_ART}{_SL} with (?P<oldspan><p:{_ID}>)",
    # "Zofia is the point of contact for risk scoring", "Kofi as owner of the gateway"
    rf"{_P} (?:{_ADV}{_IS} {_ADV}|as ){_ART}{_ROLE} (?:of|for) {_ART}{_SL}",
    # "BILLING-GW is owned by aria", "has been owned by Elif since March", "taken over by"
    rf"{_SL} {_AUX}(?:owned|co owned|jointly owned|taken over) by {_ADV}{_PL}",
    # "Ben is the billing gateway owner", "Ben is the billing gateway's new owner"
    rf"{_P} {_ADV}{_IS} {_ADV}{_ART}{_SL} (?:s )?{_ROLE}",
    # "Bo Lind assumed ownership of the billing gateway", "took over ownership of"
    rf"{_PL} {_ADV}(?:(?:has |have |will )?(?:assumed|taken|assume|take)|assumes|takes|took"
    rf"|is taking|is assuming) (?:over )?(?:the |full )?ownership (?:of|for) {_ART}{_SL}",
    # "Bo Lind replaced Kofi Mensah as owner of the billing gateway" (Kofi: proposed by the
    # "as owner of" form, refused by the verifier as the one replaced)
    rf"{_PL} {_ADV}{_SUCCEEDS} <p:{_ID}> as {_ART}{_ROLE} (?:of|for) {_ART}{_SL}",
    rf"{_PL} {_ADV}{_SUCCEEDS} <p:{_ID}> as {_ART}{_SL} (?:s )?{_ROLE}",
    # "Bo Lind inherits the billing gateway (from Kofi)"
    rf"{_PL} {_ADV}(?:inherits|inherit|inherited|has inherited|have inherited|will inherit)"
    rf" {_ART}{_SL}",
    # "The billing gateway now belongs to Bo Lind"
    rf"{_SL} {_AUX}(?:belongs|belong) to {_ADV}{_P}",
    # "The point of contact for risk scoring is Zofia Kowalska"
    rf"{_ART}{_ROLE} (?:of|for) {_ART}{_SL} {_IS} {_ADV}{_P}",
    # "the billing gateway's owner is Kofi"
    rf"{_SL} (?:s )?{_ROLE} {_IS} {_ADV}{_P}",
    # "The billing gateway's owner, Bo Lind, is on leave"; "Contact Bo Lind, owner of the
    # billing gateway" (the commas are not in the template)
    rf"{_SL} (?:s )?{_ROLE} {_P}",
    rf"{_P} {_ART}{_ROLE} (?:of|for) {_ART}{_SL}",
    # "ownership of the audit log pipeline transfers from Viktor Sokolov to Amara Nwosu"
    rf"(?:{_ART}ownership of )?{_ART}{_SL} (?:ownership )?{_AUX}{_MOVES}(?: over)?{_FROM} to {_P}",
    # "... moved to Kofi and back to Lena", "transfers to Ben, then to Cora": the last one
    rf"(?:{_ART}ownership of )?{_ART}{_SL} (?:ownership )?{_AUX}{_MOVES}"
    rf" (?:(?!<s:)\S+ ){{0,8}}?(?:back|then|later)(?: (?:back|over|on))? to {_P}",
    # "transfers Y from A to B", "I'm handing the build farm over to Tomas"
    rf"{_GIVE} (?:over )?(?:ownership of )?{_ART}{_SL}(?: ownership)?(?: over)?{_FROM} to {_P}",
    rf"handover of {_ART}{_SL}{_FROM} to {_P}",
]
# Each names someone who no longer owns (group p): proposed so that the verifier's refusal
# is on record ("used to own", "previously owned by", "no longer owns").
_FORMER = [
    rf"{_PL} {_ADV}(?:used to own|no longer owns?|previously owned|formerly owned|once owned"
    rf"|originally owned|owned) {_ART}{_SL}",
    rf"{_SL} (?:was|were|had been|is no longer|are no longer|used to be)"
    rf" (?:previously |formerly |originally |once )?owned by {_P}",
    rf"{_P} (?:is|was) {_ART}(?:previous|former|old|outgoing|prior) owner of {_ART}{_SL}",
    rf"{_P} (?:was|were|had been) {_ART}{_ROLE} (?:of|for) {_ART}{_SL}",  # "was the owner"
    # "Kofi, who owned the billing gateway, now owns the search index"
    rf"{_P} (?:who|which) (?:once |formerly |previously |originally )?(?:owned|had owned"
    rf"|used to own) {_ART}{_SL}",
]
_PART = wording.PART  # "owns the billing gateway runbook": a part of it, not it
# Straight after the services someone is said to own, a verb makes the last of them the
# subject of a clause of its own: in "Bo owns the search index and the billing gateway is
# unowned" (or "..., and the billing gateway moves to Cy") Bo owns the search index only.
_PREDICATE = re.compile(
    r" (?:is|are|was|were|has|have|had|will|shall|remains|stays|goes|moves|passes|transfers"
    r"|changes|becomes|needs|gets|keeps|belongs|lacks|does|did)(?!\S)"
)
_LAST_ITEM = re.compile(rf" (?:(?:and|or|as well as) )?(?:the )?<s:{_ID}>$")
# The last item of a list with an article of its own: a part named after it is its part only
# ("owns the search index and the billing gateway roadmap", not "and billing gateway docs").
_OWN_ITEM = re.compile(rf" (?:and|or|as well as) (?:the |our |its )<s:{_ID}>$")
# Likewise the first of the services a clause says are owned by someone is the object of
# the owning verb before it: in "Bo owns the billing gateway and the search index is owned
# by Cy" Cy owns the search index only.
_OBJECT_OF = re.compile(r"(?:^|\s)(?:owns|own|over) (?:the )?$")
_BARE_VERB = re.compile(r"(?:^|\s)(?:owns|own|over) ,")
_LEADS = frozenset(("", "the ", "our ", "its ", "their "))  # a pattern's words before its list
_FIRST_ITEM = re.compile(rf"^<s:{_ID}>(?: (?:(?:and|or|as well as) )?(?:the )?|$)")
# Every pattern above holds one of these (as part of a word, or "go"/"goes" as a word), so a
# sentence without any is not templated: finding its names is most of the cost of a record.
WORDING = re.compile(
    r"own|over|contact|poc|transfer|mov|pass|went|hand|giv|gave|reassign|inherit|belong"
    r"|(?<![^\W_])go(?:es)?(?![^\W_])"
)
_CHAT_DECISION = re.compile(
    r"\b(?:let s decide|let us decide|we decided|we ve decided|we have decided|decided to)\b"
)


def _compile(patterns: list[str]) -> list[re.Pattern[str]]:
    return [re.compile(rf"(?<!\S){p}(?!\S)") for p in patterns]


CURRENT = _compile(_CURRENT)
FORMER = _compile(_FORMER)


def propose(record: Record, org: Org) -> Proposal:
    found: dict[tuple[str, str], OwnershipFact] = {}

    def add(service: str, owner: str, quote: str) -> None:
        found.setdefault((service, owner), OwnershipFact(record.id, service, owner, quote))

    # Cutting the text is most of the cost of a record, and most records hold neither
    # ownership wording nor a decision phrase anywhere: no piece of them can.
    wanted = may_state_ownership(record.text) or (
        record.kind != "adr" and may_decide_in_chat(record.text)
    )
    units = segments.units(record.text) if wanted else []
    unread: list[OwnershipFact] = []
    before: segments.Unit | None = None  # the sentence right before, for "it"
    for unit in units:
        if unit.kind == segments.ROW and unit.table is not None:
            for service, owner in _from_row(unit, org):
                add(service, owner, unit.text)
        elif unit.kind == segments.FIELD:
            for service, owner in _from_field(unit.text, record, org):
                add(service, owner, unit.text)
        elif (
            unit.kind == segments.SENTENCE
            and wording.column_role(unit.section) == "owner"
            and (listed := _from_listed(unit.text, org))
        ):
            for service, owner in listed:  # "## Owners" ... "- Billing gateway: Bo Lind"
                add(service, owner, unit.text)
        elif unit.kind == segments.SENTENCE and may_state_ownership(unit.text):
            pairs = _sentence_pairs(unit.text, org)
            for service, owner in pairs:
                add(service, owner, unit.text)
            if not pairs and before is not None:  # "... changed hands. Bo now owns it."
                both = f"{before.text} {unit.text}"
                for service, owner in _pronoun_pairs(before.text, unit.text, org):
                    if quote_in(both, record.text):
                        pairs.append((service, owner))
                        add(service, owner, both)
                if not pairs and (it := _unread_it(before.text, unit.text, both, record, org)):
                    unread += it if quote_in(both, record.text) else []  # "He took it over."
            unread += _unread_change(unit.text, record, org, {s for s, _ in pairs})
        before = unit if unit.kind == segments.SENTENCE else None
    return Proposal(
        record.id, tuple(found.values()), _decisions(record, units), NAME, unread=tuple(unread)
    )


def _unread_change(sentence: str, record: Record, org: Org, read: set[str]) -> list[OwnershipFact]:
    """For the services of a sentence no pattern read an owner of (those not in `read`),
    where a clause naming one says it changes or changed hands ("Kofi Mensah stepped down
    as owner of the billing gateway.", "The billing gateway is unowned as of today.",
    "Yesterday Zara Quinn took over the billing gateway.", "Bo owns the search index and the
    billing gateway is unowned."): the verifier keeps it as a change to someone it does not
    name. Not for a part of a service, nor for a clause about something else ("Bo took
    over the on-call rota, so ask him about the billing gateway alerts")."""
    if not _CHANGE_OF_HANDS.search(unicodedata.normalize("NFKC", sentence).casefold()):
        return []
    services: list[str] = []
    for clause in _change_clauses(template(sentence, org)):
        text = " ".join(clause)
        if not _CHANGE_OF_HANDS.search(text):
            continue
        for m in MARKER.finditer(text):
            if m.group(1) == SERVICE and m.group(2) not in read and not _PART.match(text, m.end()):
                services.append(m.group(2))
    return [OwnershipFact(record.id, s, "", sentence) for s in dict.fromkeys(services)]


def _unread_it(
    before: str, sentence: str, both: str, record: Record, org: Org
) -> list[OwnershipFact]:
    """A sentence naming no service, whose one "it" or "its" is a service the sentence
    `before` names, where it says that service changes hands, or who owns it without a name
    ("Kofi Mensah presented the billing gateway. He took it over last week."): who "he" is
    cannot be read, nor which service "it" is when the sentence before names several, so
    it is a change of each to someone the record does not name (quoted with the sentence
    before, `both`)."""
    t = template(sentence, org)
    its = [i for i, token in enumerate(t.tokens) if token in ("it", "its")]
    if "<s:" in t.text or len(its) != 1:
        return []
    text = t.text
    at = len(" ".join(w for w in t.tokens[: its[0] + 1] if w not in CLAUSE_END))
    if _PART.match(text, at) or not (
        _CHANGE_OF_HANDS.search(text) or (_SOMEONE.search(text) and wording.states_ownership(text))
    ):
        return []  # "He took its on-call over", "He liked it"
    return [OwnershipFact(record.id, s, "", both) for s in _whole_services(before, org)]


def _whole_services(sentence: str, org: Org) -> list[str]:
    """The services `sentence` names, but for those it names a part of ("the billing
    gateway roadmap"): what "it" in the next sentence may be."""
    text = template(sentence, org).text
    found = (m for m in MARKER.finditer(text) if m.group(1) == SERVICE)
    return list(dict.fromkeys(m.group(2) for m in found if not _PART.match(text, m.end())))


# Someone a sentence does not name: "He owns it now."
_SOMEONE = re.compile(r"\b(?:he|she|they|him|her|them|someone|somebody)\b")


def _change_clauses(t: Template) -> list[list[str]]:
    """A sentence's clauses, split at punctuation and at a joining word that does not join
    services into a list ("the billing gateway and the search index")."""
    out: list[list[str]] = [[]]
    tokens = t.tokens
    for i, token in enumerate(tokens):
        joins = token in _JOINS and not _LISTED.match(" ".join(tokens[i + 1 : i + 3]))
        if token in CLAUSE_END or joins:
            out.append([])
        else:
            out[-1].append(token)
    return [c for c in out if c]


_JOINS = frozenset(("and", "but", "so", "while", "whereas"))
_LISTED = re.compile(r"(?:the |our |its )?<s:")

# Words saying a service changes or changed hands (or has no owner), whoever the sentence
# names: read as such only where no pattern read who owns it.
_CHANGE_OF_HANDS = re.compile(
    r"\b(?:take|takes|took|taken|taking) (?:\S+ ){0,5}over\b"
    r"|\bhand(?:s|ed|ing)? (?:\S+ ){0,5}over\b"
    r"|\bstep(?:s|ped|ping)? (?:down|aside)\b|\bresign\w*|\bunowned\b|\bownerless\b"
    r"|\bno (?:longer|owner)\b"
    r"|\b(?:hand(?:s|ed|ing)?|transfer\w*|reassign\w*) (?:\S+ ){0,6}?to\b"  # "... to the team"
    r"|\bnew owner\b|\bchang\w* hands\b|\breassign\w*\b"
    r"|\bownership\b.{0,60}\b(?:transfer\w*|pass\w*|mov\w*|chang\w*)\b"
)


def beside_a_model(record: Record, org: Org, read: Collection[tuple[str, str]] = ()) -> Proposal:
    """What `propose` reads that a model is not asked for, for the model proposer to add
    to its reading (`read`: the (service, owner) pairs it proposed, not proposed again),
    so that a sentence gets the same treatment whoever proposes:

    - facts naming an owner org.yaml does not list, or no owner (a vacant row): a model is
      given the listed ids only and asked to name no one else, so a hand-over to a new hire
      would be lost;
    - someone a sentence says no longer owns a service ("Kofi Mensah no longer owns the
      billing gateway."): a model is told never to report a previous owner, and without the
      verifier's refusal of it the change of hands is lost (the owner before answers on);
    - the other owners a sentence names beside one the model read ("Cora co-owns the
      billing gateway with Kofi"): the model made Cora the sole owner, where the rules'
      reading of both refuses CONFLICT;
    - changes of hands no pattern reads an owner from (`unread`)."""
    found = propose(record, org)
    owners: dict[tuple[str, str], set[str]] = {}
    for f in found.ownership:
        owners.setdefault((f.service, f.quote), set()).add(f.owner)
    by_model = {service for service, _ in read}
    ownership = tuple(
        f
        for f in found.ownership
        if (f.service, f.owner) not in read
        and (
            org.person(f.owner) is None
            or (f.service, f.owner) in sentence_owners(template(f.quote, org), FORMER)
            or (
                f.service in by_model
                and len(owners[(f.service, f.quote)]) > 1
                and wording.standing(template(f.quote, org), f.owner) is None
            )
        )
    )
    return Proposal(record.id, ownership, proposer=NAME, unread=found.unread)


def may_state_ownership(sentence: str) -> bool:
    """False only for a sentence no ownership pattern can match (its words folded as
    `mentions.template` folds them)."""
    return WORDING.search(unicodedata.normalize("NFKC", sentence).casefold()) is not None


def may_decide_in_chat(text: str) -> bool:
    """False only for a text no piece of which `_decisions` reads as a decision (folded as
    it folds a piece; quote marks at line starts are dropped as pieces drop them)."""
    return _CHAT_DECISION.search(_fold(text.replace(">", " "))) is not None


def _fold(text: str) -> str:
    return " ".join(text.lower().replace("'", " ").split())


def sentence_owners(
    t: Template, patterns: Sequence[re.Pattern[str]] = (*CURRENT, *FORMER)
) -> list[tuple[str, str]]:
    """(service, person) pairs a sentence states, current and former owners alike (or
    those of `patterns` only)."""
    text = t.text
    if "<p:" not in text or "<s:" not in text:
        return []  # every pattern needs a person and a service
    if "," in t.tokens or " and " in text or " or " in text:
        text = _known_items(t)
    # "Cy Park took over, the billing gateway ... are owned by Bo": "over" has no object
    bare = "," in t.tokens and _BARE_VERB.search(" ".join(t.tokens)) is not None
    pairs: list[tuple[str, str]] = []
    for pattern in patterns:
        for m in pattern.finditer(text):
            slist = m.group("slist")
            if m.end("slist") == m.end():
                if _PART.match(text, m.end()):
                    if not _OWN_ITEM.search(slist):
                        continue  # what is owned is a part of the services, not they
                    slist = _LAST_ITEM.sub("", slist)  # "... and the billing gateway roadmap"
                if _PREDICATE.match(text, m.end()):  # "... and the ledger is unowned"
                    slist = _LAST_ITEM.sub("", slist)
            lead = text[m.start() : m.start("slist")]
            if _OBJECT_OF.search(text, 0, m.start("slist")):
                if lead not in _LEADS and bare:
                    continue  # read as the object of a verb a comma ends ("took over, ...")
                if lead in _LEADS and not bare:
                    slist = _FIRST_ITEM.sub("", slist)  # "owns the ledger and the X is owned by"
            services = [s for k, s in MARKER.findall(slist) if k == SERVICE]
            old = m.groupdict().get("oldspan") or ""
            owners = [p for k, p in MARKER.findall(f"{m.group('p')} {old}") if k == PERSON]
            pairs += [(s, p) for s in services for p in owners]
    return list(dict.fromkeys(pairs))


def _known_items(t: Template) -> str:
    """`t.text` without the items of a list of services that org.yaml does not list: "The
    billing gateway, the ledger and the search index are owned by Bo" is read as "the
    billing gateway and the search index are owned by Bo" (the ledger, unknown, said
    nothing of the others before)."""
    said = _UNKNOWN_ITEM.sub(lambda m: m.group(1) or m.group(2), " ".join(t.tokens))
    return " ".join(w for w in said.split() if w not in CLAUSE_END)


# After a service in a list, a separator and one to three words that name no one and are
# no verb, followed by the list's next service or by the verb the list is the subject of.
_SEP = r"(?: ,(?: and| or)?| and| or| as well as)"
_NOT_ITEM = (
    r"(?:is|are|was|were|has|have|had|be|been|will|now|still|owned|owns|own|to|by|from|and|or"
    r"|the|not|no)(?![^\W_])"
)
_WORDS = rf"(?:the |our |its )?(?:(?!{_NOT_ITEM})[^\W_]+ ){{0,2}}(?!{_NOT_ITEM})[^\W_]+"
_UNKNOWN_ITEM = re.compile(
    # in the middle: "the billing gateway, the ledger and the search index"
    rf"(<s:{_ID}>){_SEP} {_WORDS}(?={_SEP} (?:the |our |its )?<s:)"
    # last, after "and" or "or", in a list of two services or more: "the billing gateway,
    # the search index and the ledger are owned by" (not "keeps the billing gateway and
    # the rest is owned by")
    rf"|(<s:{_ID}>(?:(?: ,)?(?: and| or)? (?:the |our |its )?<s:{_ID}>)+)"
    rf"(?: ,)?(?: and| or| as well as) {_WORDS}"
    rf"(?= ,? ?{_AUX}(?:owned|co owned|jointly owned|taken over|{_MOVES}) )"
)


def _pronoun_pairs(before: str, sentence: str, org: Org) -> list[tuple[str, str]]:
    """(service, person) pairs a sentence naming no service states with "it" or "its" for
    the one service the sentence `before` it names ("The billing gateway changed hands. Bo
    Lind now owns it."): read only when that is unambiguous (one pronoun, one service)."""
    t = template(sentence, org)
    if "<p:" not in t.text or "<s:" in t.text:
        return []
    its = [i for i, token in enumerate(t.tokens) if token in ("it", "its")]
    named = _whole_services(before, org) if len(its) == 1 else []
    if len(named) != 1:
        return []
    tokens = list(t.tokens)
    tokens[its[0]] = marker(SERVICE, named[0])
    return sentence_owners(Template(tuple(tokens)))


def _sentence_pairs(sentence: str, org: Org) -> list[tuple[str, str]]:
    """(service, owner) pairs a sentence states. A sentence of clauses that name different
    owners pairs each with the services of its own clause: "Bo Lind owns the billing
    gateway, and the search index moves to Cy Park." does not make Cy the billing gateway's
    owner, nor Bo the search index's (a pattern reads the services across the comma as one
    list). A service no clause names alone with an owner keeps the sentence's pairs ("The
    billing gateway, and the search index, are owned by Bo")."""
    t = template(sentence, org)
    pairs = [*sentence_owners(t), *_unlisted_in_sentence(sentence, t, org)]
    if len({p for _, p in pairs}) < 2 or not _CLAUSE.search(sentence):
        return pairs
    by_clause: set[tuple[str, str]] = set()
    for clause in _CLAUSE.split(sentence):
        c = template(clause, org)
        by_clause.update([*sentence_owners(c), *_unlisted_in_sentence(clause, c, org)])
    placed = {s for s, _ in by_clause}
    return [(s, p) for s, p in pairs if (s, p) in by_clause or s not in placed]


# Where a sentence's clauses part: a semicolon, or a comma before "and", "but", "while" ...
_CLAUSE = re.compile(r";|,\s+(?:and|but|while|whereas)\b", re.I)


def _unlisted_in_sentence(sentence: str, t: Template, org: Org) -> list[tuple[str, str]]:
    """(service, name) pairs for a name org.yaml does not list, where the sentence would
    state that the person of that name owns the service now ("... transfers to Zara
    Quinn"). Only a sentence naming a service is looked at, and only the current-owner
    wordings: the verifier refuses anything else, and an unlisted former owner changes
    no answer."""
    if "<s:" not in t.text:
        return []
    pairs: list[tuple[str, str]] = []
    for name in unknown_owner.candidates(sentence, org):
        text = template(sentence, unknown_owner.stand_in_org(org, name)).text
        for pattern in CURRENT:
            for m in pattern.finditer(text):
                if unknown_owner.STAND_IN in m.group("p"):
                    services = [i for k, i in MARKER.findall(m.group("slist")) if k == SERVICE]
                    pairs += [(s, name) for s in services]
    return pairs


def _cell_owners(value: str, org: Org) -> list[str]:
    """Who an owner cell or `Owner:` value names: no one when it says so first ("unassigned
    (ask Yuki)": Yuki is who to ask, not the owner), else the people it names, else a name
    org.yaml does not list."""
    if wording.says_vacant(value):
        return [unknown_owner.VACANT]
    return template(value, org).ids(PERSON) or unknown_owner.candidates(value, org)[:1]


def _from_row(unit: segments.Unit, org: Org) -> list[tuple[str, str]]:
    assert unit.table is not None
    roles = [wording.column_role(h) for h in unit.table.header]
    service_cols = [i for i, r in enumerate(roles) if r == "service"] or [0]
    owner_cols = [i for i, r in enumerate(roles) if r == "owner"]
    cells = unit.cells
    services = [
        s for i in service_cols if i < len(cells) for s in template(cells[i], org).ids(SERVICE)
    ]
    owners = [p for i in owner_cols if i < len(cells) for p in _cell_owners(cells[i], org)]
    return [(s, p) for s in services for p in owners]


# A key naming whose owner the line gives ("Billing gateway owner", "Search index
# ownership"): its service is the one it names, never the record's.
_NAMED_KEY = re.compile(
    r"^(?!(?:service|system|current|new) )(?:[\w-]+ ){1,4}(?:owner|owners|ownership)$"
    r"|^(?:owner|owners|ownership|point of contact|review contact|poc) (?:of|for) "
)


def _from_field(line: str, record: Record, org: Org) -> list[tuple[str, str]]:
    """`Owner: Darius Karimi (Ledger Service)`: the service named on the line, else the one
    service the record is about (front matter `about`, else its title)."""
    field = segments.field_of(line)
    if field is None or wording.field_role(field[0]) != "owner":
        return []
    owners = _cell_owners(field[1], org)[:1]
    if _NAMED_KEY.match(field[0]):  # "Billing gateway owner: Bo", not "Change owner: Cy"
        services = template(field[0], org).ids(SERVICE)
        return [(services[0], p) for p in owners] if len(services) == 1 else []
    services = template(line, org).ids(SERVICE)
    if not services:
        services = [s for s in record.about if org.service(s) is not None]
    if not services:
        services = template(record.title or "", org).ids(SERVICE)
    if len(services) != 1:
        return []
    return [(services[0], p) for p in owners]


def _from_listed(line: str, org: Org) -> list[tuple[str, str]]:
    """Under a heading naming owners ("## Owners", "## Service owners"), a `Key: value`
    line whose key is a service's name and nothing else: "Billing gateway: Bo Lind"."""
    field = segments.field_of(line)
    if field is None or not (key := template(field[0], org)).ids(SERVICE):
        return []
    if not wording.names_only(key):
        return []  # "Upgrade the billing gateway: Cy" is a task's
    return [(s, p) for s in key.ids(SERVICE) for p in _cell_owners(field[1], org)[:1]]


def _decisions(record: Record, units: list[segments.Unit]) -> tuple[DecisionFact, ...]:
    """`units`: the record's text cut by `segments.units`."""
    title = record.title or record.id
    if record.kind == "adr":
        quote = _adr_decision(record.text)
        return (DecisionFact(record.id, title, quote),) if quote else ()
    for unit in units:  # chat and the like: proposed, then refused
        if unit.kind == segments.SENTENCE and _CHAT_DECISION.search(_fold(unit.text)):
            return (DecisionFact(record.id, title, unit.text),)
    return ()


def _adr_decision(text: str) -> str | None:
    """The first sentence of the Decision section; else a `Decision:` line; else the first
    sentence worded as a decision ("We will ...")."""
    section = segments.section_text(text, "decision")
    if section:
        first = next((u for u in segments.units(section) if u.kind == segments.SENTENCE), None)
        if first:
            return first.text
    for line in text.splitlines():
        field = segments.field_of(line)
        if field and field[0] == "decision":
            return segments.collapse(line)
    for unit in segments.units(text):
        folded = " ".join(unit.text.lower().replace("'", " ").split())
        if unit.kind == segments.SENTENCE and wording.DECISION_WORDING.search(folded):
            return unit.text
    return None
