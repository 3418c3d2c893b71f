"""What the Review page shows: a repository's commits, one commit's diff and the decisions
it touches (as `brain review`), and what a Sync changed."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from companybrain.ask.repo.review import repository_path, review
from companybrain.config import Settings
from companybrain.errors import InputError
from companybrain.graph.connection import Store
from companybrain.graph.queries import board_q, repo_read, web_q
from companybrain.policy.access import Viewer
from companybrain.repo import gitcmd
from companybrain.surfaces.web.board_view import visible_handoffs
from companybrain.surfaces.web.context import NotFound

COMMITS = 60
MAX_DIFF_CHARS = 200_000


def repositories(store: Store) -> list[dict[str, Any]]:
    return repo_read.repositories(store)


def commit_list(store: Store, repo: str) -> list[dict[str, Any]]:
    """The repository's latest commits; a name the graph does not know is 404, not an
    empty history (which would read as a repository with no commits)."""
    if repo not in {r["repo"] for r in repo_read.repositories(store)}:
        raise NotFound(unknown_repo(repo))
    return web_q.commits(store, repo, COMMITS)


def unknown_repo(repo: str) -> str:
    return f"repo: no repository named {repo!r} in this graph"


def _repo_path(store: Store, repo: str | None) -> Path:
    """The folder of the repository named `repo` (None: the graph's own); a name the graph
    does not know is 404 naming it, never another repository read in its place."""
    known = repo_read.repositories(store)
    if not known:
        raise NotFound("no repository is ingested into this graph")
    if repo is not None:
        found = next((k for k in known if k["repo"] == repo), None)
        if found is None:
            raise NotFound(unknown_repo(repo))
        if not Path(found["path"]).exists():
            raise NotFound(f"repo: {repo!r} is no longer at {found['path']}")
        return Path(found["path"])
    for k in known:
        if Path(k["path"]).exists():
            return Path(k["path"])
    return repository_path(store)


def branches(store: Store, repo: str | None, limit: int = 30) -> list[str]:
    """The repository's local branches: a change under review often lives on one."""
    try:
        path = _repo_path(store, repo)
        out = gitcmd.text(path, "for-each-ref", "--format=%(refname:short)", "refs/heads")
    except (NotFound, InputError):
        return []
    return out.split()[:limit]


def commit_review(store: Store, repo: str | None, sha: str) -> dict[str, Any]:
    """The diff of one commit and the decisions it touches, as `brain review` shows them."""
    path = _repo_path(store, repo)
    if not gitcmd.resolve(path, sha):
        raise NotFound(f"no commit {sha!r}")
    answer = review(store, sha, repo=path)
    diff = gitcmd.text(
        path,
        "show",
        "--format=%H%n%an <%ae>%n%cI%n%n%B",
        "--stat",
        "--patch",
        "--no-color",
        sha,
        "--",
    )
    cut = len(diff) > MAX_DIFF_CHARS
    return {
        "answer": answer.to_dict(),
        "diff": diff[:MAX_DIFF_CHARS],
        "diff_cut": cut,
        "path": str(path),
    }


def sync(
    settings: Settings,
    store: Store,
    repo: str | None,
    workers: int = 2,
    viewer: Viewer | None = None,
) -> dict[str, Any]:
    """The Sync button: read what is new in the repository (incremental), let the board read
    the new and changed entries, and say what changed: decisions, handoffs raised and
    settled (those `viewer` may see both ends of: the board reads company records too)."""
    from companybrain.board.fill import fill
    from companybrain.board.options import BoardOptions, board_graph
    from companybrain.board.run import run_board
    from companybrain.repo.ingest import ingest_repo

    path = _repo_path(store, repo)
    known = {r["repo"]: r for r in repo_read.repositories(store)}
    name = (
        repo
        if repo in known
        else next((k for k, v in known.items() if Path(v["path"]) == path), None)
    )
    graph_settings = settings.with_(graph=store.graph_name)
    board = store.for_graph(board_graph(store.graph_name))
    try:
        before_decisions = {d["id"]: d for d in repo_read.decisions(store)}
        before_handoffs = (
            {h["id"]: h["status"] for h in board_q.handoffs(board)} if board.graph_exists() else {}
        )
        report = ingest_repo(store, path, name=name)
        options = BoardOptions()
        filled = fill(store, board, options, repo=path)
        ran = run_board(graph_settings, options, workers, show_progress=False)
        after_decisions = {d["id"]: d for d in repo_read.decisions(store)}
        handoffs = board_q.handoffs(board)
    finally:
        board.close()
    new = [d for i, d in after_decisions.items() if i not in before_decisions]
    viewer = viewer or Viewer.everyone()
    restricted = viewer.restricted
    handoffs = visible_handoffs(store, handoffs, viewer)
    raised = [h for h in handoffs if h["id"] not in before_handoffs]
    settled = [
        h
        for h in handoffs
        if h["status"] != "open" and before_handoffs.get(h["id"], "open") == "open"
    ]
    return {
        "repo": report.repo,
        "mode": report.mode,
        "head": report.head,
        "commits_read": report.commits_read,
        "decisions_changed": report.decisions_changed,
        "new_decisions": [
            {"id": d["id"], "title": d["title"], "status": d["status"], "date": d["date"]}
            for d in new
        ],
        # the board's counts cover company records the person may not see: a person gets none
        "board": {
            "created": None if restricted else filled.created,
            "states": None if restricted else ran.states,
            "seconds": round(ran.seconds, 1),
        },
        "handoffs_raised": raised,
        "handoffs_settled": settled,
    }
