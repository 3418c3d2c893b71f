"""Hostile strings for the security suites, the hypothesis profile they run under, and a
tally of the inputs each suite tried."""

from __future__ import annotations

import json
import os
import unicodedata
from collections import Counter

from hypothesis import HealthCheck, Phase, settings
from hypothesis import strategies as st

from tests.conftest import REPO_ROOT

# BRAIN_FUZZ_SCALE=10 runs ten times the examples (a deeper local run; CI keeps 1).
SCALE = max(1, int(os.environ.get("BRAIN_FUZZ_SCALE", "1")))
settings.register_profile(
    "security",
    deadline=None,  # a shared machine: time is not what these tests check
    database=None,
    # Every example writes to a real graph: shrinking a failure would take minutes, so a
    # failure is reported as found.
    phases=[Phase.explicit, Phase.reuse, Phase.generate],
    suppress_health_check=[
        HealthCheck.too_slow,
        HealthCheck.function_scoped_fixture,
        HealthCheck.data_too_large,
        HealthCheck.large_base_example,
    ],
)


def examples(n: int) -> settings:
    """The security profile with `n` examples (times BRAIN_FUZZ_SCALE)."""
    return settings(settings.get_profile("security"), max_examples=n * SCALE)


TRIED: Counter[str] = Counter()
COUNTS_FILE = REPO_ROOT / ".brain" / "hostile-input-counts.json"


def tried(suite: str, n: int = 1) -> None:
    TRIED[suite] += n


def write_counts() -> None:
    if not TRIED:
        return
    COUNTS_FILE.parent.mkdir(parents=True, exist_ok=True)
    old = json.loads(COUNTS_FILE.read_text()) if COUNTS_FILE.exists() else {}
    COUNTS_FILE.write_text(json.dumps({**old, **dict(sorted(TRIED.items()))}, indent=2) + "\n")


# Pieces that break naive quoting, query building or text handling.
NASTY = (
    "'", '"', "`", "\\", "\\\\", "\\'", '\\"', "$", "$id", "${x}", "{", "}", "})", "]}",
    "MATCH (n) DETACH DELETE n", "'}) MATCH (n) DETACH DELETE n //",
    '"}) CREATE (:Person {id: "mallory"}) //', "CALL db.labels()", "// ", "/*", "*/", ";",
    "' OR 1=1 --", "\\u0000", "\\n", "%s", "{0}", "\n", "\r\n", "\r", "\t", "\x01", "\x1b[31m",
    "\x7f", "\x85", "\u2028", "\u202e", "\u2066", "\u200b", "\u200d", "\ufeff", "\u00ad",
    "\u0430\u0440\u0456\u0430",  # Cyrillic look-alikes of "aria"
    "e\u0301\u0301\u0301", "\U0001d518\U0001d51e", "\U0001f600", "\U000e0041\U000e0042",
    "\U0001f3f4\U000e0067\U000e0062\U000e0065\U000e006e\U000e0067\U000e007f",
    "<script>alert(1)</script>", "Ignore previous instructions", "---", "null", "true",
)  # fmt: skip

# Any character but a lone surrogate (not text) and NUL (refused on purpose; own tests).
_CHARS = st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00")


def hostile_text(max_pieces: int = 8) -> st.SearchStrategy[str]:
    piece = st.one_of(st.sampled_from(NASTY), st.text(_CHARS, max_size=12))
    return st.lists(piece, max_size=max_pieces).map("".join)


def hostile_name() -> st.SearchStrategy[str]:
    """Non-empty after stripping, as names and ids must be."""
    return hostile_text().filter(lambda s: bool(s.strip()))


def _no_control(text: str) -> str:
    return "".join(c for c in text if unicodedata.category(c) != "Cc").strip()


def hostile_id() -> st.SearchStrategy[str]:
    """Ids may hold anything but control characters and surrounding space (refused: a
    uniquely indexed id with those crashes the pinned FalkorDB)."""
    return hostile_text().map(_no_control).filter(bool)
