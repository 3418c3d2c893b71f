"""Checks on an explanation a model wrote for an answer. Any failed check discards the
model's words for the template; each check returns its reason (None when it passes).

Quoting a record is allowed ("msg-038 says 'Ines still owns billing gateway'"); asserting
what it says is not. So a quoted span that appears verbatim in the evidence is set aside
before the checks that look for assertions."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import date

from companybrain.policy.injection import disguised_word, instructs
from companybrain.policy.text import fold_name, names_in, quote_in

MAX_SENTENCES = 3
# Three sentences of plain English; a looping model's one "sentence" of 100,000 quoted
# names had none, and passed.
MAX_CHARS = 1_500


@dataclass(frozen=True)
class Named:
    """A person the explanation might name, with every way text may name them."""

    id: str
    names: tuple[str, ...]


@dataclass(frozen=True)
class ExplanationFacts:
    """What the answer says, for checking what an explanation says about it."""

    status: str  # answered | refused
    refusal_code: str | None = None
    owners: tuple[Named, ...] = ()  # must be named; the answer names them as owners
    outranked: tuple[Named, ...] = ()  # named by outranked claims only: never "the owner"
    in_evidence: tuple[Named, ...] = ()  # everyone the evidence names (may be mentioned)
    people: tuple[Named, ...] = ()  # everyone the graph knows, to find names in text
    quotes: tuple[str, ...] = ()  # verbatim quotes the explanation may repeat
    vocabulary: frozenset[str] = field(default_factory=frozenset)  # words the evidence uses
    # services and projects the graph knows that the answer neither is about nor names
    elsewhere: tuple[Named, ...] = ()


Check = Callable[[str, str, ExplanationFacts], str | None]  # (text, assertions, facts)


def check_explanation(text: str, facts: ExplanationFacts) -> str | None:
    """None when the model's explanation may be shown, else the first reason it may not."""
    if len(text) > MAX_CHARS:  # before reading its quotes: that is not linear in it
        return f"it is {len(text):,} characters; at most {MAX_CHARS:,} are allowed"
    assertions = _without_quotes(text, facts.quotes)
    for check in CHECKS:
        reason = check(text, assertions, facts)
        if reason:
            return reason
    return None


# -- the checks ---------------------------------------------------------------------------


def too_long_or_empty(text: str, assertions: str, facts: ExplanationFacts) -> str | None:
    if not text.strip():
        return "it is empty"
    n = len(_sentences(text))
    if n > MAX_SENTENCES:
        return f"it has {n} sentences; at most {MAX_SENTENCES} are allowed"
    return None


_INTERNAL = re.compile(
    r"\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b"  # snake_case: effective_ms, claim_id
    r"|\b[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+\b"  # LOW_AUTHORITY, NAMES_OWNER
    r"|\b[a-z]+[A-Z][A-Za-z]*\b"  # camelCase: effectiveAt, ownerId
    r"|\b(?:OwnershipClaim|ATTESTS|SUPERSEDES|MENTIONS|ABOUT|acl)\b"
    r"|:[A-Z][a-z]+\b|\$[a-z_]+|[{}]"
)


def leaks_internal_names(text: str, assertions: str, facts: ExplanationFacts) -> str | None:
    match = _INTERNAL.search(assertions)
    return f"it uses the internal name {match.group(0)!r}" if match else None


_APPROVED = re.compile(
    r"\b(?:approved|pre-approved|signed[- ]off|cleared\s+(?:for|to)|green[- ]?lit)\b", re.I
)
_APPROVE_VERB = re.compile(
    r"\b(?:approves?|approving|signs?[- ]off|sign[- ]off\s+on|good\s+to\s+go"
    r"|(?:can|may|is\s+(?:ready|free|clear)\s+to)\s+(?:ship|go\s+ahead|go\s+out|be\s+released))\b",
    re.I,
)
_NOT_RECORDED = re.compile(
    r"\b(?:not\s+recorded|does\s+not\s+record|doesn't\s+record|not\s+record|no\s+record"
    r"|never\s+records?|not\s+in\s+the\s+(?:graph|records)|do\s+not\s+say|does\s+not\s+say"
    r"|doesn't\s+say|not\s+approval)\b",
    re.I,
)


_LINK_OR_MARKUP = re.compile(r"\bhttps?://|\bwww\.|\]\(|<\s*/?\s*[a-z!][^>]*>", re.I)


def carries_orders_or_hidden_text(
    text: str, assertions: str, facts: ExplanationFacts
) -> str | None:
    """Words a record planted for the model to repeat: orders to the reader, links or markup
    the answer has no use for, invisible characters."""
    if disguised := disguised_word(text):
        return disguised
    if ordered := instructs(assertions):
        return ordered.replace("it addresses", "it passes on")
    if link := _LINK_OR_MARKUP.search(assertions):
        return f"it holds a link or markup ({link.group(0)!r})"
    return None


def says_approved(text: str, assertions: str, facts: ExplanationFacts) -> str | None:
    return approval_claim(assertions)


def approval_claim(assertions: str) -> str | None:
    """Nothing is ever approved: the records hold review contacts, not approval authority.
    (Also checked on an agent's answers: policy/answer_checks.py.)"""
    match = _APPROVED.search(assertions)
    if match:
        return f"it says something is {match.group(0)!r}; the records never say that"
    for sentence in _sentences(assertions):
        verb = _APPROVE_VERB.search(sentence)
        if verb and not _NOT_RECORDED.search(sentence):
            return f"it speaks of who {verb.group(0)!r} without saying that is not recorded"
    return None


def names_someone_not_in_evidence(
    text: str, assertions: str, facts: ExplanationFacts
) -> str | None:
    allowed = {p.id for p in facts.in_evidence}
    for person in facts.people:
        if person.id not in allowed and names_in(assertions, person.names):
            return f"it names {person.names[0]}, whom the evidence does not name"
    stranger = _unknown_proper_name(assertions, facts)
    if stranger:
        return f"it names {stranger!r}, which the evidence does not"
    return None


def calls_outranked_the_owner(text: str, assertions: str, facts: ExplanationFacts) -> str | None:
    """Only the answer's owners may be called an owner: not an outranked claim's person, nor
    anyone else the evidence names (a previous owner in a quote), nor anyone in a refusal."""
    owners = {p.id for p in facts.owners}
    everyone = {p.id: p for p in (*facts.outranked, *facts.in_evidence)}
    suspects = [p for p in everyone.values() if p.id not in owners]
    for person in suspects:
        for name in person.names:
            if _asserts_owner(assertions, name):
                if facts.status == "refused":
                    what = "a refusal"
                elif person in facts.outranked:
                    what = "an outranked claim"
                else:
                    what = "the answer"
                return f"it calls {name} the owner, which {what} does not allow"
    return None


def names_a_service_not_in_evidence(
    text: str, assertions: str, facts: ExplanationFacts
) -> str | None:
    """A service or project the answer is not about and its evidence does not name: "Kofi
    owns the billing gateway and the search index", from the billing gateway's answer."""
    for thing in facts.elsewhere:
        for name in thing.names:
            many = len(name.split()) > 1
            if (many and names_in(assertions, [name])) or (
                not many
                and not name.islower()
                and re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-])", assertions)
            ):
                return f"it names {name}, which the evidence does not"
    return None


_FIGURE = re.compile(r"\d+")
# An id such as CC-1047, msg-038 or ADR-009: a name, not a figure.
_ID_WORD = re.compile(r"[A-Za-z][\w.-]*\d[\w.-]*|\d[\w.-]*[A-Za-z][\w.-]*")


def gives_a_figure_not_in_evidence(
    text: str, assertions: str, facts: ExplanationFacts
) -> str | None:
    """Every number (a day, a year, a time, an authority) must be one the evidence has:
    a model writing "since 15 October 2027" beside the record of 14 October 2026 is wrong."""
    known = {
        str(int(n))
        for source in (*facts.vocabulary, *facts.quotes)
        for n in _FIGURE.findall(_ID_WORD.sub(" ", source) + " " + source)
    }
    for n in _FIGURE.findall(_ID_WORD.sub(" ", assertions)):
        if str(int(n)) not in known:
            return f"it gives the figure {n}, which the evidence does not have"
    return None


_MONTHS = (  # noqa: SIM905 (a word list reads better as words)
    "january february march april may june july august september october november december"
).split()
_WEEKDAYS = "monday tuesday wednesday thursday friday saturday sunday".split()  # noqa: SIM905
# A month or a weekday by name, as written in prose ("since March", "on Tuesday"); lower
# case "may" and "march" are words.
DATE_WORD = re.compile(
    r"\b(?:(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec)\b\.?|January|February"
    r"|March|April|June|July|August|September|October|November|December|Monday|Tuesday"
    r"|Wednesday|Thursday|Friday|Saturday|Sunday)\b"
)
_ISO_DAY = re.compile(r"\b(\d{4})-(\d{2})-(\d{2})")


def date_word_in(word: str, evidence_text: str) -> bool:
    """Does the evidence give this month or weekday, by name or in a date of its own
    (2026-10-14 is an October and a Wednesday)? (Also checked on an agent's answers:
    policy/answer_checks.py.)"""
    word = word.rstrip(".").casefold()
    months = [i for i, m in enumerate(_MONTHS, 1) if m.startswith(word)]
    days = [i for i, d in enumerate(_WEEKDAYS) if d == word]
    names = [_MONTHS[i - 1] for i in months] + [_WEEKDAYS[i] for i in days]
    folded = evidence_text.casefold()
    if any(re.search(rf"\b{n[:3]}", folded) for n in names):
        return True
    for y, mo, d in _ISO_DAY.findall(evidence_text):
        try:
            day = date(int(y), int(mo), int(d))
        except ValueError:
            continue
        if day.month in months or day.weekday() in days:
            return True
    return False


def gives_a_date_not_in_evidence(text: str, assertions: str, facts: ExplanationFacts) -> str | None:
    """A month or weekday by name must be one the evidence gives: "since 14 March 2026"
    passes the figure check beside the record of 14 October 2026. So must a day of a
    month: "since 10 October 2026" passes both beside 2026-10-14 (10 is its month)."""
    evidence = "\n".join((*facts.vocabulary, *facts.quotes))
    for m in DATE_WORD.finditer(assertions):
        if not date_word_in(m.group(0), evidence):
            return f"it gives the date {m.group(0)!r}, which the evidence does not have"
    for day in days_written(assertions):
        if not day_in(day, evidence):
            return f"it gives the date {day.said!r}, which the evidence does not have"
    return None


@dataclass(frozen=True)
class WrittenDay:
    """A day of a month as prose writes it ("14 October", "Oct. 14th, 2026")."""

    said: str
    start: int
    month: int
    day: int
    year: int | None

    @property
    def month_name(self) -> str:
        return _MONTHS[self.month - 1]


_MONTH_NAME = (
    r"(?:January|February|March|April|May|June|July|August|September|October|November"
    r"|December|Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec)\b\.?"
)
_DAY_OF_MONTH = re.compile(
    rf"\b(\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?({_MONTH_NAME})(?:,?\s+(\d{{4}})\b)?"
    rf"|\b({_MONTH_NAME})\s+(\d{{1,2}})(?:st|nd|rd|th)?(?![\d:])(?:,?\s+(\d{{4}})\b)?"
)


def days_written(text: str) -> list[WrittenDay]:
    """Every day of a month `text` writes out with the month's name."""
    out = []
    for m in _DAY_OF_MONTH.finditer(text):
        day, name, year = (m.group(1), m.group(2), m.group(3))
        if day is None:
            day, name, year = (m.group(5), m.group(4), m.group(6))
        month = next(i for i, n in enumerate(_MONTHS, 1) if n.startswith(name.rstrip(".").lower()))
        said = " ".join(m.group(0).split()).rstrip(".")
        out.append(WrittenDay(said, m.start(), month, int(day), int(year) if year else None))
    return out


def day_in(day: WrittenDay, evidence_text: str) -> bool:
    """Does the evidence give that day of that month (and year, if written), as a date of
    its own (2026-10-14) or written out ("14 October 2026")?"""
    given: list[tuple[int | None, int, int]]
    given = [(int(y), int(mo), int(d)) for y, mo, d in _ISO_DAY.findall(evidence_text)]
    given += [(w.year, w.month, w.day) for w in days_written(evidence_text)]
    return any(
        (mo, d) == (day.month, day.day) and (day.year is None or y in (None, day.year))
        for y, mo, d in given
    )


def gives_a_time_not_in_evidence(text: str, assertions: str, facts: ExplanationFacts) -> str | None:
    """A time in words is a figure too: "for two years" beside a change control of last
    week must be one the evidence says."""
    evidence = "\n".join((*facts.vocabulary, *facts.quotes))
    for m in TIME_IN_WORDS.finditer(assertions):
        if not quote_in(m.group(0), evidence):
            words = " ".join(m.group(0).split())
            return f"it gives the time {words!r}, which the evidence does not have"
    return None


# A stretch of time or a day told relative to another, in words (also checked on an
# agent's answers).
TIME_IN_WORDS = re.compile(
    r"(?i)\b(?:yesterday|tomorrow|(?:last|next|past|previous|coming)\s+(?:week|month|year"
    r"|quarter|monday|tuesday|wednesday|thursday|friday|saturday|sunday)"
    r"|(?:a|an|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|a\s+few|few"
    r"|several|a\s+couple\s+of|couple\s+of|many)\s+(?:hours?|days?|weeks?|months?|years?"
    r"|quarters?|decades?)(?:\s+ago)?)\b"
)

# Said of the answer's owner, these deny it (folded text: "doesn't" reads "doesn t").
_DENIES = (
    r"\s+(?:does\s+not|doesn\s+t|did\s+not|didn\s+t|no\s+longer|never|used\s+to|formerly"
    r"|previously|once|has\s+not|hasn\s+t)\s+(?:\w+\s+){0,2}?own(?:s|ed)?\b"
    r"|\s+(?:is|was|isn\s+t|wasn\s+t)\s+(?:not\s+|no\s+longer\s+|never\s+)?(?:the\s+)?"
    r"(?:former|previous|old|ex)\s+owner\b"
    r"|\s+(?:is|was)\s+(?:not|no\s+longer|never)\s+(?:the\s+)?(?:\w+\s+)?owner\b"
    r"|\s+owned\b(?!\s+by\b)"
)
_NO_OWNER = re.compile(
    r"\b(?:has\s+no\s+(?:\w+\s+)?owner|(?:no\s+one|nobody)\s+(?:\w+\s+)?owns"
    r"|is\s+(?:now\s+|currently\s+)?(?:unowned|not\s+owned|without\s+(?:an\s+)?owner))\b"
)


def denies_the_owner(text: str, assertions: str, facts: ExplanationFacts) -> str | None:
    """The answer's owner may not be said not to own it (any more), nor may it be said
    that there is no owner: "Kofi Mensah no longer owns the Billing Gateway, per CC-1047"
    contradicts the answer it explains."""
    if facts.status != "answered" or not facts.owners:
        return None
    folded = fold_name(assertions)
    for person in facts.owners:
        for name in person.names:
            if re.search(rf"\b{re.escape(fold_name(name))}(?:{_DENIES})", folded):
                return f"it says {name} does not own it, whom the answer names as the owner"
    if _NO_OWNER.search(folded):
        return "it says there is no owner, where the answer names one"
    return None


def leaves_out_the_owner(text: str, assertions: str, facts: ExplanationFacts) -> str | None:
    for person in facts.owners:
        if not names_in(text, person.names):
            return f"it does not name the owner, {person.names[0]}"
    return None


# Words that carry each refusal's reason; the explanation must use one of them.
_REASONS: dict[str, tuple[str, ...]] = {
    "NOT_IN_GRAPH": ("not in the graph", "does not know", "doesn't know", "unknown", "no such",
                     "not named", "does not name", "not found", "not recorded", "no record"),
    "VAGUE_DATE": ("date", "day", "time", "when"),
    "NO_CLAIM": ("no record", "not recorded", "no source", "no claim", "nothing", "none of",
                 "no visible", "does not say", "no one is named", "names no owner"),
    "MISSING_PROVENANCE": ("source", "provenance", "missing", "lacks", "incomplete", "no time",
                           "no authority", "no owner"),
    "CONFLICT": ("conflict", "disagree", "contradict", "different owners", "same authority",
                 "same time", "same moment", "same instant", "both"),
    "LOW_AUTHORITY": ("authority", "chat", "wiki", "email", "comment", "informal", "too weak",
                      "not authoritative"),
    "ROW_CAP": ("cap", "too many", "limit", "cut off", "truncated"),
    "OUT_OF_SCOPE": ("scope", "cannot answer", "can't answer", "not recorded", "does not record",
                     "no question type", "not something", "approval"),
}  # fmt: skip


def skips_the_refusal_reason(text: str, assertions: str, facts: ExplanationFacts) -> str | None:
    if facts.status != "refused" or not facts.refusal_code:
        return None
    words = _REASONS.get(facts.refusal_code, ())
    folded = text.casefold()
    if words and not any(w in folded for w in words):
        return f"it does not give the reason for refusing ({facts.refusal_code})"
    return None


CHECKS: tuple[Check, ...] = (
    too_long_or_empty,
    carries_orders_or_hidden_text,
    leaks_internal_names,
    says_approved,
    names_someone_not_in_evidence,
    names_a_service_not_in_evidence,
    gives_a_figure_not_in_evidence,
    gives_a_date_not_in_evidence,
    gives_a_time_not_in_evidence,
    calls_outranked_the_owner,
    denies_the_owner,
    leaves_out_the_owner,
    skips_the_refusal_reason,
)


# -- helpers ------------------------------------------------------------------------------

_QUOTED = re.compile(r"\"([^\"]+)\"|“([^”]+)”|‘([^’]+)’|(?<!\w)'([^']+)'(?!\w)")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9\"'“‘])")


def _without_quotes(text: str, quotes: Sequence[str]) -> str:
    """`text` with every quoted span that is verbatim from the evidence blanked out."""

    def blank(match: re.Match[str]) -> str:
        span = next(g for g in match.groups() if g is not None)
        if any(quote_in(span, q) for q in quotes):
            return '"…"'
        return match.group(0)

    return _QUOTED.sub(blank, text)


def _sentences(text: str) -> list[str]:
    return [s for s in _SENTENCE_END.split(text.strip()) if s.strip()]


# Words between a name and what it is said to be ("Ines still", "the owner remains").
_STILL = r"(?:(?:still|now|currently|really|actually|effectively|also|in\s+fact)\s+)*"
_ROLE = (
    r"(?:the\s+|a\s+|an\s+|one\s+of\s+the\s+)?(?:(?:current|actual|real|true|sole|joint)\s+)?"
    r"(?:co\s?)?(?:owners?|review\s+contact)"
)
_IS_OWNER = (
    rf"(?:owns|is\s+{_STILL}(?:{_ROLE}|responsible|in\s+charge|the\s+one\s+who\s+owns)"
    rf"|(?:remains|stays|continues\s+as)\s+{_STILL}(?:{_ROLE}|responsible|in\s+charge)"
    rf"|continues\s+to\s+own|(?:has|holds|keeps|retains)\s+(?:the\s+)?ownership)"
)
_OWNER_IS = (
    rf"(?:owned\s+by|(?:owner|review\s+contact)\s+{_STILL}(?:is|remains|stays)"
    rf"|belongs\s+to|(?:stays|remains|rests|lies)\s+with|in\s+the\s+hands\s+of)"
)


def _asserts_owner(text: str, name: str) -> bool:
    """Does the text say `name` owns the subject, in any of the usual wordings ("Ines
    remains the owner", "the owner is still Ines", "Ines continues to own it")?"""
    n = re.escape(fold_name(name))
    folded = fold_name(text)
    patterns = (
        rf"\b{n}\s+{_STILL}{_IS_OWNER}\b",
        rf"\b{_OWNER_IS}\s+{_STILL}{n}\b",
        # shared: "Kofi and Ines jointly own it", "owned by Kofi and Ines", "co-owner Ines"
        rf"\b{n}\s+(?:and|&)\s+[\w\s]{{1,40}}?\s+(?:jointly\s+|both\s+|together\s+|also\s+)?"
        rf"(?:own|co\s?own|are\s+(?:the\s+|both\s+)?(?:co\s?)?owners)\b",
        rf"\b(?:and|&)\s+{n}\s+(?:jointly\s+|both\s+|together\s+|also\s+)?"
        rf"(?:own|co\s?own|are\s+(?:the\s+|both\s+)?(?:co\s?)?owners)\b",
        rf"\b(?:owned|owners\s+are)\s+(?:jointly\s+)?by\s+[\w\s]{{1,40}}?\s+(?:and|&)\s+{n}\b",
        rf"\bco\s?owners?\s+(?:is\s+|are\s+)?[\w\s]{{0,40}}?\b{n}\b|\b{n}\s+(?:also\s+)?co\s?owns\b",
        # "two owners, Kofi and Ines", "the owners are Kofi and Ines", "shares ownership of it
        # with Ines", "Kofi owns it, and so does Ines"
        rf"(?<!previous )(?<!former )(?<!old )\bowners\s+(?:(?:of|for)\s+[\w\s]{{1,60}}?\s+)?"
        rf"(?:are\s+|were\s+|include\s+)?(?:both\s+)?(?:[\w\s]{{1,40}}?\s+(?:and|&)\s+)?{n}\b",
        rf"\bshar(?:es|ed|ing)\s+(?:the\s+)?ownership\b[\w\s]{{0,80}}?\bwith\s+{n}\b",
        rf"\bown[\w\s]{{0,80}}?\b(?:so|as)\s+(?:does|do|did)\s+{n}\b",
        # "Ines is the billing gateway owner again" (not "the previous owner"), "the billing
        # gateway went back to Ines", "Ines took over the billing gateway"
        rf"\b{n}\s+is\s+{_STILL}(?:the\s+|its\s+|their\s+)?(?!(?:\w+\s+){{0,4}}?(?:previous"
        rf"|former|old|ex|outgoing|prior|last|original|first|not|no|never)\b)(?:\w+\s+){{0,4}}?"
        rf"(?:owner|review\s+contact)\b",
        rf"\b(?:transfers?|transferred|moves|moved|went|goes|pass(?:es|ed)|hands|handed"
        rf"|reassigned|given|back)\s+(?:\w+\s+){{0,5}}?to\s+{n}\b",
        rf"\b{n}\s+(?:(?:has|had|then|later|now)\s+)?(?:took|takes|taken|take|is\s+taking)\s+over\b",
    )
    return any(re.search(p, folded) for p in patterns)


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


# Capitalised words any explanation may use without naming anyone.
_COMMON = _words(
    """a an the this that these those it its there no nobody ask asks per according both
    only two three because since as on in for with however but so neither either they their
    he she his her review reviews approval ownership records record sources source owners
    owner nothing none note answer here we you your our experts expert search decision
    decisions who what when why which if and or of to from by at is are was were until
    today yesterday tomorrow utc i project projects service services team teams chat wiki
    email ticket tickets comment comments runbook runbooks adr adrs change control directory
    graph template refused answered conflict authority people person members member lead
    leads i'm it's outranked lower higher earlier later latest same different also then
    each every one all any more most less than not never nor yet meanwhile instead
    monday tuesday wednesday thursday friday saturday sunday january february march april
    may june july august september october november december jan feb mar apr jun jul aug
    sep sept oct nov dec mon tue tues wed thu thur thurs fri sat sun"""
)


COMMON_WORDS = _COMMON


def _unknown_proper_name(assertions: str, facts: ExplanationFacts) -> str | None:
    return unknown_proper_name(assertions, facts.vocabulary)


def unknown_proper_name(assertions: str, vocabulary: Iterable[str]) -> str | None:
    """A capitalised name-like word the evidence (its `vocabulary`) never uses ("Mallory"):
    models invent people, and only names from the evidence may appear. (Also checked on an
    agent's answers: policy/answer_checks.py.)"""
    known = {part for w in vocabulary for part in fold_name(w).split()} | _COMMON
    for sentence in _sentences(assertions):
        tokens = re.findall(r"(?<![\w'’-])[A-Za-z][\w'’-]*", sentence)
        for i, token in enumerate(tokens):
            if not token[0].isupper():
                continue
            after = tokens[i + 1] if i + 1 < len(tokens) else ""
            # A sentence's first word is capitalised anyway: it is a name only when a
            # surname or a verb a person would do follows ("Mallory owns ...").
            if i == 0 and not (after[:1].isupper() or after.lower() in _PERSON_VERBS):
                continue
            parts = fold_name(token.replace("’", "'").split("'")[0]).split()
            if parts and not all(part in known for part in parts):
                return token
    return None


_PERSON_VERBS = _words(
    "owns owned is was has had handles handled runs ran leads led knows knew should can "
    "will would took takes holds held maintains manages managed approves approved"
)
