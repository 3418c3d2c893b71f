"""The organisation to and from the graph, so that single records can be ingested against
the organisation a corpus stored earlier."""

from __future__ import annotations

import hashlib
import json
from dataclasses import asdict
from typing import Any

from companybrain.graph.connection import Store
from companybrain.graph.queries import records_q
from companybrain.model.records import Org, Person, Project, Service, Team


def org_digest(org: Org) -> str:
    """Changes when anything a record is checked against changes (names, aliases, authority).
    The same organisation gives the same digest whether it was read from org.yaml or from the
    graph: entries are taken in order of id, and `former` is true or false (the graph's
    order and its null would otherwise make every record read against one look changed to
    the other)."""
    data = asdict(org)
    for key in ("people", "teams", "services", "projects"):
        data[key] = sorted(data[key], key=lambda item: item["id"])
    for person in data["people"]:
        person["former"] = bool(person["former"])
    return hashlib.sha256(json.dumps(data, sort_keys=True, default=str).encode()).hexdigest()


def org_to_graph(store: Store, org: Org) -> None:
    data = asdict(org)
    for key in ("people", "teams", "services", "projects"):
        data[key] = [
            {k: list(v) if isinstance(v, tuple) else v for k, v in item.items()}
            for item in data[key]
        ]
    data["hash"] = org_digest(org)
    records_q.upsert_org(store, data)


def org_from_graph(store: Store) -> Org | None:
    data = records_q.read_org(store)
    if data is None:
        return None

    def t(value: Any) -> tuple[str, ...]:
        return tuple(value or ())

    return Org(
        company=data["company"], timezone=data["timezone"] or "UTC",
        people=tuple(Person(id=p["id"], name=p["name"], aliases=t(p["aliases"]), team=p["team"],
                            email=p["email"], groups=t(p["groups"]), former=p["former"])
                     for p in data["people"]),
        teams=tuple(Team(id=x["id"], name=x["name"], lead=x["lead"], aliases=t(x["aliases"]))
                    for x in data["teams"]),
        services=tuple(Service(id=s["id"], name=s["name"], aliases=t(s["aliases"]))
                       for s in data["services"]),
        projects=tuple(Project(id=p["id"], name=p["name"], aliases=t(p["aliases"]),
                               services=t(p["services"])) for p in data["projects"]),
        authority=json.loads(data["authority_json"]),
    )  # fmt: skip
