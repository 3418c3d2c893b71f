"""Questions at scale, each against its raw baseline on the same graph, interleaved so that
drift in the machine hits both the same: owner_of against an indexed lookup, the evidence
query against the raw three-hop, search_records against the full-text index alone (and its
recall against bm25s on the same records, both at the hits search_records returns), and a
whole graph answer against a whole keyword-search answer."""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from functools import partial
from pathlib import Path
from typing import Any

from benchmarks.common import percentile
from companybrain.ask import tools
from companybrain.ask.catalog import load_catalog
from companybrain.ask.engine import ask, viewer_for
from companybrain.config import Settings
from companybrain.evals.ab import KeywordIndex, keyword_answer
from companybrain.graph.connection import Store
from companybrain.graph.queries import ask_q, baseline_q
from companybrain.policy.access import Viewer
from companybrain.policy.time import QuestionTime

ROUNDS = 200
# Recall is scored at the same depth for both: at the hits search_records answers with (5),
# and at 10 (the recall@10), asking search_records for 10 hits.
RECALL_K = tools.SEARCH_HITS
RECALL_DEEP = 10
SEARCHES = 60
ANSWERS = 30
WARMUP = 10


@dataclass
class Timings:
    samples: dict[str, list[float]] = field(default_factory=dict)

    def time(self, name: str, step: Callable[[], object]) -> None:
        started = time.perf_counter()
        step()
        self.samples.setdefault(name, []).append(time.perf_counter() - started)

    def p(self, name: str, pct: float) -> float:
        return percentile(self.samples[name], pct)

    def ratio(self, name: str, base: str) -> float:
        return self.p(name, 50) / self.p(base, 50)


def known_items(corpus: Path, count: int, seed: int) -> list[tuple[str, set[str]]]:
    """Ticket titles as queries; the relevant records are the tickets with that title."""
    rng = random.Random(seed)
    titles: list[str] = []
    seen = 0
    with (corpus / "records.jsonl").open(encoding="utf-8") as lines:
        for line in lines:  # a reservoir sample: the file is read once, in flat memory
            raw = json.loads(line)
            if raw["kind"] != "ticket":
                continue
            seen += 1
            if len(titles) < count:
                titles.append(raw["title"])
            elif (k := rng.randrange(seen)) < count:
                titles[k] = raw["title"]
    relevant: dict[str, set[str]] = {t: set() for t in titles}
    with (corpus / "records.jsonl").open(encoding="utf-8") as lines:
        for line in lines:
            raw = json.loads(line)
            if raw["kind"] == "ticket" and raw["title"] in relevant:
                relevant[raw["title"]].add(raw["id"])
    return [(t, relevant[t]) for t in dict.fromkeys(titles)]


def recall(found: list[str], relevant: set[str], k: int = 10) -> float:
    return len(set(found[:k]) & relevant) / min(k, len(relevant))


def measure(store: Store, settings: Settings, corpus: Path, now: datetime) -> dict[str, Any]:
    truth = json.loads((corpus / "expected.json").read_text())
    rng = random.Random(7)
    services = list(truth["owners"])
    catalog = load_catalog(store)
    viewer = Viewer.everyone()
    out: dict[str, Any] = {"owner": owner_timings(store, settings, services, now, rng)}

    search = Timings()
    ours: list[float] = []
    bm25: list[float] = []
    ours_deep: list[float] = []
    bm25_deep: list[float] = []
    member_deep: list[float] = []
    index = KeywordIndex.from_store(store)
    # A person who may not see everything: their candidates are not picked by the index's
    # score (ask_q.search_sources), so their recall is measured too.
    member = viewer_for(store, catalog.of("Person")[0].id)
    for query, relevant in known_items(corpus, SEARCHES, 11):
        ctx = tools.AskContext(store, settings, catalog, viewer, query, QuestionTime(now))
        search.time("raw full-text", partial(baseline_q.fulltext, store, query, 10))
        started = time.perf_counter()
        answer = tools.search_records(ctx, query)
        search.samples.setdefault("search_records", []).append(time.perf_counter() - started)
        hits = (answer.result or {}).get("hits", [])
        ours.append(recall([h["record"] for h in hits], relevant, RECALL_K))
        bm25.append(recall([h["id"] for h in index.search(query, k=RECALL_K)], relevant, RECALL_K))
        deep = (tools.search_records(ctx, query, RECALL_DEEP).result or {}).get("hits", [])
        ours_deep.append(recall([h["record"] for h in deep], relevant, RECALL_DEEP))
        found = index.search(query, k=RECALL_DEEP)
        bm25_deep.append(recall([h["id"] for h in found], relevant, RECALL_DEEP))
        as_member = tools.AskContext(store, settings, catalog, member, query, QuestionTime(now))
        deep = (tools.search_records(as_member, query, RECALL_DEEP).result or {}).get("hits", [])
        member_deep.append(recall([h["record"] for h in deep], relevant, RECALL_DEEP))
    out["search"] = search
    out["recall"] = (sum(ours) / len(ours), sum(bm25) / len(bm25), len(ours))
    out["recall_deep"] = (sum(ours_deep) / len(ours_deep), sum(bm25_deep) / len(bm25_deep))
    out["recall_member"] = sum(member_deep) / len(member_deep)

    answers = Timings()
    for i in range(WARMUP + ANSWERS):
        svc = rng.choice(services)
        question = f"Who owns the {svc['name']}?"
        if i < WARMUP:
            ask(store, settings, question, now=now)
            keyword_answer(index, question)
            continue
        answers.time("graph answer", partial(ask, store, settings, question, now=now))
        answers.time("keyword answer", partial(keyword_answer, index, question))
        # The first question after any write reads the whole catalog of names again.
        store.mark_changed()
        answers.time("graph answer after a write", partial(ask, store, settings, question, now=now))
    out["answers"] = answers
    return out


def owner_timings(
    store: Store,
    settings: Settings,
    services: list[dict[str, Any]],
    now: datetime,
    rng: random.Random | None = None,
) -> Timings:
    """owner_of, the raw lookup, the evidence query and the raw three-hop, interleaved, for
    services picked at random from the generator's truth."""
    rng = rng or random.Random(7)
    catalog = load_catalog(store)
    viewer = Viewer.everyone()
    owner = Timings()
    for i in range(WARMUP + ROUNDS):
        sid = rng.choice(services)["service"]
        subject = catalog.get(sid)
        assert subject is not None
        ctx = tools.AskContext(store, settings, catalog, viewer, "Who owns it?", QuestionTime(now))
        for name, step in _owner_steps(store, settings, ctx, subject, sid).items():
            if i >= WARMUP:
                owner.time(name, step)
            else:
                step()
    return owner


def _owner_steps(
    store: Store, settings: Settings, ctx: tools.AskContext, subject: Any, sid: str
) -> dict[str, Callable[[], object]]:
    return {
        "raw lookup": partial(ask_q.service_by_id, store, sid),
        "owner_of": partial(tools.owner_of, ctx, subject),
        "raw three-hop": partial(baseline_q.three_hop, store, sid),
        "evidence": partial(ask_q.owner_evidence, store, sid, settings.row_cap),
    }
