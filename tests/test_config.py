"""Settings from the environment: every value the code cannot use, or FalkorDB would not
take, is one ConfigError naming the setting, before anything starts."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from companybrain.config import Settings
from companybrain.errors import ConfigError

TOO_BIG = "99999999999999999999"


@pytest.mark.parametrize(
    ("env", "named"),
    [
        # LIMIT cap + 1 wrapped: NO_CLAIM, or at 2**32 a wrong owner
        ({"BRAIN_ROW_CAP": "9223372036854775807"}, "BRAIN_ROW_CAP"),
        ({"BRAIN_ROW_CAP": "4294967296", "BRAIN_RESULTSET_SIZE": "9" * 18}, "BRAIN_ROW_CAP"),
        # the server cuts the evidence off at RESULTSET_SIZE without saying so
        ({"BRAIN_ROW_CAP": "100", "BRAIN_RESULTSET_SIZE": "100"}, "BRAIN_ROW_CAP"),
        ({"BRAIN_MAX_RECORD_BYTES": "-5"}, "BRAIN_MAX_RECORD_BYTES"),  # rejected every record
        ({"BRAIN_MAX_RECORD_BYTES": "0"}, "BRAIN_MAX_RECORD_BYTES"),
        # FalkorDB failed to load (after a 30 s wait) or wrapped them to 0
        ({"BRAIN_QUERY_TIMEOUT_MS": TOO_BIG}, "BRAIN_QUERY_TIMEOUT_MS"),
        ({"BRAIN_QUERY_TIMEOUT_MAX_MS": TOO_BIG}, "BRAIN_QUERY_TIMEOUT_MAX_MS"),
        ({"BRAIN_QUERY_TIMEOUT_MAX_MS": "4294967296"}, "BRAIN_QUERY_TIMEOUT_MAX_MS"),
        ({"BRAIN_MAX_QUEUED_QUERIES": "4294967296"}, "BRAIN_MAX_QUEUED_QUERIES"),
        ({"BRAIN_RESULTSET_SIZE": TOO_BIG}, "BRAIN_RESULTSET_SIZE"),
        ({"BRAIN_QUERY_MEM_BYTES": TOO_BIG}, "BRAIN_QUERY_MEM_BYTES"),
        # every request refused by the endpoint, found only at the first batch
        ({"BRAIN_MODEL_MAX_TOKENS": TOO_BIG}, "BRAIN_MODEL_MAX_TOKENS"),
        ({"BRAIN_MODEL_MAX_TOKENS": "100"}, "BRAIN_MODEL_MAX_TOKENS"),
        ({"BRAIN_MODEL_TIMEOUT_S": "soon"}, "BRAIN_MODEL_TIMEOUT_S"),
        ({"BRAIN_MODEL_TIMEOUT_S": "0"}, "BRAIN_MODEL_TIMEOUT_S"),
        ({"BRAIN_MODEL_TIMEOUT_S": "nan"}, "BRAIN_MODEL_TIMEOUT_S"),
        ({"BRAIN_MODEL_TIMEOUT_S": "inf"}, "BRAIN_MODEL_TIMEOUT_S"),
        # read as off: every write fsynced once a second, not as asked
        ({"BRAIN_DURABLE": "ture"}, "BRAIN_DURABLE"),
        ({"BRAIN_DURABLE": "always"}, "BRAIN_DURABLE"),
        ({"BRAIN_TRACE": "2"}, "BRAIN_TRACE"),
    ],
)
def test_numbers_out_of_range_name_the_setting(env: dict[str, str], named: str) -> None:
    with pytest.raises(ConfigError, match=f"^{named} "):
        Settings.from_env(env)


@pytest.mark.parametrize(
    "url",
    [
        "garbage",
        " ",
        "http://127.0.0.1:6379",
        "redis://host:notaport",
        "redis://127.0.0.1:99999",
        "redis://:secret@127.0.0.1:99999",
        "rediss://user:secret@[::1:6379",
        "redis://127.0.0.1:0",
        "unix://",
    ],
)
def test_a_url_the_client_cannot_read_names_falkordb_url(url: str) -> None:
    with pytest.raises(ConfigError, match=r"^FALKORDB_URL ") as info:
        Settings.from_env({"FALKORDB_URL": url})
    assert "secret" not in str(info.value)


def test_urls_the_client_reads_are_kept() -> None:
    for url in ("redis://127.0.0.1:6379", "falkor://u:p@db:6379/0", "unix:///run/f.sock"):
        assert Settings.from_env({"FALKORDB_URL": url}).falkordb_url == url


def test_a_data_folder_too_long_for_the_socket_names_brain_home(tmp_path: Path) -> None:
    """The server could not listen there: it hung 30 s, then 'did not come up'."""
    base = tmp_path.resolve()
    long_home = base / ("d" * (107 - len(f"{base}/") - len("/falkordb.sock")))
    assert Settings.from_env({"BRAIN_HOME": str(long_home)}).home == long_home  # 107 bytes
    with pytest.raises(ConfigError, match=r"^BRAIN_HOME .* 108 bytes"):
        Settings.from_env({"BRAIN_HOME": f"{long_home}d"})
    external = {"BRAIN_HOME": f"{long_home}d", "FALKORDB_URL": "redis://127.0.0.1:6379"}
    assert Settings.from_env(external).falkordb_url  # no socket of ours there


def test_a_data_folder_under_the_home_folder_is_found_from_anywhere(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """BRAIN_HOME="~/.brain" as an MCP client's JSON config passes it (no shell expands it)
    started a new empty database in a folder named `~` inside the current one."""
    monkeypatch.setenv("HOME", str(tmp_path))
    assert Settings.from_env({"BRAIN_HOME": "~/.brain"}).home == tmp_path / ".brain"
    assert Settings.from_env({"BRAIN_HOME": "rel/.brain"}).home == Path("rel/.brain")


def test_the_model_timeout_is_a_setting() -> None:
    """It was fixed at 60 s: a hung endpoint held a command four minutes, whatever one set."""
    assert Settings.from_env({}).model_timeout == 60.0
    assert Settings.from_env({"BRAIN_MODEL_TIMEOUT_S": "2.5"}).model_timeout == 2.5


@pytest.mark.parametrize(
    "name",
    [
        "companybrain:lock:ingest:brain",  # another graph's lock key: its status failed
        "a b",
        "x'y",
        '"}) MATCH (n) DETACH DELETE n //',
        "-leading",
        "\udcff",  # undecodable bytes on a command line: was "unexpected UnicodeEncodeError"
        "g" * 201,
        "sales_board",  # the board of graph `sales`: `board fill` of `sales` wrote into it
    ],
)
def test_a_graph_name_that_is_not_a_plain_name_is_refused(name: str) -> None:
    with pytest.raises(
        ConfigError, match=r"^BRAIN_GRAPH / --graph .*(a graph name is|the agent board)"
    ):
        Settings.from_env({"BRAIN_GRAPH": name})


def test_graph_flag_is_checked_and_never_falls_back_to_the_default(
    run_cli: Any, settings: Settings
) -> None:
    """`brain --graph "" reset --yes` (a script's variable left empty) deleted the default
    graph; a graph named like another graph's lock key broke that graph's `status` with
    "unexpected ResponseError ... WRONGTYPE"."""
    from companybrain.graph.connection import Store

    store = Store(settings)
    store.ensure_schema()  # makes the graph (`status`, which only reads, does not)
    assert store.graph_exists()
    for name in ("", f"companybrain:lock:ingest:{settings.graph}", "a b", "x_board"):
        result = run_cli("--graph", name, "reset", "--yes")
        assert result.exit_code != 0
        assert isinstance(result.exception, ConfigError)
        assert "--graph" in str(result.exception)
        assert store.graph_exists()
    assert (
        set(store.list_graphs()) & {"", f"companybrain:lock:ingest:{settings.graph}", "a b"}
        == set()
    )
    assert run_cli("status").exit_code == 0


def test_on_and_off_settings_read_the_usual_words() -> None:
    for word, on in (("1", True), ("Yes", True), (" on ", True), ("0", False), ("off", False)):
        assert Settings.from_env({"BRAIN_DURABLE": word, "BRAIN_TRACE": word}).durable is on
    assert Settings.from_env({"BRAIN_DURABLE": ""}).durable is False
