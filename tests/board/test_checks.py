"""The checks every finding passes before it is kept (policy/finding_checks.py)."""

from __future__ import annotations

from functools import partial

import pytest

from companybrain.board.refs import EntryRef, RefIndex
from companybrain.board.rules_worker import relation_targets
from companybrain.model.findings import Finding, FindingKind, Verdict
from companybrain.policy.finding_checks import (
    check_confirmation,
    check_finding,
    check_summary,
    code_names,
    figure_in_quote,
)

ENTRY = """# 3. Keep the router prompt's wrong line

We did fix the wrong line once and measured: with the corrected text the small model
routed "remember this" to memory 0 times out of 20; with the old text, 16 out of 20.
The exporter in `src/exporter.py` batches its writes; p99 is 340 ms.
It costs about 2.6–2.9x the latency.
We tried a shorter router prompt; it did not help. If the next model also fails, we will
revert the line. We tried caching the catalog and it worked. This supersedes ADR-2.
"""
PATHS = {"src/exporter.py", "src/router.py"}
TARGETS = partial(relation_targets, RefIndex(EntryRef(i) for i in ("adr-1", "adr-2", "adr-3")))


def finding(kind: FindingKind, quote: str, value: str, **kw: object) -> Finding:
    return Finding("DECISIONS.md#Keep", kind, quote, value, **kw)  # type: ignore[arg-type]


def check(f: Finding, entries: set[str] | None = None) -> tuple[bool, str | None]:
    result = check_finding(f, ENTRY, PATHS, entries)
    return result.kept, result.reason


def test_a_measurement_is_kept_when_its_figure_is_in_its_quote() -> None:
    quote = "with the old text, 16 out of 20"
    assert check(finding(FindingKind.MEASUREMENT, quote, "16 out of 20")) == (True, None)
    wrapped = "routed \u201cremember this\u201d  to memory 0 times\nout of 20"
    assert check(
        finding(FindingKind.MEASUREMENT, wrapped.replace("\u201c", '"'), "0 times out of 20")
    )[0]


def test_a_figure_missing_from_its_quote_is_rejected() -> None:
    kept, reason = check(
        finding(FindingKind.MEASUREMENT, "with the old text, 16 out of 20", "16/20")
    )
    assert not kept and "16/20" in (reason or "")
    # "2x" is not inside "2.6–2.9x", nor "0 out of 20" inside "10 out of 20".
    assert not check(
        finding(FindingKind.MEASUREMENT, "It costs about 2.6–2.9x the latency.", "9x")
    )[0]
    assert check(
        finding(FindingKind.MEASUREMENT, "It costs about 2.6–2.9x the latency.", "2.6–2.9x")
    )[0]
    assert not figure_in_quote("0 out of 20", "10 out of 20 runs")


def test_an_experiment_claim_may_not_carry_figures_its_quote_lacks() -> None:
    quote = "We tried a shorter router prompt; it did not help."
    ok = finding(
        FindingKind.EXPERIMENT, quote, "a shorter router prompt", verdict=Verdict.DISPROVEN
    )
    assert check(ok) == (True, None)
    bad = finding(FindingKind.EXPERIMENT, quote, "it gave 20/20", verdict=Verdict.DISPROVEN)
    kept, reason = check(bad)
    assert not kept and "20" in (reason or "")
    no_verdict = finding(FindingKind.EXPERIMENT, quote, "fixing the wrong line")
    assert not check(no_verdict)[0]


@pytest.mark.parametrize(
    ("quote", "claim", "verdict", "reason"),
    [
        # the quote reports another outcome, or none at all
        (
            "We tried caching the catalog and it worked.",
            "caching the catalog",
            Verdict.DISPROVEN,
            "the quote does not say it was disproven: it reports it confirmed",
        ),
        (
            "with the old text, 16 out of 20",
            "the old text",
            Verdict.DISPROVEN,
            "the quote does not say it was disproven: it reports no outcome of something tried",
        ),
        # cut from a sentence that supposes it: read whole, it reports nothing
        (
            "the next model also fails",
            "the next model",
            Verdict.DISPROVEN,
            "the quote does not say it was disproven: it reports no outcome of something tried",
        ),
        (
            "we will revert the line",
            "the line",
            Verdict.REVERTED,
            "the quote does not say it was reverted: it reports no outcome of something tried",
        ),
        # a claim the quote does not make
        (
            "We tried a shorter router prompt; it did not help.",
            "moving the router to Postgres",
            Verdict.DISPROVEN,
            "the claim's word(s) 'moving', 'postgres' are not in its quote",
        ),
    ],
)
def test_an_experiment_is_kept_only_with_the_verdict_and_claim_its_quote_states(
    quote: str, claim: str, verdict: Verdict, reason: str
) -> None:
    assert check(finding(FindingKind.EXPERIMENT, quote, claim, verdict=verdict)) == (False, reason)


def test_an_experiment_in_other_words_of_its_quote_or_under_a_status_field_is_kept() -> None:
    quote = "We tried a shorter router prompt; it did not help."
    cut = "it did not help"  # a part of the sentence, which reports it
    for q, claim in ((quote, "shortened router prompts"), (cut, "it")):
        assert check(finding(FindingKind.EXPERIMENT, q, claim, verdict=Verdict.DISPROVEN))[0]
    # the heading is the claim tested when a field of the entry records the verdict
    entry = "## Split memory in two\n\nStatus: reverted\n\nIt kept both halves.\n"
    heading = finding(
        FindingKind.EXPERIMENT,
        "Split memory in two",
        "Split memory in two",
        verdict=Verdict.REVERTED,
    )
    assert check_finding(heading, entry, PATHS).kept
    disproven = finding(
        FindingKind.EXPERIMENT, "Split memory in two", "Split memory", verdict=Verdict.DISPROVEN
    )
    assert not check_finding(disproven, entry, PATHS).kept


def test_a_quote_must_appear_verbatim_in_the_entry() -> None:
    kept, reason = check(
        finding(FindingKind.MEASUREMENT, "with the new text, 16 out of 20", "16 out of 20")
    )
    assert not kept and "not found verbatim" in (reason or "")


def test_a_file_must_exist_in_git() -> None:
    quote = "The exporter in `src/exporter.py` batches its writes; p99 is 340 ms."
    assert check(finding(FindingKind.FILE, quote, "src/exporter.py"))[0]
    kept, reason = check(finding(FindingKind.FILE, quote, "src/exporter_v2.py"))
    assert not kept and reason == "no file 'src/exporter_v2.py' in git"
    # The path exists, but the quote is not about it.
    assert not check(finding(FindingKind.FILE, quote, "src/router.py"))[0]


def test_a_relation_must_name_a_known_entry() -> None:
    quote = "This supersedes ADR-2."
    rel = finding(FindingKind.RELATION, quote, "docs/adr/0002.md", relation="supersedes")
    assert check(rel, {"docs/adr/0002.md"})[0]
    assert not check(rel, {"docs/adr/0001.md"})[0]
    odd = finding(FindingKind.RELATION, quote, "docs/adr/0002.md", relation="loves")
    assert not check(odd, {"docs/adr/0002.md"})[0]


def test_a_relation_is_kept_only_from_a_quote_that_states_it() -> None:
    unrelated = "We did fix the wrong line once and measured"
    for relation, said in (("supersedes", "supersedes"), ("replaced_by", "replaced by")):
        rel = finding(FindingKind.RELATION, unrelated, "docs/adr/0002.md", relation=relation)
        assert check(rel, {"docs/adr/0002.md"}) == (False, f"the quote does not say {said}")


def test_kinds_do_not_carry_what_is_not_theirs() -> None:
    quote = "with the old text, 16 out of 20"
    assert not check(
        finding(FindingKind.MEASUREMENT, quote, "16 out of 20", verdict=Verdict.CONFIRMED)
    )[0]
    assert not check(finding(FindingKind.CONCEPT, quote, "old text", relation="supersedes"))[0]
    assert check(finding(FindingKind.CONCEPT, quote, "old text"))[0]
    assert not check(finding(FindingKind.CONCEPT, quote, "new text"))[0]


TASKS_WITHOUT_CLASS = """def add(task):\n    TASKS.append(task)\n"""
TASKS_WITH_CLASS = (
    """class TaskStore:\n    def add(self, task):\n        self.items.append(task)\n"""
)


def test_a_qualified_name_needs_each_part_as_an_identifier_in_the_file() -> None:
    summary = "Stores tasks; new ones go through `TaskStore.add`."
    kept = check_summary(summary, "src/tasks.py", TASKS_WITHOUT_CLASS)
    assert not kept.kept and "TaskStore" in (kept.reason or "")
    # Not the exact dotted string: no file contains "TaskStore.add", yet this one defines both.
    assert "TaskStore.add" not in TASKS_WITH_CLASS
    assert check_summary(summary, "src/tasks.py", TASKS_WITH_CLASS).kept
    # Unquoted dotted names and calls are names too; plain words are prose.
    assert not check_summary(
        "Calls TaskStore.add() for each task.", "t.py", TASKS_WITHOUT_CLASS
    ).kept
    assert check_summary("Adds a task, e.g. from the CLI.", "t.py", TASKS_WITHOUT_CLASS).kept
    assert not check_summary("Wraps `remove_task()`.", "t.py", TASKS_WITHOUT_CLASS).kept


@pytest.mark.parametrize(
    ("summary", "names"),
    [
        ("Uses `TaskStore.add` and `load(path)`.", ["TaskStore.add", "load"]),
        ("Calls os.path.join() and save_all().", ["os.path.join", "save_all"]),
        ("Reads config.yaml, e.g. at start; see README.md.", []),
        ("Runs `make test` first.", []),
    ],
)
def test_code_names_in_a_summary(summary: str, names: list[str]) -> None:
    assert code_names(summary) == names


def test_a_handoff_counts_only_when_a_different_agent_confirms_with_both_quotes() -> None:
    a, b = "This supersedes ADR-1.", "# 1. Use Kafka\n\nStatus: Superseded by ADR-2"
    kwargs = {"from_id": "adr-2", "to_id": "adr-1", "relation": "supersedes", "targets": TARGETS}
    same = check_confirmation("rules-1", "rules-1", a, a, "Use Kafka", b, **kwargs)
    assert same.outcome == "not_counted"
    other = check_confirmation("rules-1", "model-1", a, a, "Use Kafka", b, **kwargs)
    assert other.outcome == "confirmed"
    one_side = check_confirmation("rules-1", "model-1", a, a, "", b, **kwargs)
    assert one_side.outcome == "rejected" and "adr-1" in one_side.reason
    invented = check_confirmation("rules-1", "model-1", a, a, "Use Pulsar", b, **kwargs)
    assert invented.outcome == "rejected" and "not in adr-1" in invented.reason
    passive = check_confirmation("rules-1", "model-1", "2. Stop", "# 2. Stop", b, b, **kwargs)
    assert passive.outcome == "confirmed"  # "Superseded by ADR-2" states it from the other side


@pytest.mark.parametrize(
    ("quote_from", "from_text", "reason"),
    [
        (
            "We publish ledger events.",
            "We publish ledger events. We tried Kafka.",
            "neither quote of the confirmation says that adr-2 supersedes adr-1",
        ),
        (
            "This does not supersede ADR-1.",
            "# 2. Stop\n\nThis does not supersede ADR-1.",
            "the confirmation's quote says it does not: 'This does not supersede ADR-1.'",
        ),
        (
            "ADR-1 is no longer superseded by this.",
            "ADR-1 is no longer superseded by this.",
            "the confirmation's quote says it does not: 'ADR-1 is no longer superseded by this.'",
        ),
    ],
)
def test_a_confirmation_whose_quotes_do_not_state_the_relation_is_rejected(
    quote_from: str, from_text: str, reason: str
) -> None:
    """A model confirming "ADR-3 supersedes ADR-2" with "This does not supersede ADR-2."
    made ADR-3 the decision in force, citing that sentence."""
    outcome = check_confirmation(
        "rules-1", "model-1", quote_from, from_text, "Use Kafka", "# 1. Use Kafka",
        from_id="adr-2", to_id="adr-1", relation="supersedes", targets=TARGETS,
    )  # fmt: skip
    assert (outcome.outcome, outcome.reason) == ("rejected", reason)


@pytest.mark.parametrize(
    ("quote_from", "quote_to", "reason"),
    [
        (  # states a supersession, of another entry
            "This supersedes ADR-3.",
            "# 1. Use Kafka",
            "neither quote of the confirmation says that adr-2 supersedes adr-1 "
            "('This supersedes ADR-3.': it names adr-3)",
        ),
        (  # names the right entry, the wrong way round
            "This is superseded by ADR-1.",
            "# 1. Use Kafka",
            "neither quote of the confirmation says that adr-2 supersedes adr-1 "
            "('This is superseded by ADR-1.': it names no such entry)",
        ),
        (  # the other side says it is superseded, but by another entry
            "# 2. Stop",
            "Status: Superseded by ADR-3",
            "neither quote of the confirmation says that adr-2 supersedes adr-1 "
            "('Status: Superseded by ADR-3': it names adr-3)",
        ),
    ],
)
def test_a_confirmation_must_state_the_relation_of_the_two_entries_it_confirms(
    quote_from: str, quote_to: str, reason: str
) -> None:
    outcome = check_confirmation(
        "rules-1", "model-1", quote_from, f"{quote_from}\n", quote_to, f"{quote_to}\n",
        from_id="adr-2", to_id="adr-1", relation="supersedes", targets=TARGETS,
    )  # fmt: skip
    assert (outcome.outcome, outcome.reason) == ("rejected", reason)


def test_a_file_named_by_a_name_two_files_share_is_not_either_of_them() -> None:
    """A model read "The loader reads `config.py` first." as being about src/b/config.py,
    though src/a/config.py is called so too, and `why src/b/config.py` cited it."""
    paths = {"src/a/config.py", "src/b/config.py", "README.md", "docs/README.md"}

    def file_check(quote: str, path: str) -> tuple[bool, str | None]:
        entry = f"# Loading\n\n{quote}\n"
        result = check_finding(Finding("adr-1", FindingKind.FILE, quote, path), entry, paths)
        return result.kept, result.reason

    assert file_check("The loader reads `config.py` first.", "src/b/config.py") == (
        False,
        "the quote names config.py, which is not only src/b/config.py in git: "
        "src/a/config.py, src/b/config.py",
    )
    assert file_check("The loader reads b/config.py first.", "src/b/config.py") == (True, None)
    assert file_check("It reads `src/b/config.py`.", "src/b/config.py") == (True, None)
    assert file_check("See README.md.", "README.md") == (True, None)  # the file of that name
    assert not file_check("See README.md.", "docs/README.md")[0]
    assert file_check("See ./docs/README.md.", "docs/README.md") == (True, None)
    assert file_check("See the config.pyc cache.", "src/b/config.py") == (
        False,
        "the quote does not name config.py",
    )


def test_a_loosely_worded_relation_names_what_follows_its_verb() -> None:
    """ "ADR-1 supersedes this one." (in ADR-2) says ADR-1 supersedes ADR-2; a model's finding
    that ADR-2 supersedes ADR-1 with that quote was kept, and a second model's confirmation
    counted: the loose reading took the one entry named anywhere in the sentence."""
    assert TARGETS("ADR-1 supersedes this one.", "adr-2", "supersedes") == set()
    assert TARGETS("ADR-1 was later replaced by this decision.", "adr-2", "replaces") == set()
    # what follows the verb is still what the entry relates to
    assert TARGETS("This supersedes the old decision, ADR-1.", "adr-2", "supersedes") == {"adr-1"}


def test_a_part_of_an_entry_replaced_is_no_relation_to_the_entry() -> None:
    """ "This replaces ADR-1's retry loop with a queue." replaces a part of ADR-1, not ADR-1:
    read as ADR-2 replacing ADR-1, `trace ADR-1` named ADR-2 the decision in force."""
    for quote in (
        "This replaces ADR-1's retry loop with a queue.",
        "This replaces ADR-1\u2019s retry loop with a queue.",
        "We replace the retry loop of ADR-1's exporter.",
    ):
        assert TARGETS(quote, "adr-2", "replaces") == set(), quote
    assert TARGETS("This replaces ADR-1 and ADR-3's loop.", "adr-2", "replaces") == {"adr-1"}
