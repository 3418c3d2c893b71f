"""`brain ingest-repo PATH`: one repository's history, decision records and agent
instructions into the graph. A second run reads only the new commits and the records that
changed; a rewritten history (force push) is detected and read again from the start, then
what the new history no longer holds is swept away."""

from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from companybrain.errors import InputError
from companybrain.graph.queries import repo_write
from companybrain.repo import gitcmd
from companybrain.repo.commit_sync import Progress, sync_commits
from companybrain.repo.gitcmd import GitError
from companybrain.repo.landed import brought_ahead, sync_landed
from companybrain.repo.records_sync import blame_ahead, sync_decisions, sync_instructions

if TYPE_CHECKING:
    from companybrain.graph.connection import Store


@dataclass
class IngestReport:
    repo: str
    path: str
    head: str
    mode: str  # full | incremental | unchanged | rewritten
    commits_read: int = 0
    commits_total: int = 0
    decisions: int = 0
    decisions_removed: int = 0
    decisions_changed: int = 0
    supersessions: int = 0
    instruction_versions: int = 0
    unresolved_references: list[str] = field(default_factory=list)
    # Decision entries holding bytes that are not UTF-8: left out, each with its file and line.
    not_utf8_decisions: list[str] = field(default_factory=list)
    # Decision records read otherwise than written (front matter that is not YAML, a status
    # that is no word), each with its file and line and what was read.
    decision_problems: list[str] = field(default_factory=list)
    # Agent instruction files read otherwise than written (front matter that is not YAML,
    # lines that are not UTF-8), each with its file and line.
    instruction_problems: list[str] = field(default_factory=list)
    # Paths no File id can hold (surrounding space, a control character, too long), each
    # with the first commit that names it: their changes are not in the graph.
    skipped_paths: list[dict[str, str]] = field(default_factory=list)
    # Commits dated a day or more after the run (a clock set wrong), with that date: a day
    # asked about before it does not see them, and dated answers may refuse.
    future_commits: list[dict[str, str]] = field(default_factory=list)
    swept: dict[str, int] = field(default_factory=dict)
    seconds: float = 0.0

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def repo_name(path: Path) -> str:
    return gitcmd.toplevel(path).name


def _one_repository(store: Store, repo: str, top: Path) -> None:
    """A graph holds one repository: files and decisions are known by their path, so a
    second repository's `src/main.py` or `DECISIONS.md#D-1` would be the first one's, and
    its answers would cite the other's decisions. Refused before anything is written."""
    other = next((r for r in repo_write.repositories(store) if r["repo"] != repo), None)
    if other is None:
        return
    raise InputError(
        f"{top}: graph {store.graph_name!r} already holds the repository {other['repo']!r} "
        f"(read from {other['path']}); one graph holds one repository, because files and "
        f"decisions are known by their path. Read {repo!r} into a graph of its own "
        f"(--graph NAME), or, if it is the same repository, name it --name {other['repo']}"
    )


def ingest_repo(
    store: Store,
    path: Path,
    *,
    name: str | None = None,
    rev: str = "HEAD",
    progress: Progress | None = None,
) -> IngestReport:
    started = time.perf_counter()
    top = gitcmd.toplevel(path)
    head = gitcmd.resolve(top, rev)
    if head is None:
        if gitcmd.resolve(top, "HEAD") is None:  # nothing to read, whatever was asked
            raise GitError(f"{top}: the repository has no commits yet")
        raise GitError(f"{top}: --rev {rev!r} is not a commit of this repository")
    repo = name or top.name
    store.ensure_schema()
    _one_repository(store, repo, top)
    state = repo_write.read_state(store, repo)
    old = state["head"] if state else None
    shallow = gitcmd.shallow_boundary(top)
    # the .mailmap git reads authors through ("" for none): a new one names them anew
    mailmap = gitcmd.text(top, "rev-parse", "-q", "--verify", f"{head}:.mailmap", check=False)
    mailmap = mailmap.strip()
    if state and old and list(state.get("shallow") or []) != shallow:
        # A shallow clone deepened (or made whole): its first commits seemed to add what
        # was there before them; every commit is read again, as after a rewrite.
        mode, revs, since = "rewritten", [head], None
    elif state and old and state.get("mailmap") not in (None, mailmap):
        # .mailmap changed: the commits read before name their authors as it did then (two
        # people where it now says one); every commit is read again, as after a rewrite
        mode, revs, since = "rewritten", [head], None
    elif old and old == head:
        mode, revs, since = "unchanged", [], old
    elif (
        old
        and gitcmd.resolve(top, old)
        and gitcmd.ok(top, "merge-base", "--is-ancestor", old, head)
    ):
        mode, revs, since = "incremental", [f"^{old}", head], old
    elif old:
        mode, revs, since = "rewritten", [head], None
    else:
        mode, revs, since = "full", [head], None
    run = f"{int(time.time() * 1000)}-{head[:12]}"
    report = IngestReport(repo=repo, path=str(top), head=head, mode=mode)
    deleted: dict[str, str] = {}
    edited: list[tuple[str, str]] = []
    # A first run into a graph without any commit (not one cut short: that left some)
    # creates its commits; any other run merges with what is there. A first run links every
    # decision and dates what merges brought in: git blames the decision files and walks
    # the merges on threads meanwhile.
    fresh = mode == "full" and not repo_write.has_commits(store)
    with ThreadPoolExecutor(max_workers=2, thread_name_prefix="ahead") as pool:
        ahead = blame_ahead(pool, top, head) if fresh else {}
        brought = brought_ahead(pool, top, head) if fresh and revs else None
        if revs:
            total = None  # counting walks the whole history again: only for a progress bar
            if progress:
                total = int(gitcmd.text(top, "rev-list", "--count", *revs, "--").strip() or 0)
            passed = sync_commits(store, top, repo, run, revs, total, progress, fresh=fresh)
            report.commits_read = passed.commits
            report.skipped_paths = [
                {"path": path, "commit": sha} for path, sha in passed.skipped_paths.items()
            ]
            report.future_commits = [
                {"commit": sha, "committed_at": at} for sha, at in passed.future.items()
            ]
            if progress:
                progress("landing", 0, None)
            sync_landed(store, top, head, since, created=fresh, ahead=brought)
            if progress:
                progress("instructions", 0, None)
            report.instruction_versions = sync_instructions(
                store, top, repo, run, passed.versions, rewrite_all=mode == "rewritten",
                problems=report.instruction_problems,
            )  # fmt: skip
            deleted = passed.deleted_decision_files
            edited = passed.edited_decision_files
        if progress:
            progress("decisions", 0, None)
        decisions = sync_decisions(
            store, top, repo, run, head, deleted, ahead, reblame=mode == "rewritten", edited=edited
        )
    report.decisions = decisions.present
    report.decisions_removed = decisions.removed
    report.decisions_changed = decisions.changed
    report.supersessions = decisions.supersessions
    report.unresolved_references = decisions.unresolved
    report.not_utf8_decisions = decisions.not_utf8
    report.decision_problems = decisions.problems
    if mode == "rewritten":
        report.swept = repo_write.sweep(store, repo, run)
    report.commits_total = repo_write.count_commits(store, repo)
    repo_write.write_state(
        store,
        repo,
        {
            "head": head,
            "path": str(top),
            "run": run,
            "commits": report.commits_total,
            "ingested_at": datetime.now(UTC).isoformat(timespec="seconds"),
            "shallow": shallow,
            "mailmap": mailmap,
        },
    )
    if report.commits_read or report.decisions_changed:
        store.compact_log()  # the next start loads a snapshot, not every write replayed
    report.seconds = round(time.perf_counter() - started, 3)
    return report
