"""The pages' interactive lookups use indexes: every query a page runs to show one record,
one node's neighbourhood, one board item or the owners is recorded and run through
GRAPH.EXPLAIN; only the listings (the catalog of names, a repository's commits, the board's
items) may scan a label."""

from __future__ import annotations

from collections.abc import Callable

from companybrain.board.options import board_graph
from companybrain.graph.connection import Store
from companybrain.graph.queries import ask_q, board_q, repo_read, web_q
from companybrain.policy.access import Viewer
from companybrain.surfaces.web import board_view, company, graph_view
from companybrain.surfaces.web.context import Asker, now_utc
from tests.graph.test_no_label_scan import LISTINGS, recording, scans
from tests.surfaces.web.conftest import DECISION, Site

WEB_LISTINGS: list[Callable[[Store], object]] = [
    lambda s: web_q.commits(s, "repo", 10),
    web_q.board_statuses,
    board_q.items,
    board_q.handoffs,
]


def _allowed(store: Store, board: Store) -> set[str]:
    with recording(store) as seen:
        for listing in LISTINGS:
            listing(store)
        for listing in WEB_LISTINGS[:1]:
            listing(store)
    with recording(board) as seen_board:
        for listing in WEB_LISTINGS[1:]:
            listing(board)
    return set(seen) | set(seen_board)


def test_the_pages_look_things_up_through_indexes(site: Site) -> None:
    store = Store(site.settings)
    board = store.for_graph(board_graph(site.settings.graph))
    asker = Asker("ana", Viewer.member("ana", ["pay"]))
    try:
        allowed = _allowed(store, board)
        with recording(store) as recorded, recording(board) as on_board:
            company.record_view(store, "CC-1", asker)
            company.owners(store, store.settings, asker, now_utc())
            for node in ("billing-gateway", "orion", "CC-1", "ana", DECISION, "src/export.py"):
                graph_view.neighbourhood(store, node, None, asker.viewer)
            board_view.board_item(store, board, f"entry:{DECISION}", asker.viewer)
            board_view.board_view(store, board, asker.viewer)
            ask_q.owner_evidence(store, "search-index", 50)
            repo_read.repositories(store)
        assert any("ATTESTS" in c for c in recorded)
        assert scans(store, recorded, allowed) == []
        assert scans(board, on_board, allowed) == []
    finally:
        board.close()
        store.close()
