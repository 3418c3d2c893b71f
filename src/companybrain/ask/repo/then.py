"""The decision log as it stood on a day a question names ("Why do we batch as of
2025-03-01?"): read from git at the tip of the branch at the end of that day, as `review`
reads it at a commit, so that a decision recorded, edited, superseded or removed later is
not held against that day. Today's graph answers a day on or after the last commit read."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING

from companybrain.ask.repo.answers import Row
from companybrain.ask.repo.review import EntryIds, repository_path
from companybrain.ask.repo.subjects import clean, resolve_decision
from companybrain.ask.repo.told import before_history, branch_at
from companybrain.errors import InputError
from companybrain.graph.queries import repo_read
from companybrain.policy.statuses import NEVER_IN_FORCE
from companybrain.policy.text import quote_in
from companybrain.policy.time import QuestionTime, format_instant
from companybrain.repo import trees
from companybrain.repo.decisions import DecisionEntry
from companybrain.repo.gitcmd import GitError
from companybrain.repo.links import supersessions
from companybrain.repo.rationale import Tree, named_paths
from companybrain.repo.review import decisions_at

if TYPE_CHECKING:
    from companybrain.graph.connection import Store


@dataclass
class Then:
    """The decisions of one day, with what superseded what as their texts said then."""

    as_of: datetime
    words: str  # "on 2025-03-01 (the branch at 0123456789ab)"
    tip: str
    entries: dict[str, DecisionEntry]
    edges: list[Row]  # newer, older, quote, recorded_in, line: as known then
    tree: Tree  # the files of the tip's tree
    ids: EntryIds  # the ids the graph keeps each entry under (its file renamed since)

    @property
    def as_of_ms(self) -> int:
        return int(self.as_of.timestamp() * 1000)

    def newer(self, older: str) -> list[str]:
        return sorted({e["newer"] for e in self.edges if e["older"] == older})

    def row(self, decision_id: str, graph: dict[str, Row] | None = None) -> Row:
        """A decision as the tools format it, from its text that day."""
        e = self.entries[decision_id]
        known = self.ids.known(decision_id, graph or {})
        return {
            "id": e.id, "title": e.title, "status": e.status, "date": e.date, "path": e.path,
            "text": e.text, "line_start": e.line_start, "present": True,
            "commit": known.get("commit"), "recorded_at": known.get("recorded_at"),
            "recorded_ms": known.get("recorded_ms"), "superseded_by": self.newer(e.id),
        }  # fmt: skip

    def rows(self, store: Store) -> list[Row]:
        graph = {r["id"]: r for r in repo_read.decisions(store)}
        return [self.row(i, graph) for i in sorted(self.entries)]

    def find(self, store: Store, text: str) -> tuple[Row | None, str | None]:
        """A decision named by its id, now or that day: the graph's row (or a stand-in) and
        its id that day (None: it was not in the log then)."""
        row = resolve_decision(store, text)
        if row is not None:
            return row, self.own_id(row["id"])
        wanted = clean(text).lower()
        own = next((i for i in self.entries if i.lower() == wanted), None)
        return ({"id": own, "title": self.entries[own].title} if own else None), own

    def own_id(self, graph_id: str) -> str | None:
        """The id of that day of an entry the graph keeps under `graph_id`."""
        found = self.ids.back.get(graph_id)
        return found if found in self.entries else None


def stood(store: Store, when: QuestionTime, tz: str = "UTC") -> Then | str | None:
    """The decision log on the day `when` names. None when no day is named, or the branch
    then is the last commit read (the graph is that day's); a reason when it cannot be
    read (nothing had landed, or git no longer has the repository or that commit)."""
    if when.phrase is None:
        return None
    day = format_instant(when.as_of, tz)
    landed = branch_at(store, when.as_of_ms, day)
    if not isinstance(landed, dict):
        return landed or before_history(store, day)
    if landed["commit"] in {r["head"] for r in repo_read.repositories(store)}:
        return None
    tip = landed["commit"]
    words = f"on {when.phrase} (the branch at {tip[:12]})"
    try:
        repo = repository_path(store)
        entries = decisions_at(repo, tip)
        tree = Tree(p for _, p in trees.entries(repo, tip))
    except (InputError, GitError) as exc:
        return f"the decision log as it stood {words} is read from git, and {exc}"
    by_id = {e.id: e for e in entries}
    ids = EntryIds(store, by_id, repo, tip)
    found, _ = supersessions(entries)
    edges: list[Row] = [
        {"newer": s.newer, "older": s.older, "quote": s.quote, "recorded_in": s.recorded_in,
         "line": s.line}
        for s in found
    ]  # fmt: skip
    known = {(e["newer"], e["older"]) for e in edges}
    for e in repo_read.supersessions(store):  # confirmed by the board, if the text held it
        newer = by_id.get(ids.back.get(e["newer"], ""))
        older = ids.back.get(e["older"], "")
        if (
            e["via"] == "finding"
            and newer is not None
            and (newer.status or "") not in NEVER_IN_FORCE  # then, as the text said
            and older in by_id
            and (newer.id, older) not in known
            and quote_in(e.get("quote") or "", newer.text)
        ):
            edges.append({**e, "newer": newer.id, "older": older, "recorded_in": newer.id,
                          "line": None})  # fmt: skip
    return Then(when.as_of, words, tip, by_id, edges, tree, ids)


def log_for_decision(
    store: Store, subject: str, when: QuestionTime | None, tz: str = "UTC"
) -> Then | None:
    """The decision log of the day `when` names, when `subject` names a decision; None for
    a file, without a day, when the graph is that day's, or when git cannot show it."""
    if when is None or when.phrase is None or resolve_decision(store, subject) is None:
        return None
    then = stood(store, when, tz)
    return then if isinstance(then, Then) else None


def resting_on(store: Store, then: Then, paths: list[str]) -> list[Row]:
    """Rows as `repo_read.decisions_resting_on` gives them, from the decision texts of that
    day: the paths they named then, and the commit and board links of those decisions."""
    graph = {r["id"]: r for r in repo_read.decisions(store)}
    wanted = set(paths)
    out: list[Row] = []
    for e in then.entries.values():
        for n in named_paths(e.text, e.line_start, then.tree, {e.path}, e.path):
            if n.path in wanted:
                row = then.row(e.id, graph)
                out.append({**row, "file": n.path, "via": "text", "rationale_line": n.line,
                            "rationale_quote": n.quote, "then_text": True})  # fmt: skip
    linked = repo_read.decisions_resting_on(store, paths)
    found = {(r["id"], r["file"]) for r in out}
    for r in linked + repo_read.file_finding_decisions(store, paths):
        own = then.own_id(r["id"])
        if own is None:
            continue
        held = then.row(own, graph)
        line, quote = None, r.get("rationale_quote")
        if r["via"] == "text":
            # read from the text of that day, above; a path it named that was renamed by
            # then still counts when that day's text names it (the link is to the file
            # of that name when the decision was recorded)
            e = then.entries[own]
            named = named_paths(e.text, e.line_start, Tree([r["file"]]), {e.path}, e.path)
            if (own, r["file"]) in found or not named:
                continue
            line, quote = named[0].line, named[0].quote
        found.add((own, r["file"]))
        out.append({**held, "file": r["file"], "via": r["via"], "rationale_line": line,
                    "rationale_quote": quote})  # fmt: skip
    return out
