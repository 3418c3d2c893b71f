"""Agent instruction files (CLAUDE.md, AGENTS.md, .cursorrules, .cursor/rules/*,
.github/copilot-instructions.md, GEMINI.md …) and their section spans. Pure."""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable
from dataclasses import dataclass

from companybrain.repo.markdown import headings, last_content_line, read_front_matter

ANYWHERE = {"claude.md", "agents.md", "gemini.md", "claude.local.md"}
AT_ROOT_OR_ANYWHERE = {".cursorrules", ".windsurfrules", ".clinerules", "conventions.md"}
EXACT = {".github/copilot-instructions.md"}
FOLDERS = (".cursor/rules/", ".github/instructions/", ".clinerules/", ".windsurf/rules/")


def is_instruction_file(path: str) -> bool:
    name = posixpath.basename(path).lower()
    if name in ANYWHERE or name in AT_ROOT_OR_ANYWHERE or path in EXACT:
        return not any(p in {"node_modules", "vendor"} for p in path.split("/"))
    return any(path.startswith(f) or f"/{f}" in path for f in FOLDERS)


def governs(path: str, files: list[str]) -> bool:
    """Whether the instruction file at `path` applies to a change of `files`: an AGENTS.md,
    CLAUDE.md, .cursorrules ... in a folder is for the files under that folder, and so is a
    rules folder (.cursor/rules/, .github/instructions/ ...) inside one; one at the root,
    and the root's rules folders, for every file. A folder asked about ("services/billing")
    is under itself."""
    folder = scope_folder(path)
    return not folder or any(f"{f.rstrip('/')}/".startswith(folder) for f in files)


_FRONT_KEY = re.compile(r"^(globs|applyTo|alwaysApply)\s*:\s*(.*)$")


def applies_to(text: str) -> list[str]:
    """The file patterns a rule's front matter limits it to (a Cursor rule's `globs:`
    without `alwaysApply: true`, a Copilot file's `applyTo:`); [] for every file."""
    lines = text.lstrip("\ufeff").splitlines()
    fm = read_front_matter(lines)
    data = dict(fm.data)
    for line in lines[1 : fm.end - 1] if fm.problem else []:  # `globs: *.tsx` is no YAML
        if m := _FRONT_KEY.match(line):
            data[m.group(1)] = m.group(2).strip().strip("'\"")
    if data.get("alwaysApply") in (True, "true"):
        return []
    raw = data.get("globs") or data.get("applyTo") or []
    items = raw if isinstance(raw, list) else [raw]
    found = [p.strip() for item in items if isinstance(item, str) for p in item.split(",")]
    patterns = [p for p in found if p]
    return [] if any(p in {"*", "**", "**/*"} for p in patterns) else patterns


def glob_matches(pattern: str, path: str) -> bool:
    """Whether a rule's file pattern (`src/**`, `**/*.py`, `*.{ts,tsx}`) covers `path`; a
    pattern without a folder in it matches the name at any depth."""
    out, i = "", 0
    while i < len(pattern):
        c = pattern[i]
        if pattern.startswith("**/", i):
            out, i = out + "(?:.*/)?", i + 3
            continue
        if pattern.startswith("**", i):
            out, i = out + ".*", i + 2
            continue
        if c == "{" and (end := pattern.find("}", i)) > i:
            out += "(?:" + "|".join(re.escape(x) for x in pattern[i + 1 : end].split(",")) + ")"
            i = end + 1
            continue
        out += {"*": "[^/]*", "?": "[^/]"}.get(c, re.escape(c))
        i += 1
    anchored = "/" in pattern.strip("/") or pattern.startswith("**")
    pattern_re = out.lstrip("/") if anchored else "(?:.*/)?" + out
    return re.fullmatch(pattern_re, path) is not None


def scope_folder(path: str) -> str:
    """The folder whose files the instruction file at `path` is for ("services/billing/"),
    or "" for every file."""
    name = posixpath.basename(path).lower()
    if name in ANYWHERE or name in AT_ROOT_OR_ANYWHERE:
        folder = posixpath.dirname(path)
        return f"{folder}/" if folder else ""
    for rules in FOLDERS:  # services/billing/.cursor/rules/money.mdc
        at = path.find(f"/{rules}")
        if at > 0 and not path.startswith(rules):
            return path[: at + 1]
    return ""


def instruction_id(path: str, blob: str) -> str:
    """One version of one file: `PATH@BLOB`."""
    return f"{path}@{blob}"


@dataclass(frozen=True)
class Span:
    heading: str  # "" for the text before the first heading
    level: int
    line_start: int
    line_end: int
    text: str


def sections(text: str) -> list[Span]:
    """Every heading's span (to the next heading of the same or a higher level), plus the
    text before the first heading; a file without headings is one span. Front matter (a
    Cursor rule's `globs:`, a Copilot file's `applyTo:`) says where the rule applies, not
    what it says: it is in no span. A byte-order mark (as Windows editors save UTF-8) is no
    text: a heading or front matter behind it is read, and no quote starts with it."""
    lines = text.removeprefix("\ufeff").splitlines()
    skip = read_front_matter(lines).end
    hs = headings(lines, skip)
    spans: list[Span] = []
    first_heading = hs[0].line if hs else len(lines) + 1
    if any(line.strip() for line in lines[skip : first_heading - 1]):
        start = next(i + 1 for i, line in enumerate(lines) if i >= skip and line.strip())
        end = last_content_line(lines, start, first_heading - 1)
        spans.append(Span("", 0, start, end, "\n".join(lines[start - 1 : end])))
    for i, h in enumerate(hs):
        nxt = next((x.line for x in hs[i + 1 :] if x.level <= h.level), len(lines) + 1)
        end = last_content_line(lines, h.line, nxt - 1)
        spans.append(Span(h.text, h.level, h.line, end, "\n".join(lines[h.line - 1 : end])))
    return spans


_WORD = re.compile(r"[a-z0-9]+")


def matching(
    spans: list[Span], words: list[str], says: Callable[[str, list[str]], bool] | None = None
) -> list[Span]:
    """The most specific spans that mention any of `words` (a section and its parent both
    match: keep the smaller); without words, the whole file: the spans no other holds (a
    "## Tests" under "# Agents" is in its text once). `says`: whether a text mentions one
    of the words (by default, as a word or its plural)."""
    if not words:
        return _outermost(spans)
    hits = [s for s in spans if (says or _mentions)(s.text, words)]
    return _innermost(hits)


# Spans from `sections` nest or lie apart (a heading's span holds its sub-headings' and
# ends before the next heading of its level), and each starts on a line of its own: in
# order of their first line, a span holds another exactly when that one starts inside it.
# Read so, in one pass: a long file of thousands of headings is no pairwise comparison.


def _outermost(spans: list[Span]) -> list[Span]:
    out: list[Span] = []
    end = 0
    for s in sorted(spans, key=lambda s: (s.line_start, -s.line_end)):
        if s.line_start > end:
            out.append(s)
            end = s.line_end
    return out


def _innermost(spans: list[Span]) -> list[Span]:
    ordered = sorted(spans, key=lambda s: (s.line_start, -s.line_end))
    return [
        s
        for i, s in enumerate(ordered)
        if i + 1 == len(ordered) or ordered[i + 1].line_start > s.line_end
    ]


def _mentions(text: str, words: list[str]) -> bool:
    found = set(_WORD.findall(text.lower()))
    return any(
        w in found or (w.endswith("s") and w[:-1] in found) or w + "s" in found for w in words
    )
