"""What a reader (the rules worker or the model worker) is given and what it hands back.
A reader only proposes: the worker checks every proposal before anything is kept."""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass, field
from typing import Protocol

from companybrain.board.refs import RefIndex
from companybrain.model.findings import Finding


@dataclass(frozen=True)
class Entry:
    """A decision entry or a company record, as the brain holds it."""

    id: str
    label: str  # Decision | Source
    title: str
    text: str
    path: str | None = None
    date: str | None = None


@dataclass(frozen=True)
class Malformed:
    """A proposal that could not even be read as a finding; kept on the board as rejected."""

    kind: str
    raw: str
    reason: str


@dataclass(frozen=True)
class Reading:
    findings: list[Finding] = field(default_factory=list)
    malformed: list[Malformed] = field(default_factory=list)


@dataclass(frozen=True)
class Judgement:
    """A second agent's view of a handoff: confirm with a quote from each side, or reject."""

    confirm: bool
    quote_from: str = ""
    quote_to: str = ""
    reason: str = ""


@dataclass(frozen=True)
class Context:
    """What a worker knows about the brain while reading."""

    refs: RefIndex
    known_paths: Collection[str]


class Reader(Protocol):
    kind: str

    def read(self, entry: Entry, start: int, end: int, ctx: Context, by: str) -> Reading:
        """Findings in `entry.text[start:end]` (quotes verbatim from the entry)."""
        ...

    def summarise_file(self, path: str, text: str) -> str: ...

    def combine(self, path: str, summaries: list[tuple[str, str]]) -> str:
        """A summary of a folder (or a long file) from its parts' summaries."""
        ...

    def judge(
        self, relation: str, source: Entry, target: Entry, quote: str, ctx: Context
    ) -> Judgement:
        """Does `source` really `relation` `target`? `quote` is what the raiser saw."""
        ...
