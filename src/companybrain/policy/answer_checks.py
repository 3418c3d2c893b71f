"""Checks on a model's final answer, in plain code. The model wrote the prose; these decide
whether the user may see it:

- every `[id]` it cites must be something a tool returned in this run;
- every figure must appear in the evidence of the item it cites: the citation next to it
  in the same sentence (the nearest one after it, else the nearest one before), so a "0/20"
  beside the wrong citation fails; so must a month or weekday written out ("since March");
- "I don't know" counts as an abstention only if nothing else in the answer asserts
  otherwise (a citation, a figure, a name from the evidence, or a claim such as "X owns").
  Not every negation is an abstention ("Ben does not own it" is a claim), and a sentence
  opening with "Not surprisingly" is a claim like any other;
- anything else must cite at least one item: cite or abstain;
- every person, service, project or team it names is one a tool returned (or the question
  names), and no name is one that neither the graph nor the tools know;
- whoever it calls an owner ("X owns", "owned by X", "ownership moved to X") must be the
  owner an `owner_of` answer of this run gave, of what the sentence names: a real citation
  beside a previous, outranked or invented owner does not make them the owner.

Pure: the caller passes what the tools returned (see `evidence_from_answers`).
"""

from __future__ import annotations

import itertools
import json
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, TypeVar

from companybrain.model.answer import Answer
from companybrain.policy.decision_claims import decision_claims
from companybrain.policy.explanation import (
    COMMON_WORDS,
    DATE_WORD,
    TIME_IN_WORDS,
    Named,
    approval_claim,
    date_word_in,
    day_in,
    days_written,
)
from companybrain.policy.injection import disguised_word
from companybrain.policy.text import fold_name, names_in, normalise, quote_in

# -- evidence ----------------------------------------------------------------------------


@dataclass
class EvidenceItem:
    """Everything the tools said about one id in this run: quotes, titles, dates, fields."""

    id: str
    texts: list[str] = field(default_factory=list)
    names: list[str] = field(default_factory=list)
    # A person an owner_of answer of this run names as owner: the subjects' names (and
    # ids) it owns. Only these may be called an owner in the answer.
    owner_of: list[str] = field(default_factory=list)
    # What an owner_of answer of this run refused to name an owner for: no one may be
    # called its owner.
    unowned: bool = False
    # A decision a supersession chain of this run shows (trace_decision, trace): the ones it
    # directly supersedes; None when no chain shows it.
    supersedes: list[str] | None = None
    motivated_by: list[str] = field(default_factory=list)  # of such a decision
    # A person a who_knows answer of this run names as an expert: the subjects' names (and
    # ids) they know, and those they know best (ranked first).
    expert_of: list[str] = field(default_factory=list)
    top_of: list[str] = field(default_factory=list)
    # What a person_or_team answer of this run says: of a person, their team's id ("": none)
    # and the teams they lead; of a team, its lead's id ("": none) and its members' ids.
    team: str | None = None
    leads: list[str] | None = None
    is_team: bool = False
    team_lead: str | None = None
    team_members: list[str] | None = None

    @property
    def text(self) -> str:
        return "\n".join(self.texts)

    def add(self, *texts: Any) -> None:
        for t in texts:
            if t is not None and str(t) and str(t) not in self.texts:
                self.texts.append(str(t))


Evidence = dict[str, EvidenceItem]

# Result keys whose string values are ids of things the graph returned.
_ID_KEYS = {"id", "record", "decision", "commit", "file", "author", "blob"}
_ID_LIST_KEYS = {"chain", "motivated_by"}


def evidence_from_answers(answers: Iterable[Answer]) -> Evidence:
    """Index what tools returned by id: citations and outranked claims with their quotes,
    the subject, and every item of a result that carries an id."""
    ev: Evidence = {}

    def item(ident: Any) -> EvidenceItem | None:
        if not isinstance(ident, str) or not ident.strip():
            return None
        return ev.setdefault(ident, EvidenceItem(ident))

    for answer in answers:
        for c in answer.citations:
            it = item(c.record)
            if it:
                it.add(c.quote, c.at, c.effective_at, c.kind)
                if c.authority is not None:
                    it.add(f"authority {c.authority}")
                if c.lines:
                    it.add(f"lines {c.lines[0]}-{c.lines[1]}")
        for o in answer.outranked:
            it = item(o.record)
            if it:
                it.add(o.quote, o.kind, o.owner, o.why)
                if o.authority is not None:
                    it.add(f"authority {o.authority}")
        subject = answer.subject or {}
        top = item(subject.get("id"))
        if top:
            top.add(subject.get("name"), subject.get("type"))
            if subject.get("name"):
                top.names.append(str(subject["name"]))
        if top and answer.tool == "owner_of" and answer.status != "answered":
            top.unowned = True
        if answer.status == "answered" and answer.result:
            if top:
                top.add(_scalars(answer.result, shallow=True))
            _walk(answer.result, item)
            if answer.tool == "owner_of":
                _owners(answer, item)
            if answer.tool in ("trace_decision", "trace"):
                _links(answer.result, item)
            if answer.tool == "who_knows":
                _experts(answer, item)
            if answer.tool == "person_or_team":
                _teams(answer.result, item)
    return ev


def _experts(answer: Answer, item: Any) -> None:
    """Mark the people a who_knows answer ranks as experts, with what they know."""
    subject = answer.subject or {}
    known = [str(x) for x in (subject.get("id"), subject.get("name")) if x]
    experts = [e for e in (answer.result or {}).get("experts") or [] if isinstance(e, dict)]
    for rank, e in enumerate(experts):
        it = item(e.get("id"))
        if it is not None:
            it.expert_of += [k for k in known if k not in it.expert_of]
            if rank == 0:
                it.top_of += [k for k in known if k not in it.top_of]


def _teams(result: Mapping[str, Any], item: Any) -> None:
    """What a person_or_team answer says of whose team is whose, and who leads it."""
    person, team = result.get("person"), result.get("team")
    if isinstance(person, dict) and (it := item(person.get("id"))) is not None:
        theirs = person.get("team")
        it.team = str(theirs.get("id") or "") if isinstance(theirs, dict) else ""
        it.leads = [str(t.get("id")) for t in person.get("leads") or [] if isinstance(t, dict)]
        for tid in (it.team, *it.leads):
            if (t := item(tid)) is not None:
                t.is_team = True
    if isinstance(team, dict) and (t := item(team.get("id"))) is not None:
        t.is_team = True
        lead = team.get("lead")
        t.team_lead = str(lead.get("id") or "") if isinstance(lead, dict) else ""
        members = [m for m in team.get("members") or [] if isinstance(m, dict)]
        t.team_members = [str(m.get("id")) for m in members]


def _links(result: Mapping[str, Any], item: Any) -> None:
    """Each decision of a supersession chain, with those it directly supersedes: as the
    result lists them, else each one of the chain (newest first) the next."""
    chain = [c for c in result.get("chain") or [] if isinstance(c, str)]
    listed = [d for d in result.get("decisions") or [] if isinstance(d, dict)]
    if listed:
        pairs = [(d.get("id"), o) for d in listed for o in d.get("supersedes") or []]
    else:
        pairs = list(itertools.pairwise(chain))
    for did in chain:
        it = item(did)
        if it is not None and it.supersedes is None:
            it.supersedes = []
    for newer, older in pairs:
        it = item(newer)
        if it is not None and isinstance(older, str):
            it.supersedes = [*(it.supersedes or []), older]
    for d in listed:
        it = item(d.get("id"))
        if it is not None:
            it.motivated_by += [str(m) for m in d.get("motivated_by") or [] if m]


def _owners(answer: Answer, item: Any) -> None:
    """Mark the people an owner_of answer names as owners, with what they own."""
    result = answer.result or {}
    subject = answer.subject or {}
    owned = [str(x) for x in (subject.get("id"), subject.get("name")) if x]
    pairs = [(result.get("owner"), owned)]
    pairs += [
        (o.get("owner"), [*owned, str(o.get("service") or "")])
        for o in result.get("owners", [])
        if isinstance(o, dict)
    ]
    for owner, what in pairs:
        it = item(owner.get("id")) if isinstance(owner, dict) else None
        if it is not None:
            it.owner_of.extend(w for w in what if w and w not in it.owner_of)


def _walk(value: Any, item: Any) -> None:
    """Every dict that names an id becomes evidence for that id (its own scalar fields)."""
    if isinstance(value, dict):
        own = _scalars(value)
        # A dict is evidence for its own id; the other ids it names (an experiment's
        # decision, a commit's author) only count as returned, so that a figure of one
        # item never becomes evidence of another. A dict without an id of its own (the
        # result of `origin` or `told`) is evidence for every id it names.
        owner_keys = {"id"} if "id" in value else ({"record"} if "record" in value else _ID_KEYS)
        for key, v in value.items():
            if key in _ID_KEYS and isinstance(v, str):
                it = item(v)
                if it and key in owner_keys:
                    it.add(own)
                    name = value.get("name")
                    if key == "id" and isinstance(name, str) and name not in it.names:
                        it.names.append(name)
            elif key in _ID_LIST_KEYS and isinstance(v, list):
                for x in v:
                    if isinstance(x, str):
                        item(x)
            _walk(v, item)
    elif isinstance(value, list):
        for v in value:
            _walk(v, item)


def _scalars(value: Mapping[str, Any], shallow: bool = False) -> str:
    """The plain values of a dict as one line of text (nested dicts too unless shallow)."""
    parts: list[str] = []
    for key, v in value.items():
        if isinstance(v, str | int | float) and not isinstance(v, bool):
            parts.append(f"{key} {v}")
        elif not shallow and isinstance(v, dict | list):
            parts.append(json.dumps(v, ensure_ascii=False, default=str))
    return "; ".join(parts)


# -- reading the answer --------------------------------------------------------------------

_BRACKET = re.compile(r"\[([^\[\]\n]{1,300})\](?!\()")
_LIST_MARK = re.compile(r"(?m)^\s*(?:\d{1,2}[.)]|[-*•])\s+")
# A figure: 16, 0/20, 1,900, 2.6, 40%, 2.6x, 2026-10-14, 11:00. Not inside words (v2, 7b).
_FIGURE = re.compile(r"(?<![\w.])(?:\d{1,3}(?:,\d{3})+|\d+)(?:[./:-]\d+)*(?:%|x|×)?(?![\w])")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+|\n+")
_CLAUSE_SPLIT = re.compile(r"[;:—–]|\s-\s|,?\s+\b(?:but|however|although|though|yet)\b", re.I)

# Phrases that abstain. Deliberately narrow: a bare "not" or "no" is not one.
_ABSTAIN = re.compile(
    r"\b(?:i|we)\s+(?:do\s*n[o']t|don'?t|did\s*n[o']t|didn'?t)\s+know\b"
    r"|\b(?:i|we)\s+(?:could\s*n[o']t|couldn'?t|can\s*n[o']t|can'?t|cannot|was\s+unable\s+to"
    r"|am\s+unable\s+to)\s+(?:find|tell|determine|say|answer|confirm)\b"
    r"|\bnot\s+recorded\b|\bno\s+record\b|\bnothing\s+(?:in\s+the\s+records?|recorded)\b"
    r"|\bthe\s+(?:records?|evidence|graph|tools?)\s+(?:do(?:es)?\s*n[o']t|don'?t|doesn'?t)"
    r"\s+(?:say|show|record|mention|cover)\b"
    r"|\bno\s+(?:tool|record|source|evidence)\s+(?:\w+\s+){0,3}(?:says|shows|names|covers|records)\b",
    re.I,
)
# Claims that assert something an abstention must not: ownership, decisions, causes.
_CLAIM = re.compile(
    r"\b(?:owns|owned|owner|owners|ownership|responsible|maintains|leads|runs|decided|decision"
    r"|chose|chosen|because|due\s+to|caused|replaced|supersedes|superseded|disproven|failed"
    r"|measured|approved|knows)\b",
    re.I,
)


@dataclass(frozen=True)
class Cite:
    start: int
    end: int
    raw: str
    ids: tuple[str, ...]  # empty when it resolves to nothing a tool returned


@dataclass(frozen=True)
class CheckReport:
    passed: bool
    abstained: bool
    citations_checked: int
    figures_matched: int
    cited: tuple[str, ...]
    failures: tuple[str, ...]

    def summary(self) -> str:
        c, f = self.citations_checked, self.figures_matched
        line = (
            f"{c} citation{'s' if c != 1 else ''} checked · "
            f"{f} figure{'s' if f != 1 else ''} matched to evidence"
        )
        if self.abstained:
            line += " · abstained"
        if self.failures:
            line += f" · {len(self.failures)} failed"
        return line

    def to_dict(self) -> dict[str, Any]:
        return {
            "passed": self.passed,
            "abstained": self.abstained,
            "citations_checked": self.citations_checked,
            "figures_matched": self.figures_matched,
            "cited": list(self.cited),
            "failures": list(self.failures),
            "summary": self.summary(),
        }


def check_answer(
    text: str, evidence: Evidence, known: Sequence[Named] = (), asked: str = ""
) -> CheckReport:
    """Check a model's final answer against what the tools returned in this run. `known`:
    the people, services, projects and teams the graph knows, and `asked` the question:
    the answer may name only those the tools returned (or the question names)."""
    if len(text) > MAX_ANSWER_CHARS:  # the checks below are not linear in it
        why = f"the answer is {len(text):,} characters; at most {MAX_ANSWER_CHARS:,} are checked"
        return CheckReport(False, False, 0, 0, (), (why,))
    if disguised := disguised_word(text):  # the checks below would read another word
        return CheckReport(False, False, 0, 0, (), (disguised,))
    failures: list[str] = []
    cites = _citations(text, evidence)
    for c in cites:
        if not c.ids:
            failures.append(f"cites [{c.raw}], which no tool returned in this run")
    masked = _mask(text, cites, evidence)

    figures_matched = 0
    sentences = _sentences(text, cites)
    for m in _FIGURE.finditer(masked):
        figure = m.group(0)
        sentence = next(((a, b) for a, b in sentences if a <= m.start() < b), (0, len(text)))
        cite = _nearest(cites, m.start(), m.end(), sentence)
        if cite is None:
            failures.append(f'the figure "{figure}" is not next to any citation')
        elif not cite.ids:
            continue  # already failed as an unknown citation
        elif any(_figure_in(figure, evidence[i].text) for i in cite.ids):
            figures_matched += 1
        else:
            failures.append(
                f'the figure "{figure}" does not appear in the evidence of [{cite.raw}]'
            )

    for m in DATE_WORD.finditer(masked):
        sentence = next(((a, b) for a, b in sentences if a <= m.start() < b), (0, len(text)))
        cite = _nearest(cites, m.start(), m.end(), sentence)
        if cite is None:
            failures.append(f'the date "{m.group(0)}" is not next to any citation')
        elif cite.ids and not any(date_word_in(m.group(0), evidence[i].text) for i in cite.ids):
            failures.append(
                f'the date "{m.group(0)}" does not appear in the evidence of [{cite.raw}]'
            )

    # A time in words ("for two years", "last week", "yesterday") is a figure too: the
    # evidence beside it must say it.
    for m in TIME_IN_WORDS.finditer(masked):
        sentence = next(((a, b) for a, b in sentences if a <= m.start() < b), (0, len(text)))
        cite = _nearest(cites, m.start(), m.end(), sentence)
        words = " ".join(m.group(0).split())
        if cite is None:
            failures.append(f'the time "{words}" is not next to any citation')
        elif cite.ids and not any(quote_in(words, evidence[i].text) for i in cite.ids):
            failures.append(f'the time "{words}" does not appear in the evidence of [{cite.raw}]')

    # A day of a month by name ("10 October") must be a day the evidence gives: its figure
    # and month pass beside 2026-10-14, 10 being its month. (A month the evidence lacks
    # has failed above.)
    for day in days_written(masked):
        sentence = next(((a, b) for a, b in sentences if a <= day.start < b), (0, len(text)))
        cite = _nearest(cites, day.start, day.start + len(day.said), sentence)
        if cite is None or not cite.ids:
            continue  # failed above, as its figure
        given = [evidence[i].text for i in cite.ids]
        if any(date_word_in(day.month_name, t) for t in given) and not any(
            day_in(day, t) for t in given
        ):
            failures.append(
                f'the date "{day.said}" does not appear in the evidence of [{cite.raw}]'
            )

    # Words in quotation marks are shown as a record's own: they must be word for word in
    # the evidence of the citation next to them (else in what the tools returned, or in the
    # question). A single quoted word may be a term, not a quote.
    for m in _QUOTED.finditer(text):
        span = next(g for g in m.groups() if g is not None)
        sentence = next(((a, b) for a, b in sentences if a <= m.start() < b), (0, len(text)))
        cite = _nearest(cites, m.start(), m.end(), sentence)
        if len(span.split()) < 2 or quote_in(span, asked) or (cite is not None and not cite.ids):
            continue
        ids = cite.ids if cite is not None else tuple(evidence)
        if not any(quote_in(span, evidence[i].text) for i in ids):
            where = f"the evidence of [{cite.raw}]" if cite is not None else "any tool's answer"
            failures.append(f"quotes words that are not in {where}")

    abstained = False
    if _ABSTAIN.search(text):
        asserting = _asserting_clauses(text, cites, masked, evidence)
        if asserting:
            # say what kind of assertion, never repeat it: the user must not see it
            failures.append(f"says it does not know, yet {asserting[0]} beside that")
        else:
            owners = _owner_claims(text, evidence, known)
            failures += owners
            abstained = not owners
    else:
        if not cites:
            failures.append("answers without citing anything a tool returned (cite or abstain)")
        failures += _owner_claims(text, evidence, known)
    if any(it.is_team for it in evidence.values()):
        failures += _team_claims(_unquoted(text, evidence), evidence, known)
    if any(it.expert_of for it in evidence.values()):
        failures += _expert_claims(_unquoted(text, evidence), evidence, known)
    traced = {k: it.supersedes for k, it in evidence.items() if it.supersedes is not None}
    motivated = {k: evidence[k].motivated_by for k in traced}
    failures += decision_claims(_unquoted(text, evidence), traced, motivated, list(evidence))

    # Quoting a record that says "approved" is the record's word; saying it is not.
    if said := approval_claim(_unquoted(masked, evidence)):
        failures.append(said)
    failures += _names_not_returned(_unquoted(masked, evidence), evidence, known, asked)
    cited = tuple(dict.fromkeys(i for c in cites for i in c.ids))
    failures = _shorten(list(dict.fromkeys(failures)))
    return CheckReport(
        passed=not failures,
        abstained=abstained and not failures,
        citations_checked=len(cites),
        figures_matched=figures_matched,
        cited=cited,
        failures=tuple(failures),
    )


MAX_FIGURE_FAILURES = 3
# A final answer is a few paragraphs; a reply of megabytes (a looping model, a hostile
# endpoint) took the checks half an hour.
MAX_ANSWER_CHARS = 20_000


def _shorten(failures: list[str]) -> list[str]:
    """Keep the first few figure failures and count the rest, so that a reason stays
    readable when a model writes a numbered list of thirty unsupported figures."""
    figures = [f for f in failures if f.startswith("the figure ")]
    if len(figures) <= MAX_FIGURE_FAILURES:
        return failures
    dropped = set(figures[MAX_FIGURE_FAILURES:])
    out = [f for f in failures if f not in dropped]
    last = out.index(figures[MAX_FIGURE_FAILURES - 1]) + 1
    out.insert(last, f"and {len(dropped)} more figure(s) without support in the evidence")
    return out


def _citations(text: str, evidence: Evidence) -> list[Cite]:
    folded = {k.casefold(): k for k in evidence}
    out = []
    for m in _BRACKET.finditer(text):
        raw = m.group(1).strip()
        ids = _resolve(raw, evidence, folded)
        out.append(Cite(m.start(), m.end(), raw, ids))
    return out


def _resolve(raw: str, evidence: Evidence, folded: dict[str, str]) -> tuple[str, ...]:
    one = _lookup(raw, evidence, folded)
    if one:
        return (one,)
    parts = [p.strip() for p in re.split(r"[;,]|\]\s*\[", raw) if p.strip()]
    if len(parts) > 1:
        found = [_lookup(p, evidence, folded) for p in parts]
        if all(found):
            return tuple(f for f in found if f)
    return ()


def _lookup(raw: str, evidence: Evidence, folded: dict[str, str]) -> str | None:
    raw = raw.strip().strip("`")
    if raw in evidence:
        return raw
    return folded.get(raw.casefold())


def _mask(text: str, cites: list[Cite], evidence: Evidence) -> str:
    """Blank out what is not prose, keeping positions: citations, ids named in the text
    (CC-1047 is a name, not a figure), list markers and code spans."""
    chars = list(text)

    def blank(a: int, b: int) -> None:
        for i in range(a, b):
            if chars[i] != "\n":
                chars[i] = " "

    for c in cites:
        blank(c.start, c.end)
    lowered = text.casefold()
    for ident in sorted(evidence, key=len, reverse=True):
        if not any(ch.isdigit() for ch in ident):
            continue
        needle = ident.casefold()
        start = lowered.find(needle)
        while start >= 0:
            blank(start, start + len(needle))
            start = lowered.find(needle, start + len(needle))
    for m in _LIST_MARK.finditer(text):
        blank(m.start(), m.end())
    for m in re.finditer(r"`[^`\n]*`", text):
        blank(m.start(), m.end())
    return "".join(chars)


def _sentences(text: str, cites: list[Cite]) -> list[tuple[int, int]]:
    """Sentence spans; a run of citations after a full stop belongs to the sentence before."""
    spans: list[tuple[int, int]] = []
    start = 0
    for m in _SENTENCE_END.finditer(text):
        spans.append((start, m.start()))
        start = m.end()
    spans.append((start, len(text)))
    merged: list[tuple[int, int]] = []
    for a, b in spans:
        rest = text[a:b]
        for c in cites:
            if a <= c.start and c.end <= b:
                rest = rest.replace(text[c.start : c.end], "")
        if merged and not rest.strip(" .,;"):
            merged[-1] = (merged[-1][0], b)
        else:
            merged.append((a, b))
    return merged


def _nearest(cites: list[Cite], start: int, end: int, sentence: tuple[int, int]) -> Cite | None:
    """The citation a figure leans on: the nearest after it in its sentence, else before.
    A citation that closes the sentence (just after its full stop) belongs to it."""
    a, b = sentence
    after = [c for c in cites if end <= c.start < b]
    if after:
        return min(after, key=lambda c: c.start)
    before = [c for c in cites if c.end <= start and c.start >= a]
    if before:
        return max(before, key=lambda c: c.end)
    return None


def _norm_figure(figure: str) -> str:
    f = figure.replace(",", "") if re.fullmatch(r"\d{1,3}(?:,\d{3})+.*", figure) else figure
    return f.rstrip("%x×")


def _figure_tokens(text: str) -> set[str]:
    # letters glued to digits are units or separators here: 2026-10-14T11:00Z, 20ms, v2, 7B
    text = re.sub(r"(?<=\d)[^\W\d_]+|[^\W\d_]+(?=\d)", " ", normalise(text))
    tokens: set[str] = set()
    for m in _FIGURE.finditer(text):
        whole = _norm_figure(m.group(0))
        tokens.add(whole)
        # parts of dates, times and fractions: "14" and "2026" of 2026-10-14, "16" of 16/20
        tokens.update(p.rstrip("%x×") for p in re.split(r"[/:-]", whole) if p)
    return tokens


def _figure_in(figure: str, evidence_text: str) -> bool:
    want = _norm_figure(normalise(figure))
    tokens = _figure_tokens(evidence_text)
    if want in tokens:
        return True
    try:
        value = float(want)
    except ValueError:
        return False
    for t in tokens:
        try:
            if float(t) == value:
                return True
        except ValueError:
            continue
    return False


def _asserting_clauses(text: str, cites: list[Cite], masked: str, evidence: Evidence) -> list[str]:
    """What the clauses beside an abstention still assert, as "cites an item",
    "gives a figure", "makes a claim" or "names someone from the evidence"."""
    names = [n for it in evidence.values() for n in _names_of(it)]
    out = []
    for a, b in _sentences(text, cites):
        pieces = _clause_spans(text, a, b)
        for ca, cb in pieces:
            clause = text[ca:cb].strip()
            if not clause or _ABSTAIN.search(clause):
                continue
            has_cite = any(ca <= c.start < cb for c in cites)
            has_figure = bool(_FIGURE.search(masked[ca:cb]))
            has_claim = bool(_CLAIM.search(clause))
            has_name = bool(names) and names_in(clause, names)
            if has_cite:
                out.append("cites an item")
            elif has_figure:
                out.append("gives a figure")
            elif has_name:
                out.append("names someone from the evidence")
            elif has_claim:
                out.append("makes a claim")
    return out


def _clause_spans(text: str, a: int, b: int) -> list[tuple[int, int]]:
    spans, start = [], a
    for m in _CLAUSE_SPLIT.finditer(text, a, b):
        spans.append((start, m.start()))
        start = m.end()
    spans.append((start, b))
    return spans


def _names_of(item: EvidenceItem) -> list[str]:
    """Full names, first names, and ids that read as names ("ben", "kofi")."""
    out = []
    for name in item.names:
        out.append(name)
        if name.split():
            out.append(name.split()[0])
    if re.fullmatch(r"[a-z]{3,}", item.id):
        out.append(item.id)
    return out


# Who the answer calls an owner: "Kofi Mensah owns", "Ines is still the owner", "owned by
# Ben", "the owner is Ben", "ownership ... to Ben". A name is up to four capitalised words.
# It starts a word: tried from every capital inside one, a 19,000-letter word took the
# checks 100 s.
_NAME = r"(?<![\w'’-])([A-Z][\w'’-]*(?:\s+[A-Z][\w'’-]*){0,3})"
_OWNER_CLAIMS: tuple[re.Pattern[str], ...] = (
    re.compile(
        _NAME + r"\s+(?i:(?:(?:still|now|currently|really|alone|also|too|jointly|effectively"
        r"|officially|actually)\s+)*(?:owns\b"
        r"|is\s+(?:still\s+|now\s+)?(?:the\s+)?(?:current\s+|new\s+|sole\s+)?"
        r"(?:owner|review\s+contact|point\s+of\s+contact)\b))"
    ),
    re.compile(
        r"(?i:(?<!previously\s)(?<!formerly\s)(?<!was\s)(?<!were\s)(?<!been\s)"
        r"\b(?:owned\s+by|owner\s+is|owners\s+are|review\s+contact\s+is|belongs\s+to)\s+)" + _NAME
    ),
    re.compile(
        r"(?i:\b(?:ownership|owner)\b[^.;\n]{0,80}?\b(?:passe[sd]|moved|went|transferr?(?:ed|s)"
        r"|handed\s+over)\s+(?:\w+\s+){0,4}?to\s+)" + _NAME
    ),
    # "Ines remains the owner", "is in charge of", "is responsible for", "continues to own",
    # "keeps ownership"; "ownership is still with Ines", "stays with Ines", "in the hands of"
    re.compile(
        _NAME + r"\s+(?i:(?:(?:still|now|currently|really|also|effectively)\s+)*(?:(?:remains"
        r"|stays|continues\s+as)\s+(?:(?:still|now)\s+)?(?:the\s+)?(?:current\s+|sole\s+)?"
        r"(?:owner|review\s+contact|responsible|in\s+charge)\b|continues\s+to\s+own\b"
        r"|(?:has|holds|keeps|retains)\s+(?:the\s+)?ownership\b))"
    ),
    re.compile(
        r"(?i:\b(?:ownership|owner|review\s+contact)\b[^.;\n]{0,80}?\b(?:(?:is|remains|stays"
        r"|rests|lies)\s+(?:(?:still|now|currently)\s+)?with|(?:remains|stays)"
        r"|in\s+the\s+hands\s+of)\s+)" + _NAME
    ),
)
# "Ines is (still) in charge of / responsible for": of a person only, for an answer about
# code says as much of a class or a server ("FalkorDB is responsible for persistence").
_IN_CHARGE = re.compile(
    _NAME + r"\s+(?i:is\s+(?:(?:still|now|currently)\s+)?(?:responsible\s+for|in\s+charge"
    r"\s+of)\b)"
)
# Two named together as owners: "Ines and Kofi (both) own it", "owned by Kofi and Ines",
# "Kofi owns it with Ines", "Kofi co-owns it with Ines".
_JOINT = _NAME + r"\s+(?:and|&)\s+" + _NAME
_OWNER_CLAIMS += (
    re.compile(
        _JOINT + r"\s+(?i:(?:(?:both|jointly|together|also|now|still)\s+)*(?:own|co-?own"
        r"|are\s+(?:the\s+|both\s+)*(?:joint\s+|co-?)?owners)\b)"
    ),
    re.compile(r"(?i:\b(?:owned|co-?owned)\s+(?:jointly\s+|together\s+)?by\s+)" + _JOINT),
    re.compile(r"(?i:\b(?:co-?)?owns?\b[^.;\n]{0,80}?\b(?:together\s+)?with\s+)" + _NAME),
    # "has two owners, Kofi and Ines", "the owners are Kofi and Ines", "shares ownership of
    # it with Ines"
    re.compile(
        r"(?i:\bowners\b(?:\s+(?:of|for)\s[^.;\n]{0,60}?)?\s*(?:[,:]|are|were|include|includes)\s+"
        r"(?:both\s+)?)" + _JOINT
    ),
    re.compile(r"(?i:\bshar(?:es|ed|ing)\s+(?:the\s+)?ownership\b[^.;\n]{0,80}?\bwith\s+)" + _NAME),
)
# Beside an owner claim, another owner: "Kofi owns it, and so does Ines", "as does Ines".
_OTHER_VERB = re.compile(
    r";|\b(?:knows|knew|leads|led|heads|manages|maintains|wrote|resolved|handled|built|runs)\b",
    re.I,
)
_SO_DOES = re.compile(r"(?i:\b(?:so|as)\s+(?:does|do|did)\s+)" + _NAME)
# Said of a person only (a name the graph knows, or two words of one), as these also read
# "moved to Tuesday" or "stays with Kafka": "the billing gateway went back to Ines",
# "handed the gateway to Ines", "Ines took over", "Owner: Ines", "Ines (owner)", "stays
# with Ines", "Ines is the billing gateway owner" (not "the previous owner").
_PERSON_OWNER_CLAIMS = (
    re.compile(
        r"(?i:\b(?:transfer(?:s|red)?|mov(?:es|ed)|went|goes|pass(?:es|ed)|hand(?:s|ed)"
        r"|reassign(?:s|ed)|given|back)\s+(?:[\w'’-]+\s+){0,5}?to\s+)" + _NAME
    ),
    re.compile(
        _NAME + r"\s+(?i:(?:(?:has|had|then|later|now)\s+)?(?:took|takes|taken|take"
        r"|is\s+taking)\s+over)\b"
    ),
    re.compile(r"(?i:\bowners?\s*[:=]\s*)" + _NAME),
    re.compile(_NAME + r"\s*\((?i:(?:the\s+)?(?:current\s+|new\s+|sole\s+)?owner)\)"),
    re.compile(
        r"(?i:\b(?:stay(?:s|ed)?|remain(?:s|ed)?|rest(?:s|ed)?|lies|lay)\s+with\s+)" + _NAME
    ),
    re.compile(
        _NAME + r"\s+(?i:is\s+(?:(?:still|now|currently|also)\s+)*(?:the\s+|its\s+|their\s+)?"
        r"(?!(?:[\w'’-]+\s+){0,4}?(?:previous|former|old|ex|outgoing|prior|last|original"
        r"|first|not|no|never)\b)(?:[\w'’-]+\s+){0,4}?(?:owner|review\s+contact"
        r"|point\s+of\s+contact)\b)"
    ),
)
# "she owns it": whoever was named last before it.
_PRONOUN_OWNER = re.compile(
    r"(?i:\b(?:she|he|they)\s+(?:(?:still|now|currently|also|alone)\s+)*(?:owns?\b"
    r"|(?:is|are)\s+(?:still\s+|now\s+)?(?:the\s+)?(?:current\s+|new\s+|sole\s+)?owners?\b))"
)
# What says that the owner an owner_of answer gave does not own it: "Kofi does not own",
# "no longer owns", "used to own", "Kofi owned it until", "is not the owner".
_OWNER_DENIALS = (
    re.compile(
        _NAME + r"\s+(?i:(?:does\s+not|doesn't|did\s+not|didn't|no\s+longer|never|used\s+to"
        r"|formerly|previously|once|(?:has|had)\s+not)\s+(?:\w+\s+){0,2}?own(?:s|ed)?\b"
        r"|(?:is|was)\s+(?:not|no\s+longer|never)\s+(?:the\s+)?(?:\w+\s+)?"
        r"(?:owner|review\s+contact)\b|owned\s+(?!by\b))"
    ),
)
# ... or that no one does: "has no owner", "no one owns it", "is unowned".
_NO_OWNER = re.compile(
    r"\b(?:has\s+no\s+(?:\w+\s+)?owner|(?:no\s+one|nobody)\s+(?:\w+\s+)?owns"
    r"|is\s+(?:now\s+|currently\s+)?(?:unowned|not\s+owned|without\s+(?:an\s+)?owner))\b",
    re.I,
)
_QUOTED = re.compile(r"\"([^\"]+)\"|“([^”]+)”")


def _unquoted(text: str, evidence: Evidence) -> str:
    """The text with every quote that is word for word in the evidence blanked: a record
    quoted asserts nothing of the answer's own (a quote found nowhere stays, as its words)."""
    evidence_text = "\n".join(it.text for it in evidence.values())

    def blank(m: re.Match[str]) -> str:
        span = next(g for g in m.groups() if g is not None)
        return " " * len(m.group(0)) if quote_in(span, evidence_text) else m.group(0)

    return _QUOTED.sub(blank, text)


def _owner_claims(text: str, evidence: Evidence, known: Sequence[Named] = ()) -> list[str]:
    """A name the answer calls an owner must be one an owner_of answer of this run names as
    owner, and of everything its claim names (by any name) that an owner_of answer of this
    run gave an owner or refused one: citing a record does not make an invented, previous or
    outranked owner the owner, nor the owner of one service the owner of the next."""
    plain = _unquoted(text, evidence)
    subjects = [n for it in evidence.values() for n in it.owner_of]
    answered = {it.owner_of[0] for it in evidence.values() if it.owner_of}  # what has owners
    failures = []
    unowned = {n for it in evidence.values() if it.unowned for n in (it.id, *it.names)}
    unowned |= {n for e in known if e.id in unowned for n in e.names}
    unowned -= set(subjects)
    key = _subject_keys(known)
    ways = _subject_names([*subjects, *unowned], key, known)
    no_owner = {key(s) for s in unowned} - {key(s) for s in subjects}
    holds = _holds(subjects, known)
    persons = lru_cache(maxsize=1)(lambda: _persons(plain, subjects, known))
    for a, b in _sentences(plain, []):
        sentence = plain[a:b]
        named = [s for s in subjects if names_in(sentence, [s])]
        people = [
            m
            for p in (_IN_CHARGE, *_PERSON_OWNER_CLAIMS, *holds)
            for m in p.finditer(sentence)
            if _person_like(m.group(1), known)
        ]
        claims = [*(m for p in _OWNER_CLAIMS for m in p.finditer(sentence)), *people]
        for m in _SO_DOES.finditer(sentence):  # of the owner claim just before it
            ends = [c.end() for c in claims if c.end() <= m.start()]
            if ends and not _OTHER_VERB.search(sentence, max(ends), m.start()):
                claims.append(m)
        said = [(m.start(), m.end(), [g for g in m.groups() if g]) for m in claims]
        for m in _PRONOUN_OWNER.finditer(sentence):
            before = [name for at, name in persons() if at < a + m.start()]
            said.append((m.start(), m.end(), before[-1:]))
        for part, names in _claim_parts(sentence, said):
            what = {key for key, ns in ways.items() if names_in(part, ns)}
            if not what and _IT.search(part):  # "... the billing gateway. Nadia owns it too."
                what = _last_named(plain[:a], ways)
            failures += _owners_of(names, what, no_owner, evidence, key)
        # Saying the owner is not, or that there is none, of what an owner_of answer gave.
        denied = [
            it for pattern in _OWNER_DENIALS for m in pattern.finditer(sentence)
            for it in evidence.values() if it.owner_of and _names_person(m.group(1), it)
        ]  # fmt: skip
        if any(not named or any(s in it.owner_of for s in named) for it in denied):
            failures.append("says that the owner an owner_of answer of this run gave is not")
        if _NO_OWNER.search(sentence) and (named or len(answered) == 1):
            failures.append("says there is no owner where an owner_of answer of this run gave one")
    return failures


_IT = re.compile(r"\b(?:it|its)\b", re.I)


def _last_named(text: str, ways: Mapping[str, Sequence[str]]) -> set[str]:
    """The subject `text` names last (by any of its names): what "it" stands for after it."""
    at: dict[str, int] = {}
    for k, names in ways.items():
        for n in names:
            for m in re.finditer(rf"(?<![\w-]){re.escape(n)}(?![\w-])", text, re.I):
                at[k] = max(at.get(k, -1), m.start())
    return {max(at, key=lambda k: at[k])} if at else set()


def _owners_of(
    names: Sequence[str],
    what: set[str],
    no_owner: set[str],
    evidence: Evidence,
    key: Callable[[str], str],
) -> list[str]:
    """What is wrong with calling `names` the owners of `what` (subjects, by key): each must
    be an owner an owner_of answer of this run gave; one alone must own all of `what`, and
    several together ("Darius and Marek own the ledger and the event bus") each a part of it
    and all of it between them; none of it may be what an owner_of answer named no owner
    for."""
    failures = []
    owns: list[set[str]] = []
    for name in names:
        owners = [it for it in evidence.values() if it.owner_of and _names_person(name, it)]
        if not owners:
            failures.append(
                "calls someone the owner whom no owner_of answer of this run names as the owner"
            )
            continue
        owns.append({key(s) for it in owners for s in it.owner_of})
    if not owns:
        return failures
    given = what - no_owner
    if any(given and not given & o for o in owns) or given - set().union(*owns):
        failures.append(
            "calls someone the owner of what an owner_of answer of this run gives to another"
        )
    if what & no_owner:  # "Cy owns the billing gateway", whose owner_of was refused
        failures.append(
            "calls someone the owner of what an owner_of answer of this run names no owner for"
        )
    return failures


def _subject_keys(known: Sequence[Named]) -> Callable[[str], str]:
    """What stands for a subject named by its id, name or alias: the id of what the graph
    knows by it, else the name itself."""
    ids = {fold_name(n): e.id for e in known for n in (*e.names, e.id)}
    return lambda name: ids.get(fold_name(name), name)


def _subject_names(
    subjects: Iterable[str], key: Callable[[str], str], known: Sequence[Named]
) -> dict[str, tuple[str, ...]]:
    """Every way the answer may name each of `subjects` ("BGW" too), by its key."""
    ways: dict[str, set[str]] = {}
    for s in subjects:
        ways.setdefault(key(s), {key(s)}).add(s)
    for e in known:
        if e.id in ways:
            ways[e.id].update(e.names)
    return {k: tuple(ns) for k, ns in ways.items()}


_T = TypeVar("_T")
# Where one owner claim of a sentence ends and the next begins: the last comma, semicolon
# or conjunction between them.
_CLAIM_BREAK = re.compile(r"[,;]|\b(?:and|but|while|whilst|whereas)\b", re.I)


def _claim_parts(
    sentence: str, claims: Sequence[tuple[int, int, list[_T]]]
) -> list[tuple[str, list[_T]]]:
    """Each owner claim of `sentence` (start, end, names called owners) with the part of the
    sentence it speaks of: "Cy owns the search index and Bo owns the billing gateway" gives
    each their own service; "Cy owns the billing gateway and the search index" gives Cy
    both. Claims that overlap are one; two with no break between them both get the whole
    sentence."""
    merged: list[tuple[int, int, list[_T]]] = []
    for start, end, names in sorted(claims, key=lambda c: c[0]):
        if merged and start < merged[-1][1]:
            s0, e0, n0 = merged[-1]
            merged[-1] = (s0, max(e0, end), [*n0, *names])
        else:
            merged.append((start, end, list(names)))
    starts, ends = [0] * len(merged), [len(sentence)] * len(merged)
    for i in range(len(merged) - 1):
        cuts = list(_CLAIM_BREAK.finditer(sentence, merged[i][1], merged[i + 1][0]))
        if cuts:
            ends[i] = starts[i + 1] = cuts[-1].start()
    return [(sentence[s:e], c[2]) for s, e, c in zip(starts, ends, merged, strict=True)]


# Who the answer calls an expert, and whether the one who knows most: "Ines knows the
# billing gateway (best)", "Ines is the main expert on it", "the top expert is Ines".
_TOP = r"(?:best|most|top|main|leading|primary|chief|biggest|go-to|only|key)"
_EXPERT_CLAIMS = (
    re.compile(
        _NAME + r"\s+(?i:(?:(?:really|also|still|clearly)\s+)*(?:knows|understands)\b"
        r"(?P<top>(?:\s+(?!(?:about|how|what|who|why|when)\b)[\w'’-]+){0,5}?\s+(?:the\s+)?"
        r"(?:best|most)\b)?)"
    ),
    re.compile(
        _NAME + r"\s+(?i:is\s+(?:(?:still|now|also)\s+)?(?:the|an|a|our|their)\s+"
        rf"(?:(?P<top>{_TOP})\s+)?(?:\w+\s+)?(?:expert|specialist|authority)\b)"
    ),
    re.compile(
        rf"(?i:\b(?P<top>{_TOP})\s+(?:expert|specialist|authority)\b[^.;\n]{{0,60}}?"
        r"\b(?:is|remains)\s+)" + _NAME
    ),
)


def _expert_claims(text: str, evidence: Evidence, known: Sequence[Named]) -> list[str]:
    """Whom the answer calls an expert must be one a who_knows answer of this run ranks,
    for what the claim names; and the one it says knows most, the first it ranks."""
    # what the run asked who knows or owns: an expert named for one not ranked for it fails
    subjects = [n for it in evidence.values() for n in (*it.expert_of, *it.owner_of)]
    subjects += [n for it in evidence.values() if it.unowned for n in (it.id, *it.names)]
    key = _subject_keys(known)
    ways = _subject_names(subjects, key, known)
    failures = []
    for a, b in _sentences(text, []):
        sentence = text[a:b]
        said = [
            (m.start(), m.end(), [(name, bool(m["top"]))])
            for p in _EXPERT_CLAIMS
            for m in p.finditer(sentence)
            # the name: the group that is not "top"
            if _person_like(name := m.group(2 if p.groupindex["top"] == 1 else 1), known)
        ]
        # an owner claim beside it is a claim of its own: "..., and Marek owns the event bus"
        said += [
            (m.start(), m.end(), [])
            for p in (*_OWNER_CLAIMS, *_PERSON_OWNER_CLAIMS, _IN_CHARGE)
            for m in p.finditer(sentence)
        ]
        for part, names in _claim_parts(sentence, said):
            what = {k for k, ns in ways.items() if names_in(part, ns)}
            for name, top in names:
                people = [
                    it for it in evidence.values() if it.expert_of and _names_person(name, it)
                ]
                if not people:
                    failures.append(
                        "calls someone an expert whom no who_knows answer of this run ranks"
                    )
                    continue
                knows = {key(s) for it in people for s in it.expert_of}
                best = {key(s) for it in people for s in it.top_of}
                if what - knows:
                    failures.append(
                        "calls someone an expert on what no who_knows answer of this run "
                        "ranks them for"
                    )
                elif top and not (what & best if what else best):
                    failures.append(
                        "says someone knows most whom no who_knows answer of this run ranks first"
                    )
    return failures


# Who the answer says leads a team, or is on one: "Kofi leads the Payments team", "Kofi is
# the team lead of Payments", "Payments is led by Kofi", "Kofi is on the Data team".
_LEAD_CLAIMS = (
    re.compile(_NAME + r"\s+(?i:(?:(?:still|now|currently|also)\s+)*(?:leads|heads)\b)"),
    re.compile(
        _NAME + r"\s+(?i:is\s+(?:(?:still|now|currently|also)\s+)*(?:the|a|its|their)\s+"
        r"(?:[\w'’-]+\s+){0,2}?(?:lead|leader|head)\b)"
    ),
    re.compile(r"(?i:\b(?:led|headed)\s+by\s+)" + _NAME),
    re.compile(r"(?i:\b(?:lead|leader|head)\b[^.;\n]{0,40}?\b(?:is|remains)\s+)" + _NAME),
)
_MEMBER_CLAIMS = (
    re.compile(
        _NAME + r"\s+(?i:(?:is|works|sits)\s+(?:(?:still|now|currently|also)\s+)*(?:on|in"
        r"|a\s+member\s+of|part\s+of)\s)"
    ),
    re.compile(_NAME + r"\s+(?i:belongs\s+to\b)"),
)


def _team_claims(text: str, evidence: Evidence, known: Sequence[Named]) -> list[str]:
    """Whom the answer says leads a team a person_or_team answer of this run returned must
    be its lead there, and whom it puts on one, a member (or of that team by their own
    answer)."""
    teams = {k: it for k, it in evidence.items() if it.is_team}
    ways = {
        k: (k, *it.names, *(n for e in known if e.id == k for n in e.names))
        for k, it in teams.items()
    }
    failures = []
    for a, b in _sentences(text, []):
        sentence = text[a:b]
        said = [
            (m.start(), m.end(), [(kind, m.group(1))])
            for kind, patterns in (("lead", _LEAD_CLAIMS), ("member", _MEMBER_CLAIMS))
            for p in patterns
            for m in p.finditer(sentence)
            if _person_like(m.group(1), known)
        ]
        if not said:
            continue
        said += [
            (m.start(), m.end(), [])
            for p in (*_OWNER_CLAIMS, *_PERSON_OWNER_CLAIMS, *_EXPERT_CLAIMS)
            for m in p.finditer(sentence)
        ]
        for part, names in _claim_parts(sentence, said):
            named = [k for k, ns in ways.items() if names_in(part, list(ns))]
            for kind, name in names:
                people = [
                    it for it in evidence.values() if not it.is_team and _names_person(name, it)
                ]
                ids = {it.id for it in people}
                for k in named:
                    t = teams[k]
                    if kind == "lead":
                        told = t.team_lead is not None or any(it.leads is not None for it in people)
                        right = t.team_lead in ids or any(k in (it.leads or ()) for it in people)
                        why = "says someone leads a team that a person_or_team answer of this run"
                        why += " gives another lead, or none"
                    else:
                        told = t.team_members is not None or any(it.team for it in people)
                        right = bool(ids & set(t.team_members or ())) or any(
                            it.team == k for it in people
                        )
                        why = "puts someone on a team that no person_or_team answer of this run"
                        why += " puts them on"
                    if told and not right:
                        failures.append(why)
    return failures


def _holds(subjects: Sequence[str], known: Sequence[Named]) -> list[re.Pattern[str]]:
    """ "Ines runs the billing gateway", "Ines has BGW again", "The billing gateway is
    Ines's": said of what an owner_of answer of this run gave an owner (by any of its names)."""
    names = {s for s in subjects if s}
    names |= {n for e in known if e.id in names for n in e.names}
    if not names:
        return []
    what = "(?i:" + "|".join(re.escape(n) for n in sorted(names, key=len, reverse=True)) + ")"
    return [
        re.compile(
            _NAME + r"\s+(?i:(?:(?:still|now|currently|also|again)\s+)*(?:runs|maintains"
            r"|looks\s+after|takes\s+care\s+of|keeps|has|holds|manages|handles)\s+"
            r"(?:the\s+)?)" + what + r"(?![\w-])"
        ),
        re.compile(
            r"(?<![\w-])" + what + r"\s+(?i:is\s+(?:(?:still|now)\s+)?)" + _NAME + r"['’]s?\b"
        ),
    ]


def _persons(text: str, subjects: Sequence[str], known: Sequence[Named]) -> list[tuple[int, str]]:
    """Where `text` names a person, and the name, in order: whom a pronoun stands for
    ("Ask Ines about it; she owns it")."""
    things = {fold_name(n) for e in known if e.id in subjects for n in e.names}
    things |= {fold_name(s) for s in subjects}
    return [
        (m.start(1), m.group(1))
        for m in re.finditer(_NAME, text)
        if fold_name(m.group(1)) not in things and _person_like(m.group(1), known)
    ]


def _names_not_returned(
    plain: str, evidence: Evidence, known: Sequence[Named], asked: str
) -> list[str]:
    """Someone or something the answer names that no tool returned in this run: a person,
    service, project or team of the graph ("Kofi owns the gateway and the search index"),
    or a name the graph does not know at all ("Zara Quinn is his deputy")."""
    returned = [asked, *(t for it in evidence.values() for t in (it.id, *it.names, *it.texts))]
    # say what kind of name, never repeat it: the user must not see it
    for entity in known:
        if entity.id in evidence or not any(_says_name(plain, n) for n in entity.names):
            continue
        if not any(names_in(t, entity.names) for t in returned):
            return ["names a person, service, project or team that no tool returned in this run"]
    vocabulary = [*returned, *(n for entity in known for n in entity.names)]
    if _stranger(plain, vocabulary):
        return ["names someone or something unknown, which no tool returned in this run"]
    return []


# A name no tool returned: capitalised words in a row ("Zara Quinn"), or one that owns,
# knows or leads something ("Zara owns", "Zara is his deputy"). Not any capitalised word:
# an answer about code says "Docker", "TCP" or "Redis" of its own.
_CAPITALISED = r"[A-Z][a-z][\w'’-]*"
_NAME_RUN = re.compile(rf"(?<![\w'’-]){_CAPITALISED}(?:\s+{_CAPITALISED})+")
_ONE_NAME = re.compile(
    rf"(?<![\w'’-])({_CAPITALISED})\s+(?:owns|owned|knows|leads|led|maintains|manages"
    r"|is\s+(?:the|his|her|their|its|our|a|an)\s+(?:\w+\s+)?(?:owner|deputy|backup|lead"
    r"|expert|contact|maintainer|manager|reviewer))\b"
)


def _stranger(plain: str, vocabulary: Sequence[str]) -> bool:
    """Does the answer name someone or something neither the tools nor the graph know?"""
    known = {part for v in vocabulary for part in fold_name(v).split()} | COMMON_WORDS
    for m in _NAME_RUN.finditer(plain):
        parts = [p for p in fold_name(m.group(0)).split() if p not in COMMON_WORDS]
        if len(parts) > 1 and any(p not in known for p in parts):
            return True
    return any(fold_name(m.group(1)) not in known for m in _ONE_NAME.finditer(plain))


def _says_name(text: str, name: str) -> bool:
    """Does `text` name `name`? A one-word name only as written, capitals and all ("Kofi",
    "BGW"): a lower-case one ("dev", "ledger") is as often a common word."""
    if len(name.split()) > 1:
        return names_in(text, [name])
    if name.islower():
        return False
    return re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-])", text) is not None


def _person_like(name: str, known: Sequence[Named]) -> bool:
    """Is `name` (capitalised words) a name the graph knows, or two words of a name?"""
    words = fold_name(name).split()
    tails = {" ".join(words[i:]) for i in range(len(words))}
    if any(fold_name(n) in tails for entity in known for n in entity.names):
        return True
    return len([w for w in words if w not in COMMON_WORDS]) > 1


def _names_person(name: str, item: EvidenceItem) -> bool:
    """Does `name` (a run of capitalised words) stand for the person of `item`? Their full
    name, their first name, or their id."""
    words = fold_name(name).split()
    known = [fold_name(n) for n in _names_of(item)]
    # "Since October Kofi Mensah": the name is the last words of the run
    return any(" ".join(words[i:]) in known for i in range(len(words)))


# -- what the user sees instead of an answer that failed ---------------------------------


def withheld(report: CheckReport, answers: Iterable[Answer], reason: str | None = None) -> str:
    """The evidence and the reason, never the unchecked text."""
    why = reason or "; ".join(report.failures) or "it did not pass the checks"
    lines = [f"The model's answer was withheld because {why}."]
    seen: set[tuple[str, str]] = set()
    evidence_lines = []
    for answer in answers:
        for c in answer.citations:
            key = (c.record, c.quote or "")
            if key in seen:
                continue
            seen.add(key)
            quote = f' "{c.quote}"' if c.quote else ""
            evidence_lines.append(f"[{c.record}]{quote}")
    if evidence_lines:
        lines.append("Evidence the tools returned: " + "; ".join(evidence_lines) + ".")
    else:
        lines.append("The tools returned no evidence.")
    return " ".join(lines)
