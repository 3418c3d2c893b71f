"""`brain eval ab`: does the graph help? On frozen questions, each with the record its answer
must rest on, compare the graph tools with plain keyword search (BM25 from `bm25s` over the
same records, top 5): how often each retrieves that record, and how long each takes.

With a model configured it also runs the full comparison: the same model, once with the
graph tools and once with only the keyword search, both through the same agent loop and
answer checks, and writes an anonymised A/B sheet (the two answers in a random order per
question) with a separate key, for a judge who must not know which is which."""

from __future__ import annotations

import json
import random
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import bm25s

from companybrain.ask.agent import AgentAnswer, OnStep, run_agent
from companybrain.ask.engine import parse_now
from companybrain.ask.registry import ToolContext, ToolSpec, schema
from companybrain.errors import InputError
from companybrain.evals.jsonl import json_objects
from companybrain.graph.connection import Row, Store
from companybrain.graph.queries import keyword_q
from companybrain.llm.client import ModelClient
from companybrain.model.answer import Answer, Citation
from companybrain.policy.access import Viewer, can_see
from companybrain.policy.answer_checks import evidence_from_answers

TOP_K = 5
SNIPPET_CHARS = 1_500


@dataclass(frozen=True)
class AbQuestion:
    id: str
    question: str
    rests_on: tuple[str, ...]  # the record the answer must rest on (any one of these)
    now: str | None = None
    as_person: str | None = None


AB_KEYS = {"id", "question", "rests_on", "now", "as"}


def read_questions(path: Path) -> list[AbQuestion]:
    """One question per JSON line: id, question, rests_on (an id or a list of ids), and
    optionally now and as. One clear error naming the file, line and field."""
    if not path.is_file():
        raise InputError(f"{path}: no such file")
    out: list[AbQuestion] = []
    for where, data in json_objects(path):
        for key in ("id", "question", "rests_on"):
            if not data.get(key):
                raise InputError(f"{where}: missing field {key!r}")
        unknown = sorted(set(data) - AB_KEYS)
        if unknown:  # "as_person" would ask as everyone
            raise InputError(
                f"{where}: unknown key(s) {unknown}; a question has "
                + ", ".join(f"`{k}`" for k in sorted(AB_KEYS))
            )
        rests = data["rests_on"]
        rests_on = (
            (rests,) if isinstance(rests, str) else tuple(rests) if isinstance(rests, list) else ()
        )
        if not rests_on or not all(isinstance(r, str) and r for r in rests_on):
            raise InputError(f"{where}: rests_on must be a record id or a list of them")
        for key in ("question", "as"):
            if data.get(key) is not None and not isinstance(data[key], str):
                raise InputError(f"{where}: `{key}` must be a string")
        if data.get("now") is not None:  # read before anything is asked, naming the line
            parse_now(data["now"], f"{where}: `now`")
        out.append(
            AbQuestion(
                id=str(data["id"]),
                question=str(data["question"]),
                rests_on=rests_on,
                now=data.get("now"),
                as_person=data.get("as"),
            )
        )
    if not out:
        raise InputError(f"{path}: no questions")
    return out


# -- the keyword baseline ------------------------------------------------------------------


class KeywordIndex:
    """BM25 over the title and text of every record the graph holds."""

    def __init__(self, records: Sequence[Row]) -> None:
        self.records = [r for r in records if r.get("id")]
        texts = [f"{r.get('title') or ''}\n{r.get('text') or ''}" for r in self.records]
        self._bm25 = bm25s.BM25()
        if texts:
            tokens = bm25s.tokenize(texts, stopwords="en", show_progress=False)
            self._bm25.index(tokens, show_progress=False)
        self._seen_by: dict[frozenset[str], KeywordIndex] = {}

    @classmethod
    def from_store(cls, store: Store) -> KeywordIndex:
        return cls(keyword_q.keyword_records(store))

    def search(self, query: str, k: int = TOP_K, viewer: Viewer | None = None) -> list[Row]:
        """The top k records for `query` that `viewer` may see, ranked by an index of
        those records only: BM25 weighs a word by the records that hold it, so records
        the viewer may not see would change the order of those they may."""
        if viewer is not None and viewer.groups is not None:
            if viewer.groups not in self._seen_by:
                mine = [r for r in self.records if can_see(r.get("acl"), viewer)]
                self._seen_by[viewer.groups] = KeywordIndex(mine)
            return self._seen_by[viewer.groups].search(query, k)
        if not self.records:
            return []
        tokens = bm25s.tokenize([query], stopwords="en", show_progress=False, return_ids=False)
        if not tokens or not tokens[0]:
            return []
        docs, scores = self._bm25.retrieve(
            tokens, k=len(self.records), show_progress=False, n_threads=1
        )
        hits = []
        for i, score in zip(docs[0], scores[0], strict=True):
            record = self.records[int(i)]
            if float(score) <= 0:
                break
            hits.append({**record, "score": float(score)})
            if len(hits) == k:
                break
        return hits


def keyword_answer(index: KeywordIndex, query: str, viewer: Viewer | None = None) -> Answer:
    """The keyword results as an answer envelope, each hit cited with its text."""
    hits = index.search(query, viewer=viewer)
    return Answer(
        question=query,
        tool="search_records",
        subject=None,
        as_of=None,
        status="answered",
        result={
            "hits": [
                {
                    "record": h["id"],
                    "title": h.get("title") or "",
                    "snippet": (h.get("text") or "")[:300],
                }
                for h in hits
            ]
        },
        citations=[
            Citation(
                record=h["id"], kind=h.get("kind"), quote=(h.get("text") or "")[:SNIPPET_CHARS]
            )
            for h in hits
        ],
    )


def keyword_tool(index: KeywordIndex, viewer: Viewer | None = None) -> ToolSpec:
    """The only tool the keyword side of the full comparison gets."""
    return ToolSpec(
        "keyword_search",
        "Keyword search (BM25) over every record; returns the 5 best matches with their text.",
        schema({"query": "words to search for"}),
        lambda _ctx, args: keyword_answer(index, args["query"], viewer),
    )


# -- retrieval ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Side:
    retrieved: bool
    ms: float
    ids: tuple[str, ...] = ()


@dataclass(frozen=True)
class AbRow:
    question: AbQuestion
    graph: Side
    keyword: Side


@dataclass
class RetrievalReport:
    name: str
    rows: list[AbRow]
    records: int
    index_ms: float

    def side(self, which: str) -> dict[str, Any]:
        sides: list[Side] = [getattr(r, which) for r in self.rows]
        hits = sum(s.retrieved for s in sides)
        ms = [s.ms for s in sides]
        return {
            "retrieved": hits,
            "questions": len(sides),
            "rate": hits / len(sides) if sides else 0.0,
            "p50_ms": statistics.median(ms) if ms else 0.0,
            "mean_ms": statistics.fmean(ms) if ms else 0.0,
            "missed": [r.question.id for r in self.rows if not getattr(r, which).retrieved],
        }

    def to_dict(self) -> dict[str, Any]:
        graph, keyword = self.side("graph"), self.side("keyword")
        return {
            "questions": self.name,
            "records": self.records,
            "index_ms": self.index_ms,
            "graph": graph,
            "keyword": keyword,
            "latency_ratio": graph["p50_ms"] / keyword["p50_ms"] if keyword["p50_ms"] else None,
            "rows": [
                {
                    "id": r.question.id,
                    "question": r.question.question,
                    "rests_on": list(r.question.rests_on),
                    "graph": r.graph.retrieved,
                    "keyword": r.keyword.retrieved,
                    "keyword_top": list(r.keyword.ids),
                }
                for r in self.rows
            ],
        }

    def lines(self) -> list[str]:
        d = self.to_dict()
        g, k = d["graph"], d["keyword"]
        ratio = f"{d['latency_ratio']:.1f}x" if d["latency_ratio"] else "n/a"
        out = [
            f"{self.name}: {len(self.rows)} questions over {self.records} records",
            f"  graph tools      {g['retrieved']}/{g['questions']} retrieved ({g['rate']:.0%})"
            f"  p50 {g['p50_ms']:.1f} ms",
            f"  keyword top-{TOP_K}    {k['retrieved']}/{k['questions']} retrieved "
            f"({k['rate']:.0%})  p50 {k['p50_ms']:.2f} ms (index built once in "
            f"{self.index_ms:.0f} ms)",
            f"  latency graph/keyword: {ratio}",
        ]
        if g["missed"]:
            out.append(f"  graph missed: {' '.join(g['missed'])}")
        if k["missed"]:
            out.append(f"  keyword missed: {' '.join(k['missed'])}")
        return out


GraphAnswer = Callable[[AbQuestion], Answer]
ViewerOf = Callable[[AbQuestion], Viewer | None]
Progress = Callable[[int, int, str], None]


def compare_retrieval(
    name: str,
    questions: Sequence[AbQuestion],
    store: Store,
    graph_answer: GraphAnswer,
    viewer_of: ViewerOf,
    progress: Progress | None = None,
) -> tuple[RetrievalReport, KeywordIndex]:
    """For each question, does the graph's answer and does the keyword top 5 contain the
    record the answer must rest on? Each side is timed on its own."""
    started = time.perf_counter()
    index = KeywordIndex.from_store(store)
    index_ms = (time.perf_counter() - started) * 1000
    rows = []
    for n, q in enumerate(questions, 1):
        if progress:
            progress(n - 1, len(questions), q.id)
        t0 = time.perf_counter()
        answer = graph_answer(q)
        graph_ms = (time.perf_counter() - t0) * 1000
        graph_ids = set(evidence_from_answers([answer]))
        viewer = viewer_of(q)
        t0 = time.perf_counter()
        hits = index.search(q.question, viewer=viewer)
        keyword_ms = (time.perf_counter() - t0) * 1000
        top = tuple(h["id"] for h in hits)
        rows.append(
            AbRow(
                q,
                Side(any(r in graph_ids for r in q.rests_on), graph_ms, tuple(sorted(graph_ids))),
                Side(any(r in top for r in q.rests_on), keyword_ms, top),
            )
        )
    if progress:
        progress(len(questions), len(questions), "")
    return RetrievalReport(name, rows, len(index.records), index_ms), index


# -- the full comparison --------------------------------------------------------------------


@dataclass
class FullRow:
    question: AbQuestion
    graph: AgentAnswer
    keyword: AgentAnswer
    graph_s: float
    keyword_s: float
    first: str  # which side the sheet shows as answer A


@dataclass
class FullReport:
    rows: list[FullRow] = field(default_factory=list)

    def side(self, which: str) -> dict[str, Any]:
        answers: list[AgentAnswer] = [getattr(r, which) for r in self.rows]
        seconds = [getattr(r, f"{which}_s") for r in self.rows]
        rests = [
            any(rid in (a.checks.cited if a.checks else ()) for rid in r.question.rests_on)
            for r, a in zip(self.rows, answers, strict=True)
        ]
        return {
            "answered": sum(a.status == "answered" for a in answers),
            "abstained": sum(a.status == "abstained" for a in answers),
            "withheld": sum(a.status == "withheld" for a in answers),
            "cites_the_record": sum(rests),
            "p50_s": statistics.median(seconds) if seconds else 0.0,
        }

    def to_dict(self) -> dict[str, Any]:
        return {"graph": self.side("graph"), "keyword": self.side("keyword")}

    def lines(self) -> list[str]:
        out = ["full comparison (the same model, graph tools vs keyword search):"]
        for which in ("graph", "keyword"):
            s = self.side(which)
            out.append(
                f"  {which:<8} answered {s['answered']}, abstained {s['abstained']}, "
                f"withheld {s['withheld']}; cites the record {s['cites_the_record']}/"
                f"{len(self.rows)}; p50 {s['p50_s']:.1f} s"
            )
        return out


def compare_answers(
    questions: Sequence[AbQuestion],
    ctx_of: Callable[[AbQuestion], ToolContext],
    graph_tools: Sequence[ToolSpec],
    index: KeywordIndex,
    viewer_of: ViewerOf,
    *,
    client: ModelClient,
    max_steps: int,
    seed: int = 0,
    on_step: OnStep | None = None,
    progress: Progress | None = None,
) -> FullReport:
    """The same model, once with the graph tools and once with only keyword search."""
    rng = random.Random(seed)
    report = FullReport()
    for n, q in enumerate(questions, 1):
        if progress:
            progress(n - 1, len(questions), q.id)
        ctx = ctx_of(q)
        viewer = viewer_of(q)
        kw = [keyword_tool(index, viewer)]
        t0 = time.perf_counter()
        graph = run_agent(
            q.question, ctx, graph_tools, client=client, max_steps=max_steps, on_step=on_step
        )
        graph_s = time.perf_counter() - t0
        t0 = time.perf_counter()
        keyword = run_agent(
            q.question, ctx, kw, client=client, max_steps=max_steps, on_step=on_step
        )
        keyword_s = time.perf_counter() - t0
        first = "graph" if rng.random() < 0.5 else "keyword"
        report.rows.append(FullRow(q, graph, keyword, graph_s, keyword_s, first))
    if progress:
        progress(len(questions), len(questions), "")
    return report


def write_sheet(report: FullReport, out_dir: Path) -> dict[str, Path]:
    """sheet.md for the judge (answers A and B, no sides named), key.json (which was which)
    and results.jsonl (everything, for after judging)."""
    out_dir.mkdir(parents=True, exist_ok=True)
    sheet = [
        "# A/B sheet",
        "",
        "For each question, judge which answer is better supported and more correct: A, B or",
        "tie. Citations in [brackets] name the records each answer rests on.",
        "",
    ]
    key: dict[str, dict[str, str]] = {}
    results = []
    for r in report.rows:
        a, b = (r.graph, r.keyword) if r.first == "graph" else (r.keyword, r.graph)
        key[r.question.id] = {"A": r.first, "B": "keyword" if r.first == "graph" else "graph"}
        sheet += [
            f"## {r.question.id}: {r.question.question}",
            "",
            f"**A** ({a.checks_line})",
            "",
            a.text,
            "",
            f"**B** ({b.checks_line})",
            "",
            b.text,
            "",
            "Verdict: ",
            "",
        ]
        results.append(
            {
                "id": r.question.id,
                "question": r.question.question,
                "rests_on": list(r.question.rests_on),
                "graph": r.graph.to_dict(),
                "keyword": r.keyword.to_dict(),
                "graph_s": r.graph_s,
                "keyword_s": r.keyword_s,
            }
        )
    paths = {
        "sheet": out_dir / "sheet.md",
        "key": out_dir / "key.json",
        "results": out_dir / "results.jsonl",
    }
    paths["sheet"].write_text("\n".join(sheet), encoding="utf-8")
    paths["key"].write_text(json.dumps(key, indent=2) + "\n", encoding="utf-8")
    paths["results"].write_text(
        "".join(json.dumps(x, ensure_ascii=False, default=str) + "\n" for x in results),
        encoding="utf-8",
    )
    return paths
