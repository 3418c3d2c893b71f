"""A FALKORDB_URL option the client has no parameter for is one error naming the setting
and the option, before any connection (it was an "unexpected TypeError" at the first
command); options the client takes pass."""

from __future__ import annotations

from pathlib import Path

import pytest

from companybrain.config import Settings
from companybrain.errors import ConfigError
from companybrain.graph.connection import Store
from companybrain.graph.url_options import unknown_options


@pytest.mark.parametrize(
    "url",
    [
        "redis://127.0.0.1:6379/0?socket_timeout=5&health_check_interval=10",
        "rediss://u:p@db:6380?ssl_cert_reqs=none&max_connections=4",
        "unix:///run/f.sock?db=2&socket_timeout=1",
        "falkor://u:p@db:6379/0?client_name=brain",
    ],
)
def test_options_the_client_takes_pass(url: str) -> None:
    assert unknown_options(url) == []


def test_options_it_does_not_take_are_named() -> None:
    assert unknown_options("redis://db:6379?x=1&socket_timeout=2&timeout=5") == ["x", "timeout"]
    assert unknown_options("unix:///run/f.sock?ssl_certfile=a") == ["ssl_certfile"]
    with pytest.raises(ValueError):
        unknown_options("redis://db:6379?socket_timeout=soon")


@pytest.mark.parametrize(
    ("query", "says"),
    [("?x=1", "the client takes no option 'x'"), ("?socket_timeout=soon", "socket_timeout")],
)
def test_a_store_refuses_such_a_url_naming_the_setting(
    tmp_path: Path, query: str, says: str
) -> None:
    url = f"redis://:secret@127.0.0.1:1/{query}"
    with pytest.raises(ConfigError, match=r"^FALKORDB_URL ") as info:
        Store(Settings(home=tmp_path, falkordb_url=url)).read("RETURN 1 AS one")
    assert says in str(info.value) and "secret" not in str(info.value)
