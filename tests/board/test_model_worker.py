"""The model worker against the scripted local chat-completions server: good replies are
kept, bad ones rejected with their reasons, and nothing unchecked reaches the brain."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from companybrain.ask.repo.history_tools import trace
from companybrain.ask.repo.tools import disproven
from companybrain.board.fill import fill
from companybrain.board.options import BoardOptions
from companybrain.board.status import counts
from companybrain.board.worker import Worker
from companybrain.config import Settings
from companybrain.graph.connection import Store
from companybrain.graph.queries import board_q, findings_q
from companybrain.model.findings import Verdict
from tests.board.conftest import (
    ADR_1,
    ADR_2,
    ADRS,
    FILES,
    Adr,
    make_repo,
    seed_decisions,
    seed_files,
)
from tests.support.model_server import ScriptedModelServer, tool_call

OPTIONS = BoardOptions(claim_ttl_s=30, max_attempts=3, poll_s=0.01)

GOOD_AND_BAD = {
    "measurements": [
        {"figure": "16/20", "quote": "16/20 runs still timed out"},
        {"figure": "20/20", "quote": "16/20 runs still timed out"},
    ],
    "experiments": [
        {
            "claim": "batching the writes to Kafka",
            "verdict": "disproven",
            "quote": "We tried batching the writes to Kafka and it did not help",
        },
        {"claim": "the outbox", "verdict": "maybe", "quote": "The outbox lives in"},
    ],
    "files": [
        {"path": "src/outbox.py", "quote": "The outbox lives in `src/outbox.py`."},
        {"path": "src/kafka_batcher.py", "quote": "We tried batching the writes to Kafka"},
    ],
    "concepts": [{"name": "outbox", "quote": "The outbox table is our source of truth."}],
    "relations": [{"relation": "supersedes", "target": "ADR-1", "quote": "This supersedes ADR-1."}],
}


def test_checked_findings_reach_the_brain_and_the_rest_is_rejected_with_reasons(
    store: Store, board: Store, model_settings: Settings, model_server: ScriptedModelServer
) -> None:
    seed_decisions(store, [ADR_2])  # ADR-1 is not in this brain
    seed_files(store, FILES)
    fill(store, board, OPTIONS)
    model_server.play(tool_call("record_findings", GOOD_AND_BAD))

    assert Worker(model_settings, OPTIONS, "model-1", "model").run() == 1

    [request] = model_server.requests
    assert request["tool_choice"]["function"]["name"] == "record_findings"
    assert "16/20 runs still timed out" in request["messages"][-1]["content"]
    kept = {(f.kind.value, f.value) for f in findings_q.findings_of(store, ADR_2.id)}
    assert kept == {
        ("measurement", "16/20"),
        ("experiment", "batching the writes to Kafka"),
        ("file", "src/outbox.py"),
    }
    reasons = {f["value"]: f["reason"] for f in board_q.board_findings(board) if not f["kept"]}
    assert reasons["20/20"].startswith("figure '20/20' does not appear in its quote")
    assert reasons["src/kafka_batcher.py"] == "no file 'src/kafka_batcher.py' in git"
    assert reasons["outbox"].startswith("quote not found verbatim")
    assert reasons["ADR-1"] == "'ADR-1' is no entry in the brain"
    [malformed] = [r for v, r in reasons.items() if "maybe" in v]
    assert malformed == "malformed: unknown verdict 'maybe'"
    assert counts(board)["findings"] == {"kept": 3, "rejected": 5}
    assert board_q.handoffs(board) == []


def test_an_experiment_its_quote_does_not_report_never_reaches_the_brain(
    store: Store, board: Store, model_settings: Settings, model_server: ScriptedModelServer
) -> None:
    """A model's experiment is checked against its quote: a verdict the quote does not
    report, or a claim it does not make, was kept, and `disproven` then answered "Tried
    and disproven: 'Throughput with the outbox table is 2.6x higher.'" with its citation."""
    seed_decisions(store, [ADR_2])
    seed_files(store, FILES)
    fill(store, board, OPTIONS)
    good = "We tried batching the writes to Kafka and it did not help"
    nothing_tried = "Throughput with the outbox table is 2.6x higher."
    experiments = [
        {"claim": "batching the writes to Kafka", "verdict": "disproven", "quote": good},
        {"claim": "batched Kafka writes", "verdict": "disproven", "quote": good},
        {"claim": "the outbox table", "verdict": "disproven", "quote": nothing_tried},
        {"claim": "batching the writes to Kafka", "verdict": "confirmed", "quote": good},
        {"claim": "moving to Postgres", "verdict": "disproven", "quote": good},
    ]
    model_server.play(
        tool_call(
            "record_findings",
            {"measurements": [], "experiments": experiments, "files": [], "concepts": [],
             "relations": []},
        )
    )  # fmt: skip

    assert Worker(model_settings, OPTIONS, "model-1", "model").run() == 1

    kept = {(f.value, f.verdict) for f in findings_q.findings_of(store, ADR_2.id)}
    assert kept == {
        ("batching the writes to Kafka", Verdict.DISPROVEN),
        ("batched Kafka writes", Verdict.DISPROVEN),
    }
    reasons = {
        (f["value"], f["verdict"]): f["reason"]
        for f in board_q.board_findings(board)
        if not f["kept"]
    }
    assert reasons == {
        ("the outbox table", "disproven"): "the quote does not say it was disproven: "
        "it reports no outcome of something tried",
        ("batching the writes to Kafka", "confirmed"): "the quote does not say it was "
        "confirmed: it reports it disproven",
        ("moving to Postgres", "disproven"): "the claim's word(s) 'moving', 'postgres' are "
        "not in its quote",
    }
    assert disproven(store, "outbox").status == "refused"
    assert disproven(store, "Postgres").status == "refused"
    answer = disproven(store, "Kafka")
    assert [e["quote"] for e in answer.result["experiments"]] == [good, good]


def test_a_refused_finding_of_megabytes_is_not_kept_whole_on_the_board(
    store: Store, board: Store, model_settings: Settings, model_server: ScriptedModelServer
) -> None:
    huge = ("We tried batching the writes to Kafka and it did not help. " * 17_000).strip()
    model_server.play(
        tool_call(
            "record_findings",
            {"measurements": [], "files": [], "concepts": [{"name": huge, "quote": huge}],
             "experiments": [], "relations": []},
        )
    )  # fmt: skip
    seed_decisions(store, [ADR_2])
    seed_files(store, FILES)
    fill(store, board, OPTIONS)

    assert Worker(model_settings, OPTIONS, "model-1", "model").run() == 1

    [refused] = board_q.board_findings(board)
    assert not refused["kept"] and refused["reason"].startswith("quote not found verbatim")
    for text in (refused["quote"], refused["value"]):
        assert len(text) < 2_100 and text.endswith(f"... ({len(huge):,} characters)")


def test_an_endpoint_that_keeps_failing_stops_the_worker_naming_the_settings(
    store: Store, board: Store, model_settings: Settings, model_server: ScriptedModelServer
) -> None:
    """A model endpoint that was down or hung failed every item of the board, each up to
    --max-attempts times, four tries of BRAIN_MODEL_TIMEOUT_S each: 195 items of the demo
    with a hung endpoint would have taken 39 hours to end with every item failed."""
    from companybrain.errors import ModelError
    from companybrain.graph.queries import board_q
    from tests.support.model_server import http_error

    seed_decisions(store, ADRS)
    seed_files(store, FILES)
    fill(store, board, OPTIONS)
    model_server.play(*(http_error(400, "model not loaded") for _ in range(3)))
    worker = Worker(model_settings, OPTIONS, "model-1", "model")

    with pytest.raises(ModelError, match="the model failed 3 times in a row") as stopped:
        worker.run()

    assert "check BRAIN_MODEL and BRAIN_MODEL_BASE_URL" in str(stopped.value)
    tried, *rest = board_q.items(board)
    assert tried["status"] == "failed" and len(tried["errors"]) == 3
    assert all("model not loaded" in e for e in tried["errors"])
    assert [(i["status"], i["attempts"]) for i in rest] == [("pending", 0)] * 2


def test_a_reply_that_is_not_json_fails_the_attempt_and_the_next_one_succeeds(
    store: Store, board: Store, model_settings: Settings, model_server: ScriptedModelServer
) -> None:
    seed_decisions(store, [ADR_1])
    seed_files(store, FILES)
    fill(store, board, OPTIONS)
    good = {
        "measurements": [{"figure": "340 ms", "quote": "We measured 340 ms p99 latency"}],
        "experiments": [],
        "files": [],
        "concepts": [],
        "relations": [],
    }
    model_server.play(tool_call("record_findings", "{not json"), tool_call("record_findings", good))

    assert Worker(model_settings, OPTIONS, "model-1", "model").run() == 2

    [item] = board_q.items(board)
    assert item["status"] == "done" and item["attempts"] == 2
    assert item["errors"] == [
        "model-1: ModelError: the model's record_findings arguments are not valid JSON"
    ]
    assert [f.value for f in findings_q.findings_of(store, ADR_1.id)] == ["340 ms"]


def test_a_summary_naming_taskstore_add_needs_both_identifiers_in_the_file(
    tmp_path: Path,
    store: Store,
    board: Store,
    model_settings: Settings,
    model_server: ScriptedModelServer,
) -> None:
    repo = make_repo(
        tmp_path / "repo",
        {
            "src/store.py": "class TaskStore:\n    def add(self, task):\n        pass\n",
            "src/tasks.py": "TASKS = []\n\ndef add(task):\n    TASKS.append(task)\n",
        },
    )
    seed_files(store, ["src/store.py", "src/tasks.py"])
    fill(store, board, OPTIONS, repo=repo, files="all")
    summary = "Keeps tasks in memory; `TaskStore.add` appends one."
    model_server.play(
        tool_call("record_summary", {"summary": summary}),  # src/store.py
        tool_call("record_summary", {"summary": summary}),  # src/tasks.py: no TaskStore there
        tool_call("record_summary", {"summary": "Task storage through `TaskStore.add`."}),  # src/
        tool_call("record_summary", {"summary": "The code, in `src`, via `TaskStore`."}),  # .
    )

    assert Worker(model_settings, OPTIONS, "model-1", "model").run() == 4

    found = {f["entry"]: f for f in board_q.board_findings(board)}
    assert found["src/store.py"]["kept"]
    assert not found["src/tasks.py"]["kept"]
    assert found["src/tasks.py"]["reason"] == (
        "`TaskStore.add`: TaskStore is not an identifier in src/tasks.py"
    )
    assert found["src"]["kept"] and found["."]["kept"]
    summaries = {
        r["id"]: r["summary"]
        for r in store.read("MATCH (f:File) RETURN f.id AS id, f.summary AS summary")
    }
    assert summaries == {"src/store.py": summary, "src/tasks.py": None}
    # The folder waited for its files, and the root for the folder.
    done = {i["id"]: i for i in board_q.items(board)}
    assert done["dir:src"]["claimed_at"] >= done["file:src/tasks.py"]["done_at"]
    assert done["dir:."]["claimed_at"] >= done["dir:src"]["done_at"]
    prompt = model_server.requests[2]["messages"][-1]["content"]
    assert "src/store.py: Keeps tasks in memory" in prompt  # only kept summaries go up


def test_the_model_confirms_a_handoff_with_quotes_and_an_invented_quote_is_rejected(
    store: Store,
    board: Store,
    settings: Settings,
    model_settings: Settings,
    model_server: ScriptedModelServer,
) -> None:
    seed_decisions(store, ADRS)
    seed_files(store, FILES)
    fill(store, board, OPTIONS)
    Worker(settings, OPTIONS, "rules-1").run()  # reads the entries, raises two handoffs
    assert len(board_q.handoffs(board, "open")) == 2
    model_server.play(
        tool_call(
            "judge_handoff",
            {
                "verdict": "confirm",
                "quote_from": "This supersedes ADR-1.",
                "quote_to": "Status: Superseded by [ADR-0002](0002-stop-kafka.md)",
                "reason": "both entries say so",
            },
        ),
        tool_call(
            "judge_handoff",
            {
                "verdict": "confirm",
                "quote_from": "This does not supersede ADR-2.",
                "quote_to": "ADR-2 is superseded by ADR-3.",
                "reason": "looks like it",
            },
        ),
    )

    assert Worker(model_settings, OPTIONS, "model-1", "model").run() == 2

    settled = {h["from_entry"]: h for h in board_q.handoffs(board)}
    confirmed, rejected = settled[ADR_2.id], settled[ADRS[2].id]
    assert confirmed["status"] == "confirmed" and confirmed["settled_by"] == "model-1"
    assert confirmed["raised_by"] == "rules-1"
    assert rejected["status"] == "rejected"
    assert rejected["reason"].startswith(f"the confirmation's quote is not in {ADR_2.id}")
    relations = [
        (f.relation, f.value) for f in findings_q.findings_of(store, ADR_2.id) if f.relation
    ]
    assert relations == [("supersedes", ADR_1.id)]
    judge_prompt = model_server.requests[0]["messages"][-1]["content"]
    assert ADR_1.id in judge_prompt and "This supersedes ADR-1." in judge_prompt


def test_a_model_confirming_a_relation_the_entry_denies_writes_nothing(
    store: Store,
    board: Store,
    settings: Settings,
    model_settings: Settings,
    model_server: ScriptedModelServer,
) -> None:
    """ADR-3 says "This does not supersede ADR-2."; a model confirmed the handoff the rules
    raised from it, quoting that sentence and a real line of ADR-2, and `trace` answered
    that ADR-3 replaced ADR-2 and is the one in force, citing the sentence that denies it."""
    seed_decisions(store, ADRS)
    seed_files(store, FILES)
    fill(store, board, OPTIONS)
    Worker(settings, OPTIONS, "rules-1").run()  # raises ADR-2 -> ADR-1 and ADR-3 -> ADR-2
    model_server.play(
        tool_call(
            "judge_handoff",
            {"verdict": "confirm", "quote_from": "This supersedes ADR-1.",
             "quote_to": "We publish ledger events through Kafka.", "reason": "it says so"},
        ),
        tool_call(
            "judge_handoff",
            {"verdict": "confirm", "quote_from": "This does not supersede ADR-2.",
             "quote_to": "Status: Accepted", "reason": "both entries say so"},
        ),
    )  # fmt: skip

    assert Worker(model_settings, OPTIONS, "model-1", "model").run() == 2

    settled = {h["from_entry"]: h for h in board_q.handoffs(board)}
    assert settled[ADR_2.id]["status"] == "confirmed"
    denied = settled[ADRS[2].id]
    assert (denied["status"], denied["reason"]) == (
        "rejected",
        "the confirmation's quote says it does not: 'This does not supersede ADR-2.'",
    )
    assert [f for f in findings_q.findings_of(store, ADRS[2].id) if f.relation] == []
    answer = trace(store, ADR_2.id)
    assert answer.result["chain"] == [ADR_2.id, ADR_1.id]
    assert "This does not supersede ADR-2." not in [c.quote for c in answer.citations]


def _judge_all(quote_from: str, quote_to: dict[str, str]) -> object:
    """A lying judge: confirms any handoff, quoting `quote_from` and a real line of TO."""

    def reply(request: dict[str, Any]) -> dict[str, Any]:
        prompt = request["messages"][-1]["content"]
        to = next(line for key, line in quote_to.items() if f"TO = {key!r}" in prompt)
        return tool_call(
            "judge_handoff",
            {"verdict": "confirm", "quote_from": quote_from, "quote_to": to, "reason": "yes"},
        )

    return reply


def test_a_relation_whose_quote_names_another_entry_never_reaches_the_brain(
    store: Store,
    board: Store,
    settings: Settings,
    model_settings: Settings,
    model_server: ScriptedModelServer,
) -> None:
    """A model read ADR-2 as superseding ADR-3, quoting "This supersedes ADR-1.", and a
    second model confirmed it with the same sentence: `trace` then showed ADR-3 replaced by
    ADR-2, citing a sentence about ADR-1. A relation's quote must say it of its target."""
    seed_decisions(store, ADRS)
    seed_files(store, FILES)
    fill(store, board, OPTIONS)
    said = "This supersedes ADR-1."
    relations = [
        {"relation": "supersedes", "target": "ADR-3", "quote": said},
        {"relation": "superseded_by", "target": "ADR-1", "quote": said},
        {"relation": "supersedes", "target": "ADR-1", "quote": said},
    ]

    def read(request: dict[str, Any]) -> dict[str, Any]:
        mine = f"Entry {ADR_2.id!r}" in request["messages"][-1]["content"]
        return tool_call(
            "record_findings",
            {"measurements": [], "experiments": [], "files": [], "concepts": [],
             "relations": relations if mine else []},
        )  # fmt: skip

    model_server.play(read, read, read)
    assert Worker(model_settings, OPTIONS, "model-1", "model").run() == 3

    reasons = {
        (f["relation"], f["value"]): (f["kept"], f["reason"])
        for f in board_q.board_findings(board)
        if f["kind"] == "relation"
    }
    assert reasons == {
        ("supersedes", ADRS[2].id): (
            False,
            f"the quote does not say supersedes {ADRS[2].id}: it names {ADR_1.id}",
        ),
        ("superseded_by", ADR_1.id): (
            False,
            f"the quote does not say superseded by {ADR_1.id}: it names no such entry",
        ),
        ("supersedes", ADR_1.id): (True, None),
    }
    assert [h["to_entry"] for h in board_q.handoffs(board)] == [ADR_1.id]

    model_server.play(_judge_all(said, {ADR_1.id: "# 1. Use Kafka for ledger events"}))
    assert Worker(model_settings, OPTIONS, "model-2", "model").run() == 1

    relations_kept = [
        (f.relation, f.value) for f in findings_q.findings_of(store, ADR_2.id) if f.relation
    ]
    assert relations_kept == [("supersedes", ADR_1.id)]
    assert trace(store, ADRS[2].id).result["chain"] == [ADRS[2].id]


ADR_4 = Adr(
    "docs/adr/0004-move-exporter.md",
    "Move the exporter",
    "2025-08-01",
    "# 4. Move the exporter\n\nThis supersedes ADR-1. It does not supersede ADR-2.\n",
)


def test_a_confirmation_quoting_a_relation_to_another_entry_is_rejected(
    store: Store,
    board: Store,
    settings: Settings,
    model_settings: Settings,
    model_server: ScriptedModelServer,
) -> None:
    """The rules raise ADR-4 -> ADR-2 from "It does not supersede ADR-2."; a model confirmed
    it quoting "This supersedes ADR-1." from ADR-4 and ADR-2's heading, and ADR-4 became
    the decision in force over ADR-2."""
    seed_decisions(store, [ADR_1, ADR_2, ADR_4])
    seed_files(store, FILES)
    fill(store, board, OPTIONS)
    Worker(settings, OPTIONS, "rules-1").run()
    assert len(board_q.handoffs(board, "open")) == 3
    headings = {
        ADR_1.id: "# 1. Use Kafka for ledger events",
        ADR_2.id: "# 2. Stop publishing ledger events through Kafka",
    }
    model_server.play(*[_judge_all("This supersedes ADR-1.", headings)] * 3)

    assert Worker(model_settings, OPTIONS, "model-1", "model").run() == 3

    settled = {(h["from_entry"], h["to_entry"]): h for h in board_q.handoffs(board)}
    assert settled[(ADR_2.id, ADR_1.id)]["status"] == "confirmed"
    assert settled[(ADR_4.id, ADR_1.id)]["status"] == "confirmed"
    lie = settled[(ADR_4.id, ADR_2.id)]
    assert (lie["status"], lie["reason"]) == (
        "rejected",
        f"neither quote of the confirmation says that {ADR_4.id} supersedes {ADR_2.id} "
        f"('This supersedes ADR-1.': it names {ADR_1.id})",
    )
    assert trace(store, ADR_2.id).result["chain"] == [ADR_2.id, ADR_1.id]


def test_a_model_refusing_an_item_fails_that_item_and_does_not_stop_the_worker(
    store: Store, board: Store, model_settings: Settings, model_server: ScriptedModelServer
) -> None:
    """A refusal is the model answering: three in a row stopped the worker with advice to
    check BRAIN_MODEL and BRAIN_MODEL_BASE_URL, settings that were working."""
    seed_decisions(store, [ADR_1])
    seed_files(store, FILES)
    fill(store, board, OPTIONS)
    refusal = {"role": "assistant", "content": None, "refusal": "I can't help with that."}
    model_server.play(refusal, refusal, refusal)

    assert Worker(model_settings, OPTIONS, "model-1", "model").run() == 3

    [item] = board_q.items(board)
    assert item["status"] == "failed" and len(item["errors"]) == 3
    assert all("the model refused" in e for e in item["errors"]), item["errors"]
    assert not any("BRAIN_MODEL" in e for e in item["errors"])
