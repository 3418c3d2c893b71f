"""Who sees which record: evidence is filtered before any policy runs."""

from __future__ import annotations

from companybrain.policy.access import Viewer, can_see, visible
from companybrain.policy.ownership import Evidence, decide

RESTRICTED = Evidence(
    service="audit-log", claim="CC-1038|audit-log|amara", record="CC-1038",
    kind="change_control", authority=90, effective_ms=2_000, owner="amara", acl=("security",),
)  # fmt: skip
PUBLIC = Evidence(
    service="audit-log", claim="dir|audit-log|viktor", record="dir-2026-09",
    kind="service_directory", authority=80, effective_ms=1_000, owner="viktor",
)  # fmt: skip


def test_a_record_without_acl_is_for_everyone() -> None:
    assert can_see(None, Viewer.member("rafael", ["eng"]))
    assert can_see(None, Viewer.member("nobody", []))


def test_a_restricted_record_needs_one_of_its_groups() -> None:
    assert can_see(["security"], Viewer.member("hana", ["eng", "security"]))
    assert not can_see(["security"], Viewer.member("rafael", ["eng", "payments"]))
    assert not can_see([], Viewer.member("hana", ["security"]))


def test_an_unrestricted_viewer_sees_everything() -> None:
    assert can_see(["security"], Viewer.everyone())
    assert not Viewer.everyone().restricted and Viewer.member("x", []).restricted


def test_a_hidden_claim_changes_nothing_in_the_answer() -> None:
    rows = [RESTRICTED, PUBLIC]
    outsider = Viewer.member("rafael", ["eng", "payments"])
    insider = Viewer.member("hana", ["security"])
    seen = visible(rows, outsider, lambda r: r.acl)
    assert seen == [PUBLIC]
    answer = decide("audit-log", seen, 10_000)
    assert answer.owner == "viktor"
    assert all(c.record != "CC-1038" for c in answer.cited)
    assert all(p.evidence.record != "CC-1038" for p in answer.outranked)
    assert decide("audit-log", visible(rows, insider, lambda r: r.acl), 10_000).owner == "amara"
