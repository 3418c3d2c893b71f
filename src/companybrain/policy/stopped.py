"""Questions that ask why something was stopped ("Why did we stop publishing ledger events
through Kafka?"), and decisions that stop something. A decision still in force, that no
later one replaces and that stops nothing itself, does not answer such a question: its
motivation is why it was started."""

from __future__ import annotations

import re

from companybrain.policy.search_rank import stem
from companybrain.policy.text import fold_name

_ENDED = (
    r"stop(?:s|ped|ping)?|abandon(?:s|ed|ing)?|drop(?:s|ped|ping)?|retir(?:e|es|ed|ing)"
    r"|ditch(?:es|ed|ing)?|deprecat(?:e|es|ed|ing)|discontinu(?:e|es|ed|ing)|quit"
    r"|phas(?:e|es|ed|ing)\s+out|(?:get|got|gotten|getting)\s+rid\s+of|(?:give|gave|given)\s+up"
    r"|(?:move[sd]?|moving|switch(?:es|ed|ing)?|migrat(?:e|es|ed|ing))\s+(?:away\s+)?(?:from|off)"
    r"|no\s+longer"
)
# ... or "why don't we X anymore" (not "why do we X anymore", which asks why we still do)
_ASKS_WHY_ENDED = re.compile(rf"\b(?:{_ENDED})\b|(?:n't|\bnot)\s[^?.!]*?\bany\s?more\b", re.I)
# What a decision's title or statement says when it ends something itself ("We will stop
# publishing ledger events through Kafka and write them to an outbox instead").
_ENDS = re.compile(rf"\b(?:{_ENDED}|instead|replac(?:e|es|ed|ing))\b", re.I)
# Statuses a record gives a decision that is no longer in force.
ENDED_STATUSES = frozenset(("superseded", "deprecated", "retired", "replaced", "obsolete"))


# "Why was ADR-011 superseded?": the decision named is the one asked to have ended, so
# what it ends itself does not answer.
_ASKS_WHY_IT_ENDED = re.compile(
    r"\bwhy\s+(?:was|were|is|are|has|have|had)\b[^?]*?\b(?:superseded|replaced|reversed"
    r"|revoked|withdrawn|overturned|rolled\s+back|dropped|abandoned|retired|deprecated"
    r"|discontinued|stopped)\b",
    re.I,
)


def asks_why_it_ended(question: str) -> bool:
    """Does the question ask why the decision it names was itself ended ("Why was ADR-011
    superseded?"), as opposed to why something was stopped by a decision?"""
    return bool(_ASKS_WHY_IT_ENDED.search(question))


def asks_why_stopped(question: str) -> str | None:
    """The words by which a question about a decision asks why something was stopped."""
    m = _ASKS_WHY_ENDED.search(question) or _ASKS_WHY_IT_ENDED.search(question)
    return " ".join(m.group().split()) if m else None


def stops_what_is_asked(question: str, statement: str) -> bool:
    """Does a decision's title or statement stop, replace or move away from what the
    question asks about? ADR-009's "We will stop publishing ledger events through Kafka
    and write them to an outbox" answers why we stopped publishing through Kafka, not why
    we stopped using the outbox: the words after the question's "stop" must meet those of
    a clause the statement ends something in."""
    wanted = _asked(question)
    for m in _ENDS.finditer(statement):
        ended = _words(_CLAUSE_END.split(statement[m.end() :], maxsplit=1)[0])
        if ended and (not wanted or wanted & ended):
            return True
    return False


def asks_about_the_replaced(question: str, replaced: str, replacing: str) -> bool:
    """Does what the question asks was stopped fit a decision that `replacing` (a title
    and statement) replaced, as well as it fits `replacing` itself? "Why did we drop
    nightly batch loads for hourly micro-batches?" is answered by the hourly decision,
    which replaced the nightly one; "Why did we stop streaming ledger events with logical
    replication?" asks about the streaming decision itself."""
    wanted = _asked(question)
    met = len(wanted & _words(replaced))
    return met > 0 and met >= len(wanted & _words(replacing))


def _asked(question: str) -> set[str]:
    """The words of what a question asks was stopped: after "stop" to the end of its
    clause, or for "don't we use X anymore" what comes before "anymore"."""
    asked = _ASKS_WHY_ENDED.search(question)
    if asked is None:
        return set()
    if asked.group().lower().endswith("more"):
        return _words(asked.group())
    return _words(_CLAUSE_END.split(question[asked.end() :], maxsplit=1)[0])


# Where what a clause ends stops: "stop X and write Y", "retire X, ...", "replace X with Y".
_CLAUSE_END = re.compile(r"[,;:.!?()]|\b(?:and|but|so|then|with|by|for|in\s+favou?r\s+of)\b", re.I)
_PLAIN = frozenset(
    str.split(
        """the and for with from into onto through our we us you using use used did does do
    why was were are is had have has been any all not this that these those its it of to on
    in at by an a more anymore longer"""
    )
)


def _words(text: str) -> set[str]:
    return {stem(w) for w in fold_name(text).split() if len(w) > 2 and w not in _PLAIN}
