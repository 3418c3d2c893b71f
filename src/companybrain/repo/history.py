"""Commits as `git log` prints them, parsed one at a time from a stream.

One `git log` run gives everything: the header fields (names and e-mails after .mailmap),
the full message, the raw diff (status, blob ids, renames) and the numstat (lines added and
removed) of every commit, separated by NUL bytes so that any path survives."""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from functools import lru_cache
from pathlib import Path
from typing import NamedTuple

from companybrain.graph.ident import storable_id
from companybrain.repo import gitcmd

# %aN/%aE/%cN/%cE apply .mailmap; %aI/%cI keep the offset the time was written in.
LOG_FORMAT = "%x1e%H%x1f%P%x1f%aN%x1f%aE%x1f%aI%x1f%cN%x1f%cE%x1f%cI%x1f%B%x1f"
LOG_ARGS = (
    "log",
    "-z",
    "--raw",
    "--numstat",
    "--no-abbrev",
    "-M",
    "--diff-merges=first-parent",
    "--no-color",
    "--no-ext-diff",
    "--no-textconv",
    f"--format={LOG_FORMAT}",
)
ZERO = "0" * 40
# Chunks of `git log` output read ahead while the caller writes to the graph (64 KiB each):
# git keeps working meanwhile, and memory stays bounded.
READ_AHEAD = 16


class FileChange(NamedTuple):  # a tuple: made tens of thousands of times a second
    path: str
    status: str  # A M D R C T (R and C without the similarity score)
    old_path: str | None = None  # renames and copies
    blob: str | None = None  # the blob after the change (None when deleted)
    added: int | None = None  # None for binary files
    removed: int | None = None


class CommitInfo(NamedTuple):
    sha: str
    parents: tuple[str, ...]
    author_name: str
    author_email: str
    author_at: str
    committer_name: str
    committer_email: str
    committer_at: str
    message: str
    changes: tuple[FileChange, ...]
    skipped: tuple[str, ...] = ()  # paths no File id can hold (graph/ident.py)

    @property
    def is_merge(self) -> bool:
        return len(self.parents) > 1

    @property
    def subject(self) -> str:
        return self.message.strip().splitlines()[0] if self.message.strip() else ""


_OFFSET = re.compile(r"(?P<local>.+)(?P<sign>[+-])(?P<h>\d{2}):(?P<m>\d{2})")


def iso_ms(text: str) -> int:
    """Epoch milliseconds of an ISO 8601 time with offset (as git prints %aI). Git keeps the
    offset a commit was written with even when no clock has it (+99:59 or +24:60, from a
    broken tool or an import); the instant is still its local time less that offset."""
    try:
        moment = datetime.fromisoformat(text)
    except ValueError:
        odd = _OFFSET.fullmatch(text)
        if odd is None:
            raise
        offset = timedelta(hours=int(odd["h"]), minutes=int(odd["m"]))
        local = datetime.fromisoformat(odd["local"]).replace(tzinfo=UTC)
        moment = local - offset if odd["sign"] == "+" else local + offset
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return int(moment.timestamp() * 1000)


def _decode(raw: bytes) -> str:
    return raw.decode("utf-8", "replace")


@lru_cache(maxsize=1 << 16)
def _path(path: str) -> str | None:
    """A path as printed by git, or None when it cannot be a File id (surrounding space, a
    control character, too long). Histories name the same paths over and over: cached."""
    return path if storable_id(path) else None


def _count(text: str) -> int | None:
    return int(text) if text.isascii() and text.isdigit() else None  # "-": a binary file


def _changes(rest: str) -> tuple[tuple[FileChange, ...], tuple[str, ...]]:
    """The commit's file changes, and the paths left out because no File id can hold them."""
    tokens = rest.lstrip("\x00\n").split("\x00")
    raw: dict[str, list[object]] = {}  # path -> [status, old path, blob, added, removed]
    skipped: list[str] = []
    count = len(tokens)
    i = 0
    while i < count:
        token = tokens[i]
        if token[:1] == ":":
            fields = token[1:].split()
            status = fields[4][:1] if len(fields) >= 5 else "M"
            blob = fields[3] if len(fields) >= 4 else None
            if status in {"R", "C"}:
                if i + 2 >= count:
                    break  # a truncated entry: its paths never came
                old, new = _path(tokens[i + 1]), _path(tokens[i + 2])
                i += 3
                if old is None:  # it came from a path no File id can hold: added, here
                    skipped.append(tokens[i - 2])
                    status = "A"
                elif new is None and status == "R":  # it left for such a path: deleted, here
                    raw[old] = ["D", None, None, None, None]
            else:
                if i + 1 >= count:
                    break
                old, new = None, _path(tokens[i + 1])
                i += 2
            if new is None:  # a path no File id can hold (graph/ident.py)
                skipped.append(tokens[i - 1])
                continue
            raw[new] = [  # a path listed twice keeps its last entry, in its first place
                status,
                old,
                None if status == "D" or blob == ZERO else blob,
                None,
                None,
            ]
            continue
        parts = token.split("\t")
        if len(parts) == 3:
            if parts[2]:
                path = parts[2]
                i += 1
            else:  # a rename: old and new path follow as their own tokens
                path = tokens[i + 2] if i + 2 < count else ""
                i += 3
            entry = raw.get(path)
            if entry is not None:
                entry[3], entry[4] = _count(parts[0]), _count(parts[1])
            continue
        i += 1
    changes = tuple([FileChange(p, *e) for p, e in raw.items()])  # type: ignore[arg-type]
    return changes, tuple(dict.fromkeys(skipped))


def parse_record(record: bytes) -> CommitInfo | None:
    """One commit from the bytes between two record separators. The message ends at the
    first "\\x1f\\x00" (a message never holds a NUL byte), so a stray \\x1f in it is safe.
    Decoded whole, once: the separators are ASCII, so no character spans one."""
    parts = _decode(record).split("\x1f", 8)
    if len(parts) < 9:
        return None
    sha, parents, an, ae, aat, cn, ce, cat, body = parts
    end = body.find("\x1f\x00")
    message, rest = (body[:end], body[end + 1 :]) if end >= 0 else (body.rstrip("\x1f"), "")
    changes, skipped = _changes(rest) if rest else ((), ())
    return CommitInfo(
        sha=sha.strip(),
        parents=tuple(parents.split()),
        author_name=an,
        author_email=ae,
        author_at=aat,
        committer_name=cn,
        committer_email=ce,
        committer_at=cat,
        message=message.rstrip("\n"),
        changes=changes,
        skipped=skipped,
    )


def commits(repo: Path, revs: list[str], *, oldest_first: bool = True) -> Iterator[CommitInfo]:
    """Every commit of `revs` (e.g. ["HEAD"] or ["^OLD", "HEAD"]), parents before children
    when `oldest_first`, streamed one at a time."""
    args = [*LOG_ARGS, "--topo-order"]
    if oldest_first:
        args.append("--reverse")
    args += [*revs, "--"]
    pending = b""
    for part in gitcmd.stream(repo, args, b"\x1e", ahead=READ_AHEAD):
        # A commit message may hold \x1e itself (and text that looks like a commit after
        # it); it cannot hold NUL, so a record is whole only once its message ends with
        # "\x1f\x00". Until then a part is more of the same message, never a commit.
        pending = part if not pending else pending + b"\x1e" + part
        if b"\x1f\x00" in pending:
            yield from _parsed(pending)
            pending = b""
    if pending:
        yield from _parsed(pending)


def _parsed(record: bytes) -> Iterator[CommitInfo]:
    if record.strip(b"\x00\n"):
        info = parse_record(record)
        if info is not None:
            yield info
