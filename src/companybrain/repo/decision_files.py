"""Which files in a tree are decision records, and how to read each: an ADR folder holds one
decision per file; DECISIONS.md (and the files of a DECISIONS/ folder) hold one per section."""

from __future__ import annotations

import posixpath
import re

from companybrain.graph.ident import storable_id

ADR_DIRS = (
    "docs/adr",
    "doc/adr",
    "docs/adrs",
    "adr",
    "adrs",
    "docs/architecture/decisions",
    "doc/architecture/decisions",
    "docs/architecture/adr",
    "architecture/decisions",
    "docs/decisions",
)
LOG_NAMES = {"decisions.md", "decision-log.md", "decision_log.md", "decisionlog.md"}
LOG_DIRS = {"DECISIONS", "decisions"}  # a DECISIONS/ folder (decisions/ only at the root)
SKIP_NAMES = {"readme.md", "index.md", "template.md", "adr-template.md", "toc.md", "summary.md"}
SKIP_DIRS = {"node_modules", "vendor", "third_party", ".git", "dist", "build", "site-packages"}
MARKDOWN = (".md", ".markdown")
_TEMPLATE = re.compile(r"(^|[-_.])template([-_.]|$)", re.I)


def _skipped(path: str) -> bool:
    parts = path.split("/")
    return any(p in SKIP_DIRS for p in parts[:-1])


def kind_of(path: str) -> str | None:
    """ "adr" (one decision per file), "log" (one per section), or None."""
    if _skipped(path) or not path.lower().endswith(MARKDOWN) or not storable_id(path):
        return None  # (a path with a control character cannot be a Decision's id)
    folder, name = posixpath.split(path)
    lower = name.lower()
    if lower in LOG_NAMES:
        return "log"
    if lower in SKIP_NAMES or _TEMPLATE.search(lower) or name.startswith((".", "_")):
        return None
    if folder.split("/")[-1] == "DECISIONS" or folder == "decisions":
        return "log"
    for adr in ADR_DIRS:
        if folder == adr or folder.endswith("/" + adr):
            return "adr"
    return None


def is_decision_file(path: str) -> bool:
    return kind_of(path) is not None
