"""A change control written 10 May saying "Kofi Mensah no longer owns the billing gateway."
and naming no one who does: the quote was refused as naming a previous owner and nothing
else was kept, so the directory's Kofi answered for every later day, citing the directory,
although a record of higher authority says he no longer owns it. It now says the service
changed hands to someone it does not name: from its day owner_of refuses
MISSING_PROVENANCE, citing it, naming no one."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from companybrain.ask.engine import ask
from companybrain.config import Settings
from companybrain.graph.connection import Store
from companybrain.ingest.pipeline import ingest
from companybrain.model.answer import Answer, RefusalCode
from tests.ask.handover import DIRECTORY, TEAM_ORG, change
from tests.ingest.corpus_builder import write_corpus
from tests.support.model_server import ScriptedModelServer, tool_call

NOW = "2026-07-01T00:00:00Z"


def answers(store: Store, settings: Settings, tmp_path: Path, text: str) -> list[Answer]:
    files = {"dir.md": DIRECTORY, "cc.md": change(text, at="2026-05-10T09:00:00Z")}
    ingest(store, write_corpus(tmp_path / "c", files, org=TEAM_ORG), settings)
    days = ("2026-05-09", "2026-05-11", "2026-06-30")
    return [ask(store, settings, f"Who owns the billing gateway on {d}?", now=NOW) for d in days]


@pytest.mark.parametrize(
    "text",
    [
        "Kofi Mensah no longer owns the billing gateway.",
        "Kofi Mensah no longer owns the billing gateway; Cora Ng does.",
        "Kofi Mensah used to own the billing gateway.",
    ],
)
def test_an_owner_who_no_longer_owns_it_is_not_named_after_the_record(
    store: Store, settings: Settings, tmp_path: Path, text: str
) -> None:
    before, after, later = answers(store, settings, tmp_path, text)
    assert before.result == {"owner": {"id": "kofi", "name": "Kofi Mensah"}}
    for answer in (after, later):
        assert answer.refusal is not None and answer.result is None
        assert answer.refusal.code is RefusalCode.MISSING_PROVENANCE
        assert [c.record for c in answer.citations] == ["CC-7"]
        assert "no longer owns it" in answer.refusal.message
        assert "CC-7 (change_control, authority 90) leaves who owns it unclear" in (
            answer.refusal.message
        )


def test_a_new_owner_the_record_names_answers(
    store: Store, settings: Settings, tmp_path: Path
) -> None:
    text = "Kofi Mensah no longer owns the billing gateway. Cora Ng owns the billing gateway."
    _, after, _ = answers(store, settings, tmp_path, text)
    assert after.result == {"owner": {"id": "cora", "name": "Cora Ng"}}


def test_a_past_owner_named_only_as_history_changes_nothing(
    store: Store, settings: Settings, tmp_path: Path
) -> None:
    _, after, _ = answers(
        store, settings, tmp_path, "Kofi Mensah owned the billing gateway in 2024."
    )
    assert after.result == {"owner": {"id": "kofi", "name": "Kofi Mensah"}}


@pytest.mark.parametrize(
    "text",
    [
        "Kofi Mensah stepped down as owner of the billing gateway.",
        "Kofi Mensah is no longer the owner of the billing gateway.",
        "The billing gateway is unowned as of today.",
        "Yesterday Zara Quinn took over the billing gateway.",  # no pattern reads "Yesterday Zara"
    ],
)
def test_a_change_of_hands_no_pattern_reads_an_owner_from_is_refused_after_it(
    store: Store, settings: Settings, tmp_path: Path, text: str
) -> None:
    """Each gave no claim at all: the directory's Kofi answered after the change control."""
    before, after, later = answers(store, settings, tmp_path, text)
    assert before.result == {"owner": {"id": "kofi", "name": "Kofi Mensah"}}
    for answer in (after, later):
        assert answer.refusal is not None and answer.result is None
        assert answer.refusal.code is RefusalCode.MISSING_PROVENANCE
        assert [(c.record, c.quote) for c in answer.citations] == [("CC-7", text)]
        assert "in words the rules do not read an owner from" in answer.refusal.message


def test_other_talk_of_the_service_changes_nothing(
    store: Store, settings: Settings, tmp_path: Path
) -> None:
    text = "Kofi Mensah will present the billing gateway roadmap on Friday."
    _, after, _ = answers(store, settings, tmp_path, text)
    assert after.result == {"owner": {"id": "kofi", "name": "Kofi Mensah"}}


KOFI_ROW = "| Billing Gateway | Kofi Mensah |"


def _reads_the_directory_only(request: dict[str, Any]) -> dict[str, Any]:
    """A model that reads the directory's row, and in the change control no owner: as told,
    it reports no previous owner, and "stepped down" or "unowned" name none."""
    user = request["messages"][-1]["content"]
    row = [{"service": "billing-gateway", "owner": "kofi", "quote": KOFI_ROW}]
    return tool_call("record_facts", {"ownership": row if KOFI_ROW in user else []})


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("Kofi Mensah no longer owns the billing gateway.", "no longer owns it"),
        ("Kofi Mensah used to own the billing gateway.", "no longer owns it"),
        ("Kofi Mensah stepped down as owner of the billing gateway.", "in words the rules"),
        ("Kofi Mensah is no longer the owner of the billing gateway.", "in words the rules"),
        ("The billing gateway is unowned as of today.", "in words the rules"),
        ("Yesterday Zara Quinn took over the billing gateway.", "in words the rules"),
    ],
)
def test_a_model_that_reads_no_owner_in_a_change_of_hands_gets_the_same_refusal(
    store: Store,
    model_settings: Settings,
    model_server: ScriptedModelServer,
    tmp_path: Path,
    text: str,
    why: str,
) -> None:
    """The rules keep these as a change of hands to someone the record does not name; a
    model proposer that proposed nothing for them (as its prompt asks for a sentence naming
    no owner, or only a previous one) kept nothing, and the directory's Kofi answered for
    every day after the change control, citing the directory."""
    llm = model_settings.with_(home=tmp_path / "home", proposer="model")
    model_server.play(_reads_the_directory_only, _reads_the_directory_only)
    before, after, later = answers(store, llm, tmp_path, text)
    assert before.result == {"owner": {"id": "kofi", "name": "Kofi Mensah"}}
    for answer in (after, later):
        assert answer.refusal is not None and answer.result is None
        assert answer.refusal.code is RefusalCode.MISSING_PROVENANCE
        assert [(c.record, c.quote) for c in answer.citations] == [("CC-7", text)]
        assert why in answer.refusal.message


def test_a_new_owner_the_model_reads_answers_after_a_change_of_hands(
    store: Store, model_settings: Settings, model_server: ScriptedModelServer, tmp_path: Path
) -> None:
    """What code adds beside a model's reading is a refusal only where the model named no
    owner of the service."""
    text = "Kofi Mensah stepped down as owner of the billing gateway. Cora Ng owns it now."

    def reads_cora(request: dict[str, Any]) -> dict[str, Any]:
        if KOFI_ROW in request["messages"][-1]["content"]:
            return _reads_the_directory_only(request)
        cora = {"service": "billing-gateway", "owner": "cora", "quote": text}
        return tool_call("record_facts", {"ownership": [cora]})

    llm = model_settings.with_(home=tmp_path / "home", proposer="model")
    model_server.play(reads_cora, reads_cora)
    _, after, _ = answers(store, llm, tmp_path, text)
    assert after.result == {"owner": {"id": "cora", "name": "Cora Ng"}}
