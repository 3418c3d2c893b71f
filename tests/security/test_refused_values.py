"""Values that cannot be stored are refused with one clear message naming the file and the
field, and the rest of the corpus is still ingested. A NUL character would cut the query
text short; a lone surrogate is not text; and FalkorDB (the pinned version) crashes when a
uniquely indexed id starts or ends with white space, holds a control character or is over
4,096 bytes long, so ids never may (they are kept to MAX_ID_BYTES)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companybrain.config import Settings
from companybrain.errors import InputError
from companybrain.graph.connection import Store
from companybrain.graph.ident import MAX_ID_BYTES
from companybrain.ingest.org import org_from_mapping
from companybrain.ingest.pipeline import ingest
from companybrain.ingest.records import BadRecord, to_record
from tests.ingest.corpus_builder import ORG, md, write_corpus
from tests.security.graphcheck import sources
from tests.security.hostile import tried

GOOD = {"id": "OK-1", "kind": "wiki", "at": "2026-10-05T10:00:00Z", "text": "fine"}
BAD_RECORDS = [
    ({"id": "A\x00B"}, "id"),
    ({"id": "A\x01B"}, "id"),
    ({"id": "A\tB"}, "id"),
    ({"id": "A\nB"}, "id"),
    ({"id": "A\x0bB"}, "id"),
    ({"title": "x\x00y"}, "title"),
    ({"text": "body \x00 more"}, "text"),
    ({"channel": "\x00"}, "channel"),
    ({"weird\x00key": "v"}, "weird"),
    ({"note": ["a", "b\x00"]}, "note"),
    ({"title": "half \ud800 a pair"}, "title"),
    ({"text": "\udfff"}, "text"),
    # Over 4,096 bytes, a unique id crashed the server (EnforceUniqueEntity), losing the run.
    ({"id": "L" * 10_000}, "id"),
    ({"id": "\u20ac" * 1_500}, "id"),  # 1,500 characters, 4,500 bytes
    # A time whose instant is outside year 1 to 9999 in UTC: OverflowError when stored.
    ({"at": "0001-01-01T00:00:00+01:00"}, "at"),
    ({"effective_at": "9999-12-31T23:59:59-01:00"}, "effective_at"),
    # NaN would be stored as `{"weight": NaN}`, which no JSON reader takes.
    ({"weight": float("nan")}, "weight"),
    ({"scores": [1, float("inf")]}, "scores"),
    # Nested hundreds deep: recursion further on.
    ({"deep": json.loads("[" * 500 + "]" * 500)}, "deep"),
]


@pytest.mark.parametrize(("change", "field"), BAD_RECORDS)
def test_a_bad_value_rejects_its_record_alone(
    store: Store, settings: Settings, tmp_path: Path, change: dict, field: str
) -> None:
    tried("refused_values.records")
    bad = {**GOOD, "id": "BAD-1", **change}
    lines = json.dumps(GOOD) + "\n" + json.dumps(bad) + "\n"
    folder = write_corpus(tmp_path / "c", {})
    (folder / "records.jsonl").write_text(lines)
    report = ingest(store, folder, settings)
    assert len(report.rejected) == 1, report.rejected
    problem = report.rejected[0]
    assert problem.where.endswith("records.jsonl:2")
    assert field in problem.message
    assert set(sources(store)) == {"OK-1"}


@pytest.mark.parametrize("rid", [" padded", "padded ", "\ttab", "x\x01", "x\x7f", "a\u0085b"])
def test_ids_with_control_characters_are_refused_before_the_database(rid: str) -> None:
    """(Surrounding spaces are stripped, as before; control characters are refused.)"""
    tried("refused_values.records")
    org = org_from_mapping(ORG)
    raw = {**GOOD, "id": rid, "__where__": "f.md"}
    if rid.strip() != rid and rid.strip().isprintable():
        record, _ = to_record(raw, org)
        assert record.id == rid.strip()
    else:
        with pytest.raises(BadRecord, match="`id`"):
            to_record(raw, org)


def test_the_longest_id_is_stored_and_one_byte_more_is_refused(
    store: Store, settings: Settings, tmp_path: Path
) -> None:
    tried("refused_values.records", 2)
    longest = "\U0001f600" * (MAX_ID_BYTES // 4)  # four bytes each
    folder = write_corpus(tmp_path / "c", {})
    lines = [{**GOOD, "id": longest}, {**GOOD, "id": longest + "x"}]
    (folder / "records.jsonl").write_text("".join(json.dumps(r) + "\n" for r in lines))
    report = ingest(store, folder, settings)
    assert [p.where.rsplit("/", 1)[-1] for p in report.rejected] == ["records.jsonl:2"]
    assert "1,001 bytes long, over the 1,000-byte limit" in report.rejected[0].message
    assert set(sources(store)) == {longest}


def test_a_markdown_record_with_an_overlong_id_names_the_file(
    store: Store, settings: Settings, tmp_path: Path
) -> None:
    tried("refused_values.records")
    folder = write_corpus(
        tmp_path / "c",
        {
            "good.md": md({"id": "G-1", "kind": "wiki", "at": "2026-10-05T10:00:00Z"}, "ok"),
            "long.md": md({"id": "L" * 10_000, "kind": "wiki", "at": "2026-10-05T10:00:00Z"}, "x"),
        },
    )
    report = ingest(store, folder, settings)
    assert [p.where.rsplit("/", 1)[-1] for p in report.rejected] == ["long.md"]
    assert "`id`" in report.rejected[0].message and "limit" in report.rejected[0].message
    assert len(report.rejected[0].message) < 200  # the id is not quoted whole
    assert set(sources(store)) == {"G-1"}


def test_a_json_line_nested_beyond_the_parser_names_its_line(
    store: Store, settings: Settings, tmp_path: Path
) -> None:
    tried("refused_values.records")
    folder = write_corpus(tmp_path / "c", {})
    deep = '{"id": "D-1", "kind": "wiki", "at": "2026-10-05T10:00:00Z", "x": '
    deep += "[" * 100_000 + "]" * 100_000 + "}"
    (folder / "records.jsonl").write_text(deep + "\n" + json.dumps(GOOD) + "\n")
    report = ingest(store, folder, settings)
    assert [p.where.rsplit("/", 1)[-1] for p in report.rejected] == ["records.jsonl:1"]
    assert "nested" in report.rejected[0].message
    assert set(sources(store)) == {"OK-1"}


def test_markdown_front_matter_with_a_nul_names_the_file(
    store: Store, settings: Settings, tmp_path: Path
) -> None:
    tried("refused_values.records")
    folder = write_corpus(
        tmp_path / "c",
        {
            "good.md": md({"id": "G-1", "kind": "wiki", "at": "2026-10-05T10:00:00Z"}, "ok"),
            "bad.md": '---\nid: "B\\0"\nkind: wiki\nat: 2026-10-05T10:00:00Z\n---\nbody\n',
        },
    )
    report = ingest(store, folder, settings)
    assert [p.where.rsplit("/", 1)[-1] for p in report.rejected] == ["bad.md"]
    assert "`id`" in report.rejected[0].message
    assert set(sources(store)) == {"G-1"}


@pytest.mark.parametrize(
    ("change", "where"),
    [
        (lambda o: o["people"][0].update(name="Ana\x00Ruiz"), "people[0]"),
        (lambda o: o["people"][1].update(aliases=["B\ud800"]), "people[1]"),
        (lambda o: o["people"][0].update(groups=["pay\x01"]), "people[0].groups"),
        (lambda o: o["people"][0].update(groups=[" pay"]), "people[0].groups"),
        (lambda o: o["people"][0].update(groups=["pay\n"]), "people[0].groups"),
        (lambda o: o["services"][0].update(name="Billing\x00"), "services[0]"),
        (lambda o: o.update(company="Test\x00co"), "company"),
        (lambda o: o["people"][2].update(id="c" * 10_000), "people[2]"),
        (lambda o: o["services"][1].update(id="s" * 10_000), "services[1]"),
        (lambda o: o["projects"][0].update(id="p" * 5_000), "projects[0]"),
        (lambda o: o["people"][0].update(groups=["g" * 5_000]), "people[0].groups"),
    ],
)
def test_org_values_that_cannot_be_stored_name_the_field(change, where: str) -> None:  # type: ignore[no-untyped-def]
    tried("refused_values.org")
    org = json.loads(json.dumps(ORG))
    change(org)
    with pytest.raises(InputError) as caught:
        org_from_mapping(org, "org.yaml")
    assert "org.yaml" in str(caught.value) and where in str(caught.value)


def test_a_question_with_a_nul_is_refused_clearly(store: Store, settings: Settings) -> None:
    from companybrain.ask.engine import ask

    tried("refused_values.questions")
    with pytest.raises(InputError, match="question"):
        ask(store, settings, "Who owns the billing\x00 gateway?", now="2026-10-20T12:00:00Z")


def test_a_question_with_undecodable_bytes_is_refused_clearly(
    store: Store, settings: Settings
) -> None:
    """A command line with bytes that are not UTF-8 arrives as lone surrogates."""
    from companybrain.ask.engine import ask

    tried("refused_values.questions")
    question = b"Who owns \xff billing?".decode("utf-8", "surrogateescape")
    with pytest.raises(InputError, match="question"):
        ask(store, settings, question, now="2026-10-20T12:00:00Z")


def test_an_overlong_question_is_refused_clearly(store: Store, settings: Settings) -> None:
    """The question readers are regular expressions; some are not linear in the length, so
    a page of text is refused before any of them runs."""
    from companybrain.ask.engine import MAX_QUESTION_CHARS, ask

    tried("refused_values.questions")
    with pytest.raises(InputError, match="characters"):
        ask(store, settings, "who " * MAX_QUESTION_CHARS, now="2026-10-20T12:00:00Z")


@pytest.mark.parametrize(
    ("args", "field"),
    [
        (["--id", "typed\x01one"], "`id`"),
        (["--id", "typed one\t"], "`id`"),
        (["--id", "typed-one "], "`id`"),  # crashed the server (EnforceUniqueEntity)
        (["--id", " typed-one"], "`id`"),
        (["--id", "t" * 10_000], "`id`"),
        (["--id", "typed-ok"], "`text`"),  # the text below holds a NUL
    ],
)
def test_a_typed_record_with_unstorable_values_is_refused(
    run_cli, settings: Settings, tmp_path: Path, args: list[str], field: str
) -> None:  # type: ignore[no-untyped-def]
    """`brain add` (and the web page's Add record) build a record from typed input: the
    same refusals apply, as one line, and the server stays up."""
    tried("refused_values.records")
    folder = write_corpus(tmp_path / "c", {})
    assert run_cli("ingest", str(folder)).exit_code == 0
    text = "Bo Lind owns the billing gateway" + ("\x00" if field == "`text`" else "")
    result = run_cli("add", text, "--as", "bo", *args)
    assert isinstance(result.exception, InputError), result.output
    assert field in str(result.exception) and "brain add" in str(result.exception)
    assert run_cli("add", "Bo Lind owns the billing gateway", "--as", "bo").exit_code == 0


def test_an_overlong_as_of_is_refused_clearly(store: Store, settings: Settings) -> None:
    from companybrain.ask.engine import ask

    tried("refused_values.questions")
    with pytest.raises(InputError, match="--as-of"):
        ask(store, settings, "Who owns the billing gateway?", as_of="2026-" * 5000)


@pytest.mark.parametrize("value", ["a\x00b", "half \ud800", ["ok", "x\x00"], {"k\x00": 1}])
def test_a_query_value_that_is_not_text_is_refused_before_the_server(
    store: Store, value: object
) -> None:
    """Every value passes `Store.query` or `Store.prepare`: a NUL there used to reach the
    server, whose parse error ("Invalid input ...") was shown as the database failing."""
    tried("refused_values.query_params")
    with pytest.raises(InputError, match=r"\$v (contains a NUL|is not valid Unicode)"):
        store.read("RETURN $v AS v", {"v": value})
    with pytest.raises(InputError, match=r"\$v "):
        Store.prepare("RETURN $v AS v", {"v": value})
    assert store.read("RETURN $v AS v", {"v": "fine"}) == [{"v": "fine"}]


def test_a_nul_in_a_git_argument_is_a_git_error(tmp_path: Path) -> None:
    """No process takes a NUL: subprocess raised ValueError (a 500 on the web, a traceback
    in the MCP server)."""
    from companybrain.repo import gitcmd
    from tests.repo.gitrepo import GitRepo

    tried("refused_values.git_args")
    repo = GitRepo(tmp_path / "repo")
    repo.write("a.txt", "x\n")
    repo.commit("one", "2026-01-05T10:00:00Z")
    for call in (
        lambda: gitcmd.resolve(repo.root, "\x00"),
        lambda: gitcmd.run(repo.root, "show", "HEAD\x00"),
        lambda: gitcmd.ok(repo.root, "rev-parse", "\x00"),
        lambda: list(gitcmd.stream(repo.root, ["log", "\x00"], b"\n")),
    ):
        with pytest.raises(gitcmd.GitError, match="contains a NUL character"):
            call()
    with gitcmd.BlobReader(repo.root) as blobs:
        assert blobs.read("HEAD:a.txt\x00") is None
        assert blobs.read("HEAD:a.txt") == b"x\n"
    assert gitcmd.resolve(repo.root, "HEAD")
