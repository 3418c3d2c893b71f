"""A mistyped graph name: the commands that only read never create the graph, and say in
one error which graph is missing and which exist; the commands that write still create it."""

from __future__ import annotations

import subprocess
import sys
import uuid
from collections.abc import Iterator
from typing import Any

import pytest

from companybrain.config import Settings
from companybrain.errors import InputError
from companybrain.graph.connection import Store
from tests.conftest import REPO_ROOT

READERS = [
    ("ask", "Who owns the billing gateway?"),
    ("ask", "--agent", "Who owns the billing gateway?"),
    ("why", "src/store.py"),
    ("what-breaks", "src/store.py"),
    ("disproven",),
    ("who-knows", "src"),
    ("trace", "ADR-1"),
    ("origin", "src/store.py"),
    ("told", "--at", "HEAD"),
    ("connect", "a", "b"),
    ("review", "HEAD"),
    ("mcp",),
    ("board", "status"),
    ("board", "retry"),
    ("board", "fill"),
]


@pytest.fixture
def other_graph(settings: Settings) -> Iterator[str]:
    """A graph that does exist beside the test's, which does not."""
    name = f"t_{uuid.uuid4().hex[:12]}"
    store = Store(settings, name)
    store.ensure_schema()
    yield name
    store.delete_graph()


@pytest.mark.parametrize("args", READERS, ids=lambda a: " ".join(a[:2]))
def test_a_reading_command_names_the_missing_graph_and_creates_none(
    run_cli: Any, settings: Settings, other_graph: str, args: tuple[str, ...]
) -> None:
    result = run_cli(*args)
    assert isinstance(result.exception, InputError), (args, result.output, result.exception)
    message = str(result.exception)
    assert message.startswith(f"no graph named {settings.graph!r}: the graphs are "), message
    assert other_graph in message
    assert not Store(settings).graph_exists(), f"{args[0]} created the graph"
    assert not Store(settings, f"{settings.graph}_board").graph_exists(), "or its board"


def test_flags_are_checked_before_the_graph(run_cli: Any, settings: Settings) -> None:
    for args, field in (
        (["--now", "yesterday"], "--now"),
        (["--as-of", "last week"], "--as-of"),
    ):
        bad = run_cli("ask", *args, "Who owns the billing gateway?")
        assert isinstance(bad.exception, InputError) and str(bad.exception).startswith(field)
    assert not Store(settings).graph_exists()


def test_status_says_the_graph_is_missing_without_creating_it(
    run_cli: Any, settings: Settings, other_graph: str
) -> None:
    result = run_cli("status")
    assert result.exit_code == 0, result.output
    assert f"no graph named {settings.graph!r}" in " ".join(result.output.split())
    assert not Store(settings).graph_exists()


def test_a_command_that_writes_still_creates_the_graph(run_cli: Any, settings: Settings) -> None:
    result = run_cli("add", "hello", "--as", "kofi")
    assert "no graph" not in str(result.exception)  # refused for want of the person only
    assert Store(settings).graph_exists()


def test_the_served_web_app_refuses_to_start_on_a_missing_graph(
    cli_env: dict[str, str], settings: Settings, other_graph: str
) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "companybrain", "serve", "--port", "1"],
        cwd=REPO_ROOT, env=cli_env, capture_output=True, text=True, timeout=30,
    )  # fmt: skip
    assert proc.returncode == 1
    [line] = proc.stderr.strip().splitlines()
    assert line.startswith(f"error: no graph named {settings.graph!r}: the graphs are ")
    assert other_graph in line
    assert not Store(settings).graph_exists()


@pytest.mark.parametrize("person", ["nobody", ""])
def test_serve_as_no_one_is_refused_before_serving(
    cli_env: dict[str, str], settings: Settings, person: str
) -> None:
    """`brain serve --as nobody` served a 400 "as: no person ..." on every page (`brain mcp
    --as nobody` refuses to start); `--as ""` served every record to everyone."""
    store = Store(settings)
    store.ensure_schema()
    try:
        proc = subprocess.run(
            [sys.executable, "-m", "companybrain", "serve", "--port", "1", "--as", person],
            cwd=REPO_ROOT, env=cli_env, capture_output=True, text=True, timeout=30,
        )  # fmt: skip
    finally:
        store.delete_graph()
    assert proc.returncode == 1
    assert proc.stderr.strip().splitlines() == [
        f"error: --as: no person with id {person!r} in this graph"
    ]


def test_ask_graph_empty_is_refused_not_the_default_graph(run_cli: Any) -> None:
    """`brain ask --graph "$G"` with G empty answered from the default graph, citing it;
    the global `--graph ""` is refused by name."""
    from companybrain.errors import ConfigError

    assert run_cli("ingest", str(REPO_ROOT / "demo" / "corpus")).exit_code == 0
    question = "Who owns the billing gateway?"
    for args in (["ask", "--graph", "", question], ["--graph", "", "ask", question]):
        result = run_cli(*args)
        assert isinstance(result.exception, ConfigError), (args, result.output)
        assert "--graph" in str(result.exception) and "Kofi" not in result.output
