"""A corpus folder (spec/corpus.md) or a single record file → org + valid records + problems."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from companybrain.errors import InputError
from companybrain.ingest.org import read_org
from companybrain.ingest.records import (
    BadRecord,
    Problem,
    read_jsonl,
    read_markdown,
    record_files,
    to_record,
)
from companybrain.model.records import Org, Record

DEFAULT_MAX_BYTES = 1_000_000


@dataclass
class CorpusRead:
    org: Org | None  # None: the folder or file has no org.yaml; use the graph's
    records: list[Record] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)  # fatal ones were rejected
    files: int = 0
    whole_corpus: bool = False  # True when it was a folder with org.yaml: --prune applies

    @property
    def rejected(self) -> list[Problem]:
        return [p for p in self.problems if p.fatal]

    @property
    def warnings(self) -> list[Problem]:
        return [p for p in self.problems if not p.fatal]


def raw_items(path: Path, max_bytes: int) -> tuple[list[dict[str, Any]], list[Problem], int]:
    """Every raw record under `path` (a folder, a .md file or a .jsonl file)."""
    items: list[dict[str, Any]] = []
    problems: list[Problem] = []
    files: list[Path] = []
    if path.is_file():
        files = [path]
    else:
        folder = path / "records"
        if folder.is_dir():
            files += list(record_files(folder))
        elif not (path / "org.yaml").exists():
            files += list(record_files(path))  # a plain folder of record files
        files += sorted(path.glob("*.jsonl"))
    for file in files:
        if file.suffix == ".jsonl":
            got, bad = read_jsonl(file, max_bytes)
        elif file.suffix == ".md":
            got, bad = read_markdown(file, max_bytes)
        else:
            raise InputError(f"{file}: not a record file (expected .md or .jsonl)")
        items += got
        problems += bad
    return items, problems, len(files)


def read_corpus(
    path: str | Path, org: Org | None = None, max_bytes: int = DEFAULT_MAX_BYTES
) -> CorpusRead:
    """Read a corpus. `org` is the organisation to check records against when the path has no
    org.yaml (a single file or a folder of new records for an existing graph)."""
    path = Path(path)
    if not path.exists():
        raise InputError(f"{path}: no such file or folder")
    own_org = (
        read_org(path / "org.yaml") if path.is_dir() and (path / "org.yaml").exists() else None
    )
    check_org = own_org or org
    items, problems, files = raw_items(path, max_bytes)
    result = CorpusRead(
        org=own_org, problems=problems, files=files, whole_corpus=own_org is not None
    )
    if check_org is None:
        raise InputError(
            f"{path}: no org.yaml here and no organisation given to check records against"
        )
    seen: dict[str, str] = {}
    for raw in items:
        where = raw.get("__where__", str(path))
        try:
            record, warnings = to_record(raw, check_org)
        except BadRecord as exc:
            result.problems.append(Problem(where, str(exc)))
            continue
        if record.id in seen:
            result.problems.append(
                Problem(where, f"duplicate id {record.id!r} (first in {seen[record.id]})")
            )
            continue
        seen[record.id] = where
        result.records.append(record)
        result.problems += warnings
    return result
