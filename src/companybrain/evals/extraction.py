"""`brain eval extraction`: run a proposer and the verifier over every record of a corpus and
score what was kept against the corpus's expected.json. Ownership facts match on
(record, service, owner), decisions on the record; quotes may differ, since the verifier has
already checked that each one is verbatim and names what it must."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from companybrain.config import Settings
from companybrain.errors import InputError
from companybrain.ingest.corpus import read_corpus
from companybrain.model.facts import DecisionFact, OwnershipFact, Rejection, as_proposed
from companybrain.model.records import Org, Record
from companybrain.policy.text import normalise
from companybrain.policy.verify import verify
from companybrain.proposers import Proposer, get_proposer

Progress = Callable[[int, int, str], None]  # done, total, what
Key = tuple[str, ...]


@dataclass(frozen=True)
class Expected:
    ownership: frozenset[Key]  # (record, service, owner)
    decisions: frozenset[Key]  # (record,)
    rejected: tuple[dict[str, Any], ...] = ()  # what must not be kept, for the record


@dataclass
class Score:
    expected: int = 0
    kept: int = 0
    correct: int = 0
    missed: list[Key] = field(default_factory=list)
    false: list[Key] = field(default_factory=list)

    @property
    def precision(self) -> float:
        return self.correct / self.kept if self.kept else 1.0

    @property
    def recall(self) -> float:
        return self.correct / self.expected if self.expected else 1.0


@dataclass
class ExtractionReport:
    corpus: str
    proposer: str
    records: int
    ownership: Score
    decisions: Score
    rejected: list[dict[str, Any]] = field(default_factory=list)  # every refused proposal
    expected_rejections: list[dict[str, Any]] = field(default_factory=list)
    problems: list[dict[str, str]] = field(default_factory=list)  # corpus files not read

    @property
    def passed(self) -> bool:
        scores = (self.ownership, self.decisions)
        return all(s.recall == 1.0 and not s.false for s in scores)

    def to_dict(self) -> dict[str, Any]:
        out = asdict(self)
        for name in ("ownership", "decisions"):
            score: Score = getattr(self, name)
            out[name].update(precision=score.precision, recall=score.recall)
            out[name]["missed"] = [list(k) for k in score.missed]
            out[name]["false"] = [list(k) for k in score.false]
        out["passed"] = self.passed
        return out


def load_expected(path: Path) -> Expected:
    """expected.json: {"ownership": [{record, service, owner, quote}], "decisions":
    [{record, title, quote}], "rejected": [...]}; every problem names the file and field."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError as exc:
        raise InputError(f"{path}: no such file (the facts a corpus must yield)") from exc
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise InputError(f"{path}: not readable JSON ({exc})") from exc
    if not isinstance(data, dict):
        raise InputError(f"{path}: must be a JSON object")
    unknown = sorted(set(data) - {"ownership", "decisions", "rejected"})
    if unknown:  # else read as "expect nothing": every kept fact false, recall 100%
        hint = (
            "; this is the owners file `brain gen-corpus` writes: check those with "
            "`brain eval questions OUT/truth/questions.jsonl --corpus OUT`"
            if "owners" in data
            else ""
        )
        raise InputError(
            f"{path}: unknown key(s) {unknown}; the facts a corpus must yield are "
            f"'ownership', 'decisions' and 'rejected'{hint}"
        )
    ownership = _keys(path, data, "ownership", ("record", "service", "owner"))
    decisions = _keys(path, data, "decisions", ("record",))
    rejected = data.get("rejected", [])
    if not isinstance(rejected, list) or not all(isinstance(r, dict) for r in rejected):
        raise InputError(f"{path}: 'rejected' must be a list of objects")
    return Expected(frozenset(ownership), frozenset(decisions), tuple(rejected))


def _keys(path: Path, data: dict[str, Any], name: str, fields: tuple[str, ...]) -> list[Key]:
    items = data.get(name, [])
    if not isinstance(items, list):
        raise InputError(f"{path}: '{name}' must be a list")
    keys: list[Key] = []
    for i, item in enumerate(items):
        for f in fields:
            if not isinstance(item, dict) or not isinstance(item.get(f), str):
                raise InputError(f"{path}: {name}[{i}].{f} must be a string")
        keys.append(tuple(item[f] for f in fields))
    return keys


def evaluate(
    records: Iterable[Record],
    org: Org,
    expected: Expected,
    propose: Proposer,
    *,
    corpus: str = "",
    proposer: str = "rules",
    progress: Progress | None = None,
) -> ExtractionReport:
    records = list(records)
    kept_own: list[OwnershipFact] = []
    kept_dec: list[DecisionFact] = []
    refused: list[Rejection] = []
    for done, record in enumerate(records):
        if progress:
            progress(done, len(records), record.id)
        verified = verify(propose(record, org), record, org)
        kept_own += verified.ownership
        kept_dec += verified.decisions
        refused += verified.rejected
    if progress:
        progress(len(records), len(records), "done")
    report = ExtractionReport(
        corpus=corpus,
        proposer=proposer,
        records=len(records),
        ownership=_score(expected.ownership, [(f.record, f.service, f.owner) for f in kept_own]),
        decisions=_score(expected.decisions, [(d.record,) for d in kept_dec]),
        rejected=[_rejection(r) for r in refused],
    )
    report.expected_rejections = [
        _expected_rejection(entry, kept_own, kept_dec, refused) for entry in expected.rejected
    ]
    return report


def run(
    corpus: Path,
    settings: Settings,
    *,
    expected_path: Path | None = None,
    progress: Progress | None = None,
) -> ExtractionReport:
    """Read `corpus` (a folder with org.yaml) and evaluate the configured proposer on it."""
    read = read_corpus(corpus, max_bytes=settings.max_record_bytes)
    if read.org is None:
        raise InputError(f"{corpus}: an extraction eval needs a corpus folder with org.yaml")
    expected = load_expected(expected_path or corpus / "expected.json")
    report = evaluate(
        read.records,
        read.org,
        expected,
        get_proposer(settings),
        corpus=str(corpus),
        proposer=settings.proposer,
        progress=progress,
    )
    report.problems = [{"where": p.where, "problem": p.message} for p in read.problems]
    return report


def _score(expected: frozenset[Key], kept: list[Key]) -> Score:
    got = set(kept)
    return Score(
        expected=len(expected),
        kept=len(got),
        correct=len(got & expected),
        missed=sorted(expected - got),
        false=sorted(got - expected),
    )


def _rejection(r: Rejection) -> dict[str, Any]:
    return {"record": r.record, "check": r.check, "reason": r.reason, "fact": as_proposed(r.fact)}


def _expected_rejection(
    entry: dict[str, Any],
    kept_own: list[OwnershipFact],
    kept_dec: list[DecisionFact],
    refused: list[Rejection],
) -> dict[str, Any]:
    """Was this must-not-keep fact kept (a failure), refused by a check, or never proposed?"""

    def matches(record: str, service: str | None, owner: str | None, quote: str) -> bool:
        if record != entry.get("record"):
            return False
        if "person" in entry or "service" in entry:
            return (entry.get("person") in (None, owner)) and (
                entry.get("service") in (None, service)
            )
        a, b = normalise(quote), normalise(str(entry.get("quote", "")))
        return bool(a and b) and (a in b or b in a)

    kept = any(matches(f.record, f.service, f.owner, f.quote) for f in kept_own) or any(
        matches(d.record, None, None, d.quote) for d in kept_dec
    )
    by = next(
        (
            r.check
            for r in refused
            if isinstance(r.fact, OwnershipFact | DecisionFact)
            and matches(
                r.record,
                getattr(r.fact, "service", None),
                getattr(r.fact, "owner", None),
                r.fact.quote,
            )
        ),
        None,
    )
    return {**entry, "kept": kept, "refused_by": by}
