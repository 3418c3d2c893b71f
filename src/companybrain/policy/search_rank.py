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
