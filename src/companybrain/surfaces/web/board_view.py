"""What the Board page shows: one tile per work item in a grid, the handoffs drawn as
arcs between tiles, and what one item produced. Items that read a record the person may
not see are left out."""

from __future__ import annotations

import math
from typing import Any

from companybrain.graph.connection import Store
from companybrain.graph.queries import board_q, web_q
from companybrain.policy.access import Viewer, can_see
from companybrain.surfaces.web.context import NotFound
from companybrain.surfaces.web.graph_view import short

COLUMNS = 6
TILE_W, TILE_H, GAP = 170, 64, 18
TOP = 70  # room above the first row for the arcs between its tiles


def board_view(brain: Store, board: Store | None, viewer: Viewer) -> dict[str, Any]:
    """One tile per work item, laid out in a grid, with the handoffs drawn between them."""
    if board is None:
        return {"tiles": [], "arcs": [], "counts": {}, "width": 0, "height": 0, "handoffs": []}
    items = [i for i in board_q.items(board) if i["kind"] != "handoff"]
    # a record's item and its parts (a long record is read section by section) share its id
    entries = sorted({str(i["entry"]) for i in items if i["entry"] is not None})
    acls = web_q.source_acls(brain, entries) if entries and viewer.restricted else {}
    items = [i for i in items if can_see(acls.get(i["entry"]), viewer)]
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
            "short": short(_tile_name(str(item["entry"] or item["id"])), 21),
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
    entry = str(item.get("entry") or "")
    if viewer.restricted and not can_see(web_q.source_acls(brain, [entry]).get(entry), viewer):
        raise NotFound(f"no board item {item_id!r}")
    findings = sorted(
        (dict(f) for f in row["findings"] or []),
        key=lambda f: (not f.get("kept"), f.get("kind") or "", f.get("id") or ""),
    )
    for f in findings:
        f.pop("_labels", None)
    findings = _visible_targets(brain, findings, viewer)
    handoffs = (
        [h for h in board_q.handoffs(board) if entry in (h["from_entry"], h["to_entry"])]
        if board is not None
        else []
    )
    return {
        "item": item,
        "findings": findings,
        "handoffs": visible_handoffs(brain, handoffs, viewer),
        "children": board_q.children(board, item_id) if board is not None else [],
    }


def visible_handoffs(brain: Store, handoffs: list[dict[str, Any]], viewer: Viewer) -> list[Any]:
    """The handoffs whose both ends the viewer may see, as on the board: one to or from a
    record they may not see carries its id and its quote."""
    if not viewer.restricted or not handoffs:
        return handoffs
    ends = sorted({h[end] for h in handoffs for end in ("from_entry", "to_entry")})
    acls = web_q.source_acls(brain, ends)
    return [
        h
        for h in handoffs
        if all(can_see(acls.get(h[end]), viewer) for end in ("from_entry", "to_entry"))
    ]


def _visible_targets(brain: Store, findings: list[Any], viewer: Viewer) -> list[Any]:
    """The findings, but a relation to a record the viewer may not see: its value is that
    record's id, resolved from a title or number the entry wrote."""
    targets = sorted({str(f.get("value")) for f in findings if f.get("kind") == "relation"})
    if not viewer.restricted or not targets:
        return findings
    acls = web_q.source_acls(brain, targets)
    return [
        f
        for f in findings
        if f.get("kind") != "relation" or can_see(acls.get(str(f.get("value"))), viewer)
    ]
