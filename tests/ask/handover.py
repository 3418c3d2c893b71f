"""The story most ownership tests tell: a directory of 1 March 2026 names Kofi Mensah for
the billing gateway; a change control CC-7 then says something of it; the question is who
owns it on a day, asked with the clock at `NOW`."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from companybrain.ask.engine import ask
from companybrain.config import Settings
from companybrain.graph.connection import Store
from companybrain.ingest.pipeline import ingest
from companybrain.model.answer import Answer
from tests.ingest.corpus_builder import ORG, md, write_corpus

NOW = "2026-07-01T00:00:00Z"
PEOPLE = [{"id": "kofi", "name": "Kofi Mensah"}, {"id": "cora", "name": "Cora Ng"}]
TEAM_ORG = {**ORG, "people": [*ORG["people"], *PEOPLE]}
DIRECTORY = md(
    {"id": "dir-1", "kind": "service_directory", "at": "2026-03-01T08:00:00Z"},
    "| Service | Owner |\n| --- | --- |\n| Billing Gateway | Kofi Mensah |\n",
)
SENTENCE = "Effective next month, ownership of the billing gateway transfers to Cora Ng."


def change(text: str = SENTENCE, **front: Any) -> str:
    head = {"id": "CC-7", "kind": "change_control", "at": "2026-04-01T09:00:00Z"} | front
    return md(head, text)


def on(store: Store, settings: Settings, day: str, now: str = NOW) -> Answer:
    return ask(store, settings, f"Who owns the billing gateway on {day}?", now=now)


def owner(answer: Answer) -> str | None:
    return answer.result["owner"]["id"] if answer.result else None


WRITTEN = "2026-05-10T09:00:00Z"  # a Sunday: when CC-7 is written, unless told


def load(store: Store, settings: Settings, tmp_path: Path, text: str, **front: Any) -> None:
    """The directory, and CC-7 saying `text` (written `WRITTEN`, with `front` matter)."""
    files = {"dir.md": DIRECTORY, "cc.md": change(text, **{"at": WRITTEN, **front})}
    ingest(store, write_corpus(tmp_path / "c", files, org=TEAM_ORG), settings)


# The same story with two services: the directory also names Ana Ruiz for the search index.
DIRECTORY_TWO = md(
    {"id": "dir-1", "kind": "service_directory", "at": "2026-03-01T08:00:00Z"},
    "| Service | Owner |\n| --- | --- |\n| Billing Gateway | Kofi Mensah |\n"
    "| Search Index | Ana Ruiz |\n",
)


def load_two(store: Store, settings: Settings, tmp_path: Path, text: str, **front: Any) -> None:
    """The two-service directory, and CC-7 saying `text` (written `WRITTEN`)."""
    files = {"dir.md": DIRECTORY_TWO, "cc.md": change(text, **{"at": WRITTEN, **front})}
    ingest(store, write_corpus(tmp_path / "c", files, org=TEAM_ORG), settings)


def owner_on(store: Store, settings: Settings, service: str, day: str) -> Answer:
    return ask(store, settings, f"Who owns the {service} on {day}?", now=NOW)
