"""The offline reader: what it pulls out of an entry, with the sentence each finding rests
on; and the pieces it stands on (sentences, sections, references, file summaries)."""

from __future__ import annotations

import itertools

from companybrain.board.file_summary import combine_summaries, summarise_file
from companybrain.board.reading import Context, Entry
from companybrain.board.refs import EntryRef, RefIndex
from companybrain.board.rules_worker import RulesReader
from companybrain.board.sections import split
from companybrain.model.findings import FindingKind, Verdict
from companybrain.policy.finding_checks import check_finding, check_summary
from companybrain.policy.sentences import sentences

ROUTER = """## The router prompt's "wrong" rule stays

The router prompt says the memory specialist "can only READ". We did fix it once and
measured: with the corrected text the smallest model routed "remember this" to memory
0 times out of 20; with the old, wrong text, 16 out of 20. So the wrong line stays.

- We tried a longer system prompt and it did not help: 12/20.
- Caching the embeddings was confirmed in a benchmark: 2.6x faster, p99 340 ms.
- The batch exporter change was reverted after a week.

The rule lives in `src/router/prompt.py`; see also config.yaml and notes.txt.
This supersedes ADR-7 and replaces [the old note](0002-old-note.md).
"""
REFS = RefIndex(
    [
        EntryRef('DECISIONS.md#The router prompt\'s "wrong" rule stays', path="DECISIONS.md"),
        EntryRef(
            "docs/adr/0007-route-by-keyword.md",
            "Route by keyword",
            "docs/adr/0007-route-by-keyword.md",
        ),
        EntryRef("docs/adr/0002-old-note.md", "Old note", "docs/adr/0002-old-note.md"),
    ]
)
PATHS = {"src/router/prompt.py", "config.yaml", "docs/adr/0002-old-note.md"}
CTX = Context(refs=REFS, known_paths=PATHS)
ENTRY = Entry(
    'DECISIONS.md#The router prompt\'s "wrong" rule stays',
    "Decision",
    'The router prompt\'s "wrong" rule stays',
    ROUTER,
    "DECISIONS.md",
)


def read() -> list[tuple[str, str, str | None, str | None]]:
    reading = RulesReader().read(ENTRY, 0, len(ROUTER), CTX, "rules-1")
    return [(f.kind.value, f.value, f.verdict, f.relation) for f in reading.findings]


def test_measurements_with_the_sentence_they_stand_in() -> None:
    reading = RulesReader().read(ENTRY, 0, len(ROUTER), CTX, "rules-1")
    figures = {f.value: f.quote for f in reading.findings if f.kind is FindingKind.MEASUREMENT}
    assert set(figures) == {"0 times out of 20", "16 out of 20", "12/20", "2.6x", "340 ms"}
    assert figures["16 out of 20"].startswith("We did fix it once and measured: with the")
    assert figures["340 ms"].startswith("Caching the embeddings")
    rejected = {
        f.value: check.reason
        for f in reading.findings
        if not (check := check_finding(f, ROUTER, PATHS, REFS.entries.keys())).kept
    }
    assert rejected == {"notes.txt": "no file 'notes.txt' in git"}
    assert {f.by for f in reading.findings} == {"rules-1"}


def test_experiments_with_their_verdicts() -> None:
    experiments = {(v, value.split()[1]) for k, value, v, _ in read() if k == "experiment"}
    assert experiments == {
        (Verdict.DISPROVEN, "tried"),
        (Verdict.CONFIRMED, "the"),
        (Verdict.REVERTED, "batch"),
    }


def test_files_resolve_to_paths_git_knows() -> None:
    files = {value for k, value, _, _ in read() if k == "file"}
    # A relative link resolves beside the entry; an unknown file is still proposed (and
    # then rejected by the check).
    assert files == {
        "src/router/prompt.py",
        "config.yaml",
        "notes.txt",
        "docs/adr/0002-old-note.md",
    }


def test_explicit_relations_resolve_to_entries() -> None:
    relations = {(r, value) for k, value, _, r in read() if k == "relation"}
    assert relations == {
        ("supersedes", "docs/adr/0007-route-by-keyword.md"),
        ("replaces", "docs/adr/0002-old-note.md"),
    }


def test_concepts_from_the_title_and_the_code_it_names() -> None:
    reading = RulesReader().read(ENTRY, 0, len(ROUTER), CTX, "rules-1")
    concepts = [f for f in reading.findings if f.kind is FindingKind.CONCEPT]
    assert [f.value for f in concepts][:2] == ["router prompt's", "wrong"]
    assert all(check_finding(f, ROUTER, PATHS).kept for f in concepts)


def test_a_section_reads_only_its_own_text() -> None:
    start = ROUTER.index("- We tried")
    end = ROUTER.index("The rule lives")
    reading = RulesReader().read(ENTRY, start, end, CTX, "rules-1")
    figures = {f.value for f in reading.findings if f.kind is FindingKind.MEASUREMENT}
    assert figures == {"12/20", "2.6x", "340 ms"}


def test_sentences_fold_wrapped_lines_and_skip_code() -> None:
    text = "# Title\n\nOne sentence that\nwraps. Another one.\n\n```\nnot 5 ms\n```\n- a bullet\n"
    found = [(s.text, s.heading) for s in sentences(text)]
    assert found == [
        ("Title", True),
        ("One sentence that wraps.", False),
        ("Another one.", False),
        ("a bullet", False),
    ]


def test_sections_cover_the_text_at_headings_within_the_limit() -> None:
    text = "\n".join(f"## Part {i}\n\n" + ("word " * 60) for i in range(6))
    spans = split(text, 700)
    assert spans[0][0] == 0 and spans[-1][1] == len(text)
    assert all(b - a <= 700 for a, b in spans)
    assert all(a2 == b1 for (_, b1), (a2, _) in itertools.pairwise(spans))
    assert all(text[a:].startswith("## Part") for a, _ in spans)
    assert split("short", 700) == [(0, 5)]
    one_line = "x" * 1000
    assert split(one_line, 300) == [(0, 300), (300, 600), (600, 900), (900, 1000)]


def test_references_resolve_by_number_path_and_link() -> None:
    refs = RefIndex(
        [
            EntryRef("docs/adr/0007-kafka.md", path="docs/adr/0007-kafka.md"),
            EntryRef("docs/adr/0012-outbox.md", path="docs/adr/0012-outbox.md"),
            EntryRef("ADR-007", "Publish ledger events through Kafka", label="Source"),
            EntryRef("DECISIONS.md#Use FalkorDB", path="DECISIONS.md"),
            EntryRef("DECISIONS.md#Keep the wrong line", path="DECISIONS.md"),
        ]
    )
    here = "docs/adr/0012-outbox.md"
    assert refs.resolve("ADR-12", "x") == "docs/adr/0012-outbox.md"
    assert refs.resolve("ADR 0007", here) is None  # two entries are number 7: no guess
    assert refs.resolve("[ADR-0007](0007-kafka.md)", here) == "docs/adr/0007-kafka.md"
    assert refs.resolve("docs/adr/0007-kafka.md", here) == "docs/adr/0007-kafka.md"
    assert refs.resolve("ADR-9", here) is None
    assert refs.resolve("DECISIONS.md", here) is None


def test_file_summaries_name_what_the_file_defines() -> None:
    code = (
        '"""Task storage."""\n\nclass TaskStore:\n    def add(self, t): ...\n'
        "    def _hidden(self): ...\n\ndef load(path): ...\n"
    )
    summary = summarise_file("src/tasks.py", code)
    assert summary == "Task storage. Defines `TaskStore`, `TaskStore.add`, `load`."
    assert check_summary(summary, "src/tasks.py", code).kept
    js = "export function renderBoard() {}\nclass Tile {}\n"
    assert summarise_file("web/board.js", js) == "Defines `renderBoard`, `Tile` (2 lines)."
    assert summarise_file("README.md", "# companybrain\n\n## Use\n") == (
        "Document titled 'companybrain' (1 more sections)."
    )
    folder = combine_summaries(
        "src", [("src/tasks.py", summary), ("src/x.py", "No public definitions.")]
    )
    assert folder == (
        "2 part(s). tasks.py: Task storage. Defines `TaskStore`, `TaskStore.add`, `load`.; "
        "x.py: No public definitions."
    )
