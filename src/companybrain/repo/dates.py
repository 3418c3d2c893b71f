"""Dates as decision records write them, to ISO `YYYY-MM-DD`. Pure."""

from __future__ import annotations

import re
from datetime import date

MONTHS = {
    m: i + 1
    for i, names in enumerate(
        [
            ("jan", "january"),
            ("feb", "february"),
            ("mar", "march"),
            ("apr", "april"),
            ("may",),
            ("jun", "june"),
            ("jul", "july"),
            ("aug", "august"),
            ("sep", "sept", "september"),
            ("oct", "october"),
            ("nov", "november"),
            ("dec", "december"),
        ]
    )
    for m in names
}
_ISO = re.compile(r"(?<!\d)(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})(?!\d)")
_COMPACT = re.compile(r"^(\d{4})(\d{2})(\d{2})(?!\d)")
_MDY = re.compile(r"\b([A-Za-z]{3,9})\.?\s+(\d{1,2})(?:st|nd|rd|th)?,?\s+(\d{4})\b")
_DMY = re.compile(r"\b(\d{1,2})(?:st|nd|rd|th)?\s+([A-Za-z]{3,9})\.?,?\s+(\d{4})\b")


def _make(y: int, m: int, d: int) -> str | None:
    try:
        return date(y, m, d).isoformat()
    except ValueError:
        return None


def find_date(text: str) -> str | None:
    """The first date written in `text` (2026-03-01, 2026/03/01, March 1, 2026, 1 Mar 2026)."""
    best: tuple[int, str] | None = None
    for m in _ISO.finditer(text):
        found = _make(int(m.group(1)), int(m.group(2)), int(m.group(3)))
        if found:
            best = (m.start(), found)
            break
    for pattern, order in ((_MDY, "mdy"), (_DMY, "dmy")):
        for m in pattern.finditer(text):
            if order == "mdy":
                month, day, year = m.group(1), m.group(2), m.group(3)
            else:
                day, month, year = m.group(1), m.group(2), m.group(3)
            num = MONTHS.get(month.lower())
            found = _make(int(year), num, int(day)) if num else None
            if found and (best is None or m.start() < best[0]):
                best = (m.start(), found)
                break
    return best[1] if best else None


def date_in_filename(name: str) -> str | None:
    """`20260301-title.md` or `2026-03-01-title.md` (log4brains and date-named ADRs)."""
    m = _COMPACT.match(name)
    if m:
        return _make(int(m.group(1)), int(m.group(2)), int(m.group(3)))
    m = _ISO.match(name)
    return _make(int(m.group(1)), int(m.group(2)), int(m.group(3))) if m else None


def strip_date(text: str) -> str:
    """`2026-03-01: Use X` / `Use X (2026-03-01)` / `[2026-03-01] Use X` → `Use X`."""
    out = _ISO.sub("", text, count=1) if _ISO.search(text) else text
    out = re.sub(r"\(\s*\)|\[\s*\]", "", out)
    return out.strip(" \t-–—:|·,").strip() or text.strip()
