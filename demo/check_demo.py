#!/usr/bin/env python3
"""Consistency check for the bundled demo corpus.

Usage:  python3 demo/check_demo.py [--lint]

Loads demo/corpus/org.yaml, every record (records/**/*.md and records.jsonl),
demo/corpus/expected.json and demo/questions.jsonl, and asserts that:

- every record has id, kind and `at`; every time carries an explicit offset;
  record ids are unique; every person/service/project/record/group id used in
  front matter exists;
- every quote in expected.json is an exact substring of its record's body, and
  every ownership quote names the owner (name, first name or alias) and the
  service (name or alias), compared case-insensitively, ignoring punctuation;
- there is exactly one decision per `adr` record;
- every id used in questions.jsonl exists;
- the owner_of / who_knows / trace_decision expectations in questions.jsonl
  follow from expected.json and the front matter under the policy of
  spec/answers.md (a reference re-implementation, not the product's code).

--lint additionally prints every body sentence that looks like an ownership
statement but is neither in expected.json nor in its "rejected" list.

Needs only the standard library and PyYAML.
"""
from __future__ import annotations

import json
import re
import sys
from datetime import date, datetime, time, timedelta, timezone
from pathlib import Path

import yaml

HERE = Path(__file__).resolve().parent
CORPUS = HERE / "corpus"

AUTHORITY = {"change_control": 90, "adr": 85, "service_directory": 80, "runbook": 70,
             "ticket": 60, "comment": 50, "email": 40, "chat": 35, "wiki": 20}
REFUSALS = {"NOT_IN_GRAPH", "VAGUE_DATE", "NO_CLAIM", "MISSING_PROVENANCE", "CONFLICT",
            "LOW_AUTHORITY", "ROW_CAP", "OUT_OF_SCOPE"}
TOOLS = {"owner_of", "who_knows", "trace_decision", "person_or_team", "search_records", None}
STATUSES = {"adr": {"proposed", "accepted", "superseded", "deprecated"},
            "ticket": {"open", "resolved", "closed"}}
OFFSET_RE = re.compile(r"(Z|[+-]\d\d:\d\d)$")
ID_RE = re.compile(r"^[a-z0-9][a-z0-9._-]*$")

errors: list[str] = []


def err(msg: str) -> None:
    errors.append(msg)


# ----------------------------------------------------------------------------- loading

def parse_time(value, where: str):
    if isinstance(value, datetime):  # PyYAML turns unquoted timestamps into datetimes
        if value.tzinfo is None:
            err(f"{where}: time without offset: {value}")
            return None
        return value
    s = str(value)
    if not OFFSET_RE.search(s):
        err(f"{where}: time without offset: {s!r}")
        return None
    try:
        return datetime.fromisoformat(s.replace("Z", "+00:00"))
    except ValueError:
        err(f"{where}: unparseable time {s!r}")
        return None


def load_records():
    recs = []
    for path in sorted((CORPUS / "records").rglob("*.md")):
        raw = path.read_text(encoding="utf-8")
        m = re.match(r"^---\n(.*?)\n---\n(.*)$", raw, re.S)
        if not m:
            err(f"{path}: no YAML front matter")
            continue
        meta = yaml.safe_load(m.group(1)) or {}
        meta["_body"] = m.group(2)
        meta["_src"] = str(path.relative_to(HERE))
        recs.append(meta)
    jl = CORPUS / "records.jsonl"
    if jl.exists():
        for n, line in enumerate(jl.read_text(encoding="utf-8").splitlines(), 1):
            if not line.strip():
                continue
            obj = json.loads(line)
            obj["_body"] = obj.pop("text", "")
            obj["_src"] = f"records.jsonl:{n}"
            recs.append(obj)
    return recs


org = yaml.safe_load((CORPUS / "org.yaml").read_text(encoding="utf-8"))
people = {p["id"]: p for p in org["people"]}
teams = {t["id"]: t for t in org["teams"]}
services = {s["id"]: s for s in org["services"]}
projects = {p["id"]: p for p in org["projects"]}
groups = {g for p in org["people"] for g in p.get("groups", [])}
records = load_records()
by_id = {}

# ----------------------------------------------------------------------------- org.yaml

if not org.get("timezone"):
    err("org.yaml: timezone missing")
for section, items in (("people", people), ("teams", teams), ("services", services), ("projects", projects)):
    if len(items) != len(org[section]):
        err(f"org.yaml: duplicate id in {section}")
    for i in items:
        if not ID_RE.match(i):
            err(f"org.yaml: bad id {i!r} in {section}")
for clash in set(people) & set(services):
    err(f"org.yaml: person and service share id {clash}")
for p in people.values():
    if p.get("team") and p["team"] not in teams:
        err(f"org.yaml: {p['id']} has unknown team {p['team']}")
for t in teams.values():
    if t.get("lead") and t["lead"] not in people:
        err(f"org.yaml: team {t['id']} has unknown lead {t['lead']}")
for pr in projects.values():
    for s in pr.get("services", []):
        if s not in services:
            err(f"org.yaml: project {pr['id']} lists unknown service {s}")
first_names = {}
for p in people.values():
    first_names.setdefault(p["name"].split()[0].lower(), []).append(p["id"])
for fn, ids in first_names.items():
    if len(ids) > 1:
        err(f"org.yaml: first name {fn!r} is shared by {ids}")

# ----------------------------------------------------------------------------- records

for r in records:
    rid = r.get("id")
    where = f"{r['_src']} ({rid})"
    if not rid:
        err(f"{r['_src']}: missing id")
        continue
    if rid in by_id:
        err(f"duplicate record id {rid} ({by_id[rid]['_src']} and {r['_src']})")
    by_id[rid] = r
    if r.get("kind") not in AUTHORITY:
        err(f"{where}: unknown kind {r.get('kind')!r}")
    if "at" not in r:
        err(f"{where}: missing at")
    r["_at"] = parse_time(r.get("at"), where + " at")
    r["_eff"] = parse_time(r["effective_at"], where + " effective_at") if "effective_at" in r else r["_at"]
    if not r["_body"].strip():
        err(f"{where}: empty body")

for r in records:
    where = f"{r['_src']} ({r['id']})"
    for key in ("author", "resolved_by"):
        if key in r and r[key] not in people:
            err(f"{where}: {key} {r[key]!r} is not a person in org.yaml")
    for a in r.get("about", []) or []:
        if a not in services and a not in projects:
            err(f"{where}: about {a!r} is not a service or project")
    for key in ("supersedes", "motivated_by"):
        for x in r.get(key, []) or []:
            if x not in by_id:
                err(f"{where}: {key} {x!r} is not a record id")
    if "parent" in r and r["parent"] not in by_id:
        err(f"{where}: parent {r['parent']!r} is not a record id")
    for g in r.get("acl", []) or []:
        if g not in groups:
            err(f"{where}: acl group {g!r} is held by nobody")
    if r.get("status") is not None and r.get("kind") in STATUSES and r["status"] not in STATUSES[r["kind"]]:
        err(f"{where}: status {r['status']!r} not valid for {r['kind']}")
    if r.get("kind") == "comment" and "parent" not in r:
        err(f"{where}: comment without parent")
    if r.get("kind") == "ticket" and r.get("status") == "resolved" and "resolved_by" not in r:
        err(f"{where}: resolved ticket without resolved_by")

# ----------------------------------------------------------------------------- name matching


def norm(s: str) -> str:
    s = s.lower().replace("\u2019", "'").replace("\u2018", "'")
    s = re.sub(r"[^a-z0-9]+", " ", s)
    return f" {s.strip()} "


def names_of_person(pid):
    p = people[pid]
    return {p["name"], p["name"].split()[0], pid, *p.get("aliases", [])}


def names_of_service(sid):
    s = services[sid]
    return {s["name"], *s.get("aliases", [])}


def mentions(quote, names):
    q = norm(quote)
    return any(norm(n) in q for n in names)


# ----------------------------------------------------------------------------- expected.json

expected = json.loads((CORPUS / "expected.json").read_text(encoding="utf-8"))
for i, f in enumerate(expected["ownership"]):
    where = f"expected.ownership[{i}] ({f.get('record')})"
    r = by_id.get(f["record"])
    if r is None:
        err(f"{where}: unknown record")
        continue
    if f["service"] not in services:
        err(f"{where}: {f['service']!r} is not a service (ownership facts are for services only)")
        continue
    if f["owner"] not in people:
        err(f"{where}: unknown owner {f['owner']!r}")
        continue
    if f["quote"] not in r["_body"]:
        err(f"{where}: quote is not an exact substring of the body: {f['quote']!r}")
    if not mentions(f["quote"], names_of_person(f["owner"])):
        err(f"{where}: quote does not name {f['owner']}: {f['quote']!r}")
    if not mentions(f["quote"], names_of_service(f["service"])):
        err(f"{where}: quote does not name {f['service']}: {f['quote']!r}")
seen = set()
for f in expected["ownership"]:
    key = (f["record"], f["service"], f["owner"])
    if key in seen:
        err(f"expected.ownership: duplicate fact {key}")
    seen.add(key)

adr_ids = {r["id"] for r in records if r.get("kind") == "adr"}
dec_ids = [d["record"] for d in expected["decisions"]]
if sorted(dec_ids) != sorted(adr_ids):
    err(f"expected.decisions must be one per adr record: missing {sorted(adr_ids - set(dec_ids))}, "
        f"extra {sorted(set(dec_ids) - adr_ids)}, duplicates {sorted({d for d in dec_ids if dec_ids.count(d) > 1})}")
for d in expected["decisions"]:
    r = by_id.get(d["record"])
    if r is None:
        continue
    if d["quote"] not in r["_body"]:
        err(f"expected.decisions {d['record']}: quote not an exact substring: {d['quote']!r}")
    if r.get("title") and d.get("title") != r["title"]:
        err(f"expected.decisions {d['record']}: title {d.get('title')!r} differs from record title {r['title']!r}")
for x in expected["rejected"]:
    r = by_id.get(x["record"])
    if r is None:
        err(f"expected.rejected: unknown record {x['record']}")
        continue
    if "quote" in x and x["quote"] not in r["_body"]:
        err(f"expected.rejected {x['record']}: quote not an exact substring: {x['quote']!r}")
    if "person" in x and "service" in x:
        for f in expected["ownership"]:
            if f["record"] == x["record"] and f["owner"] == x["person"] and f["service"] == x["service"]:
                err(f"expected.rejected {x['record']}: {x['person']} is both rejected and a fact")
for r in records:
    if r.get("kind") == "chat":
        for d in expected["decisions"]:
            if d["record"] == r["id"]:
                err(f"expected.decisions: {r['id']} is chat; decisions come from adr records only")

# ----------------------------------------------------------------------------- reference policy

MONTHS = {m: i for i, m in enumerate(
    ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"], 1)}
MONTH_RE = r"(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?"


def end_of_day(d: date) -> datetime:
    return datetime.combine(d, time(23, 59, 59, 999999), tzinfo=timezone.utc)


def question_day(text: str, now: datetime):
    """Day named in the question (the forms the demo uses), 'vague', or None."""
    t = text.lower()
    if re.search(r"\b(ago|during|last (week|month|quarter|year)|before|after|since)\b", t):
        return "vague"
    if m := re.search(r"\b(\d{4})-(\d{2})-(\d{2})\b", t):
        return date(int(m[1]), int(m[2]), int(m[3]))
    if m := re.search(r"\b(\d{1,2})/(\d{1,2})/(\d{4})\b", t):
        a, b, y = int(m[1]), int(m[2]), int(m[3])
        if a <= 12 and b <= 12 and a != b:
            return "vague"
        return date(y, a, b) if a <= 12 else date(y, b, a)
    if m := re.search(MONTH_RE + r" (\d{1,2}),? (\d{4})", t):
        return date(int(m[3]), MONTHS[m[1][:3]], int(m[2]))
    if m := re.search(r"\b(\d{1,2}) " + MONTH_RE + r" (\d{4})", t):
        return date(int(m[3]), MONTHS[m[2][:3]], int(m[1]))
    if "yesterday" in t:
        return (now - timedelta(days=1)).date()
    if "today" in t:
        return now.date()
    return None


def visible(r, viewer):
    acl = r.get("acl")
    if not acl or viewer is None:
        return True
    return bool(set(acl) & set(people[viewer].get("groups", [])))


def owner_of(sid, as_of, viewer):
    claims = []
    for f in expected["ownership"]:
        r = by_id[f["record"]]
        if f["service"] == sid and visible(r, viewer) and r["_eff"] <= as_of:
            claims.append((AUTHORITY[r["kind"]], r["_eff"], f["owner"], f["record"]))
    if not claims:
        return {"status": "refused", "refusal": "NO_CLAIM", "citations": [], "outranked": []}
    top = max(c[0] for c in claims)
    latest = max(c[1] for c in claims if c[0] == top)
    winners = [c for c in claims if c[0] == top and c[1] == latest]
    rest = [c[3] for c in claims if c not in winners]
    if len({c[2] for c in winners}) > 1:
        return {"status": "refused", "refusal": "CONFLICT", "citations": [c[3] for c in winners], "outranked": rest}
    if top < 60:
        return {"status": "refused", "refusal": "LOW_AUTHORITY", "citations": [], "outranked": [c[3] for c in claims]}
    return {"status": "answered", "owner": winners[0][2], "citations": [winners[0][3]], "outranked": rest}


DOC_KINDS_VARIANTS = [
    {"adr", "runbook", "wiki", "service_directory"},
    {"adr", "runbook", "wiki", "service_directory", "change_control", "email"},
]


def expertise(subject, doc_kinds, ticket_author_weight, viewer=None):
    score = {}

    def add(pid, w):
        score[pid] = score.get(pid, 0) + w

    for r in records:
        if not visible(r, viewer):
            continue
        about = r.get("about") or []
        kind = r.get("kind")
        if kind == "ticket" and subject in about:
            if r.get("resolved_by"):
                add(r["resolved_by"], 6)
            if ticket_author_weight and r.get("author"):
                add(r["author"], ticket_author_weight)
        elif kind in doc_kinds and subject in about and r.get("author"):
            add(r["author"], 4)
        elif kind == "comment":
            parent = by_id.get(r.get("parent"))
            if parent and visible(parent, viewer) and subject in (parent.get("about") or []) and r.get("author"):
                add(r["author"], 2)
        elif kind == "chat" and subject in about and r.get("author"):
            add(r["author"], 1)
    return score


def chain_from(rid, viewer=None):
    """Newest first: follow 'superseded by' forward, then supersedes backward (records the
    viewer may see only)."""
    succ = {}
    for r in records:
        if not visible(r, viewer):
            continue
        for old in r.get("supersedes", []) or []:
            succ[old] = r["id"]
    head = rid
    while head in succ:
        head = succ[head]
    chain = [head]
    while True:
        prev = by_id[chain[-1]].get("supersedes") or []
        if not prev:
            return chain
        chain.append(prev[0])


# ----------------------------------------------------------------------------- questions

questions = [json.loads(l) for l in (HERE / "questions.jsonl").read_text(encoding="utf-8").splitlines() if l.strip()]
qids = [q["id"] for q in questions]
if len(qids) != len(set(qids)):
    err("questions.jsonl: duplicate question ids")
all_ids = set(people) | set(teams) | set(services) | set(projects) | set(by_id)
coverage = {"tools": {}, "refusals": {}, "dated": 0}
for q in questions:
    where = f"questions {q['id']}"
    e = q["expect"]
    now = parse_time(q["now"], where + " now")
    viewer = q.get("as")
    if viewer is not None and viewer not in people:
        err(f"{where}: as {viewer!r} is not a person")
    if e.get("tool", "-") not in TOOLS | {"-"}:
        err(f"{where}: unknown tool {e.get('tool')!r}")
    if e.get("status") not in {"answered", "refused"}:
        err(f"{where}: bad status")
    if e.get("status") == "refused" and e.get("refusal") not in REFUSALS:
        err(f"{where}: bad refusal code {e.get('refusal')!r}")
    for key in ("subject", "owner", "top_expert", "person", "team", "hit"):
        if key in e and e[key] not in all_ids:
            err(f"{where}: {key} {e[key]!r} does not exist")
    for key in ("chain", "motivated_by", "citations", "outranked"):
        for x in e.get(key, []):
            if x not in by_id:
                err(f"{where}: {key} entry {x!r} is not a record id")
    for o in e.get("owners", []):
        if o["service"] not in services or o["owner"] not in people:
            err(f"{where}: bad owners entry {o}")
    coverage["tools"][e.get("tool")] = coverage["tools"].get(e.get("tool"), 0) + 1
    if e.get("refusal"):
        coverage["refusals"][e["refusal"]] = coverage["refusals"].get(e["refusal"], 0) + 1

    day = question_day(q["question"], now)
    if e.get("refusal") == "VAGUE_DATE":
        if day != "vague":
            err(f"{where}: expected VAGUE_DATE but the reference parser read {day!r}")
        continue
    if day == "vague":
        err(f"{where}: reference parser finds a vague date but the expectation is not VAGUE_DATE")
        continue
    if day is not None:
        coverage["dated"] += 1
    as_of = end_of_day(day) if day else now

    if e.get("tool") == "owner_of" and e.get("subject") in services:
        got = owner_of(e["subject"], as_of, viewer)
        if got["status"] != e["status"] or got.get("refusal") != e.get("refusal") or got.get("owner") != e.get("owner"):
            err(f"{where}: expectation {e.get('owner') or e.get('refusal')} but the reference policy gives "
                f"{got.get('owner') or got.get('refusal')} (as_of {as_of.isoformat()}, as {viewer})")
        for key in ("citations", "outranked"):
            missing = set(e.get(key, [])) - set(got[key])
            if missing:
                err(f"{where}: {key} {sorted(missing)} not produced by the reference policy (got {got[key]})")
    elif e.get("tool") == "owner_of" and e.get("subject") in projects:
        want = {(o["service"], o["owner"]) for o in e.get("owners", [])}
        got_pairs, cites = set(), set()
        for sid in projects[e["subject"]]["services"]:
            g = owner_of(sid, as_of, viewer)
            if g["status"] == "answered":
                got_pairs.add((sid, g["owner"]))
                cites |= set(g["citations"])
            else:
                err(f"{where}: service {sid} of the project is refused ({g['refusal']}); pick a project whose services all answer")
        if want != got_pairs:
            err(f"{where}: owners {sorted(want)} but the reference policy gives {sorted(got_pairs)}")
        if set(e.get("citations", [])) - cites:
            err(f"{where}: citations {sorted(set(e.get('citations', [])) - cites)} not produced")
    elif e.get("tool") == "who_knows" and e.get("status") == "answered":
        for kinds in DOC_KINDS_VARIANTS:
            for taw in (0, 2):
                sc = expertise(e["subject"], kinds, taw, viewer)
                ranked = sorted(sc.items(), key=lambda kv: -kv[1])
                if not ranked or ranked[0][0] != e.get("top_expert") or (len(ranked) > 1 and ranked[1][1] == ranked[0][1]):
                    err(f"{where}: top expert {e.get('top_expert')} not clear under variant docs={sorted(kinds)} "
                        f"ticket_author={taw}: {ranked[:4]}")
                if "bus_factor" in e and e["bus_factor"] == 1 and len(ranked) != 1:
                    err(f"{where}: bus factor 1 expected but {len(ranked)} people have a path: {ranked}")
    elif e.get("tool") == "trace_decision" and e.get("chain"):
        got = chain_from(e["chain"][-1], viewer)
        if got != e["chain"]:
            err(f"{where}: chain {e['chain']} but supersedes gives {got}")
        mot = sorted({m for d in got for m in (by_id[d].get("motivated_by") or [])})
        if sorted(e.get("motivated_by", [])) != mot:
            err(f"{where}: motivated_by {e.get('motivated_by')} but the chain's front matter gives {mot}")
    elif e.get("tool") == "search_records":
        hit = by_id.get(e.get("hit"))
        words = [w for w in re.findall(r"[a-z0-9]{4,}", q["question"].lower())
                 if w not in {"find", "search", "records", "about", "runbook", "with", "from", "that", "what"}]
        text = ((hit or {}).get("title", "") + " " + (hit or {}).get("_body", "")).lower()
        if hit and not any(w in text for w in words):
            err(f"{where}: hit {e['hit']} shares no word with the question")

# ----------------------------------------------------------------------------- lint (optional)

if "--lint" in sys.argv:
    pat = re.compile(r"\b(own|owns|owned|owner|ownership|taken over|takes over|handing|hand over|point of contact|"
                     r"transfers?|belongs|responsible|maintains?)\b", re.I)
    covered = {(f["record"], f["quote"]) for f in expected["ownership"]} | \
              {(x["record"], x.get("quote", "")) for x in expected["rejected"]}
    for r in records:
        for sent in re.split(r"(?<=[.!?])\s+|\n", r["_body"]):
            if pat.search(sent) and not any(rec == r["id"] and qt and qt in sent for rec, qt in covered):
                print(f"lint {r['id']}: {sent.strip()}")

# ----------------------------------------------------------------------------- report

kinds = {}
for r in records:
    kinds[r.get("kind")] = kinds.get(r.get("kind"), 0) + 1
md = sum(1 for r in records if r["_src"].endswith(".md"))
print(f"records: {len(records)} ({md} Markdown, {len(records) - md} JSONL)")
for k in AUTHORITY:
    print(f"  {k:18} {kinds.get(k, 0):4}")
print(f"org: {len(people)} people, {len(teams)} teams, {len(services)} services, {len(projects)} projects")
print(f"expected: {len(expected['ownership'])} ownership, {len(expected['decisions'])} decisions, "
      f"{len(expected['rejected'])} rejected")
print(f"questions: {len(questions)}; tools {coverage['tools']}; refusals {coverage['refusals']}; "
      f"with a parsed date {coverage['dated']}")
if errors:
    print(f"\n{len(errors)} problem(s):")
    for e in errors:
        print("  -", e)
    sys.exit(1)
print("OK")
