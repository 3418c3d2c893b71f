"""Shared pieces of the fault and load tests: a generated corpus whose ownership truth is
known before anything is ingested, a server of one's own in a temporary folder, and
waiting for a process to die."""

from __future__ import annotations

import json
import os
import random
import shutil
import signal
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path

import yaml

from companybrain.graph.server import EmbeddedServer, _is_alive


def _words(text: str) -> tuple[str, ...]:
    return tuple(text.split())


FIRST = _words("Aino Bram Cleo Dario Edda Fenna Gil Hedda Ivo Jana Kai Liv Milo Nell Otto Pia")
LAST = _words("Aalto Berger Costa Dahl Engel Frost Garcia Holm Iversen Jung Kiss Lund")
ADJ = _words("Amber Basalt Cedar Cobalt Copper Coral Dune Ember Flint Garnet Granite Harbor")
NOUN = _words("Ledger Gateway Queue Router Scheduler Vault Indexer Catalog Mailer Tracker")
START = datetime(2026, 1, 5, 9, 0, tzinfo=UTC)


@dataclass
class Corpus:
    """A generated corpus and what it says: `owner[service]` is the owner after every
    change control (the truth), `first_owner[service]` the owner the directory names."""

    path: Path
    records: list[dict[str, object]]
    people: dict[str, str] = field(default_factory=dict)  # id → name
    services: dict[str, str] = field(default_factory=dict)  # id → name
    first_owner: dict[str, str] = field(default_factory=dict)
    owner: dict[str, str] = field(default_factory=dict)


def _iso(moment: datetime) -> str:
    return moment.strftime("%Y-%m-%dT%H:%M:%SZ")


def generate(path: Path, n_records: int, seed: int = 7, n_services: int = 24) -> Corpus:
    """A corpus of `n_records` records: one service directory naming every owner, then
    change controls moving ownership (high authority, so they decide), chat that names a
    stale owner (low authority, always outranked) and tickets that name no owner."""
    rng = random.Random(seed)
    path.mkdir(parents=True, exist_ok=True)
    people = {f"p{i:02d}": f"{FIRST[i % len(FIRST)]} {LAST[i % len(LAST)]}" for i in range(16)}
    services = {
        f"s{i:02d}": f"{ADJ[i % len(ADJ)]} {NOUN[(i * 7) % len(NOUN)]}" for i in range(n_services)
    }
    org = {
        "company": "Faultline Freight",
        "timezone": "UTC",
        "people": [
            {"id": pid, "name": name, "team": "core", "groups": ["eng"]}
            for pid, name in people.items()
        ],
        "teams": [{"id": "core", "name": "Core"}],
        "services": [{"id": sid, "name": name} for sid, name in services.items()],
    }
    (path / "org.yaml").write_text(yaml.safe_dump(org, sort_keys=False))
    corpus = Corpus(path, [], people, services)
    owner = {sid: rng.choice(list(people)) for sid in services}
    corpus.first_owner = dict(owner)
    lines = [f"- {services[s]}: owner {people[o]}" for s, o in owner.items()]
    records: list[dict[str, object]] = [
        {
            "id": "dir-0001",
            "kind": "service_directory",
            "at": _iso(START),
            "title": "Service directory",
            "text": "\n".join(
                f"The {services[s]} is owned by {people[o]}." for s, o in owner.items()
            )
            + "\n"
            + "\n".join(lines),
        }
    ]
    for i in range(1, n_records):
        at = START + timedelta(hours=i)
        sid = rng.choice(list(services))
        roll = rng.random()
        if roll < 0.15:
            new = rng.choice([p for p in people if p != owner[sid]])
            text = (
                f"Effective {_iso(at)}, ownership of the {services[sid]} transfers from "
                f"{people[owner[sid]]} to {people[new]}."
            )
            records.append(
                {"id": f"CC-{i:05d}", "kind": "change_control", "at": _iso(at),
                 "title": f"{services[sid]} ownership transfer", "about": [sid], "text": text}
            )  # fmt: skip
            owner[sid] = new
        elif roll < 0.35:
            stale = rng.choice(list(people))
            records.append(
                {"id": f"msg-{i:05d}", "kind": "chat", "at": _iso(at),
                 "author": rng.choice(list(people)),
                 "text": f"{people[stale]} still owns the {services[sid]}, ping them."}
            )  # fmt: skip
        else:
            records.append(
                {"id": f"T-{i:05d}", "kind": "ticket", "at": _iso(at), "status": "open",
                 "author": rng.choice(list(people)), "about": [sid],
                 "title": f"{services[sid]} latency {i}",
                 "text": f"p99 latency of the {services[sid]} rose after deploy {i}; "
                 f"retries doubled between {i % 24}:00 and {(i + 1) % 24}:00."}
            )  # fmt: skip
    corpus.records = records
    corpus.owner = owner
    write_records(path, records)
    return corpus


def write_records(path: Path, records: list[dict[str, object]]) -> None:
    with open(path / "records.jsonl", "w") as out:
        for record in records:
            out.write(json.dumps(record) + "\n")


def kill_server(home: Path) -> int:
    """SIGKILL the embedded server of `home` and wait until it is gone."""
    pid = EmbeddedServer(home).pid()
    assert pid is not None, "no server to kill"
    os.kill(pid, signal.SIGKILL)
    wait_dead(pid)
    return pid


def wait_dead(pid: int, timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while _is_alive(pid) and time.monotonic() < deadline:
        time.sleep(0.02)
    assert not _is_alive(pid), f"process {pid} did not die"


def env_for(home: Path, graph: str) -> dict[str, str]:
    """The environment of a `brain` subprocess on its own server and graph."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("BRAIN_", "OPENAI_"))}
    env.pop("FALKORDB_URL", None)
    env["BRAIN_HOME"] = str(home)
    env["BRAIN_GRAPH"] = graph
    return env


def grow(base: Corpus, path: Path, n_new: int, seed: int = 13) -> Corpus:
    """The base corpus and `n_new` records more, written to `path`: one change control for
    each of half the services (so that any state between the two corpora names, for every
    service, either its owner before or its owner after), the rest tickets and chat."""
    rng = random.Random(seed)
    path.mkdir(parents=True, exist_ok=True)
    shutil.copy(base.path / "org.yaml", path / "org.yaml")
    owner = dict(base.owner)
    moving = rng.sample(sorted(base.services), len(base.services) // 2)
    records = list(base.records)
    start = len(base.records)
    for i in range(start, start + n_new):
        at = _iso(START + timedelta(hours=i))
        sid = rng.choice(sorted(base.services))
        if moving and i >= start + n_new // 4 and rng.random() < 0.05:
            sid = moving.pop()
            new = rng.choice([p for p in base.people if p != owner[sid]])
            records.append(
                {"id": f"CC-{i:05d}", "kind": "change_control", "at": at,
                 "title": f"{base.services[sid]} ownership transfer", "about": [sid],
                 "text": f"Effective {at}, ownership of the {base.services[sid]} transfers "
                 f"from {base.people[owner[sid]]} to {base.people[new]}."}
            )  # fmt: skip
            owner[sid] = new
        else:
            records.append(
                {"id": f"T-{i:05d}", "kind": "ticket", "at": at, "status": "open",
                 "author": rng.choice(sorted(base.people)), "about": [sid],
                 "title": f"{base.services[sid]} alert {i}",
                 "text": f"The {base.services[sid]} paged at {i % 24}:00; retries doubled "
                 f"for {i % 7 + 2} minutes."}
            )  # fmt: skip
    write_records(path, records)
    grown = Corpus(path, records, base.people, base.services, dict(base.owner), owner)
    return grown
