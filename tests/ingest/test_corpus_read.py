"""Every bad file or line is rejected with a message naming it; everything else is read."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from companybrain.errors import InputError
from companybrain.ingest.corpus import read_corpus
from companybrain.ingest.org import org_from_mapping, read_org
from tests.ingest.corpus_builder import ORG, md, write_corpus

GOOD = md(
    {
        "id": "CC-1",
        "kind": "change_control",
        "at": "2026-10-13T09:12:00Z",
        "effective_at": "2026-10-14T11:00:00+02:00",
        "author": "ana",
        "about": ["billing-gateway"],
        "ticket_system": "jira",
    },
    "Ownership of the billing gateway transfers from Ana to Bo.",
)


def test_a_good_record_is_read_with_unknown_fields_kept(tmp_path: Path) -> None:
    result = read_corpus(write_corpus(tmp_path, {"cc.md": GOOD}))
    assert result.problems == []
    (record,) = result.records
    assert record.id == "CC-1" and record.kind == "change_control"
    assert record.effective.isoformat() == "2026-10-14T11:00:00+02:00"
    assert record.extra == {"ticket_system": "jira"}
    assert result.org is not None and result.org.company == "Testco"


def test_every_bad_input_is_named_and_the_rest_is_still_read(tmp_path: Path) -> None:
    records = {
        "good.md": GOOD,
        "no-offset.md": md(
            {"id": "CC-2", "kind": "change_control", "at": "2026-10-13T09:12:00"}, "x"
        ),
        "broken-front.md": "---\nid: [unclosed\n---\nbody\n",
        "no-front.md": "just text, no front matter\n",
        "empty.md": "",
        "latin1.md": "",
        "huge.md": md({"id": "BIG", "kind": "wiki", "at": "2026-10-13T09:12:00Z"}, "x" * 5000),
        "ghost-author.md": md(
            {"id": "W-1", "kind": "wiki", "at": "2026-10-13T09:12:00Z", "author": "nobody"}, "text"
        ),
        "ghost-service.md": md(
            {
                "id": "W-2",
                "kind": "wiki",
                "at": "2026-10-13T09:12:00Z",
                "about": ["no-such-service"],
            },
            "text",
        ),
        "z-dup.md": md({"id": "CC-1", "kind": "chat", "at": "2026-10-13T09:12:00Z"}, "again"),
        "odd-kind.md": md({"id": "P-1", "kind": "podcast", "at": "2026-10-13T09:12:00Z"}, "hi"),
    }
    root = write_corpus(
        tmp_path,
        records,
        jsonl=[
            {"id": "msg-1", "kind": "chat", "at": "2026-10-14T16:00:00Z", "text": "Ana owns it"},
        ],
    )
    (root / "records" / "latin1.md").write_bytes(
        b"---\nid: L-1\nkind: wiki\nat: 2026-10-13T09:12:00Z\n---\ncaf\xe9\n"
    )
    with (root / "records.jsonl").open("a") as f:
        f.write("{not json}\n")
        f.write('["a list"]\n')
        f.write('{"id": "msg-2", "kind": "chat", "at": "2026-10-14"}\n')
    result = read_corpus(root, max_bytes=2000)

    assert sorted(r.id for r in result.records) == ["CC-1", "P-1", "msg-1"]
    reasons = {
        Path(p.where.split(":")[0]).name
        + (":" + p.where.split(":")[1] if ":" in p.where else ""): p.message
        for p in result.rejected
    }
    assert "no UTC offset" in reasons["no-offset.md"]
    assert "malformed front matter" in reasons["broken-front.md"]
    assert "malformed front matter" in reasons["no-front.md"]
    assert reasons["empty.md"] == "empty file"
    assert "not UTF-8" in reasons["latin1.md"]
    assert "over the 2,000 limit" in reasons["huge.md"]
    assert "unknown person id 'nobody'" in reasons["ghost-author.md"]
    assert "unknown service or project id 'no-such-service'" in reasons["ghost-service.md"]
    assert "duplicate id 'CC-1'" in reasons["z-dup.md"]
    assert "malformed JSON" in reasons["records.jsonl:2"]
    assert "must be an object" in reasons["records.jsonl:3"]
    assert "date without a time" in reasons["records.jsonl:4"]
    (warning,) = result.warnings
    assert "unknown kind 'podcast'" in warning.message and "odd-kind.md" in warning.where


def test_a_time_whose_offset_is_off_the_clock_is_rejected_not_shifted(tmp_path: Path) -> None:
    """Python reads +02:60 as +03:00 and +02:99 as +03:39: the record was stored at an
    instant its author never wrote, and cited with that offset."""
    front = {"kind": "change_control", "author": "ana", "about": ["billing-gateway"]}
    records = {
        "a.md": md({**front, "id": "CC-1", "at": "2026-10-14T12:00:00+02:60"}, "text"),
        "b.md": md({**front, "id": "CC-2", "at": "2026-10-14T12:00:00+02:00:75"}, "text"),
        "c.md": md({**front, "id": "CC-3", "at": "2026-10-14T12:00:00+05:45"}, "text"),
    }
    line = {"id": "msg-1", "kind": "chat", "at": "2026-10-14T12:00:00-0599", "text": "hi"}
    result = read_corpus(write_corpus(tmp_path, records, jsonl=[line]))
    assert [r.id for r in result.records] == ["CC-3"]
    reasons = sorted(p.message for p in result.rejected)
    assert len(reasons) == 3
    assert all(r.startswith("at: time") and "past 59" in r for r in reasons), reasons


def test_a_single_file_needs_an_organisation(tmp_path: Path) -> None:
    path = tmp_path / "cc.md"
    path.write_text(GOOD)
    with pytest.raises(InputError, match=r"no org\.yaml"):
        read_corpus(path)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"timezone": "Mars/Olympus"}, "not an IANA time zone"),
        ({"services": [{"id": "ana", "name": "Clash"}]}, "also a person's id"),
        ({"people": [{"id": "Bad Id", "name": "X"}]}, "must match"),
        (
            {"projects": [{"id": "p", "name": "P", "services": ["nope"]}]},
            "unknown service id 'nope'",
        ),
        ({"authority": {"chat": "high"}}, "authority.chat must be a whole number"),
    ],
)
def test_a_bad_org_is_one_clear_error(tmp_path: Path, change: dict, message: str) -> None:
    root = write_corpus(tmp_path, {"cc.md": GOOD}, org={**ORG, **change})
    with pytest.raises(InputError, match=message) as info:
        read_corpus(root)
    assert "org.yaml" in str(info.value)


def test_an_org_with_an_impossible_date_is_one_clear_error(tmp_path: Path) -> None:
    """PyYAML raises ValueError, not a YAML error, for a date such as 2024-13-01."""
    root = write_corpus(tmp_path, {"cc.md": GOOD})
    org = root / "org.yaml"
    org.write_text(org.read_text() + "founded: 2024-13-01\n")
    with pytest.raises(InputError, match=r"malformed YAML: month must be in 1\.\.12") as info:
        read_corpus(root)
    assert "org.yaml" in str(info.value)


def _read_as_a_plain_user(root: Path) -> tuple[list[str], dict[str, str]]:
    """Record ids and rejections (file name → message) of `read_corpus(root)`, read where
    file permissions bite: as root, in a child process without the capabilities that
    bypass them (setpriv)."""
    code = (
        "import json, sys; from pathlib import Path\n"
        "from companybrain.ingest.corpus import read_corpus\n"
        "r = read_corpus(sys.argv[1])\n"
        "print(json.dumps([[x.id for x in r.records],"
        " {Path(p.where).name: p.message for p in r.rejected}]))\n"
    )
    command = [sys.executable, "-c", code, str(root)]
    if os.geteuid() == 0:
        if not shutil.which("setpriv"):
            pytest.skip("running as root without setpriv: permissions cannot bite")
        command = ["setpriv", "--bounding-set=-dac_override,-dac_read_search", *command]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in sys.path if p)}
    done = subprocess.run(command, capture_output=True, text=True, env=env, check=True)
    ids, rejected = json.loads(done.stdout)
    return sorted(ids), rejected


def test_unreadable_files_and_folders_are_named_and_the_rest_is_read(tmp_path: Path) -> None:
    """PermissionError and IsADirectoryError used to end the whole run."""
    root = write_corpus(
        tmp_path,
        {
            "a.md": md({"id": "A-1", "kind": "wiki", "at": "2026-10-13T09:12:00Z"}, "a"),
            "b.md": GOOD,
        },
        jsonl=[{"id": "msg-1", "kind": "chat", "at": "2026-10-14T16:00:00Z", "text": "hi"}],
    )
    (root / "more.jsonl").mkdir()
    (root / "records" / "folder.md").mkdir()
    (root / "later.jsonl").write_text(
        '{"id": "L-1", "kind": "chat", "at": "2026-10-14T16:00:00Z"}\n'
    )
    (root / "records" / "a.md").chmod(0)
    (root / "later.jsonl").chmod(0)
    try:
        ids, rejected = _read_as_a_plain_user(root)
    finally:
        (root / "records" / "a.md").chmod(0o644)
        (root / "later.jsonl").chmod(0o644)
    assert ids == ["CC-1", "msg-1"]
    assert rejected == {
        "a.md": "cannot be read: Permission denied",
        "later.jsonl": "cannot be read: Permission denied",
        "more.jsonl": "a folder, not a record file",
        "folder.md": "a folder, not a record file",
    }


def test_an_unreadable_org_is_one_clear_error(tmp_path: Path) -> None:
    root = write_corpus(tmp_path, {"cc.md": GOOD})
    (root / "org.yaml").unlink()
    (root / "org.yaml").mkdir()
    with pytest.raises(InputError, match=r"org\.yaml: a folder, not a YAML file"):
        read_corpus(root)


def test_a_byte_order_mark_starts_a_json_lines_file_as_it_may_a_markdown_file(
    tmp_path: Path,
) -> None:
    root = write_corpus(tmp_path, {"cc.md": "\ufeff" + GOOD})
    line = '{"id": "msg-1", "kind": "chat", "at": "2026-10-14T16:00:00Z"}\n'
    (root / "records.jsonl").write_bytes("\ufeff".encode() + line.encode())
    result = read_corpus(root)
    assert result.problems == []
    assert sorted(r.id for r in result.records) == ["CC-1", "msg-1"]


def test_yaml_aliases_in_front_matter_are_refused(tmp_path: Path) -> None:
    """Seven levels of aliases in 300 bytes were stored as 28 MB of extra fields."""
    laughs = "a: &a [x,x,x,x,x,x,x,x,x]\n" + "".join(
        f"{b}: &{b} [{', '.join([f'*{a}'] * 9)}]\n" for a, b in zip("abcdef", "bcdefg", strict=True)
    )
    root = write_corpus(
        tmp_path,
        {
            "cc.md": GOOD,
            "lol.md": "---\nid: L-1\nkind: wiki\nat: 2026-10-13T09:12:00Z\n" + laughs + "---\nx\n",
        },
    )
    result = read_corpus(root)
    assert [r.id for r in result.records] == ["CC-1"]
    (problem,) = result.rejected
    assert problem.where.endswith("lol.md") and "YAML aliases (*name) are not allowed" in (
        problem.message
    )


@pytest.mark.parametrize("value", [10**23, -1, 101])
def test_an_authority_out_of_range_is_one_clear_error(tmp_path: Path, value: int) -> None:
    """10**23 used to be stored as 9223372036854775807 without a word."""
    root = write_corpus(tmp_path, {"cc.md": GOOD}, org={**ORG, "authority": {"chat": value}})
    with pytest.raises(
        InputError, match=rf"org\.yaml: authority\.chat must be from 0 to 100, got {value}"
    ):
        read_corpus(root)


def test_an_org_with_yaml_aliases_is_one_clear_error(tmp_path: Path) -> None:
    root = write_corpus(tmp_path, {"cc.md": GOOD})
    org = root / "org.yaml"
    org.write_text(org.read_text() + "extra: &x [1, 2]\nmore: *x\n")
    with pytest.raises(InputError, match=r"org\.yaml: malformed YAML: YAML aliases"):
        read_corpus(root)


def test_an_org_yaml_value_nested_too_deep_is_one_error(tmp_path: Path) -> None:
    """The check for unstorable text walked org.yaml's values by recursion: 150 levels of
    lists passed the YAML parser and then raised RecursionError, as did a value holding
    itself (the parser fuzz test built one)."""
    path = tmp_path / "org.yaml"
    path.write_text("company: x\npeople: " + "[" * 150 + "]" * 150 + "\n")
    with pytest.raises(InputError, match="people: nested over 100 levels deep"):
        read_org(path)
    itself: list[Any] = []
    itself.append({"id": itself})
    with pytest.raises(InputError, match="nested over"):
        org_from_mapping({"company": "x", "people": itself}, "org.yaml")
