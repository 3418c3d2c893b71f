"""When a claim takes effect, from the record's times and the words of its sentence."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime

import pytest

from companybrain.model.facts import OwnershipFact, Proposal
from companybrain.policy.effective import effective_time
from companybrain.policy.verify import verify
from tests.support.extraction import org, record

AT = datetime(2026, 4, 1, 9, 0, tzinfo=UTC)


def utc(text: str) -> datetime:
    return datetime.fromisoformat(text)


@pytest.mark.parametrize(
    ("sentence", "expected"),
    [
        (
            "Effective 1 May 2026, ownership transfers from Aria Novak to Cora Lind.",
            "2026-05-01T00:00:00+00:00",
        ),
        ("Cora Lind owns the billing gateway from 2026-05-01.", "2026-05-01T00:00:00+00:00"),
        ("As of May 1, 2026, Cora Lind owns the billing gateway.", "2026-05-01T00:00:00+00:00"),
        ("Starting Monday 4 May 2026 at 09:00 UTC, Cora owns it.", "2026-05-04T09:00:00+00:00"),
        ("Cora owns it from 4 May 2026, 19:00 (Bangkok, UTC+07:00).", "2026-05-04T12:00:00+00:00"),
        ("Effective 2026-05-04T09:00:00+02:00, Cora owns it.", "2026-05-04T07:00:00+00:00"),
        # no time of its own, or one pointing back: the record's time
        ("Cora Lind owns the billing gateway.", "2026-04-01T09:00:00+00:00"),
        ("Cora Lind has owned the billing gateway since March.", "2026-04-01T09:00:00+00:00"),
        ("Effective 1 April, Cora owns it.", "2026-04-01T09:00:00+00:00"),  # the day written
        ("It is handed over to Cora on Wednesday.", "2026-04-01T09:00:00+00:00"),  # that day
        ("Cora owns it from 20 January.", "2026-01-20T00:00:00+00:00"),  # lately: that day
        # the day of something else, with no year
        ("As announced on 21 March, Cora owns it.", "2026-04-01T09:00:00+00:00"),
    ],
)
def test_a_stated_start_without_effective_at(sentence: str, expected: str) -> None:
    assert effective_time(sentence, AT, None, "UTC") == utc(expected)


def test_a_table_rows_other_dates_are_its_columns() -> None:
    """A directory row's "last reviewed" column says nothing of when its owner took over;
    a cell that says so does."""
    row = "| Billing Gateway | Cora Lind | 2026-02-11 |"
    assert effective_time(row, AT, None, "UTC", row=True) == AT
    assert isinstance(effective_time(row, AT, None, "UTC"), str)  # a sentence: which is it?
    short = "| Billing Gateway | Cora Lind | 03/04/26 |"  # a year of two digits: no day
    assert effective_time(short, AT, None, "UTC", row=True) == AT
    assert isinstance(effective_time(short, AT, None, "UTC"), str)
    since = "| Billing Gateway | Cora Lind (from 2026-05-01) |"
    assert effective_time(since, AT, None, "UTC", row=True) == utc("2026-05-01T00:00:00+00:00")


@pytest.mark.parametrize(
    ("sentence", "expected"),
    [
        ("Effective 1 December 2026 at 9am UTC, Cora owns it.", "2026-12-01T09:00:00+00:00"),
        ("Effective 1 December 2026 at 9 a.m. UTC, Cora owns it.", "2026-12-01T09:00:00+00:00"),
        ("Effective 1 December 2026 at 9:30 p.m., Cora owns it.", "2026-12-01T21:30:00+00:00"),
        ("Effective 1 December 2026 at 09:00 UTC+1, Cora owns it.", "2026-12-01T08:00:00+00:00"),
        ("Effective 1 December 2026 12 people move to Cora.", "2026-12-01T00:00:00+00:00"),
    ],
)
def test_a_time_of_day_is_read_with_its_zone(sentence: str, expected: str) -> None:
    """ "9am" was no time, so the day's start (nine hours early) took its place."""
    assert effective_time(sentence, AT, None, "UTC") == utc(expected)


def test_a_time_in_a_zone_not_read_is_refused_unless_effective_at_settles_it() -> None:
    """ "09:00 CET" read in the company's zone (UTC) was an hour late."""
    for sentence in (
        "Effective 1 December 2026 at 09:00 CET, Cora owns it.",
        "Effective 1 December 2026, 19:00 (Bangkok), Cora owns it.",
    ):
        reason = effective_time(sentence, AT, None, "UTC")
        assert isinstance(reason, str) and "time zone" in reason
    given = utc("2026-12-01T09:00:00+01:00")
    sentence = "Effective 1 December 2026 at 09:00 CET, Cora owns it."
    assert effective_time(sentence, AT, given, "UTC") == given


def test_a_day_is_its_start_in_the_company_zone() -> None:
    when = effective_time("Effective 1 May 2026, Cora owns it.", AT, None, "Asia/Tokyo")
    assert when == utc("2026-04-30T15:00:00+00:00")


@pytest.mark.parametrize(
    ("sentence", "said"),
    [
        ("From next Monday, Cora owns the billing gateway.", "next Monday"),
        ("Cora takes over the billing gateway in two weeks.", "in two weeks"),
        ("From Q3, Cora owns the billing gateway.", "From Q3"),
        ("The billing gateway transfers to Cora tomorrow.", "tomorrow"),
        ("Effective 1 December, Cora owns it.", "1 December"),  # which year?
        ("Cora owns it from 5 April.", "5 April"),  # this year's is still to come
        ("Aria owns it until 1 May 2026, when it transfers to Cora.", "1 May 2026"),
        ("Starting Tuesday 4 May 2026, Cora owns it.", "Tuesday 4 May 2026"),  # a Monday
        ("Effective 5/1/2026, Cora owns it.", "5/1/2026"),  # 1 May or 5 January?
        ("Aria owns it until 5/1/2026, when it transfers to Cora.", "5/1/2026"),
        # a day and a vague time: two moves, and only one is dated
        ("Since 1 March 2026 Ben owns it, and next month it moves to Cora.", "next month"),
        # a vague time in the owner's clause, or said of a change, still dates the claim
        ("Cora owns the billing gateway next week and will be on call.", "next week"),
        ("Cora owns the billing gateway and will be on call from next week.", "next week"),
        ("Cora owns the billing gateway and takes over on call next week.", "next week"),
        ("Cora owns the billing gateway and, next week, it will be official.", "next week"),
        ("Cora will be on call next week and owns the billing gateway.", "next week"),
        ("Cora owns the gateway and the handover is next week while Ben is away.", "next week"),
    ],
)
def test_no_one_day_and_no_effective_at_is_refused(sentence: str, said: str) -> None:
    reason = effective_time(sentence, AT, None, "UTC")
    assert isinstance(reason, str) and said in reason


@pytest.mark.parametrize(
    "sentence",
    [
        "Cora Lind owns the billing gateway and will be on call next week.",
        "Cora owns the billing gateway, and is on leave next week.",
        "Cora owns the billing gateway; she is away next week.",
    ],
)
def test_a_vague_time_of_a_duty_in_another_clause_does_not_date_the_claim(
    sentence: str,
) -> None:
    """ "Kofi owns X and will be on call next week" was refused: "next week" read as when
    the claim takes effect."""
    assert effective_time(sentence, AT, None, "UTC") == AT


def test_two_starts_in_one_sentence_are_refused_even_with_effective_at() -> None:
    sentence = "It transfers to Ben Okafor on Monday, then to Cora Lind on 1 December."
    for effective_at in (None, utc("2026-12-01T00:00:00+00:00")):
        reason = effective_time(sentence, AT, effective_at, "UTC")
        assert isinstance(reason, str) and "Monday" in reason and "1 December" in reason


@pytest.mark.parametrize(
    ("sentence", "effective_at"),
    [
        ("Effective Wednesday 14 October 2026 at 11:00 UTC, Kofi owns it.", "2026-10-14T11:00:00Z"),
        (
            "Kofi owns it from\n30 September 2026, 19:00 (Bangkok, UTC+07:00).",
            "2026-09-30T19:00:00+07:00",
        ),
        ("Effective 2026-05-03, Kofi owns it.", "2026-05-04T02:22:00+09:00"),  # its UTC day
        ("Effective Wednesday, Kofi owns it.", "2026-10-14T11:00:00Z"),
        ("From next Monday, Kofi owns it.", "2026-04-06T00:00:00Z"),  # settled by the record
        ("Effective 5/1/2026, Kofi owns it.", "2026-05-01T09:00:00Z"),  # 1 May or 5 January
    ],
)
def test_a_time_agreeing_with_effective_at_keeps_it(sentence: str, effective_at: str) -> None:
    assert effective_time(sentence, AT, utc(effective_at), "UTC") == utc(effective_at)


def test_a_stated_time_disagreeing_with_effective_at_is_refused_naming_both() -> None:
    sentence = "Effective Wednesday 14 October 2026 at 11:00 UTC, Kofi owns it."
    reason = effective_time(sentence, AT, utc("2026-10-14T12:00:00Z"), "UTC")
    assert isinstance(reason, str)
    assert "14 October 2026 at 11:00 UTC" in reason and "2026-10-14T12:00:00+00:00" in reason


def test_the_model_path_reads_the_whole_sentence_of_a_cut_quote() -> None:
    """A model quoting only "billing gateway transfers from Aria Novak to Ben Okafor" out of
    "Effective 1 May 2026, ..." gets the same time as the rules, which quote it whole."""
    text = "Effective 1 May 2026, ownership of the billing gateway transfers from Aria Novak to Ben Okafor."  # noqa: E501
    rec = replace(record("CC-1", text, "change_control"), at=AT)
    cut = "billing gateway transfers from Aria Novak to Ben Okafor"
    for proposer, quote in (("model", cut), ("rules", text)):
        fact = OwnershipFact("CC-1", "billing-gateway", "ben", quote)
        verified = verify(Proposal("CC-1", (fact,), proposer=proposer), rec, org())
        assert [f.effective for f in verified.ownership] == [utc("2026-05-01T00:00:00+00:00")]
    late = replace(rec, effective_at=utc("2026-06-01T00:00Z"))
    fact = OwnershipFact("CC-1", "billing-gateway", "ben", cut)
    [refused] = verify(Proposal("CC-1", (fact,), proposer="model"), late, org()).rejected
    assert refused.check == "effective_time"


@pytest.mark.parametrize(
    ("sentence", "title", "elsewhere", "expected"),
    [
        (
            "Effective 1 May 2026 at 09:00 UTC, Cora owns it.",
            "Handover, effective 1 May 2026",
            (),
            "2026-05-01T09:00:00+00:00",
        ),
        ("Effective 1 May, Cora owns it.", "Handover, effective 1 May 2026", (), "2026-05-01"),
        ("Effective Friday, Cora owns it.", "Handover, effective 1 May 2026", (), "2026-05-01"),
        (
            "Cora owns it.",
            "Handover, effective 1 May 2026",
            ("Effective: 2026-05-01 09:00 UTC",),
            "2026-05-01T09:00:00+00:00",
        ),
    ],
)
def test_a_start_the_record_states_twice_more_or_less_precisely_is_one(
    sentence: str, title: str, elsewhere: tuple[str, ...], expected: str
) -> None:
    """A title's "effective 1 May 2026" beside the sentence's "1 May 2026 at 09:00 UTC" was
    refused as two times the claim takes effect."""
    when = effective_time(sentence, AT, None, "UTC", title=title, elsewhere=elsewhere)
    assert when == utc(expected if "T" in expected else f"{expected}T00:00:00+00:00")


def test_a_start_stated_twice_in_one_sentence_or_on_two_days_is_refused() -> None:
    sentence = "It transfers to Ben on Monday 4 May 2026, then to Cora on Monday."
    reason = effective_time(sentence, AT, None, "UTC")
    assert isinstance(reason, str) and "2 times" in reason
    sentence = "Effective 1 May 2026 at 09:00 UTC, Cora owns it."
    reason = effective_time(sentence, AT, None, "UTC", title="Handover from 2 May 2026")
    assert isinstance(reason, str) and "in the record's title" in reason


@pytest.mark.parametrize(
    ("title", "expected"),
    [
        ("Postmortem: billing gateway outage on 3 March 2026", AT.isoformat()),
        ("Billing gateway owned by Bo since 1 March 2026", AT.isoformat()),
        ("Handover, effective 1 March 2026", "2026-03-01T00:00:00+00:00"),  # it may look back
        ("Billing gateway review on 20 April 2026", None),  # the review's day, or the claim's?
    ],
)
def test_a_titles_day_of_another_event_does_not_date_the_claim(
    title: str, expected: str | None
) -> None:
    """A record titled "... outage on 3 March 2026", written 1 April, dated its "Bo owns the
    billing gateway" 3 March: Bo named for March."""
    when = effective_time("Bo Lind owns the billing gateway.", AT, None, "UTC", title=title)
    if expected is None:
        assert isinstance(when, str) and '"20 April 2026" in the record\'s title' in when
    else:
        assert when == utc(expected)
