"""What the Graph, Board and Review pages show, as plain data the templates and the JSON
API share. Every node a person may not see (a record outside their groups, or a claim,
decision or rejection drawn from one) is left out as if it did not exist."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

from companybrain.ask.repo.review import repository_path, review
from companybrain.config import Settings
from companybrain.errors import InputError
from companybrain.graph.connection import Store
from companybrain.graph.ident import LABELS
from companybrain.graph.queries import board_q, repo_read, web_q
from companybrain.graph.schema import KEYED_LABELS
from companybrain.policy.access import Viewer, can_see
from companybrain.repo import gitcmd
from companybrain.surfaces.web.context import NotFound

NEIGHBOURS = 40
COMMITS = 60
MAX_DIFF_CHARS = 200_000
GATED = ("OwnershipClaim", "Decision", "Rejection")
TEXT_PREVIEW = 600


# -- the graph ---------------------------------------------------------------------------


def find_labels(store: Store, node_id: str) -> list[str]:
    """The keyed labels that have a node with this id (one indexed lookup each)."""
    return [label for label in KEYED_LABELS if web_q.has_node(store, label, node_id)]


def _hidden(
    store: Store, viewer: Viewer, nodes: list[tuple[str, str, Any]]
) -> set[tuple[str, str]]:
    """(label, id) of the nodes the viewer may not see: records outside their groups and
    what was drawn from those records."""
    if not viewer.restricted:
        return set()
    hidden = {
        (label, nid) for label, nid, acl in nodes if label == "Source" and not can_see(acl, viewer)
    }
    for label in GATED:
        ids = sorted({nid for lab, nid, _ in nodes if lab == label})
        if ids:
            for row in web_q.gating_sources(store, label, ids):
                if not can_see(row["acl"], viewer):
                    hidden.add((label, row["id"]))
    return hidden


def neighbourhood(store: Store, node_id: str, label: str | None, viewer: Viewer) -> dict[str, Any]:
    labels = [label] if label else find_labels(store, node_id)
    if not labels or labels[0] not in LABELS:
        raise NotFound(f"no node {node_id!r}")
    label = labels[0]
    centre = web_q.node(store, label, node_id)
    if centre is None:
        raise NotFound(f"no node {node_id!r}")
    if _hidden(store, viewer, [(label, node_id, centre.get("acl"))]):
        raise NotFound(f"no node {node_id!r}")
    rows = web_q.neighbours(store, label, node_id, NEIGHBOURS)
    cut = len(rows) > NEIGHBOURS
    rows = rows[:NEIGHBOURS]
    found = [
        ((r["labels"] or ["?"])[0], str(r["id"]), r.get("acl"))
        for r in rows
        if r.get("id") is not None
    ]
    hidden = _hidden(store, viewer, found)
    seen: list[dict[str, Any]] = []
    for r in rows:
        lab = (r["labels"] or ["?"])[0]
        if r.get("id") is None or (lab, str(r["id"])) in hidden:
            continue
        seen.append(
            {
                "label": lab,
                "id": str(r["id"]),
                "name": str(r["name"] or r["id"]),
                "rel": r["rel"],
                "outgoing": bool(r["outgoing"]),
            }
        )
    props = {}
    for key, value in centre.items():
        if key.startswith("_") or key in {"acl", "hash"}:
            continue
        text = value if isinstance(value, str) else repr(value)
        props[key] = text if len(text) <= TEXT_PREVIEW else text[:TEXT_PREVIEW] + "…"
    return {
        "centre": {
            "label": label,
            "id": node_id,
            "name": str(
                centre.get("name") or centre.get("title") or centre.get("subject") or node_id
            ),
        },
        "properties": props,
        "neighbours": seen,
        "cut": cut,
        "drawing": _layout(seen),
    }


def _layout(nodes: list[dict[str, Any]]) -> dict[str, Any]:
    """Positions for a server-drawn SVG: the centre in the middle, neighbours on a circle."""
    size = 560
    c = size / 2
    radius = 210 if len(nodes) > 8 else 160
    placed = []
    for i, n in enumerate(nodes):
        angle = 2 * math.pi * i / max(len(nodes), 1) - math.pi / 2
        placed.append(
            {
                **n,
                "x": round(c + radius * math.cos(angle), 1),
                "y": round(c + radius * math.sin(angle), 1),
                "short": _short(n["name"]),
            }
        )
    return {"size": size, "cx": c, "cy": c, "nodes": placed}


def _short(text: str, n: int = 22) -> str:
    return text if len(text) <= n else text[: n - 1] + "…"


# -- the board ---------------------------------------------------------------------------

COLUMNS = 6
TILE_W, TILE_H, GAP = 170, 64, 18
TOP = 70  # room above the first row for the arcs between its tiles


def board_view(brain: Store, board: Store | None, viewer: Viewer) -> dict[str, Any]:
    """One tile per work item, laid out in a grid, with the handoffs drawn between them."""
    if board is None:
        return {"tiles": [], "arcs": [], "counts": {}, "width": 0, "height": 0, "handoffs": []}
    items = [i for i in board_q.items(board) if i["kind"] != "handoff"]
    records = sorted({i["entry"] for i in items if i["kind"] == "record"})
    acls = web_q.source_acls(brain, records) if records and viewer.restricted else {}
    items = [i for i in items if i["kind"] != "record" or can_see(acls.get(i["entry"]), viewer)]
    tiles = []
    at: dict[str, dict[str, Any]] = {}
    for n, item in enumerate(items):
        x = GAP + (n % COLUMNS) * (TILE_W + GAP)
        y = TOP + (n // COLUMNS) * (TILE_H + GAP)
        tile = {
            **item,
            "x": x,
            "y": y,
            "w": TILE_W,
            "h": TILE_H,
            "short": _short(_tile_name(str(item["entry"] or item["id"])), 21),
        }
        tiles.append(tile)
        if item["kind"] in {"entry", "record"}:
            at.setdefault(item["entry"], tile)
    handoffs = [h for h in board_q.handoffs(board) if h["from_entry"] in at and h["to_entry"] in at]
    arcs = []
    for h in handoffs:
        a, b = at[h["from_entry"]], at[h["to_entry"]]
        x1, y1 = a["x"] + TILE_W / 2, a["y"] + TILE_H / 2
        x2, y2 = b["x"] + TILE_W / 2, b["y"] + TILE_H / 2
        bend = 40 + abs(x2 - x1) / 6
        top = max(6.0, min(y1, y2) - bend)
        arcs.append(
            {
                **h,
                "path": f"M {x1:.0f} {y1:.0f} Q {(x1 + x2) / 2:.0f} {top:.0f} {x2:.0f} {y2:.0f}",
            }
        )
    rows = max(1, math.ceil(len(tiles) / COLUMNS))
    counts: dict[str, int] = {}
    for t in tiles:
        counts[t["status"]] = counts.get(t["status"], 0) + 1
    return {
        "tiles": tiles,
        "arcs": arcs,
        "handoffs": handoffs,
        "counts": counts,
        "width": GAP + COLUMNS * (TILE_W + GAP),
        "height": TOP + rows * (TILE_H + GAP),
    }


def _tile_name(entry: str) -> str:
    """A log section by its heading, a file or folder by its last name."""
    if "#" in entry:
        return entry.split("#", 1)[1]
    return entry.rstrip("/").rsplit("/", 1)[-1] or entry


def board_statuses(brain: Store, board: Store | None, viewer: Viewer) -> dict[str, Any]:
    """The small payload of the live refresh: status per visible tile, and the counts."""
    view = board_view(brain, board, viewer)
    return {
        "items": {t["id"]: t["status"] for t in view["tiles"]},
        "counts": view["counts"],
        "handoffs": {h["id"]: h["status"] for h in view["handoffs"]},
    }


def board_item(brain: Store, board: Store | None, item_id: str, viewer: Viewer) -> dict[str, Any]:
    """What one tile produced: its findings, kept and rejected with the reason."""
    row = web_q.board_item(board, item_id) if board is not None else None
    if row is None:
        raise NotFound(f"no board item {item_id!r}")
    item = {k: v for k, v in row["item"].items() if not k.startswith("_")}
    if item.get("kind") == "record" and not can_see(
        web_q.source_acls(brain, [item["entry"]]).get(item["entry"]), viewer
    ):
        raise NotFound(f"no board item {item_id!r}")
    findings = sorted(
        (dict(f) for f in row["findings"] or []),
        key=lambda f: (not f.get("kept"), f.get("kind") or "", f.get("id") or ""),
    )
    for f in findings:
        f.pop("_labels", None)
    handoffs = (
        [
            h
            for h in board_q.handoffs(board)
            if item.get("entry") in (h["from_entry"], h["to_entry"])
        ]
        if board is not None
        else []
    )
    return {
        "item": item,
        "findings": findings,
        "handoffs": handoffs,
        "children": board_q.children(board, item_id) if board is not None else [],
    }


# -- review ------------------------------------------------------------------------------


def repositories(store: Store) -> list[dict[str, Any]]:
    return repo_read.repositories(store)


def commit_list(store: Store, repo: str) -> list[dict[str, Any]]:
    return web_q.commits(store, repo, COMMITS)


def _repo_path(store: Store, repo: str | None) -> Path:
    known = repo_read.repositories(store)
    for k in known:
        if repo in (None, k["repo"]) and Path(k["path"]).exists():
            return Path(k["path"])
    if not known:
        raise NotFound("no repository is ingested into this graph")
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


def sync(settings: Settings, store: Store, repo: str | None, workers: int = 2) -> dict[str, Any]:
    """The Sync button: read what is new in the repository (incremental), let the board read
    the new and changed entries, and say what changed: decisions, handoffs raised and
    settled."""
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
        "board": {
            "created": filled.created,
            "states": ran.states,
            "seconds": round(ran.seconds, 1),
        },
        "handoffs_raised": raised,
        "handoffs_settled": settled,
    }


def starting_points(store: Store, viewer: Viewer, limit: int) -> list[dict[str, Any]]:
    """Somewhere to start on the Graph page: services, projects, teams, then decisions."""
    from companybrain.graph.queries import ask_q

    out = [
        {"label": "Service", "id": r["id"], "name": r["name"] or r["id"]}
        for r in ask_q.services(store)
    ]
    out += [
        {"label": "Project", "id": r["id"], "name": r["name"] or r["id"]}
        for r in ask_q.projects(store)
    ]
    out += [
        {"label": "Team", "id": r["id"], "name": r["name"] or r["id"]} for r in ask_q.teams(store)
    ]
    out += [
        {"label": "Decision", "id": r["id"], "name": r["title"] or r["id"]}
        for r in ask_q.decisions(store)
        if can_see(r.get("acl"), viewer)
    ]
    return out[:limit]
