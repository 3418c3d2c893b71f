"""Load: eight askers at once (four `brain ask --json` processes in a loop and four HTTP
clients of `brain serve`) against a running ingest, for a bounded time. Every answer must
be right for the data it saw (the owner before the ingest's changes or after them; the
generator decides both before anything is ingested, and changes each service at most
once, so nothing else is right at any moment) or a clear "busy" error; none wrong."""

from __future__ import annotations

import json
import random
import re
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from companybrain.graph.server import EmbeddedServer
from tests.security.faultkit import Corpus, env_for, generate, grow

pytestmark = pytest.mark.slow

BASE = 400
NEW = 1200
# A short queue, so that the server does refuse queries under this load: refused ones are
# tried again (graph/connection.py) and only then reach the asker as "busy".
MAX_QUEUED = 2
CLI_ASKERS = 4
HTTP_ASKERS = 4
MIN_WINDOW_S = 20.0  # the askers run at least this long, and until the ingest is done,
MAX_WINDOW_S = 45.0  # but never longer than this
ASK_NOW = "2027-12-31T00:00:00Z"
BUSY = re.compile(r"\bbusy\b|time limit", re.I)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class Tally:
    """What the askers saw, by kind of asker."""

    counts: Counter[str] = field(default_factory=Counter)
    wrong: list[str] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def add(self, who: str, verdict: str, detail: str = "") -> None:
        with self.lock:
            self.counts[f"{who}:{verdict}"] += 1
            self.counts[verdict] += 1
            if verdict in {"wrong", "failed"}:
                self.wrong.append(f"{who}: {detail}"[:400])


def judge(corpus: Corpus, sid: str, answer: dict[str, Any]) -> str:
    """before / after / unchanged for a right answer, wrong for anything else."""
    before, after = corpus.first_owner[sid], corpus.owner[sid]
    if answer.get("status") != "answered" or (answer.get("subject") or {}).get("id") != sid:
        return "wrong"
    owner = ((answer.get("result") or {}).get("owner") or {}).get("id")
    if before == after:
        return "unchanged" if owner == before else "wrong"
    return "before" if owner == before else "after" if owner == after else "wrong"


def _question(corpus: Corpus, sid: str) -> str:
    return f"Who owns the {corpus.services[sid]}?"


def _post(url: str, body: dict[str, Any], timeout: float = 60) -> tuple[int, dict[str, Any]]:
    request = urllib.request.Request(
        url, data=json.dumps(body).encode(), headers={"Content-Type": "application/json"}
    )
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read() or b"{}")


@pytest.fixture
def home(tmp_path: Path) -> Iterator[Path]:
    yield tmp_path / "home"
    EmbeddedServer(tmp_path / "home").stop()


def _serve(env: dict[str, str], port: int) -> subprocess.Popen[bytes]:
    proc = subprocess.Popen(
        [sys.executable, "-m", "companybrain", "serve", "--host", "127.0.0.1", "--port", str(port)],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/status", timeout=5):
                return proc
        except OSError:
            time.sleep(0.2)
    proc.kill()
    raise AssertionError("brain serve did not come up")


def test_eight_askers_against_a_running_ingest(home: Path, tmp_path: Path) -> None:
    base = generate(tmp_path / "base", BASE, seed=21)
    grown = grow(base, tmp_path / "grown", NEW)
    changed = [s for s in grown.services if grown.first_owner[s] != grown.owner[s]]
    assert len(changed) >= 6
    env = {**env_for(home, "load"), "BRAIN_MAX_QUEUED_QUERIES": str(MAX_QUEUED)}
    first = subprocess.run(
        [sys.executable, "-m", "companybrain", "ingest", str(base.path)],
        env=env, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert first.returncode == 0, first.stderr
    port = _free_port()
    url = f"http://127.0.0.1:{port}/api/ask"
    server = _serve(env, port)
    tally = Tally()
    during = Counter[str]()
    ingest: subprocess.Popen[str] | None = None
    try:
        ingest = subprocess.Popen(
            [sys.executable, "-m", "companybrain", "ingest", str(grown.path)],
            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
        )  # fmt: skip
        started = time.monotonic()

        def running() -> bool:
            elapsed = time.monotonic() - started
            return elapsed < MIN_WINDOW_S or (ingest.poll() is None and elapsed < MAX_WINDOW_S)

        def cli_asker(n: int) -> None:
            rng = random.Random(n)
            while running():
                sid = rng.choice(sorted(grown.services))
                result = subprocess.run(
                    [sys.executable, "-m", "companybrain", "ask", "--json", "--now", ASK_NOW,
                     _question(grown, sid)],
                    env=env, capture_output=True, text=True, timeout=120,
                )  # fmt: skip
                if result.returncode == 0:
                    verdict = judge(grown, sid, json.loads(result.stdout))
                    detail = result.stdout
                else:
                    error = result.stderr.strip()
                    one_line = len(error.splitlines()) == 1 and "Traceback" not in error
                    verdict = "busy" if one_line and BUSY.search(error) else "failed"
                    detail = error
                tally.add("cli", verdict, f"{sid}: {detail}")
                if ingest.poll() is None:
                    during[verdict] += 1

        def http_asker(n: int) -> None:
            rng = random.Random(100 + n)
            while running():
                sid = rng.choice(sorted(grown.services))
                status, body = _post(url, {"question": _question(grown, sid), "now": ASK_NOW})
                if status == 200:
                    verdict = judge(grown, sid, body)
                else:
                    message = str(body.get("error") or body.get("detail") or body)
                    verdict = "busy" if BUSY.search(message) else "failed"
                tally.add("http", verdict, f"{sid}: {status} {body}")
                if ingest.poll() is None:
                    during[verdict] += 1

        askers = [threading.Thread(target=cli_asker, args=(i,)) for i in range(CLI_ASKERS)]
        askers += [threading.Thread(target=http_asker, args=(i,)) for i in range(HTTP_ASKERS)]
        for thread in askers:
            thread.start()
        for thread in askers:
            thread.join()
        _, ingest_err = ingest.communicate(timeout=300)
        assert ingest.returncode == 0, ingest_err

        # once the ingest is done, every service answers with its new owner
        for sid in sorted(grown.services):
            status, body = _post(url, {"question": _question(grown, sid), "now": ASK_NOW})
            assert status == 200 and judge(grown, sid, body) in {"after", "unchanged"}, body
    finally:
        if ingest is not None and ingest.poll() is None:
            ingest.kill()
            ingest.wait(timeout=30)
        server.terminate()
        server.wait(timeout=30)

    counts = tally.counts
    print(f"load: {dict(sorted(counts.items()))}; while the ingest ran: {dict(during)}")
    assert tally.wrong == [], "\n".join(tally.wrong[:10])
    assert counts["cli:before"] + counts["cli:after"] + counts["cli:unchanged"] >= CLI_ASKERS
    assert counts["http:before"] + counts["http:after"] + counts["http:unchanged"] >= 50
    assert sum(during.values()) > 0, "no answer came while the ingest was running"
    assert counts["before"] > 0 and counts["after"] > 0, "the askers never saw the change"
