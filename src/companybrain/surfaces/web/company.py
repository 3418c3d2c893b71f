"""What the company pages show, as plain data the templates and the JSON API share: an
answer with what was checked, a record with the facts drawn from it (kept and rejected),
the owners of every service and project, and what adding a typed record did."""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any

from companybrain.ask.catalog import PROJECT, SERVICE, Catalog, Entity, load_catalog
from companybrain.ask.explain import chain_text, motivations
from companybrain.ask.tools import AskContext, owner_of
from companybrain.config import Settings
from companybrain.errors import InputError
from companybrain.graph.connection import Store
from companybrain.graph.queries import ask_q, web_q
from companybrain.model.answer import Answer
from companybrain.model.records import Record
from companybrain.policy.access import can_see, query_scope, visible
from companybrain.policy.text import quote_in
from companybrain.policy.time import QuestionTime
from companybrain.surfaces.cli.repo import result_lines as repo_result_lines
from companybrain.surfaces.web.context import Asker, NotFound
from companybrain.surfaces.web.highlight import pieces

TYPED_AUTHORITY = 35  # what chat counts for; a typed record is always chat


# -- answers -----------------------------------------------------------------------------


def result_lines(answer: dict[str, Any]) -> list[str]:
    """The result of an answer as short lines of plain text (escaped by the template)."""
    result = answer.get("result") or {}
    tool = answer.get("tool") or ""
    if "owner" in result:
        return [f"owner: {result['owner']['name']} ({result['owner']['id']})"]
    if "owners" in result:
        lines = [
            f"{o['service']}: {o['owner']['name']} ({o['owner']['id']})" for o in result["owners"]
        ]
        if result.get("approval"):
            lines.append(f"approval authority: {result['approval']}")
        return lines
    if tool == "who_knows" and "bus_factor" in result and "experts" in result:
        lines = [f"{e['name']} ({e['id']}) · score {e['score']}" for e in result["experts"]]
        lines.append(f"bus factor {result['bus_factor']}")
        if result.get("warning"):
            lines.append(result["warning"])
        return lines
    if tool == "trace_decision":
        lines = [chain_text(result, " ← ")]
        if each := [f"{', '.join(ms)} ({d})" for d, ms in motivations(result)]:
            lines.append("motivated by " + "; ".join(each))
        return lines
    if "person" in result:
        p = result["person"]
        team = f", {p['team']['name']}" if p.get("team") else ""
        return [f"{p['name']} ({p['id']}){team}"]
    if "team" in result:
        t = result["team"]
        lead = f", led by {t['lead']['name']}" if t.get("lead") else ""
        members = [
            f"{m['name']} ({m['id']})" if isinstance(m, dict) else str(m) for m in t["members"]
        ]
        return [f"{t['name']}{lead}", "members: " + ", ".join(members)]
    if "hits" in result:
        return [
            f"{h['record']} · {h.get('title') or ''} · {h.get('snippet') or ''}"
            for h in result["hits"]
        ]
    lines = repo_result_lines(tool, result) if result else []
    if lines:
        return lines
    return [json.dumps(result, ensure_ascii=False)] if result else []


def checked(store: Store, answer: dict[str, Any], asker: Asker) -> list[dict[str, Any]]:
    """What was checked, each line re-checked here: every cited quote against its record."""
    out: list[dict[str, Any]] = []
    records = [c["record"] for c in answer["citations"] + answer["outranked"] if c.get("quote")]
    texts = ask_q.records_text(store, sorted(set(records))) if records else {}
    for c in answer["citations"] + answer["outranked"]:
        if not c.get("quote"):
            continue
        said = texts.get(c["record"])
        if said is None:
            out.append({"ok": None, "text": f"{c['record']}: not a company record (cited by line)"})
            continue
        body = f"{said.get('title') or ''}\n{said.get('text') or ''}"
        ok = quote_in(c["quote"], body)
        out.append(
            {
                "ok": ok,
                "text": f"{c['record']}: quote "
                + ("found verbatim in the record" if ok else "NOT found in the record"),
            }
        )
    if answer.get("as_of"):
        out.append({"ok": None, "text": f"read as of {answer['as_of']}"})
    if asker.person:
        out.append(
            {"ok": None, "text": f"asked as {asker.person}: only records their groups may see"}
        )
    out.append(
        {
            "ok": None,
            "text": "explanation written by "
            + (
                "the model, and it passed the wording checks"
                if answer.get("explanation_by") == "model"
                else "a fixed template"
            ),
        }
    )
    return out


def answer_view(store: Store, answer: Answer, asker: Asker) -> dict[str, Any]:
    data = answer.to_dict()
    return {**data, "lines": result_lines(data), "checked": checked(store, data, asker)}


# -- a record ----------------------------------------------------------------------------


def is_record(store: Store, record_id: str, asker: Asker) -> bool:
    """A record the asker may see has this id (one they may not see is none to them)."""
    acls = web_q.source_acls(store, [record_id])
    return record_id in acls and can_see(acls[record_id], asker.viewer)


def record_view(store: Store, record_id: str, asker: Asker) -> dict[str, Any]:
    """A record the asker may see, with the quoted spans marked and the facts drawn from it.
    A record they may not see is not found, exactly like one that does not exist."""
    row = web_q.source(store, record_id)
    if row is None or not can_see(row.get("acl"), asker.viewer):
        raise NotFound(f"no record {record_id!r}")
    claims = web_q.source_claims(store, record_id)
    decisions = web_q.source_decisions(store, record_id)
    rejected = []
    for r in web_q.source_rejections(store, record_id):
        try:
            fact = json.loads(r.get("fact_json") or "null")
        except json.JSONDecodeError:
            fact = r.get("fact_json")
        rejected.append({"check": r["check"], "reason": r["reason"], "fact": fact})
    quotes = [c["quote"] for c in claims if c.get("quote")] + [
        d["quote"] for d in decisions if d.get("quote")
    ]
    text = row.get("text") or ""
    return {
        "record": {k: v for k, v in row.items() if k != "text"},
        "text": text,
        "pieces": pieces(text, quotes),
        "claims": claims,
        "decisions": decisions,
        "rejected": rejected,
    }


# -- owners ------------------------------------------------------------------------------


def _owner_answer(
    store: Store,
    settings: Settings,
    asker: Asker,
    entity: Entity,
    now: datetime,
    catalog: Catalog | None = None,
) -> Answer:
    catalog = catalog or load_catalog(store, asker.viewer)
    question = f"Who owns {entity.name}?"
    ctx = AskContext(store, settings, catalog, asker.viewer, question, QuestionTime(now, now=now))
    return owner_of(ctx, entity)


def owners(store: Store, settings: Settings, asker: Asker, now: datetime) -> list[dict[str, Any]]:
    """Every service and project: its owner now (or why none), and its claims in time order."""
    catalog = load_catalog(store, asker.viewer)
    out = []
    for entity in catalog.of(SERVICE, PROJECT):
        answer = _owner_answer(store, settings, asker, entity, now, catalog)
        timeline: list[dict[str, Any]] = []
        services = entity.extra.get("services", []) if entity.type == PROJECT else [entity.id]
        for sid in services:
            # Scoped in the query too, so hidden claims never use up the row cap.
            rows, _ = ask_q.owner_evidence(store, sid, settings.row_cap, query_scope(asker.viewer))
            for r in visible(
                [r for r in rows if r.get("claim")], asker.viewer, lambda r: r.get("acl")
            ):
                timeline.append({**{k: v for k, v in r.items() if k != "acl"}})
        timeline.sort(key=lambda r: (r.get("effective_ms") or 0, r.get("record") or ""))
        data = answer.to_dict()
        out.append(
            {
                "id": entity.id,
                "type": entity.type,
                "name": entity.name,
                "status": data["status"],
                "lines": result_lines(data),
                "refusal": data["refusal"],
                "citations": data["citations"],
                "timeline": timeline,
            }
        )
    return out


# -- adding a typed record ---------------------------------------------------------------

# The most text a typed record takes from the web app, by the API or the Add record page.
TYPED_TEXT_MAX = 100_000


def add_record(
    store: Store,
    settings: Settings,
    asker: Asker,
    *,
    text: str,
    author: str,
    about: list[str],
    now: datetime,
    record_id: str | None = None,
) -> dict[str, Any]:
    """Store a typed record as chat (whatever kind was picked), then ask the owner question
    of every service and project it names, before and after, to show what it changed."""
    from companybrain.ingest.pipeline import add_typed_record
    from companybrain.ingest.records import check_typed

    if len(text) > TYPED_TEXT_MAX:  # (the page posts a form the API's body check never sees)
        raise InputError(f"text: longer than {TYPED_TEXT_MAX:,} characters ({len(text):,})")
    author = author.strip()  # as who asks is read (engine.viewer_for): no id has spaces
    if not author:
        raise InputError("author: no person id given: a typed record is stored as theirs")
    if record_id and asker.viewer.restricted:
        # "exists already" for a record they may not see would tell them it exists
        raise InputError(
            "id: only someone who may see every record chooses a record's id (whether an id "
            "is taken tells which records exist); leave it out and one is made"
        )
    catalog = load_catalog(store, asker.viewer)
    named = [m.entity for m in catalog.mentions(text, SERVICE, PROJECT)]
    named += [e for e in catalog.of(SERVICE, PROJECT) if e.id in about and e not in named]
    before = {e.id: _owner_answer(store, settings, asker, e, now).to_dict() for e in named}
    rid = record_id or f"typed-{now.strftime('%Y%m%dT%H%M%S%f')}-{author}"
    record = Record(
        id=rid, kind="chat", at=now, text=text, author=author, about=tuple(about), origin="web"
    )
    check_typed(record)
    report = add_typed_record(store, record, settings)
    effects = []
    for e in named:
        after = _owner_answer(store, settings, asker, e, now).to_dict()
        effects.append(
            {
                "subject": {"id": e.id, "type": e.type, "name": e.name},
                "before": {
                    "status": before[e.id]["status"],
                    "lines": result_lines(before[e.id]),
                    "refusal": before[e.id]["refusal"],
                },
                "after": {
                    "status": after["status"],
                    "lines": result_lines(after),
                    "refusal": after["refusal"],
                },
                "changed": _gist(before[e.id]) != _gist(after),
            }
        )
    return {
        "id": rid,
        "kind": "chat",
        "authority": TYPED_AUTHORITY,
        "kept": report.kept,
        "refused": sum(report.rejected_facts.values()),
        "effects": effects,
    }


def _gist(answer: dict[str, Any]) -> tuple[Any, ...]:
    return (
        answer["status"],
        json.dumps(answer["result"], sort_keys=True),
        (answer["refusal"] or {}).get("code"),
    )
