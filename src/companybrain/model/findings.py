"""What reading a decision entry (or a record) yields: measurements, experiments with their
verdicts, files and concepts it is about, relations to other entries. Produced by board
workers (rules or model), kept only after the checks in policy/ pass."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class FindingKind(StrEnum):
    MEASUREMENT = "measurement"  # a figure ("0 out of 20", "16/20", "2.6x", "340 ms")
    EXPERIMENT = "experiment"  # something tried, with a verdict
    FILE = "file"  # a path in the repository the entry rests on
    CONCEPT = "concept"  # a topic the entry is about
    RELATION = "relation"  # "supersedes ADR-7", "replaces", "reverts"


class Verdict(StrEnum):
    DISPROVEN = "disproven"
    CONFIRMED = "confirmed"
    REVERTED = "reverted"


@dataclass(frozen=True)
class Finding:
    entry: str  # the decision or record id it was read from
    kind: FindingKind
    quote: str  # verbatim from the entry
    value: str  # the figure, the experiment's claim, the path, the concept, the target id
    verdict: Verdict | None = None  # experiments only
    relation: str | None = None  # relations only: supersedes | replaces | reverts
    by: str = "rules"  # the agent that produced it
