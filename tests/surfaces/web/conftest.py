"""One site per test module: company records (an outranked directory and chat message, a
record only the `sec` group may see, a record that tries to run script) and a small git
repository with a decision log, ingested into one graph and read by the board; and the app
served by uvicorn on a free loopback port for the browser tests."""

from __future__ import annotations

import socket
import threading
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from companybrain.board.fill import fill
from companybrain.board.options import BoardOptions, board_graph
from companybrain.board.run import run_board
from companybrain.config import Settings
from companybrain.graph.connection import Store
from companybrain.ingest.pipeline import ingest
from companybrain.repo.ingest import ingest_repo
from tests.ingest.corpus_builder import md, write_corpus
from tests.repo.gitrepo import GitRepo

NOW = "2026-10-20T12:00:00Z"
CC_QUOTE = "Ownership of the billing gateway transfers from Ana Ruiz to Bo Lind."
XSS_TEXT = (
    "Billing gateway notes <script>alert('xss')</script> and "
    "[click me](javascript:alert('link')) <img src=x onerror=\"alert('img')\">"
)
DECISION = "DECISIONS.md#2025-04-01: Batch the exporter"

DECISIONS_V1 = """# Decisions

## 2025-03-01: Use embedded FalkorDB

Status: accepted

We run FalkorDB embedded from src/store.py, so that tests need no server.
"""

DECISIONS_V2 = (
    DECISIONS_V1
    + """
## 2025-04-01: Batch the exporter

Status: accepted

The exporter in src/export.py writes rows in batches of 500.
Tried streaming each row first: throughput fell to a third.
"""
)


@dataclass
class Site:
    settings: Settings
    repo: Path
    fix_sha: str  # a commit that touches the file the exporter decision rests on


def _corpus(root: Path) -> Path:
    return write_corpus(root, {
        "cc.md": md({"id": "CC-1", "kind": "change_control", "at": "2026-10-13T09:12:00Z",
                     "effective_at": "2026-10-14T11:00:00Z"}, CC_QUOTE),
        "dir.md": md({"id": "DIR-1", "kind": "service_directory", "at": "2026-09-01T09:00:00Z"},
                     "Ana Ruiz owns the billing gateway."),
        "msg.md": md({"id": "msg-1", "kind": "chat", "at": "2026-10-14T16:00:00Z",
                      "author": "cy"}, "Ana Ruiz still owns billing gateway, ping her"),
        "sec.md": md({"id": "CC-2", "kind": "change_control", "at": "2026-10-15T09:00:00Z",
                      "acl": ["sec"]}, "The search index is owned by Cy Park."),
        "xss.md": md({"id": "XSS-1", "kind": "chat", "at": "2026-10-16T09:00:00Z",
                      "author": "cy"}, XSS_TEXT),
    })  # fmt: skip


def _repository(root: Path) -> tuple[Path, str]:
    git = GitRepo(root)
    git.write("src/store.py", "def open_store():\n    return 'embedded'\n")
    git.write("DECISIONS.md", DECISIONS_V1)
    git.commit("Embedded store", "2025-03-01T10:00:00Z")
    git.write(
        "src/export.py",
        "def export(rows):\n    return [rows[i:i + 500] for i in range(0, len(rows), 500)]\n",
    )
    git.write("DECISIONS.md", DECISIONS_V2)
    git.commit("Batch the exporter", "2025-04-01T10:00:00Z")
    git.write("src/export.py", "def export(rows):\n    return [[r] for r in rows]  # stream\n")
    fix = git.commit("fix: stream exporter rows", "2025-05-01T10:00:00Z")
    return root, fix


def build_site(base_settings: Settings, root: Path) -> Site:
    settings = base_settings.with_(graph=f"w_{uuid.uuid4().hex[:10]}")
    store = Store(settings)
    store.ensure_schema()
    ingest(store, _corpus(root / "corpus"), settings)
    repo, fix = _repository(root / "repo")
    ingest_repo(store, repo)
    board = store.for_graph(board_graph(settings.graph))
    options = BoardOptions(claim_ttl_s=30, poll_s=0.05)
    fill(store, board, options, repo=repo)
    run_board(settings, options, 2, show_progress=False)
    board.close()
    store.close()
    return Site(settings, repo, fix)


def drop_site(site: Site) -> None:
    store = Store(site.settings)
    store.for_graph(board_graph(site.settings.graph)).delete_graph()
    store.delete_graph()
    store.close()


@pytest.fixture(scope="module")
def site(base_settings: Settings, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    built = build_site(base_settings, tmp_path_factory.mktemp("site"))
    yield built
    drop_site(built)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Served:
    """The app on a free loopback port, in a thread, stopped when the test is done."""

    def __init__(self, app: object) -> None:
        import uvicorn

        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        config = uvicorn.Config(
            app, host="127.0.0.1", port=self.port, log_level="warning", timeout_graceful_shutdown=2
        )  # type: ignore[arg-type]
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    def __enter__(self) -> Served:
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("the web app did not start")
            time.sleep(0.05)
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=10)
