"""What an ingestion run did, for the summary and --json."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from typing import Any

from companybrain.ingest.records import Problem

Progress = Callable[[int, int, str], None]  # done, total, what


@dataclass
class IngestReport:
    files: int = 0
    read: int = 0
    stored: int = 0
    unchanged: int = 0
    pruned: int = 0
    reread: int = 0  # stored records read again against a changed organisation
    rejected: list[Problem] = field(default_factory=list)
    warnings: list[Problem] = field(default_factory=list)
    proposed: int = 0
    kept: int = 0
    rejected_facts: Counter[str] = field(default_factory=Counter)
    rejected_detail: list[dict[str, Any]] = field(default_factory=list)
    # Records refused this time that the graph holds from an earlier run: their stored
    # version stays (and answers may cite it) until the file is fixed, or removed and pruned.
    kept_stored: list[str] = field(default_factory=list)
    # Records stored from the corpus that it no longer holds, left in place (no --prune):
    # answers still cite them.
    gone: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        out = asdict(self)
        out["rejected"] = [
            {"where": p.where, "reason": p.message, **({"record": p.record} if p.record else {})}
            for p in self.rejected
        ]
        out["warnings"] = [{"where": p.where, "reason": p.message} for p in self.warnings]
        out["rejected_facts"] = dict(self.rejected_facts)
        return out
