"""Deterministic summaries of a file (what it defines) and of a folder (its files'
summaries). Names appear in backticks, qualified as `Class.method`, so the same check that
guards model-written summaries applies to these."""

from __future__ import annotations

import ast
import re
from pathlib import PurePosixPath

MAX_NAMES = 12
MAX_CHILDREN = 12

_DEFINITIONS = (
    re.compile(
        r"^\s*(?:export\s+)?(?:default\s+)?(?:async\s+)?function\s*\*?\s*([A-Za-z_$][\w$]*)", re.M
    ),
    re.compile(r"^\s*(?:export\s+)?(?:default\s+)?(?:abstract\s+)?class\s+([A-Za-z_]\w*)", re.M),
    re.compile(r"^\s*func\s+(?:\([^)]*\)\s*)?([A-Za-z_]\w*)", re.M),
    re.compile(r"^\s*(?:pub(?:\([^)]*\))?\s+)?(?:async\s+)?fn\s+([A-Za-z_]\w*)", re.M),
    re.compile(
        r"^\s*(?:export\s+)?(?:pub\s+)?(?:struct|enum|trait|interface|type)\s+([A-Za-z_]\w*)",
        re.M,
    ),
    re.compile(r"^\s*def\s+(?:self\.)?([A-Za-z_]\w*)", re.M),
)
_HEADING = re.compile(r"^#{1,6}\s+(.+?)\s*#*\s*$", re.M)


def summarise_file(path: str, text: str) -> str:
    suffix = PurePosixPath(path).suffix.lower()
    if suffix in (".py", ".pyi"):
        summary = _python(text)
        if summary:
            return summary
    if suffix in (".md", ".rst", ".txt"):
        return _document(text)
    names = _names(text)
    lines = len(text.splitlines())
    if names:
        return f"Defines {_ticks(names)} ({lines} lines)."
    return f"{lines} lines, no definitions found."


def _python(text: str) -> str | None:
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError):
        return None
    parts: list[str] = []
    doc = (ast.get_docstring(tree) or "").strip().splitlines()
    if doc:
        parts.append(doc[0].rstrip(".") + ".")
    names: list[str] = []
    for node in tree.body:
        if isinstance(node, ast.ClassDef):
            names.append(node.name)
            names += [
                f"{node.name}.{m.name}"
                for m in node.body
                if isinstance(m, ast.FunctionDef | ast.AsyncFunctionDef)
                and not m.name.startswith("_")
            ]
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and not node.name.startswith(
            "_"
        ):
            names.append(node.name)
    if names:
        more = f" and {len(names) - MAX_NAMES} more" if len(names) > MAX_NAMES else ""
        parts.append(f"Defines {_ticks(names[:MAX_NAMES])}{more}.")
    return " ".join(parts) or "No public definitions."


def _names(text: str) -> list[str]:
    found: list[str] = []
    for pattern in _DEFINITIONS:
        for name in pattern.findall(text):
            if name not in found:
                found.append(name)
    return found[:MAX_NAMES]


def _document(text: str) -> str:
    headings = [h.strip() for h in _HEADING.findall(text)]
    if not headings:
        first = next((line.strip() for line in text.splitlines() if line.strip()), "")
        return f"Text starting: {first[:120]}" if first else "Empty document."
    rest = f" ({len(headings) - 1} more sections)" if len(headings) > 1 else ""
    return f"Document titled {headings[0]!r}{rest}."


def _ticks(names: list[str]) -> str:
    return ", ".join(f"`{n}`" for n in names)


def combine_summaries(path: str, summaries: list[tuple[str, str]]) -> str:
    """A folder (or a file read in sections) from its children's summaries."""
    if not summaries:
        return f"{path}: nothing summarised."
    shown = [f"{PurePosixPath(child).name}: {_brief(text)}" for child, text in summaries]
    more = len(shown) - MAX_CHILDREN
    body = "; ".join(shown[:MAX_CHILDREN]) + (f"; and {more} more" if more > 0 else "")
    return f"{len(summaries)} part(s). {body}"


def _brief(text: str, limit: int = 160) -> str:
    """The start of a summary, cut at a clause end and never inside a `backticked` name."""
    if len(text) <= limit:
        return text
    cuts = [
        m.end()
        for m in re.finditer(r"[.;!?](?=\s)", text[:limit])
        if text[: m.start()].count("`") % 2 == 0
    ]
    return text[: cuts[-1]] if cuts else text.split("`", 1)[0].rstrip() + " …"
