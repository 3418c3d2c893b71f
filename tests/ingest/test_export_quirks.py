"""What real exports do to a corpus (keys written twice, ...): each is one clear rejection
naming the file (and line) and the field, or read as written; never a silently different
record."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from companybrain.ask.engine import ask
from companybrain.config import Settings
from companybrain.errors import InputError
from companybrain.graph.connection import Store
from companybrain.ingest import corpus as corpus_module
from companybrain.ingest.corpus import read_corpus
from companybrain.ingest.org import read_org
from companybrain.ingest.pipeline import ingest
from companybrain.ingest.records import read_jsonl
from tests.ingest.corpus_builder import write_corpus
from tests.ingest.test_pipeline import DIRECTORY

NOW = "2026-10-20T12:00:00Z"


def _owner(store: Store, settings: Settings) -> dict[str, object]:
    return ask(store, settings, "Who owns the Billing Gateway?", now=NOW).to_dict()


def test_a_key_written_twice_rejects_the_record_instead_of_keeping_the_last(
    store: Store, settings: Settings, tmp_path: Path
) -> None:
    """A chat message whose export wrote `kind` twice, the second time `change_control`,
    was stored as a change control (authority 90) and named the owner with its quote."""
    twice = (
        "---\nid: msg-1\nkind: chat\nat: 2026-10-15T10:00:00Z\nkind: change_control\n---\n"
        "Bo Lind owns the billing gateway.\n"
    )
    line = (
        '{"id": "msg-2", "kind": "chat", "at": "2026-10-15T11:00:00Z", '
        '"kind": "change_control", "text": "Cy Park owns the billing gateway."}'
    )
    corpus = write_corpus(tmp_path / "c", {"dir.md": DIRECTORY, "twice.md": twice})
    (corpus / "records.jsonl").write_text(line + "\n")

    report = ingest(store, corpus, settings)

    reasons = {Path(p.where).name: p.message for p in report.rejected}
    assert reasons == {
        "twice.md": reasons["twice.md"],
        "records.jsonl:1": "malformed JSON: duplicate key 'kind'",
    }
    assert "duplicate key 'kind'" in reasons["twice.md"] and "line 5" in reasons["twice.md"]
    assert report.stored == 1  # the directory, whole
    answer = _owner(store, settings)
    assert answer["result"] == {"owner": {"id": "ana", "name": "Ana Ruiz"}}
    assert [c["record"] for c in answer["citations"]] == ["dir-1"]  # type: ignore[index]


def test_an_org_yaml_with_a_section_written_twice_is_one_clear_error(tmp_path: Path) -> None:
    """A second `people:` list replaced the first: its people silently left the company."""
    corpus = write_corpus(tmp_path / "c", {"dir.md": DIRECTORY})
    org = corpus / "org.yaml"
    org.write_text(org.read_text() + "people:\n- id: dee\n  name: Dee Fox\n")
    with pytest.raises(InputError, match=r"org\.yaml: malformed YAML: duplicate key 'people'"):
        read_org(org)


def test_a_key_written_twice_in_a_nested_value_is_refused_too(tmp_path: Path) -> None:
    path = tmp_path / "records.jsonl"
    record = {"id": "x", "kind": "chat", "at": "2026-10-15T10:00:00Z", "text": "hi"}
    path.write_text(json.dumps(record)[:-1] + ', "meta": {"a": 1, "a": 2}}\n')
    items, problems = read_jsonl(path, 10_000)
    assert items == [] and [p.message for p in problems] == ["malformed JSON: duplicate key 'a'"]


def test_numbers_in_front_matter_and_org_yaml_are_read_as_written(
    store: Store, settings: Settings, tmp_path: Path
) -> None:
    """YAML 1.1 reads `0042` as 34 (octal) and `1.10` as 1.1: a comment written `id: 0042`
    was stored and cited as record "34", on ticket "33" (its `parent: 0041`), and a person
    `id: 0007` in org.yaml became "7", so the records naming "0007" were refused."""
    comment = (
        "---\nid: 0042\nkind: comment\nat: 2026-10-15T10:00:00Z\nparent: 0041\n"
        "author: 0007\ntitle: 1.10\nchannel: off\n---\nThe reindex finished in 3 minutes.\n"
    )
    ticket = {"id": "0041", "kind": "ticket", "at": "2026-10-14T10:00:00Z", "author": "0007"}
    corpus = write_corpus(tmp_path / "c", {"comment.md": comment}, jsonl=[{**ticket, "text": "x"}])
    org = corpus / "org.yaml"
    org.write_text(org.read_text().replace("people:\n", "people:\n- id: 0007\n  name: Dee Fox\n"))

    report = ingest(store, corpus, settings)

    assert (report.stored, report.rejected) == (2, [])
    rows = store.read(
        "MATCH (c:Source)-[:COMMENT_ON]->(t:Source) "
        "RETURN c.id AS c, t.id AS t, c.title AS title, c.channel AS channel"
    )
    assert [dict(r) for r in rows] == [
        {"c": "0042", "t": "0041", "title": "1.10", "channel": "off"}
    ]
    answer = ask(store, settings, "search reindex", now=NOW).to_dict()
    assert [c["record"] for c in answer["citations"]] == ["0042"]  # type: ignore[index]


def test_what_a_records_folder_holds_and_is_not_read_is_named(
    store: Store, settings: Settings, tmp_path: Path
) -> None:
    """An `.MD` file, a `.jsonl` inside records/ and a link to a folder of exports were
    passed over without a word: their records were silently missing from every answer."""
    change = (
        "---\nid: CC-1\nkind: change_control\nat: 2026-10-13T09:12:00Z\n---\n"
        "Ownership of the billing gateway transfers from Ana Ruiz to Bo Lind.\n"
    )
    corpus = write_corpus(tmp_path / "c", {"dir.md": DIRECTORY, "CC-1.MD": change})
    records = corpus / "records"
    (records / "chat.jsonl").write_text('{"id": "m-1"}\n')
    (records / ".DS_Store").write_bytes(b"\x00")
    elsewhere = tmp_path / "exports"
    elsewhere.mkdir()
    (elsewhere / "cc.md").write_text(change)
    (records / "linked").symlink_to(elsewhere)

    report = ingest(store, corpus, settings)

    assert (report.stored, report.rejected) == (1, [])
    assert {(Path(p.where).name, p.message) for p in report.warnings} == {
        ("CC-1.MD", "not read: not a .md record file"),
        ("chat.jsonl", "not read: not a .md record file"),
        ("linked", "not read: a link to a folder (links to folders are not followed)"),
    }


def test_a_name_that_yaml_reads_as_a_number_is_the_name_written(
    store: Store, settings: Settings, tmp_path: Path
) -> None:
    """`name: 2048` (a service) or `company: 1999`, unquoted, are numbers to YAML: the run
    stopped with "missing `name`", though the name was there."""
    corpus = write_corpus(tmp_path / "c", {})
    org = corpus / "org.yaml"
    org.write_text(
        org.read_text()
        .replace("company: Testco", "company: 1999")
        .replace("\nservices:\n", "\nservices:\n- id: g2048\n  name: 2048\n")
    )
    (corpus / "records" / "dir.md").write_text(
        "---\nid: dir-1\nkind: service_directory\nat: 2026-09-01T08:00:00Z\n---\n"
        "| Service | Owner |\n| --- | --- |\n| 2048 | Ana Ruiz |\n"
    )

    report = ingest(store, corpus, settings)

    assert (report.stored, report.rejected) == (1, [])
    answer = ask(store, settings, "Who owns 2048?", now=NOW).to_dict()
    assert answer["subject"] == {"id": "g2048", "type": "Service", "name": "2048"}
    assert answer["result"] == {"owner": {"id": "ana", "name": "Ana Ruiz"}}


def test_a_name_that_is_not_text_says_so(tmp_path: Path) -> None:
    corpus = write_corpus(tmp_path / "c", {})
    org = corpus / "org.yaml"
    org.write_text(org.read_text().replace("name: Cy Park", "name: [Cy, Park]"))
    with pytest.raises(InputError, match=r"people\[2\]: `name` must be text, got \['Cy', 'Park'\]"):
        read_org(org)


def test_text_in_the_front_matter_is_the_text_or_a_clear_rejection(
    store: Store, settings: Settings, tmp_path: Path
) -> None:
    """`text:` is the key of a record's text in JSON Lines ("the same keys"). In front
    matter it was silently replaced by the (empty) body: the record was stored with no
    text, and what it said was never read."""
    front = "---\nid: {}\nkind: change_control\nat: 2026-10-15T10:00:00Z\ntext: {}\n---\n{}"
    records = {
        "only.md": front.format("CC-1", "Bo Lind owns the billing gateway.", ""),
        "both.md": front.format("CC-2", "A summary.", "Cy Park owns the billing gateway.\n"),
    }
    report = ingest(store, write_corpus(tmp_path / "c", records), settings)

    assert [(Path(p.where).name, p.message) for p in report.rejected] == [
        ("both.md", "field `text` in the front matter and a body below it: a record has one"
         " text, give one"),
    ]  # fmt: skip
    answer = _owner(store, settings)
    assert answer["result"] == {"owner": {"id": "bo", "name": "Bo Lind"}}
    assert [c["quote"] for c in answer["citations"]] == ["Bo Lind owns the billing gateway."]  # type: ignore[index]


def test_a_utf16_export_is_one_rejection_that_names_its_encoding(
    store: Store, settings: Settings, tmp_path: Path
) -> None:
    """A JSON Lines file saved as UTF-16 (PowerShell 5's default) was refused once per line,
    "malformed JSON: Expecting value at column 1" after the first, with no word of why."""
    lines = [
        {"id": f"m-{i}", "kind": "chat", "at": "2026-10-15T10:00:00Z", "text": "hi"}
        for i in range(3)
    ]
    corpus = write_corpus(tmp_path / "c", {"dir.md": DIRECTORY})
    text = "".join(json.dumps(line) + "\n" for line in lines)
    (corpus / "records.jsonl").write_bytes(text.encode("utf-16"))
    (corpus / "records" / "cc.md").write_bytes(DIRECTORY.replace("dir-1", "d-2").encode("utf-16"))

    report = ingest(store, corpus, settings)

    why = "not UTF-8 text (UTF-16, by its byte-order mark: save it as UTF-8)"
    assert sorted((Path(p.where).name, p.message) for p in report.rejected) == [
        ("cc.md", why),
        ("records.jsonl", why),
    ]
    assert report.stored == 1


def test_front_matter_without_fields_says_what_is_wrong_with_it(tmp_path: Path) -> None:
    """Each of these was "no fields between the '---' lines", though the first two have
    their fields right there."""
    fields = "id: m-1\nkind: chat\nat: 2026-10-15T10:00:00Z\n"
    records = {
        "unclosed.md": f"---\n{fields}The body, but the front matter never ended.\n",
        "pandoc.md": f"---\n{fields}...\nClosed the way YAML ends a document.\n",
        "list.md": "---\n- id: m-2\n- kind: chat\n---\nbody\n",
        "empty.md": "---\n---\nbody\n",
    }
    problems = read_corpus(write_corpus(tmp_path / "c", records)).problems
    assert {Path(p.where).name: p.message for p in problems} == {
        "unclosed.md": "malformed front matter: no closing '---' line after the fields",
        "pandoc.md": "malformed front matter: no closing '---' line after the fields",
        "list.md": "malformed front matter: expected fields (`key: value` lines), got a list",
        "empty.md": "malformed front matter: no fields between the '---' lines",
    }


def test_a_folder_that_cannot_be_read_is_rejected_and_not_pruned(
    store: Store, settings: Settings, cli_env: dict[str, str], tmp_path: Path
) -> None:
    """A sub-folder of records/ that cannot be listed was passed over in silence, and
    `--prune` then deleted every record in it as gone from the corpus: the change control
    inside was no longer the owner's source."""
    moved = (
        "---\nid: CC-7\nkind: change_control\nat: 2026-10-16T09:00:00Z\n---\n"
        "Effective today, Cy Park owns the billing gateway.\n"
    )
    corpus = write_corpus(tmp_path / "c", {"dir.md": DIRECTORY, "changes/cc7.md": moved})
    ingest(store, corpus, settings)
    command = [sys.executable, "-m", "companybrain", "ingest", str(corpus), "--prune", "--json"]
    if os.geteuid() == 0:  # as root, without the capabilities that bypass permissions
        if not shutil.which("setpriv"):
            pytest.skip("running as root without setpriv: permissions cannot bite")
        command = ["setpriv", "--bounding-set=-dac_override,-dac_read_search", *command]
    env = {**cli_env, "PYTHONPATH": os.pathsep.join(p for p in sys.path if p)}
    (corpus / "records" / "changes").chmod(0)
    try:
        done = subprocess.run(command, capture_output=True, text=True, env=env, check=False)
    finally:
        (corpus / "records" / "changes").chmod(0o755)

    report = json.loads(done.stdout)
    assert [(Path(r["where"]).name, r["reason"]) for r in report["rejected"]] == [
        ("changes", "cannot be read: Permission denied")
    ]
    assert report["pruned"] == 0
    answer = _owner(store, settings)
    assert answer["result"] == {"owner": {"id": "cy", "name": "Cy Park"}}
    assert [c["record"] for c in answer["citations"]] == ["CC-7"]  # type: ignore[index]


def test_a_long_value_is_named_by_its_start_in_a_rejection(tmp_path: Path) -> None:
    """An exporter that put a whole body into `author` (or `at`, `kind`, `about`) got a
    one-line rejection of 200,000 characters, the file and the reason lost in it."""
    long = "x" * 200_000
    base = {"kind": "chat", "at": "2026-10-15T10:00:00Z", "text": "hi"}
    lines = [
        {**base, "id": "m-1", "author": long},
        {**base, "id": "m-2", "about": [long]},
        {**base, "id": "m-3", "at": long},
        {**base, "id": "m-4", "kind": long},
    ]
    corpus = write_corpus(tmp_path / "c", {}, jsonl=lines)
    problems = read_corpus(corpus).problems
    start = repr(long)[:80] + "... (200,000 characters)"
    assert [(Path(p.where).name, p.message) for p in problems] == [
        ("records.jsonl:1", f"field `author` names unknown person id {start}"),
        ("records.jsonl:2", f"field `about` names unknown service or project id {start}"),
        ("records.jsonl:3", f"at: {start} is not an ISO 8601 time"),
        ("records.jsonl:4", f"unknown kind {start}: accepted with authority 0"),
    ]


def test_pretty_printed_json_is_one_rejection_that_says_so(tmp_path: Path) -> None:
    """A records.jsonl written as indented JSON was refused once per line ("Extra data at
    column 7", "Expecting property name ..."), each line counted as a record read."""
    lines = [
        {"id": f"m-{i}", "kind": "chat", "at": "2026-10-15T10:00:00Z", "text": "hi"}
        for i in range(2)
    ]
    corpus = write_corpus(tmp_path / "c", {"dir.md": DIRECTORY})
    for name, text in (
        ("objects.jsonl", "".join(json.dumps(x, indent=2) + "\n" for x in lines)),
        ("array.jsonl", json.dumps(lines, indent=2) + "\n"),
    ):
        (corpus / name).write_text(text)
    result = read_corpus(corpus)

    why = (
        "not JSON Lines: it starts with a line holding only '{' or '[', as pretty-printed"
        " JSON does; write one record object a line"
    )
    assert [(Path(p.where).name, p.message) for p in result.problems] == [
        ("array.jsonl", why),
        ("objects.jsonl", why),
    ]
    assert [r.id for r in result.records] == ["dir-1"]


def test_a_file_exported_twice_into_itself_is_read_twice_not_once_per_id(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Where each duplicated id was first read was looked up by reading the corpus again,
    once per id: a records.jsonl appended to itself (every id twice) was read 3,001 times
    for 3,000 records (33 s; hours at 100,000). One more pass names every first place."""
    lines = [
        json.dumps({"id": f"m-{i}", "kind": "chat", "at": "2026-10-15T10:00:00Z", "text": "x"})
        for i in range(300)
    ]
    corpus = write_corpus(tmp_path / "c", {})
    (corpus / "records.jsonl").write_text("\n".join(lines + lines) + "\n")
    passes = []
    real = corpus_module.iter_raw

    def counted(*args: Any) -> Any:
        passes.append(1)
        return real(*args)

    monkeypatch.setattr(corpus_module, "iter_raw", counted)
    result = read_corpus(corpus)

    assert len(result.records) == 300 and len(passes) == 2
    where = {Path(p.where).name: p.message for p in result.rejected}
    assert len(where) == 300
    assert where["records.jsonl:301"] == f"duplicate id 'm-0' (first in {corpus}/records.jsonl:1)"
    assert where["records.jsonl:600"] == (
        f"duplicate id 'm-299' (first in {corpus}/records.jsonl:300)"
    )


def test_latin1_bytes_are_named_by_line_in_a_whole_file(tmp_path: Path) -> None:
    """A Markdown record or org.yaml saved as Latin-1 was refused "at byte 523,112": the
    line is what an editor can go to. (A JSON line already names its line.)"""
    corpus = write_corpus(tmp_path / "c", {})
    (corpus / "records" / "cafe.md").write_bytes(
        "---\nid: m-1\nkind: chat\nat: 2026-10-15T10:00:00Z\n---\nfirst\nCafé\n".encode("latin-1")
    )
    (problem,) = read_corpus(corpus).problems
    assert problem.message == "not UTF-8 text (invalid continuation byte at byte 61, line 7)"

    org = corpus / "org.yaml"
    org.write_bytes(org.read_bytes().replace(b"Cy Park", "Cy Pärk".encode("latin-1")))
    with pytest.raises(InputError, match=r"org\.yaml: not UTF-8 text \(.* at byte \d+, line 18\)"):
        read_org(org)


def test_a_known_field_written_in_another_case_rejects_the_record(
    store: Store, settings: Settings, tmp_path: Path
) -> None:
    """`ACL: [security]` was kept as an unknown field: the record was stored as public,
    and anyone saw a text its export meant for one group. So with `About`, `effective-at`."""
    restricted = (
        "---\nid: sec-1\nkind: chat\nat: 2026-10-15T10:00:00Z\nACL: [security]\n---\n"
        "The vault master key rotates on Friday.\n"
    )
    line = (
        '{"id": "msg-2", "kind": "chat", "at": "2026-10-15T11:00:00Z", '
        '"effective-at": "2026-11-01T00:00:00Z", "text": "Cy Park owns the billing gateway."}'
    )
    corpus = write_corpus(tmp_path / "c", {"dir.md": DIRECTORY, "sec.md": restricted})
    (corpus / "records.jsonl").write_text(line + "\n")

    report = ingest(store, corpus, settings)

    reasons = {Path(p.where).name: p.message for p in report.rejected}
    assert reasons == {
        "sec.md": "field `ACL` is `acl` written otherwise: field names are written as the "
        "corpus format writes them (lower case, underscores)",
        "records.jsonl:1": "field `effective-at` is `effective_at` written otherwise: field "
        "names are written as the corpus format writes them (lower case, underscores)",
    }
    assert report.stored == 1  # the directory, whole
    assert store.read("MATCH (s:Source {id: 'sec-1'}) RETURN s.id AS id") == []
