"""search_records on a known-item query (a ticket's title): the ticket titled with the words
asked for comes first, ahead of the short chat lines that quote that title. Ranked by BM25
over title and text as one field, those lines won on length alone and filled every hit
(the miss behind recall at 100,000 records)."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from typing import Any

from companybrain.ask import tools
from companybrain.ask.catalog import load_catalog
from companybrain.config import Settings
from companybrain.graph.connection import Store
from companybrain.ingest.pipeline import ingest
from companybrain.policy import search_rank
from companybrain.policy.access import Viewer
from companybrain.policy.time import QuestionTime
from tests.ask.conftest import NOW
from tests.ingest.corpus_builder import write_corpus

TITLE = "Coral Scheduler double-charges on retry"
CHATS = [
    "fyi the Coral Scheduler double-charges on retry again :(",
    "+1, the Coral Scheduler double-charges on retry again :(",
    "heads up: Coral Scheduler double-charges on retry",
    "is it just me or the Coral Scheduler double-charges on retry?",
    "again: the Coral Scheduler double-charges on retry",
    "the Coral Scheduler double-charges on retry, still",
]


def _records() -> list[dict[str, Any]]:
    at = "2026-05-01T10:00:00Z"
    rows: list[dict[str, Any]] = [
        {"id": f"MSG-{i}", "kind": "chat", "at": at, "author": "cy", "text": text}
        for i, text in enumerate(CHATS)
    ]
    rows.append(
        {"id": "TCK-9", "kind": "ticket", "at": at, "author": "ana", "title": TITLE,
         "status": "open", "acl": ["pay"],
         "text": f"The {TITLE}. Seen since the rollout plan.\n\nAssigned to Bo Lind."}
    )  # fmt: skip
    return rows


def _hits(store: Store, settings: Settings, viewer: Viewer) -> list[str]:
    ctx = tools.AskContext(
        store,
        settings,
        load_catalog(store),
        viewer,
        TITLE,
        QuestionTime(datetime.fromisoformat(NOW)),
    )
    answer = tools.search_records(ctx, TITLE)
    return [h["record"] for h in (answer.result or {})["hits"]]


def test_the_ticket_with_the_title_asked_for_is_the_first_hit(
    store: Store, settings: Settings, tmp_path: Path
) -> None:
    ingest(store, write_corpus(tmp_path / "c", {}, jsonl=_records()), settings)
    everyone = _hits(store, settings, Viewer.everyone())
    assert len(everyone) == tools.SEARCH_HITS < len(CHATS) + 1  # a cut the ticket must survive
    assert everyone[0] == "TCK-9"
    # A viewer who may see the ticket gets it first too; one who may not never sees it.
    assert _hits(store, settings, Viewer.member("ana", ["pay"]))[0] == "TCK-9"
    assert "TCK-9" not in _hits(store, settings, Viewer(person="cy", groups=frozenset()))


def test_a_title_counts_more_than_the_same_words_in_the_text() -> None:
    titled = ("b", "Outbox table bloat", "Seen on the primary.")
    quoted = ("a", "", "Outbox table bloat again")
    assert search_rank.rank_titled([quoted, titled], ["outbox", "table", "bloat"]) == ["b", "a"]
    # Without the title's weight the shorter text wins, as it did for every chat line.
    assert search_rank.rank([("a", quoted[2]), ("b", "\n".join(titled[1:]))], ["bloat"])[0] == "a"
    assert search_rank.rank_titled([], ["anything"]) == []
