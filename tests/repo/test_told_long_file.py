"""An AGENTS.md of thousands of headings ("## Rule 1" … each about money): `told money` took
14 s, nearly all of it comparing every matching section with every other to keep the
innermost (25 million comparisons for 5,000 sections). Sections nest or lie apart, so one
pass in line order finds the same ones."""

from __future__ import annotations

import random
import time

from companybrain.repo.instructions import Span, matching, sections


def _pairwise(spans: list[Span], words: list[str]) -> list[Span]:
    """The definition: the spans no other holds (no words), or the matching spans that hold
    no other matching span."""

    def holds(a: Span, b: Span) -> bool:
        return a.line_start <= b.line_start and b.line_end <= a.line_end

    if not words:
        return [s for s in spans if not any(o is not s and holds(o, s) for o in spans)]
    hits = [s for s in spans if set(words) & set(s.text.lower().split())]
    return [s for s in hits if not any(o is not s and holds(s, o) for o in hits)]


def test_the_same_sections_as_pairwise() -> None:
    rng = random.Random(7)
    for _ in range(30):
        lines = ["Intro about money."] if rng.random() < 0.5 else []
        for i in range(rng.randint(0, 40)):
            lines += [f"{'#' * rng.randint(1, 4)} Part {i}", ""]
            lines += (
                [rng.choice(["money", "tests", "style"]) + " rule"] if rng.random() < 0.7 else []
            )
        spans = sections("\n".join(lines))
        for words in ([], ["money"], ["tests"]):
            says = (lambda text, ws: bool(set(ws) & set(text.lower().split()))) if words else None
            assert matching(spans, words, says) == _pairwise(spans, words)


def test_thousands_of_sections_are_matched_at_once() -> None:
    text = "# Agents\n\n" + "".join(
        f"## Rule {i}\n\nRule {i}: keep money as cents in m{i}.\n\n" for i in range(10_000)
    )
    spans = sections(text)
    started = time.perf_counter()
    found = matching(spans, ["money"])
    whole = matching(spans, [])
    assert time.perf_counter() - started < 5  # pairwise: 100 million comparisons
    assert len(found) == 10_000 and found[0].heading == "Rule 0"
    assert [s.heading for s in whole] == ["Agents"]
