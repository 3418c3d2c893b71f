"""The "Updates" story on the demo corpus, through the CLI and the Python API: a chat that
hands the billing gateway over changes nothing; a change control does, from its effective
time; asking about the day before still gives the earlier owner."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from click.testing import Result

from companybrain.ask.engine import ask
from companybrain.brain import Brain
from companybrain.config import Settings
from companybrain.graph.connection import Store
from companybrain.graph.queries import ask_q
from companybrain.ingest.pipeline import ingest
from tests.ask.conftest import DEMO, NOW
from tests.ingest.corpus_builder import md

HANDOVER = "I'm handing billing gateway over to Lena this week, she's been shadowing the 3DS work."
CC_1052 = md(
    {
        "id": "CC-1052",
        "kind": "change_control",
        "at": "2026-10-15T14:00:00Z",
        "effective_at": "2026-10-16T09:00:00Z",
        "author": "sunita",
        "title": "Billing gateway ownership transfer",
        "about": ["billing-gateway"],
    },
    "Effective Friday 16 October 2026 at 09:00 UTC, ownership of the billing gateway "
    "transfers from Kofi Mensah to Lena Varga.",
)


def ask_json(run_cli: Any, question: str, *extra: str) -> dict[str, Any]:
    result: Result = run_cli("ask", "--now", NOW, "--json", question, *extra)
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


def _vacant_row_only(answer: dict[str, Any]) -> bool:
    """The demo's feature flag service is vacant in its newest directory: a refusal cites
    that row and nothing else (no record that only asks about an owner)."""
    cited = [(c["record"], c["quote"]) for c in answer["citations"]]
    return cited == [("dir-2026-09", "| Feature Flag Service | (vacant, see PLAT-77) |")]


def test_a_chat_cannot_outrank_a_change_control_but_a_new_one_can(
    run_cli: Any, settings: Settings, tmp_path: Path
) -> None:
    assert run_cli("ingest", str(DEMO)).exit_code == 0
    added = run_cli(
        "add", HANDOVER, "--as", "kofi", "--about", "billing-gateway", "--id", "msg-046",
        "--now", "2026-10-15T10:00:00Z",
    )  # fmt: skip
    assert added.exit_code == 0, added.output

    after_chat = ask_json(run_cli, "Who owns the billing gateway?")
    assert after_chat["result"]["owner"]["id"] == "kofi"
    chat = next(o for o in after_chat["outranked"] if o["record"] == "msg-046")
    assert chat["owner"] == "lena" and chat["kind"] == "chat" and chat["why"] == "lower authority"

    record = tmp_path / "CC-1052.md"
    record.write_text(CC_1052)
    assert run_cli("ingest", str(record)).exit_code == 0

    now = ask_json(run_cli, "Who owns the billing gateway?")
    assert now["result"]["owner"] == {"id": "lena", "name": "Lena Varga"}
    assert [c["record"] for c in now["citations"]] == ["CC-1052"]
    older = next(o for o in now["outranked"] if o["record"] == "CC-1047")
    assert older["why"] == "earlier effective time"

    for day in ("on October 15, 2026", "on October 15"):  # the seed's form has no year
        day_before = ask_json(run_cli, f"Who owned the billing gateway {day}?")
        assert day_before["result"]["owner"]["id"] == "kofi"
        assert [c["record"] for c in day_before["citations"]] == ["CC-1047"]
        assert day_before["as_of"] == "2026-10-15T23:59:59.999Z"

    # The Python API gives the same answers from the same graph.
    brain = Brain(settings=settings)
    try:
        assert brain.ask("Who owns the billing gateway?", now=NOW).result == {
            "owner": {"id": "lena", "name": "Lena Varga"}
        }
        day = brain.ask("Who owned the billing gateway on October 15, 2026?", now=NOW)
        assert day.result == {"owner": {"id": "kofi", "name": "Kofi Mensah"}}
        halyard = brain.ask("Who should sign off the Halyard release?", now=NOW)
        assert halyard.result is not None
        owners = {o["service"]: o["owner"]["id"] for o in halyard.result["owners"]}
        assert owners["billing-gateway"] == "lena"
    finally:
        brain.close()


def test_a_typed_record_claiming_change_control_is_stored_as_chat(
    run_cli: Any, tmp_path: Path
) -> None:
    assert run_cli("ingest", str(DEMO)).exit_code == 0
    added = run_cli(
        "add", "Ownership of the billing gateway transfers from Kofi Mensah to Lena Varga.",
        "--as", "kofi", "--about", "billing-gateway", "--kind", "change_control",
        "--id", "typed-1", "--now", "2026-10-16T08:00:00Z",
    )  # fmt: skip
    assert added.exit_code == 0, added.output
    answer = ask_json(run_cli, "Who owns the billing gateway?")
    assert answer["result"]["owner"]["id"] == "kofi"
    typed = next(o for o in answer["outranked"] if o["record"] == "typed-1")
    assert typed["kind"] == "chat" and typed["authority"] == 35


def test_a_record_typed_now_is_cited_to_the_millisecond(run_cli: Any, settings: Settings) -> None:
    """Without --now a typed record was stored at the clock's microsecond and cited as
    2026-11-30T08:14:07.259255Z, where every other time prints milliseconds at most."""
    assert run_cli("ingest", str(DEMO)).exit_code == 0
    added = run_cli("add", "Nadia Petrov owns the search index.", "--as", "nadia", "--id", "t-1")
    assert added.exit_code == 0, added.output
    store = Store(settings)
    try:
        rows, _ = ask_q.owner_evidence(store, "search-index", 50)
    finally:
        store.close()
    [row] = [r for r in rows if r["record"] == "t-1"]
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d{3})?Z", row["at"]), row["at"]


def test_a_ticket_that_asks_or_supposes_an_owner_names_none(run_cli: Any, tmp_path: Path) -> None:
    # The feature flag service has no owner on record (its directory row is vacant); a
    # ticket (authority 60) that only asks or supposes one must not become the answer.
    assert run_cli("ingest", str(DEMO)).exit_code == 0
    texts = (
        "Does Yuki own feature flags?",
        "Hi, should Yuki own feature flags? Nobody could tell us.",
        "If Yuki owns feature flags, then PLAT-77 can close.",
        "We asked whether Yuki owns feature flags and got no answer.",
        "Maybe Yuki owns feature flags, maybe Greta; we need to find out.",
        "I doubt Yuki owns feature flags.",
        "Once Yuki owns feature flags we can close this.",
        "When Yuki takes over feature flags, update the directory.",
    )
    for n, text in enumerate(texts):
        ticket = tmp_path / f"PLAT-{200 + n}.md"
        front = {"id": f"PLAT-{200 + n}", "kind": "ticket", "at": "2026-10-15T10:00:00Z"}
        ticket.write_text(md({**front, "author": "yuki"}, text))
        assert run_cli("ingest", str(ticket)).exit_code == 0
        answer = ask_json(run_cli, "Who owns the feature flag service?")
        assert answer["status"] == "refused", (text, answer)
        assert answer["refusal"]["code"] == "NO_CLAIM" and _vacant_row_only(answer)
    # A question answered in the same ticket still names the owner it states (a claim the
    # directory's vacant row, of higher authority, outranks).
    ticket = tmp_path / "PLAT-300.md"
    front = {"id": "PLAT-300", "kind": "ticket", "at": "2026-10-16T10:00:00Z"}
    ticket.write_text(md(front, "Who owns feature flags? Yuki owns feature flags from today."))
    assert run_cli("ingest", str(ticket)).exit_code == 0
    answer = ask_json(run_cli, "Who owns the feature flag service?")
    assert _vacant_row_only(answer), answer
    assert [(o["record"], o["owner"], o["quote"], o["why"]) for o in answer["outranked"]] == [
        ("PLAT-300", "yuki", "Yuki owns feature flags from today.", "lower authority")
    ]


def test_a_change_control_naming_two_people_but_neither_as_owner_names_none(
    run_cli: Any, tmp_path: Path
) -> None:
    # "Neither A nor B owns X" and "Either A or B owns X" say who does not, or may, own
    # it: neither may be given as the owner of the vacant feature flag service.
    assert run_cli("ingest", str(DEMO)).exit_code == 0
    texts = (
        "Neither Greta nor Yuki owns the feature flag service.",
        "Either Greta or Yuki owns the feature flag service; PLAT-77 will tell.",
        "Yuki owns the feature flag service or Greta does, nobody is sure.",
    )
    for n, text in enumerate(texts):
        record = tmp_path / f"CC-{2000 + n}.md"
        front = {"id": f"CC-{2000 + n}", "kind": "change_control", "at": "2026-10-15T10:00:00Z"}
        record.write_text(md(front, text))
        assert run_cli("ingest", str(record)).exit_code == 0
        answer = ask_json(run_cli, "Who owns the feature flag service?")
        assert answer["status"] == "refused", (text, answer)
        assert answer["refusal"]["code"] == "NO_CLAIM" and _vacant_row_only(answer)


def test_owning_a_part_of_a_service_is_not_owning_it(run_cli: Any, tmp_path: Path) -> None:
    # The feature flag service has no owner on record; a ticket saying who owns its runbook,
    # its dashboards or its on-call rotation does not name one.
    assert run_cli("ingest", str(DEMO)).exit_code == 0
    texts = (
        "Yuki owns the feature flag service runbook.",
        "Yuki owns the feature flag service's dashboards.",
        "Yuki owns the feature flag service on-call rotation this week.",
    )
    for n, text in enumerate(texts):
        ticket = tmp_path / f"PLAT-{400 + n}.md"
        front = {"id": f"PLAT-{400 + n}", "kind": "ticket", "at": "2026-10-15T10:00:00Z"}
        ticket.write_text(md(front, text))
        assert run_cli("ingest", str(ticket)).exit_code == 0
        answer = ask_json(run_cli, "Who owns the feature flag service?")
        assert answer["status"] == "refused", (text, answer)
        assert answer["refusal"]["code"] == "NO_CLAIM" and _vacant_row_only(answer)


def test_a_directory_cell_that_says_unassigned_or_asks_names_no_owner(
    run_cli: Any, tmp_path: Path
) -> None:
    # A later directory that leaves the feature flag service unassigned, or only guesses at
    # its owner, names none: the service stays without an owner.
    assert run_cli("ingest", str(DEMO)).exit_code == 0
    for n, cell in enumerate(
        ("unassigned (ask Yuki Tanabe)", "Yuki Tanabe?", "TBD (Yuki proposed)")
    ):
        record = tmp_path / f"dir-2026-10-{n}.md"
        front = {
            "id": f"dir-2026-10-{n}",
            "kind": "service_directory",
            "at": "2026-10-15T10:00:00Z",
        }
        table = f"| Service | Owner |\n|---|---|\n| Feature Flag Service | {cell} |"
        record.write_text(md(front, table))
        assert run_cli("ingest", str(record)).exit_code == 0
        answer = ask_json(run_cli, "Who owns the feature flag service?")
        assert answer["status"] == "refused", (cell, answer)
        assert answer["refusal"]["code"] == "NO_CLAIM"
        # A cell that says it is unassigned is itself the newest word: no one owns it; one
        # that only guesses ("Yuki Tanabe?") is never cited.
        cited = [c["record"] for c in answer["citations"]]
        assert "dir-2026-10-1" not in cited, (cell, cited)
        assert (f"dir-2026-10-{n}" in cited) == (not cell.endswith("?")), (cell, cited)


def test_a_ticket_that_requests_or_proposes_an_owner_names_none(
    run_cli: Any, tmp_path: Path
) -> None:
    # A ticket asking for an owner, or proposing one, is not a record that someone owns it.
    assert run_cli("ingest", str(DEMO)).exit_code == 0
    texts = (
        "Request to transfer ownership of the feature flag service to Yuki.",
        "We propose Yuki as owner of the feature flag service.",
        "Please hand the feature flag service over to Yuki.",
        "We plan to transfer the feature flag service to Yuki next quarter.",
    )
    for n, text in enumerate(texts):
        ticket = tmp_path / f"PLAT-{500 + n}.md"
        front = {"id": f"PLAT-{500 + n}", "kind": "ticket", "at": "2026-10-15T10:00:00Z"}
        ticket.write_text(md(front, text))
        assert run_cli("ingest", str(ticket)).exit_code == 0
        answer = ask_json(run_cli, "Who owns the feature flag service?")
        assert answer["status"] == "refused", (text, answer)
        assert answer["refusal"]["code"] == "NO_CLAIM" and _vacant_row_only(answer)


def test_an_action_item_table_names_no_owner_of_the_service_it_mentions(
    run_cli: Any, tmp_path: Path
) -> None:
    # A follow-up table's Owner column says who does each task, not who owns the services
    # the tasks mention.
    assert run_cli("ingest", str(DEMO)).exit_code == 0
    ticket = tmp_path / "PLAT-600.md"
    front = {"id": "PLAT-600", "kind": "ticket", "at": "2026-10-15T10:00:00Z"}
    table = (
        "Follow-ups:\n\n| Action | Owner | Due |\n|---|---|---|\n"
        "| Rotate the feature flag service signing key | Yuki Tanabe | 2026-11-01 |\n"
        "| Add alerts for flagd | Greta | 2026-11-15 |"
    )
    ticket.write_text(md(front, table))
    assert run_cli("ingest", str(ticket)).exit_code == 0
    answer = ask_json(run_cli, "Who owns the feature flag service?")
    assert answer["status"] == "refused", answer
    assert answer["refusal"]["code"] == "NO_CLAIM" and _vacant_row_only(answer)


def test_the_owner_line_of_a_ticket_names_no_owner_of_its_service(
    run_cli: Any, tmp_path: Path
) -> None:
    # A ticket's "Owner:" is whoever the ticket is assigned to.
    assert run_cli("ingest", str(DEMO)).exit_code == 0
    ticket = tmp_path / "PLAT-700.md"
    front = {
        "id": "PLAT-700",
        "kind": "ticket",
        "at": "2026-10-15T10:00:00Z",
        "about": ["feature-flags"],
        "title": "Flag evaluation times out",
    }
    ticket.write_text(md(front, "Owner: Yuki Tanabe\nPriority: P2\n\nEvaluations time out."))
    assert run_cli("ingest", str(ticket)).exit_code == 0
    answer = ask_json(run_cli, "Who owns the feature flag service?")
    assert answer["status"] == "refused", answer
    assert answer["refusal"]["code"] == "NO_CLAIM" and _vacant_row_only(answer)


def test_a_team_or_successor_of_someone_is_not_that_person(run_cli: Any, tmp_path: Path) -> None:
    # "taken over by Yuki's successor" names someone else than Yuki, who is not the owner.
    assert run_cli("ingest", str(DEMO)).exit_code == 0
    texts = (
        "The feature flag service will be taken over by Yuki's successor.",
        "The feature flag service is owned by Yuki's team.",
    )
    for n, text in enumerate(texts):
        record = tmp_path / f"CC-{3000 + n}.md"
        front = {"id": f"CC-{3000 + n}", "kind": "change_control", "at": "2026-10-15T10:00:00Z"}
        record.write_text(md(front, text))
        assert run_cli("ingest", str(record)).exit_code == 0
        answer = ask_json(run_cli, "Who owns the feature flag service?")
        assert answer["status"] == "refused", (text, answer)
        assert answer["refusal"]["code"] == "NO_CLAIM" and _vacant_row_only(answer)


def test_a_struck_through_or_commented_out_owner_is_not_the_owner(
    run_cli: Any, tmp_path: Path
) -> None:
    # A runbook keeps an owner it struck through, or one in an HTML comment no reader sees.
    assert run_cli("ingest", str(DEMO)).exit_code == 0
    texts = (
        "# Feature flags\n\n~~Yuki Tanabe owns the feature flag service.~~ Owner to be decided.",
        "# Feature flags\n\n<!-- Yuki Tanabe owns the feature flag service. -->\nSteps below.",
    )
    for n, text in enumerate(texts):
        record = tmp_path / f"rb-flags-{n}.md"
        record.write_text(md({"id": f"rb-flags-{n}", "kind": "runbook", "at": NOW}, text))
        assert run_cli("ingest", str(record)).exit_code == 0
        answer = ask_json(run_cli, "Who owns the feature flag service?")
        assert answer["status"] == "refused", (text, answer)
        assert answer["refusal"]["code"] == "NO_CLAIM" and _vacant_row_only(answer)


def test_a_record_telling_ownership_moved_and_came_back_names_the_last_owner(
    demo_copy: Store, settings: Settings, tmp_path: Path
) -> None:
    """The demo's billing gateway is Kofi's (CC-1047). A later change control telling of a
    round trip ("moved to Lena and back to Kofi") named Lena, the one it moved on from, as
    the owner, citing that very sentence; "from Kofi to Lena and back to Kofi" was a
    CONFLICT of the record with itself. The last one named owns it; the one before is a
    previous owner."""
    stories = [  # (record, sentence, owner, the record the answer cites)
        ("CC-2001", "Ownership of the billing gateway moved to Lena and back to Kofi.", "kofi",
         "CC-2001"),
        ("CC-2002", "Ownership of the billing gateway moved from Kofi to Lena and back to Kofi.",
         "kofi", "CC-2002"),
        ("CC-2003", "Lena took over the billing gateway from Kofi, and Kofi took it back.",
         "kofi", "CC-2002"),
        ("CC-2004", "Ownership of the billing gateway transfers to Lena, then to Darius.",
         "darius", "CC-2004"),
    ]  # fmt: skip
    for day, (rid, sentence, owner, cited) in enumerate(stories, start=16):
        front = {"id": rid, "kind": "change_control", "at": f"2026-10-{day}T09:00:00Z"}
        path = tmp_path / f"{rid}.md"
        path.write_text(md(front, sentence))
        ingest(demo_copy, path, settings)
        answer = ask(demo_copy, settings, "Who owns the billing gateway?", now=NOW)
        assert answer.refusal is None, (rid, answer.refusal)
        assert answer.result is not None and answer.result["owner"]["id"] == owner, rid
        assert [c.record for c in answer.citations] == [cited], rid


def test_two_records_typed_by_one_person_in_the_same_second_are_both_kept(
    run_cli: Any,
) -> None:
    """Without --id, a typed record's id was made of the clock's second and the author:
    a second record typed by the same person within that second was refused as a record
    that exists already."""
    assert run_cli("ingest", str(DEMO)).exit_code == 0
    for text in ("Nadia Petrov knows the search index.", "Nadia Petrov wrote its runbook."):
        added = run_cli("add", text, "--as", "nadia")
        assert added.exit_code == 0, added.output
