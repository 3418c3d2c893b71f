"""Decision records in every common format, read by code: ids, titles, dates, statuses,
exact line spans and supersession references."""

from __future__ import annotations

from companybrain.repo.decision_files import kind_of
from companybrain.repo.decisions import parse_file
from companybrain.repo.links import supersessions
from companybrain.repo.markdown import front_matter
from tests.repo import scenario


def _one(path: str, text: str, kind: str = "adr"):  # type: ignore[no-untyped-def]
    (entry,) = parse_file(path, text, kind)
    return entry


def test_decision_files_are_found_in_the_usual_places() -> None:
    assert kind_of("DECISIONS.md") == "log"
    assert kind_of("docs/DECISIONS.md") == "log"
    assert kind_of("DECISIONS/2025-q1.md") == "log"
    for path in (
        "docs/adr/0001-x.md",
        "doc/adr/0001-x.md",
        "docs/architecture/decisions/0001-x.md",
        "docs/decisions/0001-x.md",
        "adr/0001-x.md",
        "services/api/docs/adr/0002-y.md",
    ):
        assert kind_of(path) == "adr", path
    for path in (
        "docs/adr/README.md",
        "docs/adr/template.md",
        "docs/decisions/adr-template.md",
        "docs/adr/index.md",
        "src/adr.py",
        "node_modules/x/docs/adr/0001-x.md",
        "docs/guide.md",
    ):
        assert kind_of(path) is None, path


def test_adr_tools_and_nygard() -> None:
    e = _one("docs/adr/0001-record-architecture-decisions.md", scenario.ADR_0001)
    assert (e.id, e.title, e.number, e.status, e.date) == (
        "docs/adr/0001-record-architecture-decisions.md",
        "Record architecture decisions",
        1,
        "accepted",
        "2025-02-01",
    )
    assert e.format == "adr-tools"
    assert (e.line_start, e.line_end) == (1, len(scenario.ADR_0001.rstrip().splitlines()))
    nygard = _one("docs/adr/0002-use-postgresql.md", scenario.ADR_0002_SUPERSEDED)
    assert nygard.format == "nygard" and nygard.date is None
    assert nygard.status == "superseded"
    (ref,) = nygard.superseded_by
    assert ref.target == "0003-use-falkordb.md"
    assert ref.line == 5 and ref.quote.startswith("Superseded by [3. Use FalkorDB")


def test_madr_front_matter_and_log4brains_bullets() -> None:
    madr = _one("docs/decisions/0001-use-madr.md", scenario.MADR)
    assert (madr.title, madr.status, madr.date, madr.format) == (
        "Use MADR for new decisions",
        "accepted",
        "2025-04-03",
        "madr",
    )
    assert madr.line_start == 6  # the text starts after the front matter
    l4b = _one("docs/adr/20250401-use-falkordb-for-the-board.md", scenario.L4B_A)
    assert (l4b.title, l4b.status, l4b.date, l4b.number, l4b.format) == (
        "Use FalkorDB for the board",
        "accepted",
        "2025-04-01",
        None,  # a date-named record has no number: 20250401 is not ADR 20250401
        "log4brains",
    )


def test_madr_two_bullets_with_superseded_by_link() -> None:
    text = (
        "# Use Plain JUnit5\n\n* Status: superseded by [ADR-0005](0005-use-assertj.md)\n"
        "* Deciders: Oliver\n* Date: 2018-05-02\n\n## Context and Problem Statement\n\nx\n"
    )
    e = _one("docs/adr/0004-use-plain-junit5.md", text)
    assert (e.status, e.date, e.number) == ("superseded", "2018-05-02", 4)
    assert [r.target for r in e.superseded_by] == ["0005-use-assertj.md"]


def test_a_date_in_the_file_name_dates_an_undated_record() -> None:
    e = _one("docs/adr/2024-06-30-pick-a-queue.md", "# Pick a queue\n\nWe use SQS.\n")
    assert (e.date, e.title, e.number) == ("2024-06-30", "Pick a queue", None)


def test_decision_log_sections_with_same_day_entries() -> None:
    entries = parse_file("DECISIONS.md", scenario.DECISIONS_V2, "log")
    assert [e.id for e in entries] == [
        "DECISIONS.md#2025-03-01: Batch exporter writes",
        "DECISIONS.md#2025-03-01: Keep the wrong router rule",
        "DECISIONS.md#2025-05-01: Stream exporter writes",
    ]
    lines = scenario.DECISIONS_V2.splitlines()
    for e in entries:
        assert lines[e.line_start - 1].startswith("## ")
        assert "\n".join(lines[e.line_start - 1 : e.line_end]) == e.text
        assert lines[e.line_end - 1].strip()
    assert [e.date for e in entries] == ["2025-03-01", "2025-03-01", "2025-05-01"]
    assert entries[0].title == "Batch exporter writes"
    assert entries[0].status == "accepted" and entries[2].status is None


def test_repeated_headings_fences_and_date_groups() -> None:
    text = (
        "# Log\n\n## 2025-03\n\n### Pick A\n\nA.\n\n```\n### not a heading\n```\n\n"
        "### Pick A\n\nAgain.\n\n## 2025-04\n\n### Pick B\n\n**Status:** rejected\n"
    )
    entries = parse_file("DECISIONS.md", text, "log")
    assert [e.id for e in entries] == [
        "DECISIONS.md#Pick A",
        "DECISIONS.md#Pick A (2)",
        "DECISIONS.md#Pick B",
    ]
    assert "not a heading" in entries[0].text
    assert entries[2].status == "rejected"


def test_supersessions_resolve_by_link_number_anchor_and_title() -> None:
    entries = parse_file("docs/adr/0002-use-postgresql.md", scenario.ADR_0002_SUPERSEDED, "adr")
    entries += parse_file("docs/adr/0003-use-falkordb.md", scenario.ADR_0003, "adr")
    entries += parse_file("DECISIONS.md", scenario.DECISIONS_V2, "log")
    entries += parse_file(
        "docs/adr/0007-x.md", "# 7. X\n\nSupersedes ADR-0002. Superseded by ADR 3.\n", "adr"
    )
    entries += parse_file(
        "DECISIONS/notes.md",
        "# Notes\n\n## Old way\n\nx\n\n## New way\n\nStatus: Supersedes [old](#old-way)\n",
        "log",
    )
    found, unresolved = supersessions(entries)
    pairs = {(s.newer, s.older) for s in found}
    assert pairs == {
        ("docs/adr/0003-use-falkordb.md", "docs/adr/0002-use-postgresql.md"),
        (
            "DECISIONS.md#2025-05-01: Stream exporter writes",
            "DECISIONS.md#2025-03-01: Batch exporter writes",
        ),
        ("docs/adr/0007-x.md", "docs/adr/0002-use-postgresql.md"),
        ("docs/adr/0003-use-falkordb.md", "docs/adr/0007-x.md"),
        ("DECISIONS/notes.md#New way", "DECISIONS/notes.md#Old way"),
    }
    assert unresolved == []


def test_a_reference_that_names_nothing_is_reported_not_guessed() -> None:
    entries = parse_file("docs/adr/0009-y.md", "# 9. Y\n\nSupersedes ADR-0042.\n", "adr")
    found, unresolved = supersessions(entries)
    assert found == [] and [r.text for _, r in unresolved] == ["ADR-0042"]


def test_log_entries_are_named_by_the_code_that_heads_them() -> None:
    log = (
        "# Log\n\n## R1 Keep the wrong rule\n\nx\n\n## R2 Retire the 7B\n\nSupersedes: R1\n\n"
        "## D1 Fix the 7B\n\nx\n\n## D1 Again\n\nx\n\n## R3 Later\n\nSupersedes: D1\n"
    )
    found, unresolved = supersessions(parse_file("DECISIONS.md", log, "log"))
    assert [(s.newer, s.older) for s in found] == [
        ("DECISIONS.md#R2 Retire the 7B", "DECISIONS.md#R1 Keep the wrong rule")
    ]
    assert [r.text for _, r in unresolved] == ["D1"]  # two entries are D1: no guess


def test_wrapped_prose_is_not_a_supersession() -> None:
    text = "# 1. Z\n\nA decision is changed by writing a new ADR that\nsupersedes the old one.\n"
    (e,) = parse_file("docs/adr/0001-z.md", text, "adr")
    assert e.supersedes == () and e.superseded_by == ()


def test_entries_headed_only_by_the_same_date_stay_apart() -> None:
    text = (
        "# Decisions\n\n## 2025-03-01\n\nStatus: accepted\n\nUse one queue per tenant.\n\n"
        "### Context\n\nNoisy neighbours.\n\n## 2025-03-01\n\nDrop the nightly export.\n"
    )
    entries = parse_file("DECISIONS.md", text, "log")
    assert [(e.id, e.title, e.date) for e in entries] == [
        ("DECISIONS.md#2025-03-01", "Use one queue per tenant.", "2025-03-01"),
        ("DECISIONS.md#2025-03-01 (2)", "Drop the nightly export.", "2025-03-01"),
    ]
    assert "Noisy neighbours." in entries[0].text


def test_a_decisions_folder_file_with_one_entry_is_one_decision() -> None:
    (e,) = parse_file("DECISIONS/use-x.md", "# Use X\n\nDate: 2025-01-02\n\nBecause.\n", "log")
    assert (e.id, e.title, e.date) == ("DECISIONS/use-x.md", "Use X", "2025-01-02")


def test_front_matter_with_yaml_aliases_is_no_front_matter() -> None:
    """Aliases nested a few levels expand a few hundred bytes into millions of values."""
    laughs = "a: &a [x,x,x,x,x,x,x,x,x]\n" + "".join(
        f"{b}: &{b} [{', '.join([f'*{a}'] * 9)}]\n" for a, b in zip("abcdef", "bcdefg", strict=True)
    )
    text = "---\nstatus: accepted\n" + laughs + "supersedes: *g\n---\n\n# Use X\n\nWe will.\n"
    assert front_matter(text.splitlines()) == ({}, 11)  # as malformed front matter is
    entry = _one("docs/adr/0001-use-x.md", text)
    assert entry.title == "Use X" and entry.supersedes == ()
