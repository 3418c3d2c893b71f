"""The ownership policy, rule by rule, on plain evidence rows."""

from __future__ import annotations

import dataclasses
from datetime import datetime

from companybrain.model.answer import RefusalCode
from companybrain.policy.ownership import (
    Evidence,
    decide,
    first_refusal,
    missing_provenance,
)


def ms(iso: str) -> int:
    return int(datetime.fromisoformat(iso.replace("Z", "+00:00")).timestamp() * 1000)


def claim(
    record: str, kind: str, authority: int, effective: str, owner: str, **kw: object
) -> Evidence:
    base = dict(
        service="billing-gateway",
        claim=f"{record}|billing-gateway|{owner}",
        record=record,
        kind=kind,
        authority=authority,
        effective_at=effective,
        effective_ms=ms(effective),
        owner=owner,
        quote=f"{owner} owns it",
    )
    base.update(kw)
    return Evidence(**base)  # type: ignore[arg-type]


DIRECTORY = claim("dir-2026-09", "service_directory", 80, "2026-09-01T00:00:00Z", "ines")
TRANSFER = claim("CC-1047", "change_control", 90, "2026-10-14T11:00:00Z", "kofi")
CHAT = claim("msg-038", "chat", 35, "2026-10-14T16:00:00Z", "ines")
ORION = [DIRECTORY, TRANSFER, CHAT]
LATER = ms("2026-10-20T12:00:00Z")


def test_highest_authority_wins_and_the_rest_are_outranked_with_why() -> None:
    decision = decide("billing-gateway", ORION, LATER)
    assert decision.answered and decision.code is None
    assert decision.owner == "kofi"
    assert [c.record for c in decision.cited] == ["CC-1047"]
    assert {(p.evidence.record, p.why) for p in decision.outranked} == {
        ("dir-2026-09", "lower authority"),
        ("msg-038", "lower authority"),
    }


def test_claims_that_take_effect_later_are_ignored() -> None:
    day_before = ms("2026-10-13T23:59:59.999Z")
    decision = decide("billing-gateway", ORION, day_before)
    assert decision.owner == "ines"
    assert [c.record for c in decision.cited] == ["dir-2026-09"]
    assert decision.outranked == ()  # the transfer and the chat are not in effect yet
    assert {p.evidence.record for p in decision.ignored} == {"CC-1047", "msg-038"}


def test_a_record_written_after_the_clock_is_ignored_whenever_it_takes_effect() -> None:
    """A change control written on 25 October that backdates the transfer to the 14th: read
    with the clock at 20 October it did not exist yet; with the clock after it, it counts."""
    backdated = claim(
        "CC-1050", "change_control", 90, "2026-10-14T11:00:00Z", "kofi",
        at="2026-10-25T09:00:00Z", at_ms=ms("2026-10-25T09:00:00Z"),
    )  # fmt: skip
    decision = decide("billing-gateway", [DIRECTORY, backdated], LATER, now_ms=LATER)
    assert decision.owner == "ines"
    assert [(p.evidence.record, p.why) for p in decision.ignored] == [
        ("CC-1050", "written later (2026-10-25T09:00:00Z)")
    ]
    after = ms("2026-10-26T00:00:00Z")
    assert decide("billing-gateway", [DIRECTORY, backdated], LATER, now_ms=after).owner == "kofi"


def test_a_claim_at_the_very_instant_counts() -> None:
    assert decide("billing-gateway", ORION, ms("2026-10-14T11:00:00Z")).owner == "kofi"
    assert decide("billing-gateway", ORION, ms("2026-10-14T10:59:59.999Z")).owner == "ines"


def test_same_authority_the_latest_effective_instant_wins() -> None:
    newer = claim("CC-1052", "change_control", 90, "2026-10-16T09:00:00Z", "lena")
    decision = decide("billing-gateway", [*ORION, newer], LATER)
    assert decision.owner == "lena"
    why = {p.evidence.record: p.why for p in decision.outranked}
    assert why["CC-1047"] == "earlier effective time"
    assert why["dir-2026-09"] == "lower authority"


def test_instants_in_different_offsets_are_the_same_moment_and_conflict() -> None:
    utc = claim("CC-1019", "change_control", 90, "2026-10-14T12:00:00Z", "rafael")
    bangkok = claim("CC-1020", "change_control", 90, "2026-10-14T19:00:00+07:00", "sunita")
    assert utc.effective_ms == bangkok.effective_ms
    decision = decide("payments-api", [utc, bangkok, DIRECTORY], LATER)
    assert decision.code is RefusalCode.CONFLICT
    assert {c.record for c in decision.cited} == {"CC-1019", "CC-1020"}
    assert {c.quote for c in decision.cited} == {"rafael owns it", "sunita owns it"}
    assert [p.evidence.record for p in decision.outranked] == ["dir-2026-09"]
    assert "CC-1019 and CC-1020" in decision.reason
    assert decision.owner is None


def test_offsets_one_second_apart_do_not_conflict() -> None:
    utc = claim("CC-1019", "change_control", 90, "2026-10-14T12:00:01Z", "rafael")
    bangkok = claim("CC-1020", "change_control", 90, "2026-10-14T19:00:00+07:00", "sunita")
    assert decide("payments-api", [utc, bangkok], LATER).owner == "rafael"


def test_the_same_owner_twice_at_the_top_is_no_conflict() -> None:
    twin = claim("CC-1048", "change_control", 90, "2026-10-14T11:00:00Z", "kofi")
    decision = decide("billing-gateway", [*ORION, twin], LATER)
    assert decision.owner == "kofi"
    assert {c.record for c in decision.cited} == {"CC-1047", "CC-1048"}


def test_only_sources_below_60_refuse_low_authority() -> None:
    wiki = claim("wiki-hub", "wiki", 20, "2026-07-01T00:00:00Z", "paolo")
    chat = claim("msg-017", "chat", 35, "2026-07-22T16:30:00Z", "paolo")
    decision = decide("notification-hub", [wiki, chat], LATER)
    assert decision.code is RefusalCode.LOW_AUTHORITY
    assert {c.record for c in decision.cited} == {"wiki-hub", "msg-017"}
    assert "below authority 60" in decision.reason


def test_a_ticket_at_60_is_enough() -> None:
    ticket = claim("PLAT-90", "ticket", 60, "2026-09-24T07:40:00Z", "yuki")
    assert decide("edge-proxy", [ticket], LATER).owner == "yuki"


def test_a_claim_without_its_source_refuses_missing_provenance() -> None:
    orphan = Evidence(
        service="billing-gateway",
        claim="x|billing-gateway|lena",
        effective_ms=ms("2026-10-01T00:00:00Z"),
        owner="lena",
    )
    decision = decide("billing-gateway", [*ORION, orphan], LATER)
    assert decision.code is RefusalCode.MISSING_PROVENANCE
    assert "has no source or authority" in decision.reason


def test_each_missing_field_is_named() -> None:
    full = dict(
        service="s", claim="c", record="r", authority=90, effective_ms=1, owner="o", quote="q"
    )
    assert missing_provenance(Evidence(**full)) is None  # type: ignore[arg-type]
    for field, word in (
        ("record", "source"),
        ("owner", "owner"),
        ("authority", "authority"),
        ("effective_ms", "time"),
    ):
        row = Evidence(**{**full, field: None})  # type: ignore[arg-type]
        reason = missing_provenance(row)
        assert reason is not None and word in reason
        decision = decide("s", [row], 10)
        assert decision.code is RefusalCode.MISSING_PROVENANCE


def test_no_claims_refuse_no_claim() -> None:
    assert decide("feature-flags", [], LATER).code is RefusalCode.NO_CLAIM
    # the row the OPTIONAL MATCH returns for a service without claims
    empty = Evidence(service="feature-flags")
    assert decide("feature-flags", [empty], LATER).code is RefusalCode.NO_CLAIM
    early = decide("billing-gateway", ORION, ms("2026-08-01T00:00:00Z"))
    assert early.code is RefusalCode.NO_CLAIM


def test_hitting_the_row_cap_refuses_whatever_the_rows_say() -> None:
    decision = decide("billing-gateway", ORION, LATER, capped=True, cap=2)
    assert decision.code is RefusalCode.ROW_CAP
    assert "cap of 2 rows" in decision.reason


def test_a_project_is_refused_by_its_most_serious_refusal() -> None:
    answered = decide("billing-gateway", ORION, LATER)
    low = decide(
        "notification-hub", [claim("m", "chat", 35, "2026-07-01T00:00:00Z", "paolo")], LATER
    )
    none = decide("feature-flags", [], LATER)
    assert first_refusal([answered]) is None
    picked = first_refusal([answered, none, low])
    assert picked is not None and picked.code is RefusalCode.LOW_AUTHORITY


def test_records_replacing_one_another_round_a_circle_refuse_conflict() -> None:
    """Each set aside by the other, the directory's owner answered."""
    circle = (("CC-1", "CC-2"),)
    one = claim("CC-1", "change_control", 90, "2026-10-10T00:00:00Z", "bo",
                replaced_by=("CC-2",), circles=circle)  # fmt: skip
    two = claim("CC-2", "change_control", 90, "2026-10-11T00:00:00Z", "cy",
                replaced_by=("CC-1",), circles=circle)  # fmt: skip
    decision = decide("billing-gateway", [DIRECTORY, one, two], LATER)
    assert decision.code == RefusalCode.CONFLICT, decision
    assert decision.reason.startswith("CC-1 and CC-2 replace one another")
    assert [c.record for c in decision.cited] == ["CC-1", "CC-2"]
    # a record replaced from outside the circle too is set aside all the same
    three = claim("CC-3", "change_control", 90, "2026-10-12T00:00:00Z", "ana")
    gone = Evidence(**{**two.__dict__, "replaced_by": ("CC-1", "CC-3")})
    decision = decide("billing-gateway", [DIRECTORY, one, gone, three], LATER)
    assert decision.owner == "ana"
    assert ("CC-2", "replaced by CC-1 and CC-3") in {
        (p.evidence.record, p.why) for p in decision.outranked
    }


def test_a_claim_replaced_only_by_records_replaced_in_turn_refuses_conflict() -> None:
    """CC-2 cancels CC-1 and CC-3 replaces CC-2: the directory's owner answered. A
    replacement that still stands sets it aside; a circle is told as a circle."""
    one = claim("CC-1", "change_control", 90, "2026-10-10T00:00:00Z", "bo",
                replaced_by=("CC-2",), replaced_in_turn=(("CC-2", ("CC-3",)),))  # fmt: skip
    decision = decide("billing-gateway", [DIRECTORY, one], LATER)
    assert decision.code == RefusalCode.CONFLICT, decision
    assert decision.reason.startswith("CC-1 is replaced by CC-2, which CC-3 replaces in turn")
    assert [c.record for c in decision.cited] == ["CC-1", "dir-2026-09"]
    standing = Evidence(**{**one.__dict__, "replaced_by": ("CC-2", "CC-4")})
    decision = decide("billing-gateway", [DIRECTORY, standing], LATER)
    assert decision.owner == "ines"
    circled = Evidence(**{**one.__dict__, "replaced_by": ("CC-2", "CC-5"),
                          "circles": (("CC-1", "CC-5"),)})  # fmt: skip
    five = claim("CC-5", "change_control", 90, "2026-10-09T00:00:00Z", "cy",
                 replaced_by=("CC-1",), circles=(("CC-1", "CC-5"),))  # fmt: skip
    decision = decide("billing-gateway", [DIRECTORY, circled, five], LATER)
    assert decision.code == RefusalCode.CONFLICT
    assert decision.reason.startswith("CC-1 and CC-5 replace one another"), decision.reason


# -- a claim whose time cannot be read --------------------------------------------------------


def unclear(record: str, kind: str, authority: int, at: str) -> Evidence:
    """As the evidence query returns it: no owner, counting from when it was written."""
    said = claim(
        record, kind, authority, at, "cora", at=at, at_ms=ms(at),
        claim=f"{record}|billing-gateway|(time unclear)", quote="transfers to Cora next month",
        time_unclear='the quote says it takes effect "next month", which is not one day',
    )  # fmt: skip
    return dataclasses.replace(said, owner=None)


NEXT_MONTH = unclear("CC-2000", "change_control", 90, "2026-10-16T09:00:00Z")


def test_a_claim_whose_time_cannot_be_read_refuses_where_it_outranks() -> None:
    decision = decide("billing-gateway", [*ORION, NEXT_MONTH], LATER)
    assert decision.code is RefusalCode.MISSING_PROVENANCE
    assert [c.record for c in decision.cited] == ["CC-2000"]
    assert '"next month"' in decision.reason and "cora" not in decision.reason.casefold()
    assert {(p.evidence.record, p.why) for p in decision.outranked} == {
        ("CC-1047", "CC-2000 may be newer"),
        ("dir-2026-09", "lower authority"),
        ("msg-038", "lower authority"),
    }
    alone = decide("billing-gateway", [NEXT_MONTH], LATER)
    assert alone.code is RefusalCode.MISSING_PROVENANCE and alone.owner is None


def test_a_claim_whose_time_cannot_be_read_yields_to_a_newer_word_of_its_authority() -> None:
    """A change control written after it, and taking effect after it was written, decides;
    one written before it does not, whenever it takes effect."""
    newer = claim(
        "CC-2001", "change_control", 90, "2026-10-18T00:00:00Z", "ben",
        at="2026-10-17T09:00:00Z", at_ms=ms("2026-10-17T09:00:00Z"),
    )  # fmt: skip
    decision = decide("billing-gateway", [*ORION, NEXT_MONTH, newer], LATER)
    assert decision.owner == "ben"
    assert ("CC-2000", "its time cannot be read; CC-2001 is newer") in {
        (p.evidence.record, p.why) for p in decision.outranked
    }
    announced = claim(
        "CC-2001", "change_control", 90, "2026-10-18T00:00:00Z", "ben",
        at="2026-10-01T09:00:00Z", at_ms=ms("2026-10-01T09:00:00Z"),
    )  # fmt: skip
    before = decide("billing-gateway", [*ORION, NEXT_MONTH, announced], LATER)
    assert before.code is RefusalCode.MISSING_PROVENANCE


def test_a_claim_whose_time_cannot_be_read_below_the_winner_changes_nothing() -> None:
    chat = unclear("msg-040", "chat", 35, "2026-10-16T09:00:00Z")
    decision = decide("billing-gateway", [*ORION, chat], LATER)
    assert decision.owner == "kofi"
    assert ("msg-040", "its time cannot be read; lower authority") in {
        (p.evidence.record, p.why) for p in decision.outranked
    }
    # among chats only, still refused as low authority, not as a conflict with "no one"
    only_chats = decide("billing-gateway", [CHAT, chat], LATER)
    assert only_chats.code is RefusalCode.LOW_AUTHORITY
    assert [c.record for c in only_chats.cited] == ["msg-038"]
