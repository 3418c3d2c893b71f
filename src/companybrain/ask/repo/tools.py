"""why, what_breaks, disproven, who_knows, trace and origin: each reads the store and hands
the rows to a pure format step. Ids as spec/answers.md says: an ADR by its path, a log
section as `PATH#Heading text`, a commit by its full sha, a file by its path, a person by
the lower-cased e-mail after .mailmap."""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING, Any

from companybrain.ask.repo import answers, expertise
from companybrain.ask.repo.answers import Row
from companybrain.ask.repo.subjects import (
    PathSubject,
    find_decisions,
    named_elsewhere,
    repo_names,
    resolve_decision,
    resolve_path,
)
from companybrain.ask.repo.then import Then, resting_on
from companybrain.ask.repo.topic import elsewhere, lacking, names, score, subject_terms, terms
from companybrain.graph.queries import findings_q, repo_read
from companybrain.model.answer import Answer, Citation
from companybrain.policy.text import quote_in
from companybrain.repo.decision_files import is_decision_file

if TYPE_CHECKING:
    from companybrain.graph.connection import Store

VIA_RANK = {"text": 0, "finding": 1, "commit": 2}
RANK_LIMIT = 10_000
TOPIC_SHOWN = 5  # decisions a topic answer lists; it says how many more matched


def _decision_subject(row: Row) -> dict[str, Any]:
    return {"id": row["id"], "type": "Decision", "name": row.get("title")}


def _commits(n: int) -> str:
    return f"{n} commit" if n == 1 else f"{n} commits"


# -- decisions resting on files ----------------------------------------------------------


def _resting_on(
    store: Store, ps: PathSubject, then: Then | None = None, other: list[Row] | None = None
) -> list[Row]:
    """One row per decision: its strongest link to the files (text > finding > commit);
    with `then`, from the decision log of that day. `other` collects the decisions that
    named one of the paths when another file had it."""
    paths = list(ps.paths)
    if then is not None:
        rows = resting_on(store, then, paths)
    else:
        rows = repo_read.decisions_resting_on(store, paths)
        rows += repo_read.file_finding_decisions(store, paths)
    best: dict[str, Row] = {}
    for r in rows:
        # the file of that name when the decision named it (a text read that day: then)
        named_ms = (
            then.as_of_ms if then is not None and r.get("then_text") else r.get("recorded_ms")
        )
        if not ps.meant(r["file"], named_ms):
            if other is not None:
                other.append(r)
            continue  # it names another file that had the path: one renamed away since
        if is_decision_file(r["file"]):
            continue  # a decision naming another record is a relation, not a rationale
        if r["via"] == "finding" and not quote_in(r.get("rationale_quote") or "", r["text"] or ""):
            continue  # read from an earlier text of the decision
        held = best.get(r["id"])
        if held is None or VIA_RANK[r["via"]] < VIA_RANK[held["via"]]:
            best[r["id"]] = r
    return sorted(
        best.values(),
        key=lambda r: (
            bool(r.get("superseded_by")) or r.get("present") is False,
            VIA_RANK[r["via"]],
            -(r.get("recorded_ms") or 0),
            r["id"],
        ),
    )


def _meant_another(rows: list[Row]) -> str:
    """The end of a refusal: decisions that named the path when another file had it."""
    ids = list(dict.fromkeys(r["id"] for r in rows))
    if not ids:
        return ""
    verb = "names" if len(ids) == 1 else "name"
    more = " and more" if len(ids) > 3 else ""
    return (
        f"; {', '.join(ids[:3])}{more} {verb} {rows[0]['file']}, but the file that had that"
        " path before it was renamed away"
    )


def _rationale_citation(row: Row) -> Citation:
    if row["via"] == "text" and row.get("rationale_line"):
        return answers.cite_line(row, int(row["rationale_line"]))
    if row["via"] == "finding" and row.get("rationale_quote"):
        return answers.cite_quote(row, row["rationale_quote"])
    return answers.cite_line(row)


def _how(row: Row) -> str:
    if row["via"] == "text":
        return f"names {row['file']}"
    if row["via"] == "finding":
        return f"is about {row['file']} (read by the board)"
    return f"was recorded in the commit that changed {row['file']}"


def _lacks(row: Row, name: str) -> bool:
    return bool(lacking([name], row.get("title") or "", row.get("text") or ""))


def _titled(row: Row) -> str:
    title = row.get("title")
    return row["id"] if not title or row["id"].endswith(f"#{title}") else f"{row['id']} (“{title}”)"


def _used_elsewhere(given: list[str], rows: list[Row]) -> str:
    """The end of a refusal: "A names FalkorDB but is about something else" (at most three
    decisions named)."""
    shown = ", ".join(_titled(r) for r in rows[:3]) + (
        f" and {len(rows) - 3} more" if len(rows) > 3 else ""
    )
    verb = "names" if len(rows) == 1 else "name"
    state = "is" if len(rows) == 1 else "are"
    return f": {shown} {verb} {', '.join(given)} but {state} about something else"


def _on(then: Then | None) -> str:
    return f" {then.words}" if then else ""


def why(
    store: Store,
    subject: str,
    *,
    question: str | None = None,
    now: datetime | None = None,
    then: Then | None = None,
) -> Answer:
    """The decisions behind a file, folder, symbol or topic (with `then`, those of the
    decision log on the day the question names)."""
    q = question or f"Why is {subject} the way it is?"
    now = then.as_of if then else now
    decision, own = then.find(store, subject) if then else (resolve_decision(store, subject), None)
    if decision and then:
        if own is None:
            return answers.not_recorded(
                q, "why", _decision_subject(decision), now,
                f"{decision['id']} was not in the decision log{_on(then)}",
            )  # fmt: skip
        decision = then.row(own, {r["id"]: r for r in repo_read.decisions(store)})
    if decision:
        return answers.answered(
            q, "why", _decision_subject(decision), now,
            {"decisions": [answers.decision_item(decision)]},
            [answers.cite_line(decision)],
            f"{decision['id']} records it{_on(then)}: {decision.get('title')}.",
        )  # fmt: skip
    ps = resolve_path(store, subject, then.as_of_ms if then else None)
    if ps:
        other: list[Row] = []
        rows = _resting_on(store, ps, then, other)
        if not rows:
            return answers.not_recorded(
                q, "why", ps.as_subject(), now,
                f"no decision record names {ps.asked} or was recorded with a change to it"
                + _on(then) + _meant_another(other),
            )  # fmt: skip
        items = [answers.decision_item(r, file=r["file"], via=r["via"]) for r in rows]
        lines = [f"{r['id']} ({answers.status_word(r)}) {_how(r)}" for r in rows]
        return answers.answered(
            q, "why", ps.as_subject(), now, {"decisions": items},
            [_rationale_citation(r) for r in rows],
            f"{len(rows)} recorded decision(s) rest on {ps.asked}{_on(then)}: "
            + "; ".join(lines) + ".",
        )  # fmt: skip
    logged = then.rows(store) if then else repo_read.decisions(store)
    found = find_decisions(store, subject, limit=None, rows=logged)
    more = len(found) - TOPIC_SHOWN
    found = found[:TOPIC_SHOWN]
    topic = {"id": subject, "type": "Topic", "name": subject}
    if not found:
        known = repo_names(subject, logged)
        unnamed = [n for n in names(subject, known) if all(_lacks(r, n) for r in logged)]
        given, other = named_elsewhere(subject, logged, known)
        return answers.not_recorded(
            q, "why", topic, now, f"no decision record covers “{subject}”{_on(then)}"
            + (f": none names {', '.join(unnamed)}" if unnamed
               else _used_elsewhere(given, other) if other else ""),
        )  # fmt: skip
    result: dict[str, Any] = {"decisions": [answers.decision_item(f.row) for f in found]}
    if more > 0:
        result["more"] = more
    return answers.answered(
        q, "why", topic, now, result,
        [answers.cite_line(f.row, f.line) for f in found],
        f"Recorded{_on(then)}: " + "; ".join(
            f"{f.row['id']} ({answers.status_word(f.row)})" for f in found
        ) + (f"; and {more} more matching decision(s), not shown: narrow the question or name"
             " one" if more > 0 else "") + ".",
    )  # fmt: skip


# -- what breaks -------------------------------------------------------------------------


def _current(exps: list[Row]) -> list[Row]:
    """Experiments whose quote the decision still holds (the board read an earlier text)."""
    return [e for e in exps if quote_in(e["quote"], e.get("decision_text") or "")]


def _place(e: Row) -> int:
    return answers.quote_place(e.get("decision_text"), e.get("decision_line_start"), e["quote"])


def _experiment_item(e: Row) -> dict[str, Any]:
    item: dict[str, Any] = {
        "id": e["id"],
        "decision": e["decision"],
        "verdict": e["verdict"],
        "quote": e["quote"],
    }
    if e.get("superseded_by"):
        item["superseded_by"] = e["superseded_by"]
    return item


def _experiment_citation(e: Row) -> Citation:
    row = {
        "id": e["decision"],
        "text": e.get("decision_text"),
        "line_start": e.get("decision_line_start"),
        "recorded_at": e.get("decision_recorded_at"),
    }
    return answers.cite_quote(row, e["quote"])


def _as_then(exps: list[Row], then: Then | None) -> list[Row]:
    """Experiments under the decisions' texts of that day, and what superseded them then."""
    if then is None:
        return exps
    out = []
    for e in exps:
        own = then.own_id(e["decision"])
        if own is not None:
            held = then.entries[own]
            out.append({**e, "decision": own, "decision_text": held.text,
                        "decision_line_start": held.line_start,
                        "superseded_by": then.newer(own)})  # fmt: skip
    return out


def what_breaks(
    store: Store,
    path: str,
    *,
    question: str | None = None,
    now: datetime | None = None,
    then: Then | None = None,
) -> Answer:
    """Decisions that rest on a file (or folder) and the experiments recorded against them
    (with `then`, as the decision log stood on the day the question names)."""
    q = question or f"What breaks if I change {path}?"
    now = then.as_of if then else now
    ps = resolve_path(store, path, then.as_of_ms if then else None)
    if ps is None:
        return answers.not_in_graph(q, "what_breaks", f"{path} is not a file in the history", now)
    rows = _resting_on(store, ps, then)
    if not rows:
        return answers.not_recorded(
            q, "what_breaks", ps.as_subject(), now,
            f"no recorded decision rests on {ps.asked}{_on(then)}",
        )  # fmt: skip
    ids = [r["id"] for r in rows]
    failed = findings_q.TRIED_AND_FAILED
    graph_ids = then.ids.graph_ids(ids) if then else ids
    exps = _current(
        _as_then(findings_q.experiments(store, verdict=failed, entries=graph_ids), then)
    )
    texts = {r["id"]: r.get("text") or "" for r in rows}
    evidence: dict[str, list[Row]] = {}
    for gid, found in findings_q.measurements(store, graph_ids).items():
        did = (then.own_id(gid) if then else gid) or gid
        # read from the text it has (then): a figure read from another text is not its
        evidence.setdefault(did, []).extend(
            m for m in found if quote_in(m["quote"], texts.get(did, ""))
        )
    items = [
        answers.decision_item(
            r, file=r["file"], via=r["via"],
            evidence=list(dict.fromkeys(m["quote"] for m in evidence.get(r["id"], []))) or None,
        )
        for r in rows
    ]  # fmt: skip
    live = [e for e in exps if not e.get("superseded_by")]
    text = f"{len(rows)} recorded decision(s) rest on {ps.asked}{_on(then)}: " + "; ".join(
        f"{r['id']} ({answers.status_word(r)})" for r in rows
    )
    if live:
        text += f". {len(live)} experiment(s) against them were tried and disproven: do not retry"
    if len(exps) > len(live):
        text += f"; {len(exps) - len(live)} sit under superseded decisions"
    citations = [_rationale_citation(r) for r in rows] + [_experiment_citation(e) for e in exps]
    result: dict[str, Any] = {"decisions": items, "disproven": [_experiment_item(e) for e in exps]}
    # today's graph's ranking: not what it was on a past day
    ranked = repo_read.rationale_rank(store, RANK_LIMIT) if then is None else []
    place = next((i for i, r in enumerate(ranked) if r["file"] in ps.paths), None)
    if place is not None:  # where it stands among the files that carry the most reasoning
        result["reasoning_rank"] = {"position": place + 1, "of": len(ranked),
                                    "score": round(ranked[place]["score"], 4)}  # fmt: skip
    return answers.answered(q, "what_breaks", ps.as_subject(), now, result, citations, text + ".")


# -- disproven ---------------------------------------------------------------------------


def disproven(
    store: Store,
    topic: str = "",
    *,
    question: str | None = None,
    now: datetime | None = None,
    then: Then | None = None,
) -> Answer:
    """Experiments recorded as tried and disproven, about a topic (or a file); with `then`,
    those the decision log of that day held."""
    q = question or f"What was tried and disproven about {topic}?"
    now = then.as_of if then else now
    subject = {"id": topic, "type": "Topic", "name": topic} if topic else None
    failed = findings_q.experiments(store, verdict=findings_q.TRIED_AND_FAILED)
    exps = _current(_as_then(failed, then))
    if not exps:
        return answers.not_recorded(
            q, "disproven", subject, now,
            f"no experiment is recorded as tried and disproven{_on(then)}",
        )  # fmt: skip
    ps = resolve_path(store, topic, then.as_of_ms if then else None) if topic else None
    if ps:
        on_file = {r["id"] for r in _resting_on(store, ps, then)}
        exps = [e for e in exps if e["decision"] in on_file]
    elif topic:
        known = repo_names(topic, then.rows(store) if then else repo_read.decisions(store))
        wanted, named, others = terms(topic), names(topic, known), subject_terms(topic, known)
        exps = [
            e
            for e in exps
            if score(wanted, e.get("decision_title") or "", f"{e['quote']}\n{e['value']}").coverage
            >= 0.5
            and not lacking(named, e.get("decision_title") or "", f"{e['quote']}\n{e['value']}")
            and not elsewhere(others, e.get("decision_title") or "", f"{e['quote']}\n{e['value']}")
        ]
    if not exps:
        return answers.not_recorded(
            q, "disproven", subject, now,
            f"no experiment about “{topic}” is recorded as disproven{_on(then)}",
        )  # fmt: skip
    exps.sort(key=lambda e: (bool(e.get("superseded_by")), e["decision"], _place(e)))
    return answers.answered(
        q, "disproven", subject, now,
        {"experiments": [_experiment_item(e) for e in exps]},
        [_experiment_citation(e) for e in exps],
        f"Tried and disproven{_on(then)}: " + "; ".join(
            f"“{e['quote']}” ({e['decision']}"
            + (f", {e['verdict']}" if e["verdict"] != "disproven" else "")
            + (", superseded" if e.get("superseded_by") else "") + ")"
            for e in exps
        ) + ".",
    )  # fmt: skip


# -- who knows ---------------------------------------------------------------------------


def who_knows(
    store: Store,
    path: str,
    *,
    question: str | None = None,
    now: datetime | None = None,
    until_ms: int | None = None,
) -> Answer:
    """People ranked by their history on a file or folder, with the bus factor."""
    q = question or f"Who knows {path}?"
    ps = resolve_path(store, path, until_ms)
    if ps is None:
        return answers.not_in_graph(q, "who_knows", f"{path} is not a file in the history", now)
    # where a shallow clone is cut off, a commit seems to add every file: no one's work
    cut = repo_read.shallow_boundary(store)
    rows = repo_read.expertise(store, ps.span_params(), cut)
    people, agents = expertise.rank(rows)
    if not people and not agents:
        before = bool(cut) and bool(repo_read.touches(store, ps.span_params(), 1))
        return answers.not_recorded(
            q,
            "who_knows",
            ps.as_subject(),
            now,
            f"the history read is a shallow clone, and every change to {ps.asked} it holds "
            "is from before where it begins (fetch the whole history and run ingest-repo "
            "again)"
            if before
            else f"no commit in the history touched {ps.asked}"
            + (f" by {answers.as_of_text(now)}" if until_ms is not None else ""),
        )
    touches = repo_read.touches(store, ps.span_params(), 500, cut)
    citations: list[Citation] = []
    for e in people[:5] + agents[:2]:
        mine = next((t for t in touches if t["author"] == e.id or e.id in t["co_ids"]), None)
        if mine:
            citations.append(answers.cite_commit(mine))
    bus = expertise.bus_factor(people)
    text = f"{len(people)} people changed {ps.asked}"
    if people:
        text += "; most: " + ", ".join(f"{e.name} ({_commits(e.commits)})" for e in people[:3])
        text += f". Bus factor {bus}" + (": one person holds most of it" if bus == 1 else "")
    if agents:
        text += f". Agents on it: {', '.join(e.name for e in agents)} (not counted as experts)"
    return answers.answered(
        q, "who_knows", ps.as_subject(), now,
        {"experts": [e.to_dict() for e in people], "bus_factor": bus,
         "agents": [e.to_dict() for e in agents]},
        citations, text + ".",
    )  # fmt: skip
