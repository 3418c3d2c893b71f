"""What a change touches, read from git: the files it changes, and the decision log as it
stood at that commit (from git, not today's file), with the paths each decision names and
the supersessions it states then. A change is judged by what was known when it was made."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from companybrain.repo import gitcmd, trees
from companybrain.repo.decision_files import is_decision_file
from companybrain.repo.decisions import DecisionEntry, parse_blob
from companybrain.repo.gitcmd import BlobReader, GitError
from companybrain.repo.history import iso_ms
from companybrain.repo.links import Supersession, supersessions
from companybrain.repo.rationale import Named, Tree, named_paths

EMPTY_TREE = "4b825dc642cb6eb9a060e54bf8d69288fbee4904"


@dataclass(frozen=True)
class Change:
    status: str
    path: str
    old_path: str | None = None


@dataclass
class Snapshot:
    rev: str
    base: str | None  # None: the change is a root commit
    rev_at: str  # committer time of rev
    rev_ms: int
    subject: str
    changes: list[Change]
    decisions: list[DecisionEntry]
    supersessions: list[Supersession]
    named: dict[str, list[Named]] = field(default_factory=dict)  # decision id -> changed paths
    # the decision log before the change, when the change edits a decision file
    before: list[DecisionEntry] = field(default_factory=list)
    # decisions of that log the change deletes -> the changed paths they named
    deleted: dict[str, list[Named]] = field(default_factory=dict)
    # an entry the change gave a new heading: its id at rev -> its id before
    retitled: dict[str, str] = field(default_factory=dict)
    # entries the change itself writes into the log (not there before it, under any name)
    added: set[str] = field(default_factory=set)

    @property
    def paths(self) -> list[str]:
        out = [c.path for c in self.changes] + [c.old_path for c in self.changes if c.old_path]
        return list(dict.fromkeys(out))


def changes(repo: Path, base: str | None, rev: str) -> list[Change]:
    raw = gitcmd.run(repo, "diff", "--name-status", "-z", "-M", base or EMPTY_TREE, rev, "--")
    tokens = raw.decode("utf-8", "replace").split("\x00")
    out: list[Change] = []
    i = 0
    while i < len(tokens) and tokens[i]:
        status = tokens[i][:1]
        if status in {"R", "C"}:
            out.append(Change(status, tokens[i + 2], tokens[i + 1]))
            i += 3
        else:
            out.append(Change(status, tokens[i + 1]))
            i += 2
    return out


def decisions_at(repo: Path, rev: str) -> list[DecisionEntry]:
    """The decision log as it stood at `rev` (without the entries that are not UTF-8 text,
    as ingestion leaves them out)."""
    out: list[DecisionEntry] = []
    with BlobReader(repo) as blobs:
        for blob, path, kind in trees.decision_files(repo, rev):
            out += parse_blob(path, blobs.read(blob) or b"", kind)[0]
    return out


def snapshot(repo: Path, rev: str, base: str | None = None) -> Snapshot:
    sha = gitcmd.resolve(repo, rev)
    if sha is None:
        raise GitError(f"{rev!r} is not a commit in {repo}")
    if base:
        base_sha = gitcmd.resolve(repo, base)
        if base_sha is None:
            raise GitError(f"base {base!r} is not a commit in {repo}")
        # What the branch changed since it left the base (`git diff base...rev`), as a pull
        # request shows it: the base's own later commits are not the change's.
        base_sha = gitcmd.merge_base(repo, base_sha, sha) or base_sha
    else:
        base_sha = gitcmd.resolve(repo, f"{sha}^")
        if base_sha is None and sha in gitcmd.shallow_boundary(repo):
            raise GitError(
                f"{rev!r} is where the shallow clone {repo} begins: its parent is not in the "
                "history, so what it changed cannot be told (fetch the whole history)"
            )
    info = gitcmd.text(repo, "show", "-s", "--format=%cI%x1f%s", sha).strip().split("\x1f")
    changed = changes(repo, base_sha, sha)
    entries = decisions_at(repo, sha)
    found, _ = supersessions(entries)
    paths = [c.path for c in changed] + [c.old_path for c in changed if c.old_path]
    wanted = {p for p in paths if not is_decision_file(p)}
    known = {p for _, p in trees.entries(repo, sha)}
    if base_sha:
        known |= {p for _, p in trees.entries(repo, base_sha)}  # files the change deletes
    tree = Tree(known)
    named = {}
    for e in entries:
        hits = [
            n for n in named_paths(e.text, e.line_start, tree, {e.path}, e.path) if n.path in wanted
        ]
        if hits:
            named[e.id] = hits
    edits_log = base_sha is not None and any(is_decision_file(p) for p in paths)
    before = decisions_at(repo, base_sha) if base_sha and edits_log else []
    kept = {e.id for e in entries}
    moved = {c.old_path: c.path for c in changed if c.old_path}  # a log the change moves
    was = {e.id for e in before}
    deleted, retitled = {}, {}
    for e in before:
        path = moved.get(e.path, e.path)
        if e.id in kept or path + e.id[len(e.path) :] in kept:
            continue
        said = _body(e)  # a new heading over most of the same lines: retitled, not deleted
        same = [x for x in entries if x.path == path and x.id not in was
                and 2 * len(said & _body(x)) > len(said)]  # fmt: skip
        if len(same) == 1:
            retitled[same[0].id] = e.id
            continue
        hits = [
            n for n in named_paths(e.text, e.line_start, tree, {e.path}, e.path) if n.path in wanted
        ]
        if hits:
            deleted[e.id] = hits
    had = {moved.get(e.path, e.path) + e.id[len(e.path) :] for e in before} | was
    added = (
        {x.id for x in entries if x.id not in had and x.id not in retitled}
        if any(is_decision_file(p) for p in paths)  # (a root commit adds all it holds)
        else set()
    )
    return Snapshot(
        rev=sha,
        base=base_sha,
        rev_at=info[0],
        rev_ms=iso_ms(info[0]),
        subject=info[1] if len(info) > 1 else "",
        changes=changed,
        decisions=entries,
        supersessions=found,
        named=named,
        before=before,
        deleted=deleted,
        retitled=retitled,
        added=added,
    )


def _body(e: DecisionEntry) -> set[str]:
    """The written lines of an entry under its heading."""
    return {line.strip() for line in e.text.splitlines()[1:] if line.strip()}
