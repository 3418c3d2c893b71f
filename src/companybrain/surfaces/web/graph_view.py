"""What the Graph page shows: a node and its neighbours, laid out for a server-drawn SVG.
A node the person may not see (a record outside their groups, or a claim, decision,
finding or rejection drawn from one) is left out as if it did not exist; opening it is a
404."""

from __future__ import annotations

import math
from typing import Any

from companybrain.graph.connection import Store
from companybrain.graph.ident import LABELS
from companybrain.graph.queries import web_q
from companybrain.graph.schema import KEYED_LABELS
from companybrain.policy.access import Viewer, can_see
from companybrain.surfaces.web.context import NotFound

NEIGHBOURS = 40
GATED = ("OwnershipClaim", "Decision", "Finding", "Rejection")
TEXT_PREVIEW = 600
# Not shown: bookkeeping, and `replaced`, the mark that some record replaces this one (one
# the person may not see, perhaps; those they may see are its SUPERSEDES neighbours).
HIDDEN_PROPERTIES = frozenset({"acl", "hash", "replaced"})


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
    rows, cut = _visible_neighbours(store, label, node_id, viewer)
    seen = [
        {
            "label": (r["labels"] or ["?"])[0],
            "id": str(r["id"]),
            "name": str(r["name"] or r["id"]),
            "rel": r["rel"],
            "outgoing": bool(r["outgoing"]),
        }
        for r in rows
    ]
    props = {
        key: _preview(value)
        for key, value in centre.items()
        if not key.startswith("_") and key not in HIDDEN_PROPERTIES
    }
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


def _visible_neighbours(
    store: Store, label: str, node_id: str, viewer: Viewer
) -> tuple[list[dict[str, Any]], bool]:
    """The first NEIGHBOURS neighbours the viewer may see, and whether there are more. The
    hidden ones are left out before counting: they neither take the place of visible ones
    nor say that there are more."""
    kept: list[dict[str, Any]] = []
    skip, size = 0, NEIGHBOURS + 1
    while True:
        rows = web_q.neighbours(store, label, node_id, size, skip)
        found = [
            ((r["labels"] or ["?"])[0], str(r["id"]), r.get("acl"))
            for r in rows
            if r.get("id") is not None
        ]
        hidden = _hidden(store, viewer, found)
        kept += [
            r
            for r in rows
            if r.get("id") is not None and ((r["labels"] or ["?"])[0], str(r["id"])) not in hidden
        ]
        if len(kept) > NEIGHBOURS or len(rows) < size:
            return kept[:NEIGHBOURS], len(kept) > NEIGHBOURS
        skip, size = skip + size, size * 2  # a node with many hidden ones: few round trips


def _preview(value: Any) -> Any:
    """A property as the JSON value it is (a list stays a list, a flag a boolean), its text
    cut at TEXT_PREVIEW characters."""
    if isinstance(value, str):
        return value if len(value) <= TEXT_PREVIEW else value[:TEXT_PREVIEW] + "…"
    if isinstance(value, list):
        return [_preview(v) for v in value]
    return value


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
                "short": short(n["name"]),
            }
        )
    return {"size": size, "cx": c, "cy": c, "nodes": placed}


def short(text: str, n: int = 22) -> str:
    return text if len(text) <= n else text[: n - 1] + "…"


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
