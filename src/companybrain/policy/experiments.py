"""Experiments in ordinary decision-log prose: a sentence that reports something tried and
how it came out. Pure text patterns, no model.

Logs rarely say "experiment". They say "we tried X; it did not help", "Disproven: …",
"this turned out to be false", "made no difference", "reverted after two days", "confirmed
by a second run". Phrases like these report an outcome by themselves: nobody writes "did
not help" about something never tried. Looser words ("worse", "failed", "works") count
only beside a word for trying ("tried", "measured", "benchmarked").

And they must not fire on plans, conditions or questions: "we have not tried X yet", "if
this fails we will revert", "it may make no difference", "was it ever confirmed?"."""

from __future__ import annotations

import re

from companybrain.model.findings import Verdict
from companybrain.policy.sentences import sentences
from companybrain.policy.text import normalise

# Words that may sit between an auxiliary and its participle: "was quickly reverted".
_ADVERB = r"(?:(?:then|later|quickly|soon|eventually|finally|immediately|also|since|already|"
_ADVERB += r"again|clearly|still|all|both|partly|fully|largely|repeatedly)\s+)?"
_AUX = r"(?:was|were|been|got|gets)\s+" + _ADVERB

# An outcome stated outright: the sentence reports a result.
_STRONG: tuple[tuple[Verdict, re.Pattern[str]], ...] = (
    (
        Verdict.DISPROVEN,
        re.compile(
            r"\b(?:disprov(?:en|ed)|refuted|falsified|debunked|ruled\s+out|dead\s+end"
            r"|turned\s+out\s+(?:to\s+be\s+)?(?:false|wrong|untrue|incorrect|a\s+myth)"
            r"|turned\s+out\s+not\s+to\s+(?:help|work|matter|hold)"
            r"|prov(?:ed|en)\s+(?:to\s+be\s+)?(?:false|wrong|untrue|incorrect)"
            r"|did(?:n't|\s+not)\s+(?:help|work|improve|fix|hold(?:\s+up)?|matter|pay\s+off"
            r"|change\s+anything|make\s+(?:a|any)\s+difference|move\s+the\s+needle)"
            r"|(?:does|do)(?:n't|\s+not)\s+(?:help|work)"
            r"|(?:made|makes|make)\s+(?:no|little)\s+(?:measurable\s+|real\s+|noticeable\s+)?"
            r"difference"
            r"|(?:had|has|have|showed|shows)\s+no\s+(?:measurable\s+|real\s+|noticeable\s+)?"
            r"(?:effect|impact|improvement|gain)"
            r"|made\s+(?:\S+\s+){0,3}?worse)\b",
            re.I,
        ),
    ),
    (
        Verdict.REVERTED,
        re.compile(
            rf"\b(?:{_AUX}(?:reverted|rolled\s+back|backed\s+out|undone)"
            r"|(?:reverted|rolled\s+(?:\S+\s+)?back|backed\s+(?:\S+\s+)?out)\s+"
            r"(?:after|it|them|this|that|the|in|on|within|once|when|because|again|two|three"
            r"|a|an|\d)"
            r"|rolled\s+(?:\S+\s+)?back|undid|we\s+reverted"
            r"|(?:had\s+to|we)\s+(?:revert|roll\s+(?:\S+\s+)?back|back\s+(?:\S+\s+)?out|undo))\b",
            re.I,
        ),
    ),
    (
        Verdict.CONFIRMED,
        re.compile(
            rf"\b(?:{_AUX}(?:confirmed|verified|validated|borne\s+out|reproduced)"
            r"|confirmed\s+(?:by|in|with|that|on|again|it|this|the)"
            r"|held\s+up|paid\s+off|did\s+(?:help|work)"
            r"|(?:turned\s+out|prov(?:ed|en))\s+(?:to\s+be\s+)?(?:right|correct|true))\b",
            re.I,
        ),
    ),
)

# Looser words that are an outcome only beside a word for trying.
_WEAK: tuple[tuple[Verdict, re.Pattern[str]], ...] = (
    (
        Verdict.DISPROVEN,
        re.compile(
            r"\b(?:worse|failed|regress(?:ed|ion)|no\s+(?:improvement|effect|gain)"
            r"|disappointing|fell|dropped|slower|no\s+better)\b",
            re.I,
        ),
    ),
    (Verdict.REVERTED, re.compile(r"\b(?:reverted|rolled\s+back|backed\s+out)\b", re.I)),
    (
        Verdict.CONFIRMED,
        re.compile(r"\b(?:confirmed|worked|works|improved|succeeded|verified)\b", re.I),
    ),
)

TRIED = re.compile(
    r"\b(?:re-?)?(?:tried|try|trying|tested|testing|measured|measuring|benchmark(?:ed|ing)?"
    r"|experiment(?:ed|s)?|attempt(?:ed)?|pilot(?:ed)?|prototyped?|trialled|trialed"
    r"|ran|re-?ran|A/B"
    r"|we\s+(?:did\s+)?(?:fix|fixed|switched|changed|moved|added|removed|swapped|enabled"
    r"|disabled|corrected))\b",
    re.I,
)

# What must not stand right before a verdict in its clause: a negation or a modal, with
# only auxiliaries between ("was not reverted", "will be reverted", "may make no
# difference"). "The claim that it would help turned out to be false" still counts: there
# the modal belongs to the claim, not to the verdict.
_AUXILIARIES = r"(?:(?:be|been|being|have|has|had|yet|ever|even|also|still|actually|really|"
_AUXILIARIES += r"fully|entirely|probably|likely|just|quite)\s+){0,2}$"
_NEGATED_BEFORE = re.compile(
    r"(?:\b(?:not|never|nobody|hardly)|\bno\s+one|n't)\s+" + _AUXILIARIES, re.I
)
_MODAL_BEFORE = re.compile(
    r"(?:\b(?:will|would|could|might|may|shall|should|must|can|cannot|yet\s+to"
    r"|(?:plans?|planned|wants?|needs?|going|hopes?|expects?)\s+to)|'ll|'d)\s+" + _AUXILIARIES,
    re.I,
)
# "Paths are tested against a server that fails a test ..." describes how things are done,
# not a trial: a word for trying after "is"/"are" does not make a looser word an outcome.
_GENERIC_BEFORE = re.compile(r"\b(?:is|are|be|being|gets?)\s+(?:\S+\s+)?$", re.I)
# ... and a condition whose clause holds it ("if this fails", "unless it is reverted").
_CONDITION = re.compile(r"\b(?:if|unless|whether|in\s+case|in\s+the\s+event|should\s+it)\b", re.I)
_CLAUSE_BREAK = re.compile(r"[,;:—–()]|\s-\s|\bthen\b")
# "Status: disproven" and its kin are fields of the entry, not prose.
FIELD = re.compile(
    r"\b(?:status|verdict|outcome|result)\s*[*_]{0,2}\s*:\s*[*_]{0,2}\s*"
    r"(?P<verdict>disproven|disproved|refuted|falsified|reverted|rolled\s+back|confirmed"
    r"|validated|verified)\b",
    re.I,
)
_FIELD_VERDICT = {
    "disproven": Verdict.DISPROVEN,
    "disproved": Verdict.DISPROVEN,
    "refuted": Verdict.DISPROVEN,
    "falsified": Verdict.DISPROVEN,
    "reverted": Verdict.REVERTED,
    "rolled back": Verdict.REVERTED,
    "confirmed": Verdict.CONFIRMED,
    "validated": Verdict.CONFIRMED,
    "verified": Verdict.CONFIRMED,
}


def field_verdict(text: str) -> Verdict | None:
    """The verdict a `Status: disproven` (or Verdict:, Outcome:, Result:) field records."""
    m = FIELD.search(text)
    return _FIELD_VERDICT[" ".join(m.group("verdict").lower().split())] if m else None


def _stands(text: str, start: int) -> bool:
    """Is the verdict word at `start` stated as a fact, not negated, planned or supposed?"""
    clause = _CLAUSE_BREAK.split(text[:start])[-1]
    return not (
        _NEGATED_BEFORE.search(clause) or _MODAL_BEFORE.search(clause) or _CONDITION.search(clause)
    )


def _found(patterns: tuple[tuple[Verdict, re.Pattern[str]], ...], text: str) -> list[Verdict]:
    return [
        verdict
        for verdict, pattern in patterns
        if any(_stands(text, m.start()) for m in pattern.finditer(text))
    ]


def reported_verdicts(text: str) -> list[Verdict]:
    """Every verdict a sentence reports about something tried (outcomes stated outright,
    else the looser words beside a word for trying), disproven first; none for a question."""
    stripped = text.strip()
    if not stripped or stripped.endswith("?"):
        return []
    text = FIELD.sub(" ", text)  # a status field is read as a field, not as prose
    strong = _found(_STRONG, text)
    if strong:
        return strong
    tried = [
        m
        for m in TRIED.finditer(text)
        if _stands(text, m.start()) and not _GENERIC_BEFORE.search(text[: m.start()])
    ]
    return _found(_WEAK, text) if tried else []


def sentence_verdict(text: str) -> Verdict | None:
    """The verdict a sentence reports about something tried, or None when it reports none.
    Disproven wins over reverted over confirmed: "we tried it, it did not help and was
    reverted" is above all a disproven idea."""
    found = reported_verdicts(text)
    return found[0] if found else None


def quoted_verdicts(quote: str, text: str) -> set[Verdict]:
    """The verdicts `quote` reports as `text` says it: read from the whole sentence it was
    cut from ("it did not help" cut from "If it did not help, we would revert it" reports
    nothing), from the quote itself when it spans sentences; a heading quoted as the claim
    tested also has the verdicts the entry's `Status: disproven` fields record."""
    wanted = normalise(quote)
    if not wanted:
        return set()
    within = [s for s in sentences(text) if wanted in normalise(s.text)]
    if not within:
        return set(reported_verdicts(quote))
    found: set[Verdict] = set()
    for s in within:
        found |= set(reported_verdicts(s.text))
        if s.heading:
            found |= _field_verdicts(text)
    return found


def _field_verdicts(text: str) -> set[Verdict]:
    return {
        _FIELD_VERDICT[" ".join(m.group("verdict").lower().split())] for m in FIELD.finditer(text)
    }
