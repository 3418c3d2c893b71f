"""FALKORDB_URL pointed at a separately started FalkorDB server gives the same results:
start one on a loopback port with a password and run the store and schema tests through it."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from companybrain.graph.server import binaries
from tests.conftest import REPO_ROOT

# Tests that must pass the same against an external server. The records and ask tests
# join this list as they land.
SAME_RESULTS = [
    "tests/graph/test_schema.py",
    "tests/surfaces/test_cli_basics.py",
    "tests/ingest/test_pipeline.py",
    "tests/ask/test_owner_of.py",
    "tests/ask/test_updates.py",
    "tests/ask/test_refusal_fixtures.py",
    "tests/ask/test_other_tools.py",
    "tests/ask/test_router_model.py",
    "tests/ask/test_cli_ask.py",
    "tests/ask/test_with_repository.py",
    "tests/evals/test_questions_eval.py",
]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.mark.skipif(bool(os.environ.get("FALKORDB_URL")), reason="already running external")
def test_the_suite_passes_against_an_external_server(tmp_path: Path) -> None:
    server, module = binaries()
    port = _free_port()
    proc = subprocess.Popen(
        [
            server,
            "--port",
            str(port),
            "--bind",
            "127.0.0.1",
            "--requirepass",
            "s3cret",
            "--dir",
            str(tmp_path),
            "--save",
            "",
            "--loadmodule",
            module,
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                time.sleep(0.05)
        env = {**os.environ, "FALKORDB_URL": f"redis://:s3cret@127.0.0.1:{port}"}
        tests = [t for t in SAME_RESULTS if (REPO_ROOT / t).exists()]
        result = subprocess.run(
            [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *tests],
            cwd=REPO_ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=900,
        )
        assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-2000:]
        assert " passed" in result.stdout
    finally:
        proc.terminate()
        proc.wait(timeout=20)
