"""Decision records read from Markdown: ADR files (Nygard, adr-tools, MADR, log4brains,
numbered or named by date) and decision logs (DECISIONS.md sections). Pure: text in,
entries out, each with its exact 1-based line span and its supersession references."""

from __future__ import annotations

import posixpath
import re
from dataclasses import dataclass, field

from companybrain.graph.ident import digest_id, storable_id
from companybrain.repo import dates
from companybrain.repo.decision_files import LOG_NAMES
from companybrain.repo.markdown import (
    Heading,
    front_matter,
    headings,
    last_content_line,
    read_front_matter,
)

KNOWN_STATUS = (
    "accepted", "proposed", "rejected", "deprecated", "superseded", "draft", "approved",
    "decided", "implemented", "amended", "obsolete", "withdrawn", "retired", "replaced",
)  # fmt: skip
_FIELD = re.compile(
    r"^[*_]{0,2}(?P<key>date|decision date|decided on|status|supersedes|superseded[ -]by|"
    r"replaces|replaced[ -]by)\s*(?:[*_]{0,2}\s*:|:\s*[*_]{0,2})[*_]{0,2}\s*(?P<value>.*)$",
    re.I,
)
_BULLET = re.compile(r"^\s*(?:[-*+]\s+|>\s*)")
_STRUCK = re.compile(r"~~[^~]*~~")  # "~~Accepted~~ Superseded by ...": struck out, no longer said
_LINK = re.compile(r"\[(?P<text>[^\]]*)\]\((?P<target>[^)\s]*)[^)]*\)")
_NUMBER_PREFIX = re.compile(r"^(?:adr|dr|rfc)?[-_ ]?0*(\d{1,5})(?=[-_ .])", re.I)
_NUMBER_TITLE = re.compile(r"^(?:ADR|RFC|DR|Decision)?[\s#-]*0*(\d{1,5})\s*[.:\-–—)]\s+", re.I)
REF_NUMBER = re.compile(r"\b(?:ADR|decision|DR)[\s#-]*0*(\d{1,5})\b|(?<![\w/])#0*(\d{1,5})\b", re.I)
REF_FILE = re.compile(r"[\w./-]+\.(?:md|markdown)\b")
_SUPERSEDE_LINE = re.compile(
    r"\b(?P<dir>supersedes|superseded[ -]by|replaces|replaced[ -]by)\b\s*:?\s*(?P<rest>.*)", re.I
)
# at the start of a line it must read like a field, not wrapped prose ("supersedes the old")
_SUPERSEDE_START = re.compile(r"^(?:Supersedes|Superseded[ -]by|Replaces|Replaced[ -]by)\b")
_CLAUSE = re.compile(r"\b(supersedes|superseded[ -]by|replaces|replaced[ -]by)\b\s*:?", re.I)
# a heading that groups entries by month or year ("2026-03", "March 2026", "2026"), not a day
DATE_GROUP = re.compile(r"^(?:[A-Za-z]+\.?\s+)?\d{4}(?:[-/.]\d{1,2})?$")


@dataclass(frozen=True)
class Ref:
    """A reference to another decision as written: its text, link target and the line."""

    text: str
    target: str | None
    line: int  # 1-based line in the file where it was written
    quote: str  # that line, verbatim (stripped)


@dataclass(frozen=True)
class DecisionEntry:
    id: str
    path: str
    title: str
    line_start: int
    line_end: int
    text: str
    heading: str | None = None  # log sections: the heading text the id is made of
    status: str | None = None  # as recorded, lower case
    date: str | None = None  # YYYY-MM-DD as recorded (heading, field or file name)
    number: int | None = None
    format: str = "log"
    supersedes: tuple[Ref, ...] = field(default_factory=tuple)
    superseded_by: tuple[Ref, ...] = field(default_factory=tuple)
    # what could not be read as written ("PATH line N: why"), for the ingest to report
    problems: tuple[str, ...] = ()


UNKNOWN = "unknown"  # a status the file gives in a form no one status can be read from


def _status_word(value: str) -> str | None:
    low = _LINK.sub(lambda m: m.group("text"), value).strip().lower().strip("*_[]`")
    for word in KNOWN_STATUS:
        if low.startswith(word):
            return word
    first = re.match(r"[a-z][a-z -]*", low)
    return first.group(0).strip() if first else None


def _refs_in(rest: str, line_no: int, quote: str) -> list[Ref]:
    links = [(m.group("text"), m.group("target")) for m in _LINK.finditer(rest)]
    if links:
        return [Ref(text=t.strip(), target=g or None, line=line_no, quote=quote) for t, g in links]
    text = rest.strip().strip("*_`\"'“”.").strip()
    return [Ref(text=text, target=None, line=line_no, quote=quote)] if text else []


@dataclass
class _Fields:
    status: str | None = None
    date: str | None = None
    supersedes: list[Ref] = field(default_factory=list)
    superseded_by: list[Ref] = field(default_factory=list)
    unread_date: tuple[int, str] | None = None  # (line, value) of a date field not read


def _read_fields(lines: list[str], first: int, last: int, subs: list[Heading]) -> _Fields:
    """Status, date and supersession from `Key: value` lines, `## Status` sections and
    `Supersedes …` / `Superseded by …` lines, within lines first..last (1-based)."""
    out = _Fields()
    section_of: dict[int, str] = {}
    for i, h in enumerate(subs):
        end = subs[i + 1].line - 1 if i + 1 < len(subs) else last
        for n in range(h.line + 1, end + 1):
            section_of[n] = h.text.strip().lower()
    for n in range(first, last + 1):
        raw = lines[n - 1]
        stripped = _STRUCK.sub("", _BULLET.sub("", raw)).strip()
        if not stripped:
            continue
        quote = raw.strip()
        m = _FIELD.match(stripped)
        key = m.group("key").lower().replace("-", " ") if m else None
        value = m.group("value").strip() if m else ""
        if key in {"date", "decision date", "decided on"} and out.date is None:
            out.date = dates.find_date(value)
            if out.date is None and value:
                out.unread_date = out.unread_date or (n, value)
            continue
        if key == "status" and out.status is None:
            out.status = _status_word(value)
            sup = _SUPERSEDE_LINE.search(value)
            if sup:
                _add_refs(out, sup.group("dir"), sup.group("rest"), n, quote)
            continue
        if key:  # supersedes / superseded by / replaces / replaced by
            _add_refs(out, key, value, n, quote)
            continue
        section = section_of.get(n)
        if section == "status":
            if out.status is None:
                out.status = _status_word(stripped)
            sup = _SUPERSEDE_LINE.match(stripped)
            if sup:
                _add_refs(out, sup.group("dir"), sup.group("rest"), n, quote)
        elif section == "date" and out.date is None:
            out.date = dates.find_date(stripped)
            if out.date is None:
                out.unread_date = out.unread_date or (n, stripped)
        elif _SUPERSEDE_START.match(stripped.lstrip("*_")):
            sup = _SUPERSEDE_LINE.match(stripped.lstrip("*_"))
            if sup:
                _add_refs(out, sup.group("dir"), sup.group("rest"), n, quote)
    return out


def _add_refs(out: _Fields, direction: str, rest: str, line_no: int, quote: str) -> None:
    """`rest` may hold more clauses ("ADR-4. Superseded by ADR-15."): split at each."""
    clauses = [(direction, rest)]
    marks = list(_CLAUSE.finditer(rest))
    if marks:
        clauses = [(direction, rest[: marks[0].start()])]
        for i, m in enumerate(marks):
            end = marks[i + 1].start() if i + 1 < len(marks) else len(rest)
            clauses.append((m.group(1), rest[m.end() : end]))
    for word, part in clauses:
        refs = _refs_in(part.strip().rstrip(".,;"), line_no, quote)
        if word.lower().replace("-", " ") in {"superseded by", "replaced by"}:
            out.superseded_by.extend(refs)
        else:
            out.supersedes.extend(refs)


def _format_of(lines: list[str], fm: dict[str, object], path: str) -> str:
    body = "\n".join(lines[:80]).lower()
    name = posixpath.basename(path)
    if "context and problem statement" in body or "decision outcome" in body or fm:
        dated = dates.date_in_filename(name) is not None
        return "log4brains" if dated or "- deciders:" in body or "tags:" in body else "madr"
    if re.search(r"^date:\s*\d{4}-\d{2}-\d{2}", body, re.M) and "## status" in body:
        return "adr-tools"
    return "nygard"


def parse_adr(path: str, text: str) -> DecisionEntry | None:
    """One ADR file. None when it holds no title and no text."""
    lines = text.splitlines()
    read = read_front_matter(lines)
    fm, body_start = read.data, read.end
    hs = headings(lines, body_start)
    if not any(line.strip() for line in lines[body_start:]) and not fm:
        return None
    name = posixpath.basename(path)
    title_h = next((h for h in hs if h.level == 1), hs[0] if hs else None)
    raw_title = str(fm.get("title") or (title_h.text if title_h else "")) or _from_slug(name)
    number_m = _NUMBER_PREFIX.match(name) if not dates.date_in_filename(name) else None
    title_num = _NUMBER_TITLE.match(raw_title)
    title = raw_title[title_num.end() :].strip() if title_num else raw_title
    number = int(number_m.group(1)) if number_m else None
    heading_num = _NUMBER_TITLE.match(title_h.text) if title_h else None
    if number is None and (title_num or heading_num):
        number = int((title_num or heading_num).group(1))  # type: ignore[union-attr]
    first = body_start + 1 if body_start < len(lines) else 1
    while first < len(lines) and not lines[first - 1].strip():
        first += 1
    last = last_content_line(lines, first, len(lines))
    subs = [h for h in hs if h is not title_h]
    fields = _read_fields(lines, first, last, subs)
    problems: list[str] = []
    fm_status: object = fm.get("status")
    if isinstance(fm_status, list) and len(fm_status) == 1:
        fm_status = fm_status[0]  # `status: [accepted]`: one status, written as a list
    if read.problem:  # its lines still say what they say: a status line is read alone
        fm_status = _loose_status(lines, read.end)
        said = f"its status line reads {fm_status}" if fm_status else "it gives no status"
        problems.append(f"{path} {read.problem}: {said}")
    if fm_status is None or fm_status == "":
        status = fields.status
    elif isinstance(fm_status, str):
        status = _status_word(fm_status)
    else:  # a number, a date, a mapping, several: which status the file means is unknown
        status = UNKNOWN
        at = _key_line(lines, "status", body_start)
        problems.append(
            f"{path} line {at}: “{lines[at - 1].strip()}” is not one status word, so its "
            "status is unknown (write it as `status: accepted`)"
        )
    fm_date = fm.get("date")
    date = (
        dates.find_date(str(fm_date))
        if fm_date
        else fields.date or dates.date_in_filename(name) or dates.find_date(raw_title)
    )
    if fm_date and not dates.find_date(str(fm_date)):
        fields.unread_date = (_key_line(lines, "date", body_start), str(fm_date))
    problems += _unread_date(path, fields, date)
    supersedes = list(fields.supersedes)
    superseded_by = list(fields.superseded_by)
    if isinstance(fm_status, str):
        sup = _SUPERSEDE_LINE.search(fm_status)
        if sup and sup.group("dir").lower().startswith(("superseded", "replaced")):
            at = _key_line(lines, "status", body_start)
            superseded_by += _refs_in(sup.group("rest"), at, lines[at - 1].strip())
    for key, into in (("supersedes", supersedes), ("superseded_by", superseded_by),
                      ("superseded-by", superseded_by)):  # fmt: skip
        into += _front_matter_refs(fm.get(key), key, lines, body_start)
    return DecisionEntry(
        id=path,
        path=path,
        title=dates.strip_date(title) if title else _from_slug(name),
        line_start=first,
        line_end=last,
        text="\n".join(lines[first - 1 : last]),
        status=status,
        date=date,
        number=number,
        format=_format_of(lines, fm, path),
        supersedes=tuple(supersedes),
        superseded_by=tuple(superseded_by),
        problems=tuple(problems),
    )


def _loose_status(lines: list[str], end: int) -> str | None:
    """The status the `status:` lines of front matter that is not YAML give: the value of
    the one line, or UNKNOWN when several say different things."""
    said = {
        m.group("value").strip()
        for n in range(1, end - 1)
        if (m := _FIELD.match(lines[n].strip())) and m.group("key").lower() == "status"
    }
    words = {_status_word(v) for v in said}
    if len(words) > 1:
        return UNKNOWN
    return next(iter(said), None)


def _key_line(lines: list[str], key: str, end: int) -> int:
    """The 1-based line of front matter that holds `key:` (1 when none does)."""
    return next((n + 1 for n in range(end) if lines[n].lower().startswith(key + ":")), 1)


def _front_matter_refs(value: object, key: str, lines: list[str], end: int) -> list[Ref]:
    """`supersedes: [ADR-009]` in front matter, quoted by the line that holds the key."""
    if not value:
        return []
    items = value if isinstance(value, list) else [value]
    line_no = _key_line(lines, key, end)
    quote = lines[line_no - 1].strip() if lines else key
    return [r for item in items for r in _refs_in(str(item), line_no, quote)]


def _from_slug(name: str) -> str:
    stem = re.sub(r"\.(md|markdown)$", "", name, flags=re.I)
    stem = re.sub(r"^\d{4}-?\d{2}-?\d{2}[-_]|^\d{1,5}[-_]", "", stem)
    return stem.replace("-", " ").replace("_", " ").strip().capitalize()


def _entry_level(hs: list[Heading]) -> int | None:
    if not hs:
        return None
    levels = sorted({h.level for h in hs})
    top = levels[0]
    at_top = [h for h in hs if h.level == top]
    # a lone title heading on top ("# Decision log") is not an entry
    if len(at_top) == 1 and len(levels) > 1 and at_top[0] is hs[0]:
        levels = levels[1:]
    level = levels[0]
    # month or date-only group headings ("## 2026-03", "## March 2026"): entries sit below
    group = [h for h in hs if h.level == level]
    if len(levels) > 1 and all(DATE_GROUP.match(h.text.strip()) for h in group):
        return levels[1]
    return level


def _only_a_title(hs: list[Heading], lines: list[str]) -> bool:
    """A log holding one heading, of the first level, that names the log ("# Decisions",
    "# Decision log" and an introduction) or has nothing under it: the log's title, before
    its first entry is written, not a decision."""
    if len(hs) != 1 or hs[0].level != 1:
        return False
    below = any(line.strip() for line in lines[hs[0].line :])
    return not below or re.search(r"\bdecision", hs[0].text, re.I) is not None


def _entry_id(path: str, heading: str) -> str:
    """`PATH#Heading`, or `PATH#start~digest` for a heading no id can hold (a control
    character, or too long: see graph/ident.py), so that the decision is still kept. The
    path is short enough already (decision_files.kind_of)."""
    full = f"{path}#{heading}"
    return full if storable_id(full) else f"{path}#{digest_id(heading, keep=100)}"


@dataclass(frozen=True)
class _Section:
    heading: Heading
    heading_id: str  # its text, and ` (2)`, ` (3)` … after it when repeated
    last: int  # its last line with text (1-based)
    subs: list[Heading]  # the headings inside it


def _sections(lines: list[str]) -> list[_Section]:
    """The entry-level sections of a decision log."""
    _, body_start = front_matter(lines)
    hs = headings(lines, body_start)
    level = _entry_level(hs)
    if level is None or _only_a_title(hs, lines):
        return []
    seen: dict[str, int] = {}
    out: list[_Section] = []
    for i, h in enumerate(hs):
        if h.level != level:
            continue
        # the headings below it, up to the next one of its level or above (hs is in order)
        j = next((k for k in range(i + 1, len(hs)) if hs[k].level <= level), len(hs))
        end = hs[j].line - 1 if j < len(hs) else len(lines)
        last = last_content_line(lines, h.line, end)
        seen[h.text] = seen.get(h.text, 0) + 1
        heading_id = h.text if seen[h.text] == 1 else f"{h.text} ({seen[h.text]})"
        out.append(_Section(h, heading_id, last, [x for x in hs[i + 1 : j] if x.line <= last]))
    return out


def entry_texts(path: str, text: str, kind: str) -> list[tuple[str, str]]:
    """(id, text) of each entry of a decision file, as parse_file gives them, without
    reading their fields: to compare many versions of a long log quickly."""
    lines = text.removeprefix("\ufeff").splitlines()
    found = _sections(lines) if kind != "adr" else []
    if kind == "adr" or (posixpath.basename(path).lower() not in LOG_NAMES and len(found) <= 1):
        return [(e.id, e.text) for e in parse_file(path, text, kind)]
    return [
        (_entry_id(path, s.heading_id), "\n".join(lines[s.heading.line - 1 : s.last]))
        for s in found
    ]


def parse_log(path: str, text: str) -> list[DecisionEntry]:
    """One decision per entry-level section of a decision log. Ids are `PATH#Heading text`;
    a heading repeated in the same file gets ` (2)`, ` (3)` … in order."""
    lines = text.splitlines()
    out: list[DecisionEntry] = []
    for section in _sections(lines):
        h, heading_id, last = section.heading, section.heading_id, section.last
        fields = _read_fields(lines, h.line + 1, last, section.subs)
        title = dates.strip_date(h.text)
        if dates.find_date(h.text) and title == h.text.strip():  # the heading is only a date
            title = _first_words(lines, h.line, last) or title
        title_num = _NUMBER_TITLE.match(title)
        out.append(
            DecisionEntry(
                id=_entry_id(path, heading_id),
                path=path,
                title=title[title_num.end() :].strip() if title_num else title,
                heading=heading_id,
                line_start=h.line,
                line_end=last,
                text="\n".join(lines[h.line - 1 : last]),
                status=fields.status,
                date=dates.find_date(h.text) or fields.date,
                number=int(title_num.group(1)) if title_num else None,
                format="log",
                supersedes=tuple(fields.supersedes),
                superseded_by=tuple(fields.superseded_by),
                problems=tuple(_unread_date(path, fields, dates.find_date(h.text) or fields.date)),
            )
        )
    return out


def _unread_date(path: str, fields: _Fields, used: str | None) -> list[str]:
    """A date field written in a form not read as one day ("03/04/2025": March or April?)."""
    if fields.unread_date is None:
        return []
    line, value = fields.unread_date
    then = f"its date is {used}" if used else "it is dated by the day its commit landed"
    return [f"{path} line {line}: date “{value}” is not read as a day (write it as "
            f"YYYY-MM-DD), so {then}"]  # fmt: skip


def _first_words(lines: list[str], heading: int, last: int) -> str:
    """A title for an entry headed only by its date: its first line of text."""
    for n in range(heading + 1, last + 1):
        text = _BULLET.sub("", lines[n - 1]).strip().strip("*_#").strip()
        if text and not _FIELD.match(text):
            return text if len(text) <= 80 else text[:77].rsplit(" ", 1)[0] + "…"
    return ""


# bytes that are not UTF-8 (kept by surrogateescape), and NUL, which no query can carry
_NOT_UTF8 = re.compile("[\x00\udc80-\udcff]")


def parse_blob(
    path: str, data: bytes, kind: str
) -> tuple[list[DecisionEntry], list[tuple[str, str]]]:
    """Entries of a decision file as git holds it, and each entry holding bytes that are not
    UTF-8 (or a NUL byte), left out: decoded any other way, its quotes would not be the
    file's. A left-out
    entry is given as (its id as read with the bytes replaced by U+FFFD, why)."""
    text = data.decode("utf-8", "surrogateescape")
    if not _NOT_UTF8.search(text):
        return parse_file(path, text, kind), []
    lines = text.splitlines()
    kept: list[DecisionEntry] = []
    left: list[tuple[str, str]] = []
    for e in parse_file(path, text, kind):
        span = range(e.line_start, e.line_end + 1)
        said = (e.id, e.title, e.text, e.status or "", e.date or "")
        bad = [n for n in span if n <= len(lines) and _NOT_UTF8.search(lines[n - 1])]
        if not bad and not any(_NOT_UTF8.search(x) for x in said):
            kept.append(e)
            continue
        line = bad[0] if bad else next(n for n, x in enumerate(lines, 1) if _NOT_UTF8.search(x))
        replaced = e.id.encode("utf-8", "surrogateescape").decode("utf-8", "replace")
        replaced = replaced.replace("\x00", "\ufffd")
        what = "a NUL byte" if "\x00" in lines[line - 1] else "not UTF-8 text"
        left.append(
            (replaced, f"{path} line {line}: {what}, so the decision there is left out (save "
             "the file as UTF-8 text)")
        )  # fmt: skip
    return kept, left


def parse_file(path: str, text: str, kind: str) -> list[DecisionEntry]:
    """Entries of one decision file; a DECISIONS/ file with a single section is one ADR.
    A byte-order mark (as Windows editors save UTF-8) is no text: before it, the first
    line's heading or front matter would not be one."""
    text = text.removeprefix("\ufeff")
    if kind == "adr":
        entry = parse_adr(path, text)
        return [entry] if entry else []
    entries = parse_log(path, text)
    if posixpath.basename(path).lower() not in LOG_NAMES and len(entries) <= 1:
        entry = parse_adr(path, text)
        return [entry] if entry else []
    return entries
