"""What a repository question is about: a file or folder (with the names it had before a
rename), a decision, a commit, or a topic matched against decision text. Store reads."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from companybrain.ask.repo.lineage import MAX_HOPS, Event, Span, lineage
from companybrain.ask.repo.topic import (
    Match,
    bare_words,
    elsewhere,
    identifiers,
    lacking,
    lower_words,
    mentions_identifier,
    names,
    score,
    subject_terms,
    term_set,
    terms,
    unwritten,
    written_as_names,
)
from companybrain.graph.queries import repo_read

if TYPE_CHECKING:
    from companybrain.graph.connection import Store

MAX_FOLDER_FILES = 2000
MIN_COVERAGE = 0.5
_SHA = re.compile(r"^[0-9a-f]{7,40}$")


@dataclass(frozen=True)
class PathSubject:
    asked: str  # the path as it resolved (a file or a folder)
    kind: str  # "file" | "folder"
    paths: tuple[str, ...]  # the files, and every name they had
    renames: tuple[dict[str, Any], ...] = ()
    # the stretches of history of the files that live at those paths (on the day asked
    # about): not those of a file that left a path before another came to it
    spans: tuple[Span, ...] = ()

    def span_params(self) -> list[dict[str, object]]:
        return [s.as_param() for s in self.spans]

    def meant(self, path: str, ms: int | None) -> bool:
        """Whether a decision that named `path` at `ms` meant one of these files."""
        return any(s.path == path and s.holds(ms) for s in self.spans)

    def as_subject(self) -> dict[str, Any]:
        return {"id": self.asked, "type": "File" if self.kind == "file" else "Folder",
                "name": self.asked}  # fmt: skip


def clean(text: str) -> str:
    return text.strip().strip("`'\"“”‘’").strip().removeprefix("./").rstrip("?.,;:")


def looks_like_path(text: str) -> bool:
    """One word with a slash or a file extension: `src/exporter.py`, `README.md`."""
    word = clean(text)
    return (
        bool(word)
        and not any(c.isspace() for c in word)
        and ("/" in word or re.search(r"\.\w{1,10}$", word) is not None)
    )


def resolve_path(store: Store, text: str, until_ms: int | None = None) -> PathSubject | None:
    """The file or folder `text` names, with its history as of `until_ms` (None: now)."""
    path = clean(text)
    if not path:
        return None
    if repo_read.file_exists(store, path):
        kind, files = "file", [path]
    else:
        under = repo_read.files_under(store, path, MAX_FOLDER_FILES)
        if under:
            kind, files = "folder", under
        else:
            named = repo_read.files_named(store, path, 2)  # a unique name: `exporter.py`
            if len(named) != 1:
                return None
            kind, files, path = "file", named, named[0]
    paths, renames = with_old_names(store, files)
    spans = spans_of(store, files, until_ms)
    return PathSubject(path, kind, tuple(paths), tuple(renames), tuple(spans))


def spans_of(store: Store, files: list[str], until_ms: int | None) -> list[Span]:
    """The stretches of history of the files at `files` on `until_ms` (None: now), through
    their renames (ask/repo/lineage.py): one query per step along the renames."""
    events: dict[str, list[Event]] = {}
    frontier = list(dict.fromkeys(files))
    for _ in range(MAX_HOPS):
        if not frontier or len(events) > MAX_FOLDER_FILES * 2:
            break
        for p in frontier:
            events.setdefault(p, [])
        for r in repo_read.path_events(store, frontier):
            if r["ms"] is not None:
                events[r["path"]].append(
                    Event(r["path"], r["kind"], r["other"], r["commit"], r["ms"])
                )
        frontier = sorted(
            {e.other for p in frontier for e in events[p] if e.other and e.other not in events}
        )
    found = (s for f in dict.fromkeys(files) for s in lineage(f, until_ms, events))
    return list(dict.fromkeys(found))


def with_old_names(store: Store, files: list[str]) -> tuple[list[str], list[dict[str, Any]]]:
    """The files plus every path connected to them by renames (either way)."""
    known = list(dict.fromkeys(files))
    edges: dict[tuple[str, str], dict[str, Any]] = {}
    frontier = list(known)
    for _ in range(10):
        if not frontier or len(known) > MAX_FOLDER_FILES * 2:
            break
        rows = repo_read.renames(store, frontier)
        frontier = []
        for r in rows:
            edges[(r["old"], r["new"])] = r
            for p in (r["old"], r["new"]):
                if p not in known:
                    known.append(p)
                    frontier.append(p)
    return known, sorted(edges.values(), key=lambda r: (r["old"], r["new"]))


def resolve_decision(store: Store, text: str) -> dict[str, Any] | None:
    """A decision named by its id (`docs/adr/0003-x.md`, `DECISIONS.md#Heading`)."""
    wanted = clean(text)
    row = repo_read.decision(store, wanted)
    if row:
        return row
    lowered = wanted.lower()
    for d in repo_read.decisions(store):
        if d["id"].lower() == lowered:
            return d
    return None


def resolve_commit(store: Store, text: str) -> str | None:
    sha = clean(text).lower()
    if not _SHA.match(sha):
        return None
    if len(sha) == 40 and repo_read.commit(store, sha):
        return sha
    found = repo_read.commits_with_prefix(store, sha, 2)
    return found[0] if len(found) == 1 else None


@dataclass(frozen=True)
class Found:
    row: dict[str, Any]
    match: Match
    line: int  # the 1-based line in the file that matched best
    covers: float = 1.0  # share of the topic's words besides its names that the text holds


def find_decisions(
    store: Store, topic: str, limit: int | None = 5, rows: list[dict[str, Any]] | None = None
) -> list[Found]:
    """Decisions whose text covers the topic: names the identifiers it mentions, or holds at
    least half of its words, and holds every name it gives ("SQLite": a decision about
    Postgres for the exporter does not answer "why SQLite for the exporter") and, when the
    topic has other words, one of those ("Use FalkorDB for the board" does not answer "why
    FalkorDB for the exporter": see `named_elsewhere`). Decisions naming an identifier come
    first, ranked among themselves by how much of the rest of the topic they hold; when one
    holds at least half of the topic's other words, those holding less are left out (one
    about FalkorDB in tests that says "socket" does not answer why the brain starts its own
    FalkorDB on a unix socket). Live decisions before superseded ones at equal strength. A
    path (`src/nothing.py`) must be named whole: its words (`src`, `py`) say nothing.
    `rows`: the decisions to look through (those of a past day), else the graph's; `limit`:
    how many of the best to return (None: all)."""
    path = looks_like_path(topic)
    query_terms = terms(topic)
    idents = [clean(topic)] if path else identifiers(topic)
    rows = repo_read.decisions(store) if rows is None else rows
    known = repo_names(topic, rows)
    named = [] if path else names(topic, known)
    subject = [] if path else subject_terms(topic, known)
    found: list[Found] = []
    for row in rows:
        text, start = row.get("text") or "", int(row.get("line_start") or 1)
        if lacking(named, row.get("title") or "", text):
            continue
        if elsewhere(subject, row.get("title") or "", text):
            continue
        if path:
            at = mentions_identifier(text, idents[0])
            if at >= 0:
                found.append(Found(row, Match(10.0, 1.0, at), start + at))
            continue
        m = score(query_terms, row.get("title") or "", text)
        covers = score(subject, row.get("title") or "", text).coverage if subject else 1.0
        for name in idents:
            at = mentions_identifier(text, name)
            if at >= 0:
                found.append(Found(row, Match(10.0 + m.score, m.coverage, at), start + at, covers))
                break
        else:
            if m.coverage >= MIN_COVERAGE and (m.score >= 2 or len(query_terms) == 1):
                found.append(Found(row, m, start + m.line, covers))
    if any(f.covers >= MIN_COVERAGE for f in found):
        found = [f for f in found if f.covers >= MIN_COVERAGE]
    found.sort(
        key=lambda f: (
            -f.match.score,
            -f.match.coverage,
            bool(f.row.get("superseded_by")),
            f.row["id"],
        )
    )
    return found[:limit]


def repo_names(topic: str, rows: list[dict[str, Any]]) -> frozenset[str]:
    """The words the topic writes in lower case that a decision of `rows` writes as a name
    ("falkordb" where one says FalkorDB, "sqlite" where one says SQLite), or that stand
    where a name does ("use sqlite", "write to kafka") and no decision writes at all.
    Without a dictionary, the decision log's own writing tells a product from a plain word."""
    wanted = set() if looks_like_path(topic) else lower_words(topic)
    if not wanted:
        return frozenset()
    texts = [f"{r.get('title') or ''}\n{r.get('text') or ''}" for r in rows]
    return frozenset(written_as_names(wanted, texts) | unwritten(bare_words(topic), texts))


def named_elsewhere(
    topic: str, rows: list[dict[str, Any]], known: frozenset[str] = frozenset()
) -> tuple[list[str], list[dict[str, Any]]]:
    """The names and code names the topic gives, and the decisions that hold them all but
    none of the topic's other words: they use those names for something else."""
    given = [] if looks_like_path(topic) else [*names(topic, known), *identifiers(topic)]
    given = list(dict.fromkeys(given))
    wanted = set(terms(" ".join(given)))
    subject = subject_terms(topic, known)
    if not wanted or not subject:
        return given, []
    return given, [
        r
        for r in rows
        if wanted <= term_set(r.get("title") or "") | term_set(r.get("text") or "")
        and elsewhere(subject, r.get("title") or "", r.get("text") or "")
    ]
