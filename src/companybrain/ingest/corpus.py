"""A corpus folder (spec/corpus.md) or a single record file → org + valid records + problems.

`open_corpus` streams: records are yielded one at a time (JSON Lines read a line at a time,
one Markdown file at a time), so that memory stays flat in the size of the input. The one
thing kept per record is its id, to refuse a duplicate. `read_corpus` collects the stream
into lists for callers that want them whole (evals, small inputs)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from companybrain.errors import InputError
from companybrain.graph.ident import storable_id
from companybrain.ingest.org import read_org
from companybrain.ingest.records import (
    BadRecord,
    Problem,
    iter_jsonl,
    not_record_files,
    read_markdown,
    record_files,
    to_record,
)
from companybrain.model.records import Org, Record
from companybrain.policy.mentions import successors

DEFAULT_MAX_BYTES = 1_000_000


class _Sorted:
    """Problems met while reading: fatal ones rejected a record, the rest are warnings."""

    problems: list[Problem]

    @property
    def rejected(self) -> list[Problem]:
        return [p for p in self.problems if p.fatal]

    @property
    def warnings(self) -> list[Problem]:
        return [p for p in self.problems if not p.fatal]


@dataclass
class CorpusRead(_Sorted):
    org: Org | None  # None: the folder or file has no org.yaml; use the graph's
    records: list[Record] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)  # fatal ones were rejected
    files: int = 0
    whole_corpus: bool = False  # True when it was a folder with org.yaml: --prune applies


def record_paths(path: Path) -> list[Path]:
    """Every record file under `path` (a folder, a .md file or a .jsonl file)."""
    if path.is_file():
        return [path]
    files: list[Path] = []
    if folder := _records_folder(path):
        files += list(record_files(folder))
    files += sorted(path.glob("*.jsonl"))
    return files


def _records_folder(path: Path) -> Path | None:
    """Where the Markdown records of a corpus folder are: records/, or the folder itself
    when it is a plain folder of record files (no org.yaml)."""
    if (path / "records").is_dir():
        return path / "records"
    return None if (path / "org.yaml").exists() else path


def skipped_files(path: Path) -> list[Problem]:
    """Problems naming what the folder of records holds that is not read: warnings, and
    rejections of folders that cannot be read."""
    folder = None if path.is_file() else _records_folder(path)
    return list(not_record_files(folder, jsonl_here=folder == path)) if folder else []


def iter_raw(files: list[Path], max_bytes: int) -> Iterator[dict[str, Any] | Problem]:
    """Raw records (dicts with `__where__`) and the problems of unreadable ones, in order."""
    for file in files:
        if file.suffix == ".jsonl":
            yield from iter_jsonl(file, max_bytes)
        elif file.suffix == ".md":
            got, bad = read_markdown(file, max_bytes)
            yield from got
            yield from bad
        else:
            raise InputError(f"{file}: not a record file (expected .md or .jsonl)")


def _new_successors(where: Path, org: Org, before: Org | None) -> list[Problem]:
    """A warning for each former member whom `org` first lists under a new id (the same
    name; policy.mentions.successors): the records naming them name that person now."""
    known = {(old, new.id) for old, new in successors(before).items()} if before else set()
    return [
        Problem(
            str(where),
            f"org.yaml no longer lists {old} and lists {new.id} under the same name, "
            f"{new.name}: taken for the same person under a new id, so records naming "
            f"{new.name} name {new.id} (if they are two people, list {old} again: the name "
            "then names neither)",
            fatal=False,
        )
        for old, new in sorted(successors(org).items())
        if (old, new.id) not in known
    ]


class CorpusStream(_Sorted):
    """An opened corpus: the organisation now, the records as they are read. Problems and
    counts fill in while `records()` is consumed."""

    def __init__(self, path: Path, org: Org | None, max_bytes: int) -> None:
        self.path = path
        self.org = (
            read_org(path / "org.yaml") if path.is_dir() and (path / "org.yaml").exists() else None
        )
        self.whole_corpus = self.org is not None
        # org.yaml says who is here now; the stored organisation, who was here before.
        self.check_org = self.org.with_former(org) if self.org is not None else org
        if self.check_org is None:
            raise InputError(
                f"{path}: no org.yaml here and no organisation given to check records against"
            )
        self.max_bytes = max_bytes
        self.files = record_paths(path)
        self.problems: list[Problem] = skipped_files(path)
        if self.org is not None:
            self.problems += _new_successors(path / "org.yaml", self.check_org, org)
        self.read = 0  # raw records and unreadable ones seen so far
        self.ids: set[str] = set()  # every valid id, for duplicates and --prune

    def estimate(self) -> int:
        """How many records there are, for a progress bar: Markdown files plus lines."""
        total = 0
        for file in self.files:
            if file.suffix != ".jsonl" or not file.is_file():  # (a pipe would never end)
                total += 1
                continue
            try:
                with file.open("rb") as handle:
                    while chunk := handle.read(1 << 20):
                        total += chunk.count(b"\n")
            except OSError:  # reading it will say what is wrong, naming it
                total += 1
        return total

    def records(self) -> Iterator[Record]:
        assert self.check_org is not None
        twice: dict[str, list[int]] = {}  # a duplicated id -> its problems, named at the end
        for raw in iter_raw(self.files, self.max_bytes):
            self.read += 1
            if isinstance(raw, Problem):
                self.problems.append(raw)
                continue
            where = raw.get("__where__", str(self.path))
            try:
                record, warnings = to_record(raw, self.check_org)
            except BadRecord as exc:
                rid = raw.get("id")
                named = rid.strip() if isinstance(rid, str) and storable_id(rid.strip()) else None
                self.problems.append(Problem(where, str(exc), record=named))
                continue
            if record.id in self.ids:
                twice.setdefault(record.id, []).append(len(self.problems))
                self.problems.append(Problem(where, f"duplicate id {record.id!r}"))
                continue
            self.ids.add(record.id)
            self.problems += warnings
            yield record
        if twice:
            self._name_first(twice)

    def _name_first(self, twice: dict[str, list[int]]) -> None:
        """Say where each duplicated id was first read, looked up again rather than keeping
        every record's place in memory: in one more pass for all of them (a pass for each
        id, on a file exported twice into itself, was quadratic: 33 s for 3,000 records,
        hours for 100,000)."""
        assert self.check_org is not None
        first: dict[str, str] = {}
        for raw in iter_raw(self.files, self.max_bytes):
            if isinstance(raw, Problem):
                continue
            rid = str(raw.get("id", "")).strip()
            if rid not in twice or rid in first:
                continue
            try:
                to_record(raw, self.check_org)
            except BadRecord:
                continue
            first[rid] = str(raw.get("__where__", self.path))
            if len(first) == len(twice):
                break
        for rid, places in twice.items():
            for i in places:
                said = f"duplicate id {rid!r} (first in {first.get(rid, self.path)})"
                self.problems[i] = replace(self.problems[i], message=said)


def open_corpus(
    path: str | Path, org: Org | None = None, max_bytes: int = DEFAULT_MAX_BYTES
) -> CorpusStream:
    """Open a corpus for streaming. `org` is the organisation to check records against when
    the path has no org.yaml (a single file or a folder of new records for an existing
    graph)."""
    path = Path(path)
    if not path.exists():
        raise InputError(f"{path}: no such file or folder")
    return CorpusStream(path, org, max_bytes)


def read_corpus(
    path: str | Path, org: Org | None = None, max_bytes: int = DEFAULT_MAX_BYTES
) -> CorpusRead:
    """Read a corpus whole."""
    stream = open_corpus(path, org, max_bytes)
    records = list(stream.records())
    return CorpusRead(
        org=stream.org,
        records=records,
        problems=stream.problems,
        files=len(stream.files),
        whole_corpus=stream.whole_corpus,
    )
