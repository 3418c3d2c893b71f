"""A first run into a graph without commits creates them (repo_write.write_commit_batch
with fresh=True); any other run merges. Both must build the same graph, and a first run
cut short must be repaired by the next run, to the graph an uninterrupted run builds."""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from companybrain.config import Settings
from companybrain.graph.connection import Store
from companybrain.graph.queries import digest_q, repo_write
from companybrain.repo import commit_sync, landed
from companybrain.repo.ingest import ingest_repo
from tests.repo import scenario

RUN_KEYS = {"seen", "run", "ingested_at"}  # which run wrote a node, and when: not data


def _without_run(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _without_run(v) for k, v in value.items() if k not in RUN_KEYS}
    if isinstance(value, list):
        return [_without_run(v) for v in value]
    if isinstance(value, str) and value.startswith("[["):  # a node inside an edge's line
        return json.dumps(_without_run(json.loads(value)), sort_keys=True)
    return value


def _graph(store: Store) -> tuple[list[str], list[str]]:
    nodes, edges = digest_q.graph_rows(store)
    same = [
        sorted(json.dumps(_without_run(json.loads(line)), sort_keys=True) for line in lines)
        for lines in (nodes, edges)
    ]
    return same[0], same[1]


@pytest.fixture
def stores(base_settings: Settings) -> Iterator[list[Store]]:
    made: list[Store] = []

    def make() -> Store:
        s = Store(base_settings, f"t_fresh_{uuid.uuid4().hex[:10]}")
        s.ensure_schema()
        made.append(s)
        return s

    yield [make(), make()]
    for s in made:
        s.delete_graph()
        s.close()


@pytest.fixture(scope="module")
def root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("fresh") / "demo"
    scenario.build(path)
    return path


def test_creating_and_merging_build_the_same_graph(
    stores: list[Store], root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fresh, merged = stores
    assert ingest_repo(fresh, root).mode == "full" and repo_write.has_commits(fresh)
    # the same history merged: small batches, a commit's touches split over several queries
    monkeypatch.setattr(commit_sync, "BATCH", 3)
    monkeypatch.setattr(commit_sync, "TOUCHES", 1)
    monkeypatch.setattr(commit_sync, "TEXT", 60)  # a long message ends its batch
    stray = "0" * 39 + "1"  # any commit at all in the graph: the run merges
    merged.query("CREATE (:Commit {id: $id})", {"id": stray})
    calls: list[bool] = []
    real = repo_write.write_commit_batch

    def spy(*args: Any, fresh: bool, **kwargs: Any) -> None:
        calls.append(fresh)
        real(*args, fresh=fresh, **kwargs)

    monkeypatch.setattr(repo_write, "write_commit_batch", spy)
    ingest_repo(merged, root)
    merged.query("MATCH (c:Commit {id: $id}) DELETE c", {"id": stray})
    assert len(calls) > 3 and not any(calls)
    assert _graph(merged) == _graph(fresh)


def test_a_first_run_cut_short_is_repaired(
    stores: list[Store], root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    whole, cut = stores
    ingest_repo(whole, root)
    monkeypatch.setattr(commit_sync, "BATCH", 3)
    real = repo_write.write_commit_batch
    written: list[bool] = []

    def crash_on_third(*args: Any, fresh: bool, **kwargs: Any) -> None:
        if len(written) == 2:
            raise RuntimeError("the process died here")
        written.append(fresh)
        real(*args, fresh=fresh, **kwargs)

    monkeypatch.setattr(repo_write, "write_commit_batch", crash_on_third)
    with pytest.raises(RuntimeError):
        ingest_repo(cut, root)
    assert written == [True, True] and repo_write.read_state(cut, root.name) is None
    monkeypatch.setattr(repo_write, "write_commit_batch", real)
    again = ingest_repo(cut, root)
    assert again.mode == "full"  # no state was written: read from the start, merging
    assert _graph(cut) == _graph(whole)


def test_a_landing_walk_too_long_to_keep_is_read_again(
    stores: list[Store], root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    kept, again = stores
    ingest_repo(kept, root)
    monkeypatch.setattr(landed, "AHEAD", 0)  # more than 0 rows: dropped, walked again
    walks: list[bool] = []
    real = landed._whole_history

    def counted(*args: Any, **kwargs: Any) -> Any:
        walks.append(kwargs.get("mainline", True))
        return real(*args, **kwargs)

    monkeypatch.setattr(landed, "_whole_history", counted)
    ingest_repo(again, root)
    assert walks == [False, False]  # ahead (given up), then after the commit pass
    assert _graph(again) == _graph(kept)
