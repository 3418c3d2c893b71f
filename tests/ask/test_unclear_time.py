"""A change of owner whose time cannot be read ("Effective next month, ownership of the
billing gateway transfers to Cora Ng.", written 1 April with no `effective_at`) names no
owner, and it was dropped: the directory's older owner then answered for every later day,
citing the directory, although a record of higher authority says the service changed hands.
It is kept as a claim without its owner, and owner_of refuses from the day it was written."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from click.testing import CliRunner

from companybrain.ask.engine import ask
from companybrain.config import Settings
from companybrain.graph.connection import Store
from companybrain.ingest.pipeline import ingest
from companybrain.model.answer import Answer, RefusalCode
from companybrain.surfaces.cli.main import cli
from tests.ask.handover import DIRECTORY, NOW, SENTENCE, TEAM_ORG, change, on, owner
from tests.ingest.corpus_builder import md, write_corpus
from tests.support.model_server import ScriptedModelServer, tool_call


def load(store: Store, settings: Settings, tmp_path: Path, cc: str) -> Any:
    files = {"dir.md": DIRECTORY, "cc.md": cc}
    return ingest(store, write_corpus(tmp_path / "c", files, org=TEAM_ORG), settings)


def assert_refused_citing_the_change(answer: Answer, quote: str = SENTENCE) -> None:
    assert answer.status == "refused" and answer.result is None
    assert answer.refusal is not None
    assert answer.refusal.code is RefusalCode.MISSING_PROVENANCE
    message = answer.refusal.message
    assert "CC-7" in message and '"next month"' in message
    assert "Cora" not in message and "cora" not in message  # its owner is never named
    [cited] = answer.citations
    assert (cited.record, cited.quote) == ("CC-7", quote)
    assert cited.effective_at is None  # nor given a time it does not state
    assert [(o.record, o.owner) for o in answer.outranked] == [("dir-1", "kofi")]


def test_a_change_whose_time_cannot_be_read_refuses_from_the_day_it_was_written(
    store: Store, settings: Settings, tmp_path: Path
) -> None:
    report = load(store, settings, tmp_path, change())
    assert [r["check"] for r in report.rejected_detail] == ["effective_time"]  # still reported
    before = on(store, settings, "2026-03-31")
    assert owner(before) == "kofi" and [c.record for c in before.citations] == ["dir-1"]
    for day in ("2026-04-01", "2026-04-15", "2026-05-15", "2026-06-15"):
        assert_refused_citing_the_change(on(store, settings, day))
    # a question asked before the record was written is not refused by it
    earlier = ask(store, settings, "Who owns the billing gateway?", now="2026-03-20T00:00:00Z")
    assert owner(earlier) == "kofi"
    # kept without its owner, beside the refusal kept for audit
    claims = store.read(
        "MATCH (:Source {id: 'CC-7'})-[:ATTESTS]->(c:OwnershipClaim) "
        "OPTIONAL MATCH (c)-[:NAMES_OWNER]->(p:Person) "
        "RETURN c.time_unclear AS why, c.unlisted_owner AS name, p.id AS owner"
    )
    assert len(claims) == 1 and claims[0]["owner"] is None and claims[0]["name"] is None
    assert '"next month"' in claims[0]["why"]


def test_an_effective_at_that_agrees_names_the_new_owner_from_then(
    store: Store, settings: Settings, tmp_path: Path
) -> None:
    load(store, settings, tmp_path, change(effective_at="2026-05-01T00:00:00Z"))
    assert owner(on(store, settings, "2026-04-15")) == "kofi"
    may = on(store, settings, "2026-05-01")
    assert owner(may) == "cora"
    assert [(c.record, c.effective_at) for c in may.citations] == [("CC-7", "2026-05-01T00:00:00Z")]
    assert owner(on(store, settings, "2026-06-15")) == "cora"


def test_a_later_dated_change_of_the_same_authority_answers_again(
    store: Store, settings: Settings, tmp_path: Path
) -> None:
    """Written after it and taking effect after it was written, a change control naming an
    owner from a day it states is the newer word."""
    later = md(
        {"id": "CC-8", "kind": "change_control", "at": "2026-06-01T09:00:00Z"},
        "Effective 2 June 2026, ownership of the billing gateway transfers to Bo Lind.",
    )
    files = {"dir.md": DIRECTORY, "cc.md": change(), "cc8.md": later}
    ingest(store, write_corpus(tmp_path / "c", files, org=TEAM_ORG), settings)
    assert_refused_citing_the_change(on(store, settings, "2026-05-15"))
    june = on(store, settings, "2026-06-15")
    assert owner(june) == "bo"
    assert ("CC-7", None) in [(o.record, o.owner) for o in june.outranked]


def test_a_lower_authority_statement_whose_time_cannot_be_read_changes_nothing(
    store: Store, settings: Settings, tmp_path: Path
) -> None:
    chat = change("From next week Cora Ng owns the billing gateway.", kind="chat")
    load(store, settings, tmp_path, chat)
    answer = on(store, settings, "2026-05-15")
    assert owner(answer) == "kofi"
    assert [c.record for c in answer.citations] == ["dir-1"]


def test_a_models_quote_of_part_of_the_sentence_is_kept_the_same_way(
    store: Store,
    settings: Settings,
    model_settings: Settings,
    model_server: ScriptedModelServer,
    tmp_path: Path,
) -> None:
    """The model proposer goes through the same checks: quoting the sentence without its
    "Effective next month" does not date the change at the time of writing."""
    ingest(store, write_corpus(tmp_path / "c", {"dir.md": DIRECTORY}, org=TEAM_ORG), settings)
    path = tmp_path / "CC-7.md"
    path.write_text(change())
    quote = "ownership of the billing gateway transfers to Cora Ng"
    fact = {"service": "billing-gateway", "owner": "cora", "quote": quote}
    model_server.play(tool_call("record_facts", {"ownership": [fact], "decisions": []}))
    ingest(store, path, model_settings.with_(home=tmp_path / "home", proposer="model"))
    assert_refused_citing_the_change(on(store, settings, "2026-05-15"), quote)


def test_a_record_dating_its_change_back_refuses_from_its_effective_at(
    store: Store, settings: Settings, tmp_path: Path
) -> None:
    """Written 10 May with effective_at 1 April, a sentence saying "Effective 1 March" is
    refused (which is right is for people to say); both say Cora owned it by mid-April,
    yet Kofi answered for April, citing the directory."""
    cc = change(
        "Effective 1 March 2026, ownership of the billing gateway transfers to Cora Ng.",
        at="2026-05-10T09:00:00Z",
        effective_at="2026-04-01T00:00:00Z",
    )
    load(store, settings, tmp_path, cc)
    assert owner(on(store, settings, "2026-03-31")) == "kofi"
    for day in ("2026-04-01", "2026-04-15", "2026-06-15"):
        answer = on(store, settings, day)
        assert answer.refusal is not None and answer.result is None, day
        assert answer.refusal.code is RefusalCode.MISSING_PROVENANCE
        assert [(c.record, c.effective_at) for c in answer.citations] == [("CC-7", None)]
    # asked with a clock before it was written, it says nothing yet
    then = ask(store, settings, "Who owns the billing gateway?", now="2026-04-15T00:00:00Z")
    assert owner(then) == "kofi"


def test_passed_over_it_is_shown_without_an_owner(
    store: Store, settings: Settings, tmp_path: Path
) -> None:
    """Outranked, it was printed as naming "None", and the explanation said it names "no one
    org.yaml lists", although Cora is listed: its owner is not given, and why is."""
    replacing = md(
        {"id": "CC-8", "kind": "change_control", "at": "2026-04-20T09:00:00Z",
         "supersedes": ["CC-7"]},
        "This cancels CC-7: Kofi Mensah keeps the billing gateway.",
    )  # fmt: skip
    files = {"dir.md": DIRECTORY, "cc.md": change(), "cc8.md": replacing}
    ingest(store, write_corpus(tmp_path / "c", files, org=TEAM_ORG), settings)
    answer = on(store, settings, "2026-05-15")
    assert owner(answer) == "kofi"
    [passed] = [o for o in answer.outranked if o.record == "CC-7"]
    assert (passed.owner, passed.why) == (None, "its time cannot be read; replaced by CC-8")
    assert "CC-7 (change_control, 90): its time cannot be read; replaced by CC-8" in (
        answer.explanation
    )
    assert "org.yaml" not in answer.explanation
    env = {"BRAIN_HOME": str(settings.home), "BRAIN_GRAPH": settings.graph}
    shown = CliRunner().invoke(
        cli, ["ask", "--now", NOW, "Who owns the billing gateway on 2026-05-15?"], env=env
    )
    assert shown.exit_code == 0, shown.output
    line = next(line for line in shown.output.splitlines() if "outranked CC-7" in line)
    assert "None" not in line and "its time cannot be read; replaced by CC-8" in line
