"""Write a synthetic company to a corpus folder: org.yaml, records.jsonl (streamed a line at
a time), ADRs as Markdown files under records/adr/, and what the generator knows to be true:
expected.json (owner of every service at `now`) and truth/questions.jsonl (ownership
questions at several times, in the format `brain eval questions` reads; outside the corpus
root, whose *.jsonl files are records)."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import yaml

from companybrain.synth.company import SPAN, START, build_company, org_mapping
from companybrain.synth.records import Stream

Progress = Callable[[int, int], None]
NOW = START + SPAN + timedelta(days=1)


@dataclass(frozen=True)
class Generated:
    out: Path
    people: int
    services: int
    records: int
    claims: int
    questions: int
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
) -> int:
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
    chosen = rng.sample(company.services, min(questions, len(company.services)))
    (out / "truth").mkdir(exist_ok=True)
    with (out / "truth" / "questions.jsonl").open("w", encoding="utf-8") as lines:
        for n, svc in enumerate(chosen, start=1):
            when = NOW if n % 2 else START + timedelta(days=rng.randrange(1, SPAN.days))
            got = company.truth(svc.id, when)
            expect: dict[str, Any] = {"tool": "owner_of", "subject": svc.id,
                                      "status": got["status"]}  # fmt: skip
            if got["status"] == "answered":
                expect |= {"owner": got["owner"], "citations": got["records"]}
            else:
                expect["refusal"] = got["refusal"]
            item = {"id": f"own-{n:04d}", "question": f"Who owns the {svc.name}?",
                    "now": _z(when), "as": None, "expect": expect}  # fmt: skip
            lines.write(json.dumps(item, ensure_ascii=False) + "\n")
    return len(chosen)
