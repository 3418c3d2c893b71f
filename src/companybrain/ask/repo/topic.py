"""Matching a question's words against decision text, and locating quotes in it. Pure."""

from __future__ import annotations

import itertools
import re
from collections.abc import Collection, Iterable
from dataclasses import dataclass

from companybrain.policy.text import normalise

_STOP_TEXT = """
    a an and are as at be been being but by can could did do does doing done for from had
    has have how i if in into is it its itself me my no not of on or our ours out over own
    same she should so some such than that the their them then there these they this those
    through to too under until up very was we were what when where which while who whom why
    will with would you your yours about above after again against all any because before
    below between both down during each few further here more most other once only off just
    now s t don isn wasn use used using way ways code file files thing things make makes made
    still keep kept go goes went get gets got like repo repository project decided decision
    decisions decide tell told say said says know knows reason reasons reasoning rationale
    behind choose chose chosen choosing pick picked picking prefer prefers preferred adopt
    adopts adopted adopting select selected selecting opt opted rely relies relied relying"""
STOPWORDS = frozenset(_STOP_TEXT.split())
_WORD = re.compile(r"[a-z0-9][a-z0-9_]*")
_IDENT = re.compile(
    r"`([^`]+)`|\b([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)+)\b(?!\.\w)"
    r"|\b([a-z]+_[a-z0-9_]+|[a-z]+[A-Z][A-Za-z0-9]*|[A-Z][a-z]+[A-Z][A-Za-z0-9]*)\b"
)


# suffix -> what takes its place: "retries" and "retried" meet "retry"; "exporters" meets
# "exporter" ("ers" before "s", else it stems to "exporter" and "exporter" to "export")
_SUFFIXES = (("ings", ""), ("ing", ""), ("edly", ""), ("ied", "y"), ("ed", ""), ("ies", "y"),
             ("ers", ""), ("es", ""), ("s", ""), ("er", ""))  # fmt: skip
_SIBILANT_ES = ("xes", "zes", "ches", "shes")  # "batches", "boxes": "es" is the plural
_DOUBLED = re.compile(r"([bdgmnprt])\1$")  # "logging", "pinned": a consonant doubled before it


def stem(word: str) -> str:
    """A crude stem so that 'writes', 'writing' and 'write' meet (also 'logging' and 'log',
    'replies' and 'reply', 'exporters' and 'exporter', 'classes' and 'class', 'files' and
    'file'); never shorter than 3."""
    for suffix, instead in _SUFFIXES:
        if suffix == "es" and not word.endswith(_SIBILANT_ES):
            continue  # "files", "cases": the "s" alone ("file", "case")
        if suffix == "s" and word.endswith(("ss", "us", "is")):
            continue  # "class", "status", "basis" are no plurals
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            word = word[: -len(suffix)] + instead
            if not instead and len(word) > 3:
                word = _DOUBLED.sub(r"\1", word)
            break
    return word.rstrip("e") if len(word) > 4 else word


_COMPOUND = re.compile(r"\b[a-z]{2,}(?:-[a-z]{2,})+\b")  # write-ahead, rate-limit


def terms(text: str) -> list[str]:
    """Content words of `text`, stemmed, in order, without repeats. A one-letter word says
    nothing, but a one-digit number does ("report 7", "ADR 3"). A hyphenated compound is
    one word ("write-ahead": "writeahead"), which a text holds written any of the three
    ways (see `term_set`)."""
    lowered = _COMPOUND.sub(lambda m: m.group(0).replace("-", ""), text.lower())
    out = [
        stem(w)
        for w in _WORD.findall(lowered)
        if w not in STOPWORDS and (len(w) > 1 or w.isdigit())
    ]
    return list(dict.fromkeys(out))


def identifiers(text: str) -> list[str]:
    """Code-like names a question mentions: `quoted`, dotted.names, snake_case, CamelCase."""
    found = []
    for m in _IDENT.finditer(text):
        name = next(g for g in m.groups() if g)
        if "/" not in name and not re.search(r"\.(md|py|ts|js|go|rs|java|txt)$", name):
            found.append(name.strip("()"))
    return list(dict.fromkeys(found))


_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_]*")


def _inner_capital(word: str) -> bool:
    return any(c.isupper() or c.isdigit() for c in word[1:])


def names(text: str, known: Collection[str] = ()) -> list[str]:
    """The words of `text` written as names (a product, a technology, a person): with a
    capital or a digit after their first character (SQLite, FalkorDB, MCP, K8s), or
    capitalised (Postgres, Kafka) other than after the end of a sentence, and, in any case,
    those `known` (lower case) as names (`written_as_names`: "falkordb" where the repository
    writes FalkorDB). A decision that lacks one is about something else, whatever other
    words it shares."""
    found = []
    for m in _NAME.finditer(text):
        word = m.group(0)
        lowered = word.lower()
        if lowered in STOPWORDS or len(word) < 2 or word.isdigit():
            continue
        after_sentence = text[: m.start()].rstrip()[-1:] in {".", "!", "?"}
        if _inner_capital(word) or (word[0].isupper() and not after_sentence) or lowered in known:
            found.append(word)
    return list(dict.fromkeys(found))


def written_as_names(words: Collection[str], texts: Iterable[str]) -> set[str]:
    """The `words` (lower case) that one of the `texts` writes, as a whole word, with a
    capital or a digit after its first character (FalkorDB, SQLite, K8s), or capitalised
    inside a sentence (Postgres, Kafka) and nowhere in lower case: names, in whatever case
    a question writes them."""
    found: set[str] = set()
    capitalised: set[str] = set()
    lower: set[str] = set()
    for text in texts:
        for m in _NAME.finditer(text):
            word = m.group(0)
            lowered = word.lower()
            if lowered not in words:
                continue
            if _inner_capital(word):
                found.add(lowered)
            elif word.islower():
                lower.add(lowered)
            elif word[0].isupper() and not _starts_sentence(text, m.start()):
                capitalised.add(lowered)
    return found | (capitalised - lower)


def _starts_sentence(text: str, at: int) -> bool:
    """Whether the word at `at` may be capitalised for its place: first on its line (a
    heading, a list item, a wrapped line), or after the end of a sentence or a colon."""
    before = text[:at].rstrip(" \t")
    return not before or before[-1] in ".!?:\n#*->|`\"'(["


# Words after which a question names what is used, not what it is about ("use kafka",
# "write to redis", "written in rust", "switch from mongodb", "instead of pulsar").
_BEFORE_NAME_TEXT = """
    use uses using used to in into with on onto via from over than of instead not choose
    chose chosen choosing pick picked prefer preferred adopt adopted switch switched move
    moved migrate migrated"""
_BEFORE_NAME = frozenset(_BEFORE_NAME_TEXT.split())


def bare_words(text: str) -> set[str]:
    """The lower-case words of `text` right after a word of `_BEFORE_NAME`, with no article
    between: where a question gives a name ("why does the exporter write to kafka"), not a
    thing described ("pinned to an exact version")."""
    found: set[str] = set()
    previous = ""
    for m in _NAME.finditer(text):
        word = m.group(0)
        if (
            previous.lower() in _BEFORE_NAME
            and word.islower()
            and word not in STOPWORDS
            and len(word) > 1
            and not word.isdigit()
            and stem(word) not in _ASKING
        ):
            found.add(word)
        previous = word
    return found


def unwritten(words: Collection[str], texts: Iterable[str]) -> set[str]:
    """The `words` that none of the `texts` holds as a word (stemmed)."""
    left = {w: stem(w) for w in words}
    for text in texts:
        if not left:
            break
        held = term_set(text)
        left = {w: s for w, s in left.items() if s not in held}
    return set(left)


def lacking(wanted: list[str], title: str, text: str) -> list[str]:
    """The names of `wanted` that neither the title nor the text holds (as a word)."""
    held = term_set(title) | term_set(text)
    return [n for n in wanted if stem(n.lower()) not in held]


def lower_words(text: str) -> set[str]:
    """The words of `text` written in lower case, other than stop words."""
    return {w for w in _NAME.findall(text) if w.islower() and w not in STOPWORDS}


def term_set(text: str) -> set[str]:
    """The stemmed words of `text`, and each two neighbours joined, so that "write-ahead",
    "write ahead" and "writeahead" meet."""
    words = _WORD.findall(text.lower())
    return {stem(w) for w in words} | {stem(a + b) for a, b in itertools.pairwise(words)}


_JOIN_GAP = 4  # letters a stem drops from the first word of a compound ("writ[e]", "log[ging]")


def joined(wanted: list[str], found: set[str]) -> list[tuple[str, str]]:
    """Neighbours in `wanted` (stemmed, in the question's order), neither of them in a
    text's `term_set` (`found`), that it writes as one word: "write ahead" in a question,
    "writeahead" in the decision. A stem is the start of its word, so the joined word starts
    with the first stem and, a few letters later, holds the second. One term, as the
    hyphenated "write-ahead" is."""
    out: list[tuple[str, str]] = []
    for a, b in itertools.pairwise(wanted):
        if a in found or b in found or (out and out[-1][1] == a):
            continue
        if any(
            w.startswith(a) and w.endswith(b) and 0 <= len(w) - len(a) - len(b) <= _JOIN_GAP
            for w in found
        ):
            out.append((a, b))
    return out


# Words that say how a question asks about a name rather than what about it ("Why is bm25s
# needed?", "Why was FalkorDB added?", "Why do we even use it?"): not its subject.
_ASKING_TEXT = """
    need needs needed add adds added adding introduce introduces introduced introducing
    depend depends depended dependency dependencies even really actually currently ever also
    always exist exists existed anymore"""
_ASKING = frozenset(stem(w) for w in _ASKING_TEXT.split())


def subject_terms(text: str, known: Collection[str] = ()) -> list[str]:
    """The words of `text` besides the names and code names it gives, and besides the words
    of asking (`_ASKING`): what it asks about them ("FalkorDB for the exporter" → the
    exporter; "Why is bm25s needed?" → nothing)."""
    given = set(terms(" ".join([*names(text, known), *identifiers(text)])))
    return [t for t in terms(text) if t not in given and t not in _ASKING]


def elsewhere(subject: list[str], title: str, text: str) -> bool:
    """A decision holding none of the `subject_terms` of a question uses the names it shares
    with the question for something else ("Use FalkorDB for the board" does not answer "why
    FalkorDB for the exporter")."""
    found = term_set(title) | term_set(text)
    return bool(subject) and not set(subject) & found and not joined(subject, found)


@dataclass(frozen=True)
class Match:
    score: float
    coverage: float  # share of the question's terms the text holds
    line: int  # the best line (offset from the first line of the text, 0-based)


def score(query_terms: list[str], title: str, text: str) -> Match:
    """How well a decision (title and text) matches the terms: title hits count thrice."""
    if not query_terms:
        return Match(0.0, 0.0, 0)
    in_title, in_text = term_set(title), term_set(text)
    both = in_title | in_text
    pairs = joined(query_terms, both)  # each one term, as a hyphenated compound is
    hits = [t for t in query_terms if t in both] + [f"{a} {b}" for a, b in pairs]
    titled = {*in_title, *(f"{a} {b}" for a, b in joined(query_terms, in_title))}
    total = sum(3.0 if t in titled else 1.0 for t in hits)
    lines = text.splitlines() or [""]

    def on_line(i: int) -> int:
        found = term_set(lines[i])
        return len(set(query_terms) & found) + len(joined(query_terms, found))

    best = max(range(len(lines)), key=lambda i: (on_line(i), -i))
    return Match(total, len(hits) / (len(query_terms) - len(pairs)), best)


def mentions_identifier(text: str, name: str) -> int:
    """The 0-based line of `text` that mentions identifier `name` as a whole word, or -1."""
    pattern = re.compile(rf"(?<![\w.]){re.escape(name)}(?![\w])")
    for i, line in enumerate(text.splitlines()):
        if pattern.search(line):
            return i
    return -1


def locate(quote: str, text: str, first_line: int) -> tuple[int, int] | None:
    """The smallest 1-based line span of `text` (which starts at `first_line` of its file)
    that holds `quote`, compared after normalising case, white space, quotes and dashes."""
    target = normalise(quote)
    if not target:
        return None
    lines = [normalise(line) for line in text.splitlines()]
    for end in range(len(lines)):
        joined = ""
        for start in range(end, -1, -1):
            joined = f"{lines[start]} {joined}".strip()
            if target in joined:
                return first_line + start, first_line + end
            # the quote would end on line `end`: it cannot start further back than this
            if len(joined) > len(target) + len(lines[end]) + 1:
                break
    return None
