"""Write a synthetic company to a corpus folder: org.yaml, records.jsonl (streamed a line at
a time), ADRs as Markdown files under records/adr/, and what the generator knows to be true:
expected.json (owner of every service at `now`) and truth/questions.jsonl (ownership
questions at several times, some asked by people a change control is hidden from; who
knows a service; what replaced a decision; who a person is and who is on a team; in the
format `brain eval questions` reads, outside the corpus root, whose *.jsonl files are
records)."""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import yaml

from companybrain.synth.company import NOW, SPAN, START, build_company, org_mapping
from companybrain.synth.records import Stream

Progress = Callable[[int, int], None]
ACCESS_QUESTIONS = 10  # at most; half asked by someone outside the team, half by one in it
EXPERT_QUESTIONS = 10  # at most: services whose best expert is ahead of the next
DECISION_QUESTIONS = 20  # at most; three in four about a decision that replaced or was replaced
PEOPLE_QUESTIONS = 5
TEAM_QUESTIONS = 3


@dataclass(frozen=True)
class Generated:
    out: Path
    people: int
    services: int
    records: int
    claims: int
    questions: dict[str, int]  # questions in truth/ by question type
    counts: dict[str, int]


def default_services(records: int) -> int:
    """About a hundred records a service keeps any one service's claims well under the
    evidence query's row cap, as in a real company with many small services."""
    return max(5, records // 100)


def generate(
    out: Path,
    *,
    people: int,
    records: int,
    seed: int,
    services: int | None = None,
    snapshots: int | None = None,
    questions: int = 100,
    progress: Progress | None = None,
) -> Generated:
    if people < 2 or records < 1 or (snapshots is not None and snapshots < 1):
        raise ValueError("need at least 2 people, 1 record and 1 directory snapshot")
    rng = random.Random(seed)
    company = build_company(rng, people, services or default_services(records))
    out.mkdir(parents=True, exist_ok=True)
    (out / "records" / "adr").mkdir(parents=True, exist_ok=True)
    (out / "org.yaml").write_text(
        "# A synthetic company made by `brain gen-corpus`; every name is invented.\n"
        + yaml.safe_dump(org_mapping(company), sort_keys=False, allow_unicode=True)
    )
    stream = Stream(company, rng, records, snapshots)
    written = 0
    with (out / "records.jsonl").open("w", encoding="utf-8") as lines:
        for raw in stream:
            if raw["kind"] == "adr":
                _write_markdown(out / "records" / "adr" / f"{raw['id']}.md", raw)
            else:
                lines.write(json.dumps(raw, ensure_ascii=False) + "\n")
            written += 1
            if progress and written % 10_000 == 0:
                progress(written, records)
    asked = _write_truth(out, company, stream, rng, questions, seed)
    return Generated(
        out=out, people=people, services=len(company.services), records=written,
        claims=sum(len(c) for c in company.claims.values()), questions=asked,
        counts=dict(stream.counts),
    )  # fmt: skip


def _write_markdown(path: Path, raw: dict[str, Any]) -> None:
    meta = {k: v for k, v in raw.items() if k != "text"}
    front = yaml.safe_dump(meta, sort_keys=False, allow_unicode=True)
    path.write_text(f"---\n{front}---\n{raw['text']}", encoding="utf-8")


def _z(moment: datetime) -> str:
    return moment.astimezone(UTC).isoformat(timespec="seconds").replace("+00:00", "Z")


def _write_truth(
    out: Path, company: Any, stream: Stream, rng: random.Random, questions: int, seed: int
) -> dict[str, int]:
    owners = []
    for svc in company.services:
        owners.append({"service": svc.id, "name": svc.name, **company.truth(svc.id, NOW)})
    truth = {
        "generator": {"people": len(company.people), "services": len(company.services),
                      "records": sum(stream.counts.values()), "seed": seed},
        "now": _z(NOW),
        "counts": dict(sorted(stream.counts.items())),
        "claims": sum(len(c) for c in company.claims.values()),
        "owners": owners,
    }  # fmt: skip
    (out / "expected.json").write_text(json.dumps(truth, indent=1, ensure_ascii=False) + "\n")
    items = [
        *_ownership_questions(company, rng, questions),
        *_access_questions(company, rng),
        *_expert_questions(company, rng),
        *_decision_questions(stream, rng),
        *_people_questions(company, rng),
    ]
    (out / "truth").mkdir(exist_ok=True)
    with (out / "truth" / "questions.jsonl").open("w", encoding="utf-8") as lines:
        for item in items:
            lines.write(json.dumps(item, ensure_ascii=False) + "\n")
    return dict(Counter(item["expect"]["tool"] for item in items))


def _ownership_questions(company: Any, rng: random.Random, count: int) -> list[dict[str, Any]]:
    """Who owns a service, now or on a day in the past, as the ownership history says."""
    items = []
    chosen = rng.sample(company.services, min(count, len(company.services)))
    for n, svc in enumerate(chosen, start=1):
        when = NOW if n % 2 else START + timedelta(days=rng.randrange(1, SPAN.days))
        got = company.truth(svc.id, when)
        expect: dict[str, Any] = {"tool": "owner_of", "subject": svc.id,
                                  "status": got["status"]}  # fmt: skip
        if got["status"] == "answered":
            expect |= {"owner": got["owner"], "citations": got["records"]}
        else:
            expect["refusal"] = got["refusal"]
        items.append({"id": f"own-{n:04d}", "question": f"Who owns the {svc.name}?",
                      "now": _z(when), "as": None, "expect": expect})  # fmt: skip
    return items


def _access_questions(company: Any, rng: random.Random) -> list[dict[str, Any]]:
    """Who owns a service the day after a change control only its team may see, asked by
    someone outside the team (told the owner the records they may see name) and by
    someone in it."""
    hidden = [c for claims in company.claims.values() for c in claims
              if c.acl and c.kind == "change_control" and c.effective < NOW]  # fmt: skip
    items = []
    for n, claim in enumerate(rng.sample(hidden, min(len(hidden), ACCESS_QUESTIONS)), start=1):
        svc = next(s for s in company.services if s.id == claim.service)
        inside = [p for p in company.people if p.team == svc.team]
        outside = [p for p in company.people if p.team != svc.team]
        asker = rng.choice(outside if n % 2 and outside else inside)
        when = min(NOW, claim.effective + timedelta(days=1))
        got = company.truth(svc.id, when, frozenset(asker.groups))
        expect: dict[str, Any] = {"tool": "owner_of", "subject": svc.id,
                                  "status": got["status"]}  # fmt: skip
        if got["status"] == "answered":
            expect |= {"owner": got["owner"], "citations": got["records"]}
        else:
            expect["refusal"] = got["refusal"]
        items.append({"id": f"acc-{n:04d}", "question": f"Who owns the {svc.name}?",
                      "now": _z(when), "as": asker.id, "expect": expect})  # fmt: skip
    return items


def _expert_questions(company: Any, rng: random.Random) -> list[dict[str, Any]]:
    """Who knows a service, by the records written about it, where one person is ahead of
    the next (a tie is broken by who worked with whom, which the truth does not model) and
    no other service's name holds its name (a mention of one would be one of both)."""
    names = [s.name.casefold() for s in company.services]
    clear = []
    for svc in company.services:
        ranked = company.experts(svc.id)
        inside = sum(svc.name.casefold() in n for n in names) > 1
        if ranked and (len(ranked) == 1 or ranked[0][1] > ranked[1][1]) and not inside:
            clear.append((svc, ranked))
    items = []
    for n, (svc, ranked) in enumerate(rng.sample(clear, min(len(clear), EXPERT_QUESTIONS)), 1):
        total, held, factor = sum(score for _, score in ranked), 0, 0
        while held * 2 <= total:  # the fewest people who hold more than half of it
            held += ranked[factor][1]
            factor += 1
        expect = {"tool": "who_knows", "subject": svc.id, "status": "answered",
                  "top_expert": ranked[0][0], "bus_factor": factor}  # fmt: skip
        items.append({"id": f"know-{n:04d}", "question": f"Who knows the {svc.name}?",
                      "now": _z(NOW), "as": None, "expect": expect})  # fmt: skip
    return items


def _decision_questions(stream: Stream, rng: random.Random) -> list[dict[str, Any]]:
    """What replaced a decision, or what it replaced: the whole chain of replacements it is
    in, newest first, with every ticket that motivated one of them; every other question
    on a day between the decision and now, when the chain holds only what was written by
    then."""
    linked = [a for a in stream.adr_ids if a in stream.older or a in stream.newer]
    alone = [a for a in stream.adr_ids if a not in stream.older and a not in stream.newer]
    some = min(len(linked), DECISION_QUESTIONS * 3 // 4)
    chosen = rng.sample(linked, some) + rng.sample(
        alone, min(len(alone), DECISION_QUESTIONS - some)
    )
    items = []
    for n, adr in enumerate(chosen, start=1):
        when = NOW
        if n % 4 in (2, 3):
            days = (NOW - stream.adr_at[adr]).days
            when = stream.adr_at[adr] + timedelta(days=rng.randrange(1, max(2, days)))
        chain = [a for a in stream.chain(adr) if stream.adr_at[a] <= when]
        motivated = [stream.motivations[a] for a in chain if a in stream.motivations]
        question = f"What replaced {adr}?" if n % 2 else f"What did {adr} replace?"
        expect = {"tool": "trace_decision", "subject": adr, "status": "answered",
                  "chain": chain, "motivated_by": motivated, "citations": chain}  # fmt: skip
        items.append({"id": f"dec-{n:04d}", "question": question, "now": _z(when),
                      "as": None, "expect": expect})  # fmt: skip
    return items


def _people_questions(company: Any, rng: random.Random) -> list[dict[str, Any]]:
    """Who a person is and who is on a team, as org.yaml says."""
    items = []
    people = rng.sample(company.people, min(PEOPLE_QUESTIONS, len(company.people)))
    for n, person in enumerate(people, start=1):
        expect = {"tool": "person_or_team", "subject": person.id, "status": "answered",
                  "person": person.id}  # fmt: skip
        items.append({"id": f"who-{n:04d}", "question": f"Who is {person.name}?",
                      "now": _z(NOW), "as": None, "expect": expect})  # fmt: skip
    teams = rng.sample(company.teams, min(TEAM_QUESTIONS, len(company.teams)))
    for n, (team, name, _lead) in enumerate(teams, start=1):
        expect = {"tool": "person_or_team", "subject": team, "status": "answered",
                  "team": team}  # fmt: skip
        items.append({"id": f"team-{n:04d}", "question": f"Who is on the {name} team?",
                      "now": _z(NOW), "as": None, "expect": expect})  # fmt: skip
    return items
