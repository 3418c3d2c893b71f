"""Build small corpora in temporary folders for ingestion tests."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import yaml

ORG: dict[str, Any] = {
    "company": "Testco",
    "timezone": "UTC",
    "people": [
        {"id": "ana", "name": "Ana Ruiz", "aliases": ["A. Ruiz"], "team": "pay", "groups": ["pay"]},
        {"id": "bo", "name": "Bo Lind", "team": "pay", "groups": ["pay", "sec"]},
        {"id": "cy", "name": "Cy Park", "team": "ops"},
    ],
    "teams": [{"id": "pay", "name": "Payments", "lead": "ana"}, {"id": "ops", "name": "Ops"}],
    "services": [
        {
            "id": "billing-gateway",
            "name": "Billing Gateway",
            "aliases": ["billing gateway", "billing-gw"],
        },
        {"id": "search-index", "name": "Search Index"},
    ],
    "projects": [
        {
            "id": "orion",
            "name": "Project Orion",
            "aliases": ["Orion"],
            "services": ["billing-gateway"],
        }
    ],
}


def md(front: dict[str, Any], body: str) -> str:
    return "---\n" + yaml.safe_dump(front, sort_keys=False) + "---\n" + body + "\n"


def write_corpus(
    root: Path,
    records: dict[str, str],
    jsonl: list[dict[str, Any]] | None = None,
    org: dict[str, Any] | None = None,
) -> Path:
    root.mkdir(parents=True, exist_ok=True)
    (root / "org.yaml").write_text(yaml.safe_dump(org or ORG, sort_keys=False))
    folder = root / "records"
    folder.mkdir(exist_ok=True)
    for name, text in records.items():
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    if jsonl is not None:
        (root / "records.jsonl").write_text("".join(json.dumps(r) + "\n" for r in jsonl))
    return root
