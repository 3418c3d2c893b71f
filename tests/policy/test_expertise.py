"""Scoring experts from path rows, the tie-break order and the bus factor."""

from __future__ import annotations

from companybrain.policy.expertise import (
    PathRow,
    bus_factor,
    has_ties,
    rank_experts,
    score_experts,
    worked_with_pairs,
)


def rows(*items: tuple[str, str, int, str]) -> list[PathRow]:
    return [PathRow(person, person.title(), path, w, rec) for person, path, w, rec in items]


def test_each_record_counts_once_per_path_and_weights_add_up() -> None:
    experts = score_experts(
        rows(
            ("tara", "resolved_ticket", 6, "T-1"),
            ("tara", "resolved_ticket", 6, "T-1"),  # the same path twice: once
            ("tara", "wrote_doc", 4, "RB-1"),
            ("tara", "chat", 1, "m-1"),
            ("dev", "commented_ticket", 2, "c-1"),
        )
    )
    by_id = {e.id: e for e in experts}
    assert by_id["tara"].score == 11 and by_id["tara"].paths == {
        "resolved_ticket": 1, "wrote_doc": 1, "chat": 1
    }  # fmt: skip
    assert by_id["dev"].score == 2


def test_ties_are_broken_by_rank_then_id() -> None:
    experts = score_experts(
        rows(("ana", "resolved_ticket", 6, "T-1"), ("bo", "resolved_ticket", 6, "T-2"))
    )
    assert has_ties(experts)
    assert [e.id for e in rank_experts(experts, {"bo": 0.4, "ana": 0.1})] == ["bo", "ana"]
    assert [e.id for e in rank_experts(experts, {})] == ["ana", "bo"]


def test_bus_factor_is_the_fewest_people_holding_more_than_half() -> None:
    alone = score_experts(rows(("tara", "resolved_ticket", 6, "T-1")))
    assert bus_factor(alone) == 1
    most = score_experts(rows(("tara", "resolved_ticket", 6, "T-1"), ("dev", "chat", 1, "m")))
    assert bus_factor(most) == 1
    spread = score_experts(
        rows(("a", "wrote_doc", 4, "d1"), ("b", "wrote_doc", 4, "d2"), ("c", "wrote_doc", 4, "d3"))
    )
    assert bus_factor(spread) == 2
    assert bus_factor([]) == 0


def test_worked_with_pairs_both_ways_per_ticket() -> None:
    pairs = worked_with_pairs([("T-1", "a"), ("T-1", "b"), ("T-2", "b"), ("T-3", "c")])
    assert pairs == [("a", "b"), ("b", "a")]
