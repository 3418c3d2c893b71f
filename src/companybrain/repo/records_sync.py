"""Decision records and agent instructions into the graph, after the commit pass.

Decisions are read from the tree at the head (and, for decision files the history deleted,
from their last version), compared with what the graph holds by a hash of their text, and
only the changed ones are blamed and linked to the files they rest on."""

from __future__ import annotations

import hashlib
import posixpath
import re
from collections import Counter
from concurrent.futures import Executor, Future
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from companybrain.graph.queries import repo_read, repo_write
from companybrain.repo import gitcmd, trees
from companybrain.repo.blame import Blame, blame
from companybrain.repo.commit_sync import Version
from companybrain.repo.decision_files import is_decision_file, kind_of
from companybrain.repo.decisions import DecisionEntry, entry_texts, parse_blob, parse_file
from companybrain.repo.gitcmd import BlobReader
from companybrain.repo.history import iso_ms
from companybrain.repo.instructions import is_instruction_file, sections
from companybrain.repo.links import supersessions
from companybrain.repo.markdown import read_front_matter
from companybrain.repo.rationale import named_paths

if TYPE_CHECKING:
    from companybrain.graph.connection import Store

BATCH = 200
MAX_COMMIT_RATIONALE = 50  # a recording commit that touched more files says little about each
Blames = dict[tuple[str, str], Future[Blame]]  # (rev, path) -> its blame, being read


@dataclass
class DecisionPass:
    present: int = 0
    removed: int = 0
    changed: int = 0
    supersessions: int = 0
    unresolved: list[str] = field(default_factory=list)
    not_utf8: list[str] = field(default_factory=list)  # entries left out, and where
    problems: list[str] = field(default_factory=list)  # read otherwise than written, and why


@dataclass(frozen=True)
class _Read:
    entry: DecisionEntry
    rev: str  # the commit whose tree holds this text
    present: bool
    removed_in: str | None


def _hash(e: DecisionEntry) -> str:
    """What the entry says and where: an entry that moved is linked again (its lines)."""
    said = "\x1f".join((e.text, e.title, e.status or "", e.date or "", str(e.line_start)))
    return hashlib.sha1(said.encode("utf-8")).hexdigest()


def blame_ahead(pool: Executor, repo_path: Path, head: str) -> Blames:
    """Start blaming every decision file at `head` on `pool`, for a run that will link them
    all (a first run): git works on it while the commit pass runs."""
    return {
        (head, path): pool.submit(blame, repo_path, head, path)
        for _, path, _ in trees.decision_files(repo_path, head)
    }


def read_decisions(
    repo_path: Path,
    head: str,
    deleted: dict[str, str],
    left: list[tuple[str, str]] | None = None,
    edited: list[tuple[str, str]] | None = None,
    restored: dict[str, _Read] | None = None,
) -> list[_Read]:
    """The decision log at `head`, plus the last version of decision files deleted before
    and of entries that `edited` commits (commit, path; oldest first) took out of a file
    they kept; `left` gets each entry left out because it is not UTF-8 text (see
    parse_blob), and `restored` each entry of the log that an edit took out and a later one
    brought back as it was (a revert of a revert): as it was before it was taken out."""
    out: list[_Read] = []
    left = [] if left is None else left
    files = trees.decision_files(repo_path, head)
    at_head = {path for _, path, _ in files}
    with BlobReader(repo_path) as blobs:
        for blob, path, kind in files:
            entries, bad = parse_blob(path, blobs.read(blob) or b"", kind)
            out += [_Read(e, head, True, None) for e in entries]
            left += bad
        ids = {r.entry.id for r in out}
        for path, sha in sorted(deleted.items()):
            if path in at_head:
                continue
            old_kind = kind_of(path)
            old_data = blobs.read(f"{sha}^:{path}")
            if old_kind is None or old_data is None:
                continue
            entries, bad = parse_blob(path, old_data, old_kind)
            left += [(did, f"{why} (removed in {sha[:12]})") for did, why in bad]
            for e in entries:
                if e.id not in ids:
                    out.append(_Read(e, f"{sha}^", False, sha))
                    ids.add(e.id)
        back: dict[str, tuple[DecisionEntry, str]] = {}
        taken = _taken_out(blobs, edited or [], back)
        out += [_Read(e, f"{sha}^", False, sha) for e, sha in taken.values() if e.id not in ids]
    if restored is not None:
        for r in out:
            was = taken.get(r.entry.id) or back.get(r.entry.id)
            if r.present and was and was[0].text.strip() == r.entry.text.strip():
                restored[r.entry.id] = _Read(was[0], f"{was[1]}^", True, None)
    return out


_HEADING_LINE = re.compile(r"^ {0,3}#{1,6}[ \t].*$", re.M)


def _taken_out(
    blobs: BlobReader,
    edited: list[tuple[str, str]],
    back: dict[str, tuple[DecisionEntry, str]] | None = None,
) -> dict[str, tuple[DecisionEntry, str]]:
    """id -> (entry as it was, commit) of each entry an edit took out of its decision file
    (its last removal), so that a run reading the whole history and runs reading it a part
    at a time know the same entries: one whose heading is gone but whose text (below it) is
    still there under another heading was retitled or renumbered, not taken out. Files are
    parsed only when a heading line went."""
    out: dict[str, tuple[DecisionEntry, str]] = {}
    for sha, path in edited:
        kind = kind_of(path)
        before, after = blobs.read(f"{sha}^:{path}"), blobs.read(f"{sha}:{path}")
        if kind is None or before is None or after is None:
            continue
        went = Counter(_HEADING_LINE.findall(before.decode("utf-8", "surrogateescape")))
        went.subtract(_HEADING_LINE.findall(after.decode("utf-8", "surrogateescape")))
        if not any(n > 0 for n in went.values()):
            continue
        now = parse_blob(path, after, kind)[0]
        kept_ids = {e.id for e in now}
        kept_bodies = {_body(e) for e in now}
        for e in parse_blob(path, before, kind)[0]:
            if e.id not in kept_ids and not (_body(e) and _body(e) in kept_bodies):
                out[e.id] = (e, sha)
            elif e.id in out:  # in the log again since an earlier removal: that one is undone
                was = out.pop(e.id)
                if back is not None:
                    back[e.id] = was
    return out


def _body(e: DecisionEntry) -> str:
    """An entry's text below its heading."""
    return e.text.split("\n", 1)[1].strip() if e.heading is not None and "\n" in e.text else ""


def sync_decisions(
    store: Store,
    repo_path: Path,
    repo: str,
    run: str,
    head: str,
    deleted: dict[str, str],
    ahead: Blames | None = None,
    *,
    reblame: bool = False,
    edited: list[tuple[str, str]] | None = None,
) -> DecisionPass:
    """`reblame`: find the commit that recorded every decision again, not only the changed
    ones (the history was rewritten, or a shallow clone deepened: a stored commit may be
    gone, or was only where the history began)."""
    report = DecisionPass()
    left: list[tuple[str, str]] = []
    restored: dict[str, _Read] = {}
    reads = read_decisions(repo_path, head, deleted, left, edited, restored)
    report.not_utf8 = [why for _, why in left]
    report.problems = [
        p + ("" if r.present else f" (removed in {(r.removed_in or '')[:12]})")
        for r in reads
        for p in r.entry.problems
    ]
    # read before as it was not (its bytes replaced), or valid before: not what it says now
    repo_write.delete_decisions(store, repo, sorted({did for did, _ in left}))
    known = repo_write.decision_hashes(store, repo)
    repo_write.delete_decisions(store, repo, _moved_away(store, reads, known))
    repo_write.delete_decisions(store, repo, _renumbered(store, reads, known))
    # in the log when last read, and no commit read since took it out: retitled, renumbered
    read = {r.entry.id for r in reads}
    repo_write.delete_decisions(
        store, repo, sorted(g for g, row in known.items() if row.get("present") and g not in read)
    )
    rows = []
    changed: list[_Read] = []
    back_in: list[str] = []
    for r in reads:
        e, digest = r.entry, _hash(r.entry)
        rows.append(
            {
                "id": e.id,
                "path": e.path,
                "heading": e.heading,
                "title": e.title,
                "status": e.status,
                "date": e.date,
                "number": e.number,
                "format": e.format,
                "line_start": e.line_start,
                "line_end": e.line_end,
                "text": e.text,
                "hash": digest,
                "present": r.present,
                "removed_in": r.removed_in,
            }
        )
        before = known.get(e.id)
        if before is None or before.get("hash") != digest or not before.get("commit"):
            changed.append(r)
            if r.present and before and before.get("commit") and before.get("present") is False:
                back_in.append(e.id)  # taken out when last read: brought back as it was?
        report.present += r.present
        report.removed += not r.present
    kept = _recorded_before(store, reads, back_in)  # (read before the rows are written)
    for start in range(0, len(rows), BATCH):
        repo_write.write_decisions(store, repo, run, rows[start : start + BATCH])
    repo_write.mark_absent(store, repo, [r.entry.id for r in reads if r.present], head)
    report.changed = len(changed)
    blame = reads if reblame else changed
    _provenance(store, repo_path, blame, ahead or {}, kept, restored)
    found, unresolved = supersessions([r.entry for r in reads])
    repo_write.replace_supersessions(
        store,
        repo,
        [
            {"newer": s.newer, "older": s.older, "quote": s.quote, "recorded_in": s.recorded_in,
             "line": s.line}
            for s in found
        ],
    )  # fmt: skip
    report.supersessions = len(found)
    report.unresolved = [f"{path} line {ref.line}: {ref.quote}" for path, ref in unresolved]
    return report


def _recorded_before(store: Store, reads: list[_Read], ids: list[str]) -> dict[str, str]:
    """id -> the commit that recorded it, of each entry the graph holds as taken out of the
    log that is back with the same text (a revert of a revert, read in steps): recorded
    where it was, as a read of the whole history finds it."""
    now = {r.entry.id: r.entry.text.strip() for r in reads}
    out = {}
    for did in ids:
        was = repo_read.decision(store, did)
        if was and was.get("commit") and (was.get("text") or "").strip() == now[did]:
            out[did] = was["commit"]
    return out


def _moved_away(store: Store, reads: list[_Read], known: dict[str, Any]) -> list[str]:
    """Decisions the graph holds under a path their file was renamed from since, the same
    entry now read under the new path: a read of the whole history knows only the new id,
    so the old one is not kept as a second decision, removed."""
    present = {r.entry.id for r in reads if r.present}
    if all(gid in present for gid in known):
        return []
    suffixes: dict[str, list[str]] = {}  # a decision file at head -> its entries' headings
    for r in reads:
        if r.present and r.entry.id.startswith(r.entry.path):
            suffixes.setdefault(r.entry.path, []).append(r.entry.id[len(r.entry.path) :])
    heads: dict[str, set[str]] = {p: {p} for p in suffixes}  # a name -> files at head it became
    frontier = sorted(heads)
    for _ in range(10):  # renamed from, and from what that was renamed from
        step: dict[str, set[str]] = {}
        for e in repo_read.renames(store, frontier) if frontier else []:
            if e["new"] in heads and e["old"] not in heads:
                step.setdefault(e["old"], set()).update(heads[e["new"]])
        heads.update(step)
        frontier = sorted(step)
    out = {
        old + end
        for old, became in heads.items()
        for path in became
        for end in suffixes[path]
        if old + end in known and old + end not in present
    }
    return sorted(out)


_REPEAT = re.compile(r"^(?P<first>.*) \(\d+\)$")


def _renumbered(store: Store, reads: list[_Read], known: dict[str, Any]) -> list[str]:
    """A heading written twice is `Heading`, `Heading (2)` ... in order: once an earlier one
    is deleted, the later ones move up. A `Heading (2)` the graph holds is then not a
    decision removed from the log but one still there under another of those ids: when its
    text is the text of one of them, it goes (else it stays, and is marked removed)."""
    same: dict[str, list[str]] = {}  # heading id without its number -> texts now
    present = {r.entry.id for r in reads if r.present}
    for r in reads:
        if r.present:
            m = _REPEAT.match(r.entry.id)
            same.setdefault(m.group("first") if m else r.entry.id, []).append(r.entry.text.strip())
    out = []
    for gid, row in known.items():
        m = _REPEAT.match(gid)
        if m is None or gid in present or not row.get("present") or m.group("first") not in same:
            continue
        was = repo_read.decision(store, gid)
        if was is not None and (was.get("text") or "").strip() in same[m.group("first")]:
            out.append(gid)
    return out


def _provenance(
    store: Store,
    repo_path: Path,
    changed: list[_Read],
    ahead: Blames,
    kept: dict[str, str] | None = None,
    back: dict[str, _Read] | None = None,
) -> None:
    """RECORDED_IN from git blame (started ahead, or now; `kept`: the commit already known;
    `back`: an entry is blamed as it was before it was taken out), then RATIONALE for the
    changed decisions."""
    by_file: dict[tuple[str, str], list[_Read]] = {}
    for r in (back.get(x.entry.id, x) if back else x for x in changed):
        by_file.setdefault((r.rev, r.entry.path), []).append(r)
    recorded: dict[str, tuple[str, str]] = {}  # id -> (first commit, last commit)
    added: dict[tuple[str, str], bool] = {}  # (commit, path): the commit added the file
    with BlobReader(repo_path) as blobs:
        earlier = _Earlier(blobs)
        for (rev, path), reads in by_file.items():
            early = ahead.get((rev, path))
            b = early.result() if early is not None else blame(repo_path, rev, path)
            plain: Blame | None = None
            for r in reads:
                e = r.entry
                if kept and e.id in kept:
                    recorded[e.id] = (kept[e.id], kept[e.id])
                    continue
                shas = b.commits_in(e.line_start, e.line_end)
                if not shas:
                    continue
                if kind_of(path) == "adr":  # one entry in the file: nothing to copy from
                    then = _path_in(b, shas[0], e, path)
                    restored = _before_restore(repo_path, blobs, then, e, shas[0], added)
                    recorded[e.id] = (restored, shas[-1])
                    continue
                plain = plain or blame(repo_path, rev, path, moves=False)
                written = plain.commits_in(e.line_start, e.line_end) or shas
                newest = shas[-1] if shas[-1] == written[-1] else None  # written there
                nexts = [*shas[1:], None]  # the commit after each that wrote lines of `e`
                first = next(
                    (
                        s
                        for s, later in zip(shas, nexts, strict=True)
                        if s == newest or earlier.own(e, s, b, rev, later)
                    ),
                    None,
                )
                if first is None:  # all of it alike to other entries: a copy
                    shas, first = written, written[0]
                then = _path_in(b, first, e, path)
                first = _before_restore(repo_path, blobs, then, e, first, added)
                recorded[e.id] = (first, shas[-1])
    times = repo_write.commit_times(store, sorted({c for c, _ in recorded.values()}))
    prov: list[dict[str, Any]] = []
    for did, (first, last) in recorded.items():
        t = times.get(first, {})
        prov.append(
            {
                "id": did,
                "commit": first,
                "last_commit": last,
                "recorded_at": t.get("landed_at") or t.get("committer_at"),
                "recorded_ms": t.get("landed_ms") or t.get("committer_ms"),
            }
        )
    for start in range(0, len(prov), BATCH):
        repo_write.write_provenance(store, prov[start : start + BATCH])
    touched = repo_write.files_touched_by(store, sorted({c for c, _ in recorded.values()}))
    links: list[dict[str, Any]] = []
    with trees.Trees(repo_path) as tree_cache:
        for r in changed:
            e = r.entry
            span: tuple[str | None, str | None] = recorded.get(e.id) or (None, None)
            links += _rationale(e, r.rev, span[0], span[1], tree_cache, touched)
    ids = [r.entry.id for r in changed]
    for start in range(0, max(len(ids), 1), BATCH):
        chunk = set(ids[start : start + BATCH])
        repo_write.replace_rationale(store, sorted(chunk), [x for x in links if x["id"] in chunk])


MAX_RESTORES = 10


def _path_in(b: Blame, sha: str, e: DecisionEntry, path: str) -> str:
    """The path of `e`'s file in commit `sha` (it may have been renamed since)."""
    return next((p for _, p in b.lines_of(sha, e.line_start, e.line_end)), path)


def _same_entry(old: DecisionEntry, e: DecisionEntry) -> bool:
    """The same entry, by its heading in its file (the file may have had another path),
    with the same text."""
    return old.id[len(old.path) :] == e.id[len(e.path) :] and old.text.strip() == e.text.strip()


def _before_restore(
    repo_path: Path,
    blobs: BlobReader,
    path: str,
    e: DecisionEntry,
    sha: str,
    added: dict[tuple[str, str], bool],
) -> str:
    """The commit that recorded `e`, when `sha` (the one blame names, where its file was at
    `path`) only restored its file: blame does not look past a deletion, so every line of a
    decision deleted and then brought back is the restoring commit's. When the text
    restored is the entry's text as it was deleted, it was recorded where that text was."""
    for _ in range(MAX_RESTORES):
        if (sha, path) not in added:  # once per commit and file: a log holds many entries
            added[(sha, path)] = (
                blobs.read_object(f"{sha}^") is not None
                and blobs.read_object(f"{sha}^:{path}") is None
            )
        if not added[(sha, path)]:
            return sha  # the file was there before `sha` (or `sha` is the first commit)
        gone = gitcmd.text(
            repo_path, "log", "-1", "--format=%H", "--diff-filter=D", f"{sha}^", "--", path,
            check=False,
        ).strip()  # fmt: skip
        old = blobs.text(f"{gone}^:{path}") if gone else None
        kind = kind_of(path)
        if old is None or kind is None:
            return sha
        was = next((o for o in parse_file(path, old, kind) if _same_entry(o, e)), None)
        if was is None:
            return sha  # brought back changed: recorded anew
        earlier = blame(repo_path, f"{gone}^", path)
        shas = earlier.commits_in(was.line_start, was.line_end)
        if not shas:
            return sha
        sha = shas[0]
        path = _path_in(earlier, sha, was, path)
    return sha


class _Earlier:
    """Was an entry's text in an older commit its own, or a copy of another entry's?
    `git blame -M` gives lines that were moved within the file to the commit that first
    wrote them (an entry moved up the log keeps its date), but also lines merely alike: a new
    entry's "### Status / Accepted / ### Context" scaffold, or a heading repeated, is given
    to the entry it resembles. So an older commit records the entry only when the lines it
    brought were, in that commit's version of the file, in an entry that became this one
    (retitled, moved or edited since); lines of another entry are a copy of that one."""

    def __init__(self, blobs: BlobReader) -> None:
        self.blobs = blobs
        self.parsed: dict[tuple[str, str], list[DecisionEntry]] = {}
        self.lines: dict[tuple[str, str], list[tuple[str, set[str]]]] = {}  # entries' lines
        # (commit, file, an entry's id and text) -> entries there holding most of its lines
        self.held: dict[tuple[str, str, str, str], set[str]] = {}

    def _entries(self, sha: str, path: str) -> list[DecisionEntry]:
        key = (sha, path)
        if key not in self.parsed:
            kind = kind_of(path)
            text = self.blobs.text(f"{sha}:{path}") if kind else None
            self.parsed[key] = parse_file(path, text, kind) if kind and text is not None else []
        return self.parsed[key]

    def own(self, e: DecisionEntry, sha: str, b: Blame, rev: str, later: str | None) -> bool:
        for line, path in b.lines_of(sha, e.line_start, e.line_end):
            for then in self._entries(sha, path):
                if then.line_start <= line <= then.line_end and self._became(
                    then, b, e, rev, later
                ):
                    return True
        return False

    def _became(
        self, then: DecisionEntry, b: Blame, e: DecisionEntry, rev: str, later: str | None
    ) -> bool:
        """Whether `e` is what entry `then` (of an older commit) became: in `later`, the next
        commit that wrote lines of `e` (else `rev`), the entry holding most of `then`'s lines
        is the one holding most of `e`'s (a tie: `e` is `then` by its id). An id is not
        enough: a heading written twice is `Heading` and `Heading (2)` in order, so an entry
        written above an older one of the same heading takes the older one's id, and git
        gives the new one the old heading line. Judged in `later`, not `rev`: once the entry
        `then` became is taken out of the log, the heading and scaffold it lent `e` are all
        of it left, and a read of the whole history called `e` its own where one that read
        up to `later` did not."""
        if later is None:
            later, path, mine = rev, e.path, {e.id}
        else:
            path = b.lines_of(later, e.line_start, e.line_end)[0][1]
            mine = self._most(later, path, e)
        best = self._most(later, path, then)
        return any(x in best and (len(best) == 1 or x == then.id) for x in mine)

    def _most(self, sha: str, path: str, entry: DecisionEntry) -> set[str]:
        """The entries of `path` at `sha` that hold the most of `entry`'s lines (none when no
        entry holds any)."""
        key = (sha, path, entry.id, entry.text)
        if key not in self.held:
            if (sha, path) not in self.lines:
                kind = kind_of(path)
                text = self.blobs.text(f"{sha}:{path}") if kind else None
                found = entry_texts(path, text, kind) if kind and text is not None else []
                self.lines[(sha, path)] = [
                    (i, {y.strip() for y in t.splitlines()}) for i, t in found
                ]
            said = {x.strip() for x in entry.text.splitlines() if x.strip()}
            kept = {i: len(said & lines) for i, lines in self.lines[(sha, path)]}
            most = max(kept.values(), default=0)
            self.held[key] = {i for i, n in kept.items() if n == most and n}
        return self.held[key]


def _rationale(
    e: DecisionEntry,
    rev: str,
    first: str | None,
    last: str | None,
    tree_cache: trees.Trees,
    touched: dict[str, list[str]],
) -> list[dict[str, Any]]:
    """The files a decision rests on: the paths its text names that existed when it was
    recorded (or when its text was last edited, or in the tree read); only when it names
    none, the files its recording commit changed."""
    out: list[dict[str, Any]] = []
    seen: set[str] = {e.path}
    for rev_at in dict.fromkeys(x for x in (first, last, rev) if x):
        for named in named_paths(e.text, e.line_start, tree_cache.named(rev_at), seen, e.path):
            seen.add(named.path)
            if is_decision_file(named.path):
                continue
            out.append(
                {"id": e.id, "path": named.path, "via": "text", "line": named.line,
                 "quote": named.quote, "commit": first}
            )  # fmt: skip
    if out:
        return out
    # a log in a folder (a service's, in a monorepo) speaks for the files under it
    under = posixpath.dirname(e.path) + "/" if e.heading is not None and "/" in e.path else ""
    files = [
        p
        for p in touched.get(first or "", [])
        if p != e.path
        and p.startswith(under)
        and not is_decision_file(p)
        and not is_instruction_file(p)
    ]
    if len(files) > MAX_COMMIT_RATIONALE:
        return []
    return [
        {"id": e.id, "path": p, "via": "commit", "line": None, "quote": None, "commit": first}
        for p in files
    ]


_KEY_LINE = re.compile(r"^[A-Za-z_][\w-]*\s*:(?:\s+[^\s\[{].*|\s*)$")


def _utf8(line: str) -> str:
    return line.encode("utf-8", "surrogateescape").decode("utf-8", "replace")


def sync_instructions(
    store: Store,
    repo_path: Path,
    repo: str,
    run: str,
    versions: dict[str, Version],
    rewrite_all: bool = False,
    problems: list[str] | None = None,
) -> int:
    """Write the instruction versions the graph does not hold yet (all of them after a
    rewritten history), with their sections. `problems` gets what of them is read otherwise
    than written (front matter that is not YAML, lines that are not UTF-8), with file and
    line, once per file and problem."""
    told: set[tuple[str, str]] = set()
    ids = list(versions)
    known: set[str] = set()
    for start in range(0, 0 if rewrite_all else len(ids), 500):
        known |= repo_write.known_instructions(store, ids[start : start + 500])
    fresh = [v for iid, v in versions.items() if iid not in known]
    rows: list[dict[str, Any]] = []
    with BlobReader(repo_path) as blobs:
        for v in fresh:
            data = blobs.read(v.blob) or b""
            # a NUL byte no query can carry: kept as U+FFFD, its line never quoted
            text = data.decode("utf-8", "replace").replace("\x00", "\ufffd")
            raw = data.decode("utf-8", "surrogateescape").splitlines()
            bad = [n for n, line in enumerate(raw, 1) if line != _utf8(line) or "\x00" in line]
            lines = text.removeprefix("\ufeff").splitlines()
            fm = read_front_matter(lines)
            plain = all(_KEY_LINE.match(x) or not x.strip() for x in lines[1 : fm.end - 1])
            for why in [fm.problem] if fm.problem and not plain else []:  # `globs: *.tsx` is
                # no YAML, but Cursor writes it: a line of its own is read as it stands
                why += " (its `globs:`, `applyTo:` and `alwaysApply:` lines are read one by one)"
                if problems is not None and (v.path, why) not in told:
                    told.add((v.path, why))
                    problems.append(f"{v.path} {why}, version {v.blob[:10]} of {v.commit[:12]}")
            for n in bad[:1]:
                why = f"line {n}: not UTF-8 text or a NUL byte (never quoted)"
                if problems is not None and (v.path, "utf8") not in told:
                    told.add((v.path, "utf8"))
                    problems.append(f"{v.path} {why}, version {v.blob[:10]} of {v.commit[:12]}")
            rows.append(
                {
                    "id": f"{v.path}@{v.blob}",
                    "file": v.path,
                    "blob": v.blob,
                    "commit": v.commit,
                    "date": v.date,
                    "date_ms": iso_ms(v.date),
                    "text": text,
                    # lines holding bytes that are not UTF-8: what they say cannot be quoted
                    "not_utf8": bad,
                    "sections": [
                        {"heading": s.heading, "level": s.level, "line_start": s.line_start,
                         "line_end": s.line_end, "text": s.text}
                        for s in sections(text)
                    ],
                }
            )  # fmt: skip
            if len(rows) >= 50:
                repo_write.write_instructions(store, repo, run, rows)
                rows = []
    if rows:
        repo_write.write_instructions(store, repo, run, rows)
    return len(fresh)
