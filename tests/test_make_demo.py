"""`make demo` is the first thing a newcomer runs, and no other test runs its commands: a rule
change once broke it (it reset a graph by a name a new check refuses) and only a fresh-clone
run caught it. This runs the Makefile's own demo commands, as `make -n` prints them, one by
one in a data folder of its own, and fails on the first that does not succeed.

`make` is asked for the commands rather than the test copying them, so a line added to the
Makefile is run here too; the only changes are which `brain` and Python run them (this
checkout's, without installing) and the web port (a free one)."""

from __future__ import annotations

import os
import shlex
import shutil
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import REPO_ROOT

BRAIN = f"{shlex.quote(sys.executable)} -m companybrain"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _demo_commands(story: Path, port: int) -> list[str]:
    """The demo target's commands, install left out (`-o install`: this checkout runs as is)."""
    printed = subprocess.run(
        ["make", "-s", "-n", "-o", "install", "demo",
         f"BRAIN={BRAIN}", f"PY={shlex.quote(sys.executable)}", f"STORY={story}"],
        cwd=REPO_ROOT, capture_output=True, text=True, check=True,
    ).stdout  # fmt: skip
    lines = [line for line in printed.splitlines() if line.strip()]
    return [
        line + f" --port {port}" if line.endswith("serve --background") else line for line in lines
    ]


@pytest.fixture
def demo_env(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, str]]:
    """A fresh machine's settings: nothing of the run's own, an empty data folder of its own
    (with its own embedded server, stopped at the end, whatever happened)."""
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("BRAIN_", "OPENAI_")) and k != "FALKORDB_URL"
    }
    env["BRAIN_HOME"] = str(tmp_path_factory.mktemp("demo"))
    yield env
    for stop in (["serve", "--stop"], ["db", "stop"]):
        subprocess.run(
            [sys.executable, "-m", "companybrain", *stop], env=env, capture_output=True, timeout=60
        )


@pytest.mark.skipif(shutil.which("make") is None, reason="make is not installed")
def test_every_command_of_make_demo_succeeds(demo_env, tmp_path) -> None:  # type: ignore[no-untyped-def]
    commands = _demo_commands(tmp_path / "review-story", _free_port())
    assert any("ingest demo/corpus" in c for c in commands), commands
    outputs = {}
    for command in commands:
        done = subprocess.run(
            command, shell=True, cwd=REPO_ROOT, env=demo_env, capture_output=True, text=True,
            timeout=600,
        )  # fmt: skip
        assert done.returncode == 0, f"{command}\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
        outputs[command] = done.stdout
    serving = next(out for c, out in outputs.items() if "serve --background" in c)
    assert serving.startswith("serving http://127.0.0.1:"), serving
    scored = next(out for c, out in outputs.items() if "eval questions" in c)
    assert "questions" in scored
