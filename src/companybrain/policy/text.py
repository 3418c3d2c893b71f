"""Text normalisation shared by every check: quotes are compared after folding case, white
space, curly quotes and Unicode dashes; names are matched ignoring punctuation too."""

from __future__ import annotations

import difflib
import re
import unicodedata
from collections.abc import Iterable, Iterator
from typing import Any

_QUOTES = str.maketrans(
    {
        "\u2018": "'",
        "\u2019": "'",
        "\u201a": "'",
        "\u201b": "'",
        "\u2032": "'",
        "\u201c": '"',
        "\u201d": '"',
        "\u201e": '"',
        "\u201f": '"',
        "\u2033": '"',
        "\u00ab": '"',
        "\u00bb": '"',
    }
)
_DASHES = re.compile(r"[\u2010\u2011\u2012\u2013\u2014\u2015\u2212\ufe58\ufe63\uff0d]")
_SPACE = re.compile(r"\s+")
_PUNCT = re.compile(r"[^\w\s]")


# What `unstorable` refuses, in one search: the common case (nothing) is one regex scan.
UNSTORABLE = re.compile("[\x00\ud800-\udfff]")


def unstorable(text: str) -> str | None:
    """Why FalkorDB cannot take `text` as given (a NUL ends the query text early; a lone
    surrogate is not UTF-8), or None."""
    if "\x00" in text:
        return "contains a NUL character"
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:
        return f"is not valid Unicode text ({exc.reason})"
    return None


def clipped(value: object, limit: int = 80) -> str:
    """`repr(value)` for a message, cut to its start when long: a field holding a whole
    export (an author of 200,000 characters) made a one-line rejection as long."""
    shown = repr(value)
    if len(shown) <= limit:
        return shown
    return f"{shown[:limit]}... ({len(str(value)):,} characters)"


# What a refused proposal keeps of each text it holds: a quote is a sentence, not a page,
# and a reply of megabytes (a looping model, a hostile endpoint) is not stored whole.
KEPT_OF_REFUSED = 2_000


def cut(text: str, limit: int = KEPT_OF_REFUSED) -> str:
    """`text`, or its start and how long it was when longer than `limit`."""
    return text if len(text) <= limit else f"{text[:limit]}... ({len(text):,} characters)"


def strings_in(value: Any) -> Iterator[str]:
    """Every string inside `value` (itself, or inside lists, tuples and mappings, keys too),
    walked with a stack: a JSON body or a query parameter may nest deep."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            yield item
        elif isinstance(item, list | tuple):
            stack.extend(item)
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())


def straight_quotes(text: str) -> str:
    """Curly quotes and primes as straight ones, all else kept: "doesn’t" reads "doesn't"."""
    return text.translate(_QUOTES)


def normalise(text: str) -> str:
    """For verbatim comparison of quotes: case, white space, curly quotes, Unicode dashes."""
    text = unicodedata.normalize("NFKC", text).translate(_QUOTES)
    text = _DASHES.sub("-", text)
    return _SPACE.sub(" ", text).strip().casefold()


def quote_in(quote: str, text: str) -> bool:
    """Does `quote` appear verbatim in `text` (after normalising both)?"""
    q = normalise(quote)
    return bool(q) and q in normalise(text)


def fold_name(text: str) -> str:
    """For matching names and aliases: also ignore punctuation ("billing-gw" = "billing gw")."""
    return _SPACE.sub(" ", _PUNCT.sub(" ", normalise(text).replace("_", " "))).strip()


_NAME_WORD = re.compile(r"[^\W_]+")


def name_words(text: str) -> list[str]:
    """`fold_name(text).split()` in one pass: the runs of letters and digits of the
    normalised text (quotes, dashes, punctuation and "_" all end a word)."""
    return _NAME_WORD.findall(unicodedata.normalize("NFKC", text).casefold())


def names_in(text: str, names: tuple[str, ...] | list[str]) -> bool:
    """Does `text` name any of `names`, as whole words?"""
    haystack = f" {fold_name(text)} "
    return any(f" {n} " in haystack for n in (fold_name(x) for x in names) if n)


def find_name(text: str, names: tuple[str, ...] | list[str]) -> int:
    """Position (in the folded text) of the first of `names` that `text` mentions, or -1."""
    haystack = f" {fold_name(text)} "
    found = [haystack.find(f" {n} ") for n in (fold_name(x) for x in names) if n]
    hits = [i for i in found if i >= 0]
    return min(hits) if hits else -1


NEAR_RATIO = 0.85  # how alike a phrase of a question and a name must be to suggest it
_NEAR_MIN_CHARS = 5  # shorter names ("idp", "dwh") are like too many words
_NEAR_MAX_WORDS = 40  # of a question read for them: the work grows with words times names


def near_names(
    text: str, names: Iterable[tuple[str, str]], limit: int = 3
) -> list[tuple[str, str]]:
    """(phrase of `text`, label) for the names that `text` nearly uses: a phrase of as many
    words as a name, spelt alike ("billing gateways", "biling gateway" for "billing
    gateway"), best first, one phrase per label. `names`: (label, name) pairs. Only to
    suggest a name in a refusal: nothing is ever answered for a name guessed so."""
    words = name_words(text)[:_NEAR_MAX_WORDS]
    best: dict[str, tuple[float, str]] = {}
    for label, name in names:
        parts = name_words(name)
        wanted, size = " ".join(parts), len(parts)
        if len(wanted) < _NEAR_MIN_CHARS or size > len(words):
            continue
        matcher = difflib.SequenceMatcher(None, b=wanted, autojunk=False)
        for at in range(len(words) - size + 1):
            phrase = " ".join(words[at : at + size])
            if phrase == wanted:
                continue
            if all(w in _singulars(p) for p, w in zip(words[at : at + size], parts, strict=True)):
                ratio = 0.99  # a plural of it: "billing gateways", "event busses"
            elif abs(len(phrase) - len(wanted)) > len(wanted) // 4:
                continue
            else:
                matcher.set_seq1(phrase)
                if matcher.real_quick_ratio() < NEAR_RATIO or matcher.quick_ratio() < NEAR_RATIO:
                    continue
                ratio = matcher.ratio()
            if ratio >= NEAR_RATIO and ratio > best.get(label, (0.0, ""))[0]:
                best[label] = (ratio, phrase)
    ranked = sorted(best.items(), key=lambda item: (-item[1][0], item[0]))
    return [(phrase, label) for label, (_, phrase) in ranked[:limit]]


def _singulars(word: str) -> set[str]:
    """`word` and what it may be the plural of ("proxies": proxy, "busses": bus)."""
    found = {word}
    if word.endswith("s"):
        found |= {word[:-1], word[:-2]}
        if word.endswith("ies"):
            found.add(word[:-3] + "y")
        if word.endswith("sses"):
            found.add(word[:-3])
    return found


_FIRST_WORD = re.compile(r"\w+")


class NameSet:
    """Names (of services, people, teams...) indexed by their first word, to find the few
    a question uses among thousands without reading every one: done for each check of each
    question, that cost milliseconds a question in a company of 15,000 names."""

    def __init__(self, names: Iterable[str]) -> None:
        self._by_word: dict[str, list[str]] = {}
        self.non_ascii: list[str] = []  # kept apart: some callers read them whatever the text
        for name in {n.strip() for n in names if n.strip()}:
            first = _FIRST_WORD.search(name.casefold())
            self._by_word.setdefault(first.group() if first else "", []).append(name)
            if not name.isascii():
                self.non_ascii.append(name)

    def present(self, text: str) -> set[str]:
        """The names that occur in `text`, ignoring case (as a part of it: the caller
        matches them at word boundaries)."""
        folded = text.casefold()
        words = {"", *_FIRST_WORD.findall(folded)}
        return {
            name
            for word in words
            for name in self._by_word.get(word, ())
            if name.casefold() in folded
        }

    @classmethod
    def of(cls, names: NameSet | Iterable[str]) -> NameSet:
        return names if isinstance(names, NameSet) else cls(names)
