"""A service directory written 1 March, its row naming Ana Ruiz for the billing gateway and a
note "Effective 1 June 2026 the billing gateway changes hands.", named no owner from March to
May and Ana from 1 June, citing the row: the note was read as the day the row starts, though
the row says who owns it as of the directory and the note says that this ends. The row now
counts from the directory's time and, from the day the note gives, owner_of refuses
MISSING_PROVENANCE: the record says it changes hands without saying to whom."""

from __future__ import annotations

from pathlib import Path

from companybrain.ask.engine import ask
from companybrain.config import Settings
from companybrain.graph.connection import Store
from companybrain.ingest.pipeline import ingest
from companybrain.model.answer import Answer, RefusalCode
from tests.ask.handover import owner
from tests.ingest.corpus_builder import md, write_corpus

NOW = "2026-12-01T00:00:00Z"
ROWS = (
    "| Service | Owner |\n| --- | --- |\n| Billing Gateway | Ana Ruiz |\n"
    "| Search Index | Cy Park |\n"
)
NOTE = "Effective 1 June 2026 the billing gateway changes hands."


def load(store: Store, settings: Settings, tmp_path: Path, *extra: tuple[str, str]) -> None:
    head = {"id": "dir-1", "kind": "service_directory", "at": "2026-03-01T08:00:00Z"}
    files = {"dir.md": md(head, ROWS + "\n" + NOTE + "\n"), **dict(extra)}
    ingest(store, write_corpus(tmp_path / "c", files), settings)


def on(store: Store, settings: Settings, day: str, service: str = "billing gateway") -> Answer:
    return ask(store, settings, f"Who owns the {service} on {day}?", now=NOW)


def test_a_rows_owner_counts_from_the_directory_until_the_service_changes_hands(
    store: Store, settings: Settings, tmp_path: Path
) -> None:
    load(store, settings, tmp_path)
    march = on(store, settings, "2026-03-15")
    assert owner(march) == "ana"
    assert [(c.record, c.effective_at) for c in march.citations] == [
        ("dir-1", "2026-03-01T08:00:00Z")
    ]
    assert owner(on(store, settings, "2026-05-31")) == "ana"
    june = on(store, settings, "2026-06-15")
    assert june.refusal is not None and june.refusal.code is RefusalCode.MISSING_PROVENANCE
    assert "does not say to whom" in june.refusal.message and "Ana" not in june.refusal.message
    assert owner(on(store, settings, "2026-06-15", "search index")) == "cy"  # another service


def test_a_later_change_naming_the_new_owner_answers(
    store: Store, settings: Settings, tmp_path: Path
) -> None:
    cc = md(
        {"id": "CC-1", "kind": "change_control", "at": "2026-05-20T09:00:00Z"},
        "Effective 1 June 2026, ownership of the billing gateway transfers to Bo Lind.",
    )
    load(store, settings, tmp_path, ("cc.md", cc))
    assert owner(on(store, settings, "2026-05-31")) == "ana"
    assert owner(on(store, settings, "2026-06-01")) == "bo"
