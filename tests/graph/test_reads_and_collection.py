"""Reads run with the cyclic garbage collector paused (graph/connection.py): one collection
at most, when it is switched back on, instead of one every few hundred objects of the
reply; it is back on afterwards whatever happened, and stays off for a caller that had
switched it off."""

from __future__ import annotations

import gc

import pytest

from companybrain.errors import StoreError
from companybrain.graph.connection import Store
from tests.support.collector import collections_while

# 20,000 rows of a list each: far more allocations than the collector's first threshold.
BIG_READ = "UNWIND range(1, 20000) AS i RETURN [i, toString(i)] AS pair"


def test_a_read_runs_at_most_one_collection_and_switches_it_back_on(
    store: Store, collector_on: None
) -> None:
    assert collections_while(lambda: store.read(BIG_READ)) <= 1
    assert gc.isenabled()
    # The same reply read with the collector on all along: many collections.
    assert collections_while(lambda: store.query(BIG_READ, read_only=True)) > 1


def test_a_write_does_not_pause_collection(store: Store, collector_on: None) -> None:
    write = "UNWIND range(1, 20000) AS i CREATE (:Probe {n: i}) RETURN [i, 'x'] AS pair"
    assert collections_while(lambda: store.query(write)) > 1
    assert gc.isenabled()


def test_a_failed_read_switches_it_back_on(store: Store, collector_on: None) -> None:
    with pytest.raises(StoreError):
        store.read("MATCH (n) RETURN n.x +")
    assert gc.isenabled()


def test_a_caller_that_switched_it_off_finds_it_off(store: Store, collector_on: None) -> None:
    gc.disable()
    store.read("RETURN 1 AS one")
    assert not gc.isenabled()
