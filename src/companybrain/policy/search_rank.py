"""Ranking search hits from their own text (BM25 over the hits themselves), so that the order
depends only on records the asker may see. The full-text index's own score weighs each word
by how many records in the whole index hold it, hidden records included: ranking by it would
let a record someone may not see reorder what they do see.

A record's title counts its words TITLE_WEIGHT times (BM25F's field weight): a ticket titled
with the words asked for outranks the short chat lines that quote that title, which BM25
over title and text as one field put first for being shorter."""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from companybrain.policy.text import normalise

K1 = 1.2
B = 0.75
TITLE_WEIGHT = 2


def stem(word: str) -> str:
    """A light suffix strip, so that "rotations" finds "rotation"."""
    for suffix in ("ings", "ing", "es", "s"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            return word[: -len(suffix)]
    return word


def terms(text: str) -> list[str]:
    return [stem(w) for w in re.findall(r"[^\W_]+", text.lower())]


def rank(hits: Sequence[tuple[str, str]], words: Sequence[str]) -> list[str]:
    """The ids of `hits` ((id, text) pairs), best match for `words` first; ties by id."""
    return _rank({rid: Counter(terms(text)) for rid, text in hits}, words)


def rank_titled(hits: Sequence[tuple[str, str, str]], words: Sequence[str]) -> list[str]:
    """The ids of `hits` ((id, title, text)), best match first, words in a title counted
    TITLE_WEIGHT times; ties by id."""
    docs = {}
    for rid, title, text in hits:
        counts = Counter(terms(text))
        for t in terms(title):
            counts[t] += TITLE_WEIGHT
        docs[rid] = counts
    return _rank(docs, words)


def _rank(docs: dict[str, Counter[str]], words: Sequence[str]) -> list[str]:
    """BM25 over the term counts of each hit, statistics from these hits only."""
    if not docs:
        return []
    query = list(dict.fromkeys(stem(w.lower()) for w in words))
    lengths = {rid: sum(counts.values()) for rid, counts in docs.items()}
    average = sum(lengths.values()) / len(docs) or 1.0
    n = len(docs)
    df = {t: sum(1 for counts in docs.values() if counts[t]) for t in query}

    def score(rid: str) -> float:
        total = 0.0
        for t in query:
            tf = docs[rid][t]
            if not tf:
                continue
            idf = math.log(1 + (n - df[t] + 0.5) / (df[t] + 0.5))
            norm = tf + K1 * (1 - B + B * lengths[rid] / average)
            total += idf * tf * (K1 + 1) / norm
        return total

    scores = {rid: score(rid) for rid in docs}
    return sorted(docs, key=lambda rid: (-scores[rid], rid))


# -- what a query asks beyond its words -------------------------------------------------------

# -word or -"a phrase" (not wanted), "a phrase" (wanted as written), @title:word or
# @title:"a phrase" (wanted in the title), @field:... (another field: not read)
OPERATOR = re.compile(r'(?<!\S)-(?:"([^"]+)"|([^\W_][\w-]*))|"([^"]+)"|@(\w+):(?:"([^"]+)"|(\S+))')


@dataclass(frozen=True)
class Query:
    words: list[str]  # to search for
    phrases: list[str] = field(default_factory=list)  # each in the record as written
    excluded: list[str] = field(default_factory=list)  # none in the record
    in_title: list[str] = field(default_factory=list)  # each in its title
    unread: list[str] = field(default_factory=list)  # operators not read ("@author:")


def read_query(query: str) -> Query:
    """The words of `query` and what its operators ask of a hit."""
    phrases: list[str] = []
    excluded: list[str] = []
    in_title: list[str] = []
    unread: list[str] = []
    for m in OPERATOR.finditer(query):
        minus_phrase, minus, phrase, key, quoted, value = m.groups()
        if minus_phrase or minus:
            excluded.append(minus_phrase or minus)
        elif phrase is not None:
            phrases.append(phrase)
        elif key.lower() == "title":
            in_title.append(quoted or value)
        else:
            unread.append(f"@{key}:")
    rest = OPERATOR.sub(lambda m: f" {m.group(3) or ''} ", query)  # a phrase's words stay
    words = re.findall(r"[^\W_]+", " ".join([rest, *in_title]))
    return Query(words, phrases, excluded, in_title, unread)


def matches(query: Query, title: str, text: str) -> bool:
    """Whether a record of this title and text is one the query's operators allow."""
    whole = f"{title}\n{text}"
    return (
        all(_has_phrase(whole, p) for p in query.phrases)
        and not any(_has_phrase(whole, w) if " " in w.strip() else _has_word(whole, w)
                    for w in query.excluded)
        and all(_has_phrase(title, w) if " " in w.strip() else _has_word(title, w)
                for w in query.in_title)
    )  # fmt: skip


def _has_word(text: str, word: str) -> bool:
    """A word of `text` begins as `word` does (its stem: "-bloat" leaves out "bloats")."""
    return bool(re.search(rf"(?<!\w){re.escape(stem(word.lower()))}", text.lower()))


def _has_phrase(text: str, phrase: str) -> bool:
    said = normalise(phrase)
    return bool(said) and bool(re.search(rf"(?<!\w){re.escape(said)}(?!\w)", normalise(text)))
