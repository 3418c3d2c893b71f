"""A small organisation and record builder for extraction tests (proposers, verifier)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from companybrain.model.records import Org, Person, Record, Service

AT = datetime(2026, 10, 14, 11, 0, tzinfo=UTC)


def org() -> Org:
    return Org(
        company="Larkspur Systems",
        people=(
            Person("aria", "Aria Novak", aliases=("A. Novak",)),
            Person("ben", "Ben Okafor", aliases=("bokafor",)),
            Person("cora", "Cora Lind"),
            Person("dana", "Dana Reyes"),
            Person("omar", "Omar Haddad"),
            Person("dev", "Dev Patel"),
        ),
        services=(
            Service("billing-gateway", "Billing Gateway", ("billing gateway", "billing-gw")),
            Service("search-index", "Search Index", ("search index", "search-idx")),
            Service("payments-api", "Payments API", ("pay-api",)),
            Service("ledger", "Ledger Service", ("ledger service",)),
        ),
    )


def record(rid: str, text: str, kind: str = "chat", **fields: Any) -> Record:
    return Record(id=rid, kind=kind, at=AT, text=text, **fields)
