"""What a model's answer says of which decision replaced which, checked against the
supersession chains the tools returned in the run (`trace_decision`, `trace`): "ADR-009
replaced ADR-015" or "ADR-004 is still in force" beside a real citation is no more true for
it. Pure: the caller passes each traced decision with the ones it directly supersedes."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

# What may stand between a decision's id and the words after it: citations ("[ADR-9]").
_CITE = r"(?:\s*\[[^\]\n]*\])*"
_NEWER_FIRST = (
    r"\s+(?:(?:has|had|have|also|then|later|eventually|since|now)\s+)*(?:supersedes"
    r"|superseded|superseding|replaces|replaced|replacing|overrides|overrode|overturns"
    r"|overturned|reverses|reversed|succeeds|succeeded|obsoletes|obsoleted|retires|retired)\s+"
)
_OLDER_FIRST = (
    r"\s+(?:was|is|has\s+been|had\s+been|were|got)\s+(?:(?:later|then|since|eventually|now)\s+)?"
    r"(?:superseded|replaced|overridden|overturned|reversed|succeeded|obsoleted|retired)\s+by\s+"
)
_IN_FORCE_AFTER = (
    r"\s+(?:(?:is|remains|stays)\s+(?:(?:still|now|currently)\s+)*(?:the\s+)?(?:in\s+force"
    r"|in\s+effect|current|active|valid|latest|newest|one\s+in\s+force|decision\s+in\s+force"
    r"|not\s+superseded|unsuperseded)\b"
    r"|still\s+(?:stands|applies|holds)\b"
    r"|(?:was|has|is|had)\s+(?:never|not)\s+(?:been\s+)?(?:superseded|replaced|overridden"
    r"|reversed)\b)"
)
_IN_FORCE_BEFORE = (
    r"\b(?:(?:current|latest|newest|active)\s+decision|decision\s+in\s+force|one\s+in\s+force)"
    r"\s+(?:is|remains)\s+(?:still\s+|now\s+)?"
)


_MOTIVATED = (
    r"\s+(?:was|is|were|had\s+been|has\s+been)\s+(?:(?:\w+)\s+)?(?:motivated|prompted|driven"
    r"|triggered|caused|justified|requested|asked\s+for)\s+by\s+(?:(?:the|a|an|ticket|record"
    r"|incident|issue|report)\s+)*"
)
_MOTIVATES = r"\s+(?:motivated|prompted|drove|triggered|caused|justified|led\s+to)\s+"
_BECAUSE = r"\s+(?:[^.;\n]{0,60}?\s)?(?:because\s+of|due\s+to)\s+(?:the\s+)?"


def decision_claims(
    text: str,
    supersedes: Mapping[str, Sequence[str]],
    motivated_by: Mapping[str, Sequence[str]] | None = None,
    ids: Sequence[str] = (),
) -> list[str]:
    """What is wrong with what `text` says of the decisions `supersedes` holds (every
    decision a chain of the run showed, with those it directly supersedes): one said to
    replace another must do so along the chain, and one said to be in force (current, never
    superseded) must be superseded by none of them. `motivated_by`: what motivated each, as
    the run showed; a decision said to be motivated by (or adopted because of) one of `ids`
    (what the tools returned) must be motivated by it."""
    if not supersedes:
        return []
    failures = _motivations(text, supersedes, motivated_by or {}, ids)
    by_name = {i.casefold(): i for i in supersedes}
    ids = "|".join(re.escape(i) for i in sorted(supersedes, key=len, reverse=True))
    one = rf"(?<![\w#./-])({ids})(?![\w-])"
    replaced = {o for olds in supersedes.values() for o in olds}
    for pattern, newer_first in (
        (one + _CITE + _NEWER_FIRST + one, True),
        (one + _CITE + _OLDER_FIRST + one, False),
    ):
        for m in re.finditer(pattern, text, re.I):
            newer, older = (m.group(1), m.group(2)) if newer_first else (m.group(2), m.group(1))
            if by_name[older.casefold()] not in _older(by_name[newer.casefold()], supersedes):
                failures.append(
                    "says a decision replaced another that no chain of this run shows it replacing"
                )
    in_force = [
        m.group(1)
        for pattern in (one + _CITE + _IN_FORCE_AFTER, _IN_FORCE_BEFORE + one)
        for m in re.finditer(pattern, text, re.I)
    ]
    if any(by_name[i.casefold()] in replaced for i in in_force):
        failures.append("says a decision is in force that a chain of this run shows replaced")
    return failures


def _motivations(
    text: str,
    supersedes: Mapping[str, Sequence[str]],
    motivated_by: Mapping[str, Sequence[str]],
    ids: Sequence[str],
) -> list[str]:
    decisions = "|".join(re.escape(i) for i in sorted(supersedes, key=len, reverse=True))
    records = "|".join(re.escape(i) for i in sorted({*ids, *supersedes}, key=len, reverse=True))
    if not records:
        return []
    decision = rf"(?<![\w#./-])({decisions})(?![\w-])"
    record = rf"(?<![\w#./-])({records})(?![\w-])"
    by_name = {i.casefold(): i for i in {*ids, *supersedes}}
    pairs = [
        (m.group(1), m.group(2))
        for p in (decision + _CITE + _MOTIVATED + record, decision + _CITE + _BECAUSE + record)
        for m in re.finditer(p, text, re.I)
    ]
    pairs += [
        (m.group(2), m.group(1))
        for m in re.finditer(record + _CITE + _MOTIVATES + decision, text, re.I)
    ]
    for d, why in pairs:
        d, why = by_name[d.casefold()], by_name[why.casefold()]
        if why != d and why not in motivated_by.get(d, ()):
            return [
                "says a decision was motivated by something no chain of this run gives as "
                "its motivation"
            ]
    return []


def _older(newer: str, supersedes: Mapping[str, Sequence[str]]) -> set[str]:
    """Every decision `newer` supersedes, directly or through others."""
    seen: set[str] = set()
    todo = list(supersedes.get(newer, ()))
    while todo:
        d = todo.pop()
        if d not in seen:
            seen.add(d)
            todo += supersedes.get(d, ())
    return seen
