"""A record body cut into the pieces a fact can quote: sentences of prose, rows of Markdown
tables, `Key: value` field lines and headings. Each piece keeps its text as written (white
space runs collapsed, which quote checks ignore), so a quote taken from it is verbatim."""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass, field

SENTENCE = "sentence"
ROW = "row"
FIELD = "field"
HEADING = "heading"

_FENCE = re.compile(r"^\s*(```|~~~)")
_HEADING = re.compile(r"^\s*#{1,6}\s+(?P<title>.*?)\s*#*\s*$")
_BULLET = re.compile(r"^\s*(?:[-*+]|\d{1,3}[.)])\s+")
_FIELD = re.compile(
    r"^[\s>*_`-]*(?P<key>[A-Za-z][A-Za-z /]{0,30}?"
    # a key naming what it gives the owner of: "Ownership of the billing gateway: Bo"
    r"|(?i:owner(?:ship|s)?|point of contact|review contact|poc) (?:of|for) [A-Za-z][\w /-]{0,60}?)"
    r"[*_`]*\s*:[*_`]*\s+(?P<value>\S.*)$"
)
_SEPARATOR_CELL = re.compile(r"^:?-{2,}:?$")
_SPACE = re.compile(r"\s+")
# The longest quote a fact may have (verify.MAX_QUOTE_CHARS): a longer sentence is cut at
# its weaker breaks too.
LONGEST_SENTENCE = 600
# A full stop after one of these does not end a sentence ("S. Rao", "e.g. the gateway").
_ABBREVIATIONS = {"e.g", "i.e", "etc", "vs", "mr", "mrs", "ms", "dr", "st", "no", "cf", "approx"}
# Nor after one of these when a date or time goes on ("Sept. 1, 2026", "1 Dec. 2026",
# "9 a.m. UTC"): cut there, the sentence lost the date it takes effect.
_DATE_ABBREVIATIONS = {
    "jan", "feb", "mar", "apr", "jun", "jul", "aug", "sep", "sept", "oct", "nov", "dec",
    "a.m", "p.m",
}  # fmt: skip
_DATE_GOES_ON = re.compile(r"\s*(?:\d|(?:UTC|GMT)\b|\()")
# Field names that introduce an owner ("Owner:", "Owner of the ledger: ..."): only these
# lines are cut out of their paragraph.
OWNER_FIELD = re.compile(
    r"^(?:(?:service|system|current|new|previous|former) )?(?:owner|owners|owned by"
    r"|point of contact|review contact|poc)\b"
    r"|^(?:[\w-]+ ){0,4}(?:owner|owners|ownership)$"  # "Billing gateway owner:", "Ownership:"
    r"|^(?:ownership|point of contact|review contact|poc) (?:of|for) "  # "Ownership of X:"
)


@dataclass(frozen=True)
class Table:
    header: tuple[str, ...]
    rows: tuple[tuple[str, tuple[str, ...]], ...]  # (the row as written, its cells)


@dataclass(frozen=True)
class Unit:
    kind: str  # SENTENCE | ROW | FIELD | HEADING
    text: str  # as written, white space collapsed
    section: str = ""  # the heading it sits under, lower case
    table: Table | None = None
    cells: tuple[str, ...] = field(default_factory=tuple)


def collapse(text: str) -> str:
    return _SPACE.sub(" ", text).strip()


def cells_of(line: str) -> tuple[str, ...]:
    inner = line.strip()
    inner = inner[1:] if inner.startswith("|") else inner
    inner = inner[:-1] if inner.endswith("|") else inner
    return tuple(c.strip() for c in inner.split("|"))


def field_of(line: str) -> tuple[str, str] | None:
    """`(key, value)` of a `Key: value` line with a short key, key in lower case."""
    m = _FIELD.match(line)
    if not m:
        return None
    return " ".join(m.group("key").lower().split()), m.group("value").strip()


def units(text: str) -> list[Unit]:
    out: list[Unit] = []
    section = ""
    paragraph: list[str] = []
    table: list[str] = []
    fenced = False

    def flush_paragraph() -> None:
        if paragraph:
            out.extend(Unit(SENTENCE, s, section) for s in sentences(" ".join(paragraph)))
            paragraph.clear()

    def flush_table() -> None:
        if table:
            out.extend(_table_units(table, section))
            table.clear()

    for line in text.splitlines():
        if _FENCE.match(line):
            flush_paragraph()
            flush_table()
            fenced = not fenced
            continue
        if fenced:
            continue
        stripped = line.strip()
        if stripped.startswith("|"):
            flush_paragraph()
            table.append(stripped)
            continue
        flush_table()
        heading = _HEADING.match(line)
        if heading:
            flush_paragraph()
            section = heading.group("title").lower()
            out.append(Unit(HEADING, collapse(heading.group("title")), section))
        elif not stripped:
            flush_paragraph()
        elif (kv := field_of(line)) and OWNER_FIELD.match(kv[0]):
            flush_paragraph()
            out.append(Unit(FIELD, collapse(line), section))
        else:
            if _BULLET.match(line):
                flush_paragraph()
                stripped = _BULLET.sub("", line).strip()
            paragraph.append(
                stripped.lstrip("> ").strip() if stripped.startswith(">") else stripped
            )
    flush_paragraph()
    flush_table()
    return out


def tables(text: str) -> list[Table]:
    """Every Markdown table in `text`."""
    found = [u.table for u in units(text) if u.kind == ROW and u.table is not None]
    unique: list[Table] = []
    for t in found:
        if not any(t is u for u in unique):
            unique.append(t)
    return unique


def _table_units(lines: list[str], section: str) -> list[Unit]:
    rows = [(collapse(line), cells_of(line)) for line in lines]
    header_at = next(
        (i for i, (_, c) in enumerate(rows[1:], 1) if all(_SEPARATOR_CELL.match(x) for x in c)),
        None,
    )
    if header_at is None:  # no `| --- |` line: not a table with a header
        return [Unit(ROW, r, section, None, c) for r, c in rows]
    header = rows[header_at - 1][1]
    body = tuple(rows[header_at + 1 :])
    table = Table(tuple(h.lower() for h in header), body)
    return [Unit(ROW, r, section, table, c) for r, c in body]


def sentences(paragraph: str) -> list[str]:
    """Sentences (and `;` clauses) of one paragraph, as written."""
    text = collapse(paragraph)
    out: list[str] = []
    start = 0
    soft: list[int] = []  # full stops before a lower-case word, inside the current sentence
    for m in re.finditer(r"[.!?;](?=\s)", text):
        end = m.end()
        if m.group() == "." and _abbreviation(text[start : m.start()], text[end:]):
            continue
        rest = text[end:].lstrip()
        if m.group() != ";" and rest and rest[0].islower():
            soft.append(end)  # "see v2. then" in lower-case chat: not a sentence break
            continue
        if soft and end - start > LONGEST_SENTENCE:
            out += _cut(text, [start, *soft, end])
        elif piece := text[start:end].strip():
            out.append(piece.rstrip(";").strip() if m.group() == ";" else piece)
        start, soft = end, []
    if soft and len(text) - start > LONGEST_SENTENCE:
        out += _cut(text, [start, *soft, len(text)])
    elif tail := text[start:].strip():
        out.append(tail)
    return out


def _cut(text: str, bounds: list[int]) -> list[str]:
    """A sentence longer than a quote may be, cut at its soft breaks: a fact stated before
    "... Ruiz. word word ..." stays quotable."""
    pieces = (text[a:b].strip() for a, b in itertools.pairwise(bounds))
    return [p.removesuffix(";").strip() for p in pieces if p.strip(" ;")]


def _abbreviation(before: str, after: str = "") -> bool:
    word = before.rsplit(" ", 1)[-1].lower()
    if word in _DATE_ABBREVIATIONS and _DATE_GOES_ON.match(after):
        return True
    return (len(word) == 1 and word.isalpha()) or word in _ABBREVIATIONS


def section_text(text: str, name: str) -> str | None:
    """The body under the first heading called `name` (lower case), up to the next heading."""
    lines = text.splitlines()
    for i, line in enumerate(lines):
        heading = _HEADING.match(line)
        if heading and heading.group("title").strip().lower().rstrip(":") == name:
            body: list[str] = []
            for rest in lines[i + 1 :]:
                if _HEADING.match(rest):
                    break
                body.append(rest)
            return "\n".join(body)
    return None
