"""Search hits ranked from their own text: the order depends on nothing but the hits."""

from __future__ import annotations

from companybrain.policy.access import Viewer, can_see, query_scope
from companybrain.policy.search_rank import rank


def test_more_of_the_query_ranks_first_and_ties_go_by_id() -> None:
    hits = [
        ("b", "The outbox table grew; vacuum the outbox table nightly."),
        ("a", "Unrelated note about the table."),
        ("c", "Outbox table bloat: the outbox table holds 40 GB."),
    ]
    assert rank(hits, ["outbox", "table", "bloat"])[0] == "c"
    assert rank([("y", "same text"), ("x", "same text")], ["same"]) == ["x", "y"]
    assert rank([], ["anything"]) == []


def test_the_order_of_the_hits_given_does_not_matter() -> None:
    visible = [("r1", "rotation rotation keys"), ("r2", "key rotation schedule and keys")]
    words = ["rotation", "keys"]
    assert rank(visible, words) == rank(list(reversed(visible)), words) == ["r1", "r2"]


def test_query_scope_matches_can_see() -> None:
    assert query_scope(Viewer.everyone()) == {"everyone": True, "groups": []}
    member = Viewer.member("ana", ["sec", "pay"])
    assert query_scope(member) == {"everyone": False, "groups": ["pay", "sec"]}
    assert can_see(["sec"], member) and not can_see(["ops"], member) and not can_see([], member)
