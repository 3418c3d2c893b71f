"""Record files → validated Records. A bad file or line becomes a Problem naming it and
what is wrong; it never stops the rest of the corpus."""

from __future__ import annotations

import json
import math
import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import frontmatter

from companybrain.errors import InputError
from companybrain.graph.ident import MAX_ID_BYTES, has_control, id_too_long
from companybrain.ingest.org import YAML_ERRORS, load_yaml, not_utf8
from companybrain.ingest.times import TimeProblem, parse_instant
from companybrain.model.records import Org, Record
from companybrain.policy.text import UNSTORABLE, clipped, unstorable

KNOWN_FIELDS = {
    "id",
    "kind",
    "at",
    "effective_at",
    "author",
    "title",
    "parent",
    "channel",
    "status",
    "supersedes",
    "motivated_by",
    "resolved_by",
    "about",
    "acl",
    "text",
}


@dataclass(frozen=True)
class Problem:
    where: str  # file, or file:line
    message: str
    fatal: bool = True  # False: a warning; the record is still ingested
    record: str | None = None  # the id of the record refused, when it could be read


class BadRecord(ValueError):
    pass


def read_markdown(path: Path, max_bytes: int) -> tuple[list[dict[str, Any]], list[Problem]]:
    """One record per Markdown file: front matter + body."""
    where = str(path)
    if problem := _unreadable(path):
        return [], [problem]
    try:
        data = path.read_bytes()
    except OSError as exc:
        return [], [_os_problem(where, exc)]
    if not data.strip():
        return [], [Problem(where, "empty file")]
    if len(data) > max_bytes:
        return [], [Problem(where, f"record is {len(data):,} bytes, over the {max_bytes:,} limit")]
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        return [], [Problem(where, _not_utf8(data, exc, whole_file=True))]
    text = text.removeprefix("\ufeff")  # a byte-order mark, as some editors write
    if not text.startswith("---"):
        return [], [Problem(where, "malformed front matter: the file must start with '---'")]
    try:
        post = frontmatter.loads(text, handler=_FRONT_MATTER)
    except YAML_ERRORS as exc:
        why = _first_line(exc) or type(exc).__name__
        return [], [Problem(where, f"malformed front matter: {why}")]
    if not post.metadata:
        return [], [Problem(where, f"malformed front matter: {_no_fields(text)}")]
    if "text" in post.metadata:  # the key of a JSON line's text: its body was dropped
        if post.content.strip():
            return [], [Problem(where, _TEXT_TWICE)]
        return [{**post.metadata, "__where__": where}], []
    return [{**post.metadata, "text": post.content, "__where__": where}], []


_TEXT_TWICE = (
    "field `text` in the front matter and a body below it: a record has one text, give one"
)


def read_jsonl(path: Path, max_bytes: int) -> tuple[list[dict[str, Any]], list[Problem]]:
    """One record per line; a bad line is rejected alone."""
    items: list[dict[str, Any]] = []
    problems: list[Problem] = []
    for item in iter_jsonl(path, max_bytes):
        if isinstance(item, Problem):
            problems.append(item)
        else:
            items.append(item)
    return items, problems


def _no_fields(text: str) -> str:
    """Why front matter gave no fields. All three read "no fields between the '---' lines",
    though a file without a closing line, or holding a list, has fields to look at."""
    try:
        front, _ = _FRONT_MATTER.split(text.strip())
    except ValueError:
        return "no closing '---' line after the fields"
    data = load_yaml(front)
    if data is None or data == {}:
        return "no fields between the '---' lines"
    got = (
        "a list" if isinstance(data, list) else "plain text" if isinstance(data, str) else "a value"
    )
    return f"expected fields (`key: value` lines), got {got}"


class _FrontMatter(frontmatter.YAMLHandler):
    """python-frontmatter's YAML handler, parsing with libyaml where it is built in."""

    def load(self, fm: str, **kwargs: object) -> Any:
        return load_yaml(fm)


_FRONT_MATTER = _FrontMatter()


def iter_jsonl(path: Path, max_bytes: int) -> Iterator[dict[str, Any] | Problem]:
    """One record (or the Problem of one bad line) at a time, read a line at a time, so
    that a file of any size streams in flat memory."""
    if problem := _unreadable(path):
        yield problem
        return
    seen_any = False
    number = 0
    try:
        with path.open("rb") as handle:
            for number, raw_line in enumerate(handle, start=1):
                line = raw_line[:-1] if raw_line.endswith(b"\n") else raw_line
                if number == 1 and line.startswith(_BOM):  # as a Markdown file may have
                    line = line[len(_BOM) :]
                if number == 1 and line.startswith(_UTF16_BOMS):  # every line would fail
                    yield Problem(str(path), f"not UTF-8 text ({_UTF16})")
                    return
                if not line.strip():
                    continue
                if not seen_any and line.strip() in (b"{", b"["):  # no JSON line is this
                    yield Problem(str(path), _PRETTY)
                    return
                seen_any = True
                yield _json_line(line, f"{path}:{number}", max_bytes)
    except OSError as exc:  # unreadable, or broken off mid-way: what was read stays read
        yield _os_problem(f"{path}:{number + 1}" if number else str(path), exc)
        return
    if not seen_any:
        yield Problem(str(path), "empty file")


def _json_line(line: bytes, where: str, max_bytes: int) -> dict[str, Any] | Problem:
    if len(line) > max_bytes:
        return Problem(where, f"record is {len(line):,} bytes, over the {max_bytes:,} limit")
    try:
        decoded = line.decode("utf-8")
    except UnicodeDecodeError as exc:
        return Problem(where, _not_utf8(line, exc))
    try:
        obj = json.loads(decoded, object_pairs_hook=_no_duplicate_keys)
    except json.JSONDecodeError as exc:
        return Problem(where, f"malformed JSON: {exc.msg} at column {exc.colno}")
    except _DuplicateKey as exc:
        return Problem(where, f"malformed JSON: duplicate key {exc.args[0]!r}")
    except RecursionError:
        return Problem(where, f"malformed JSON: nested over {MAX_NESTING} levels deep")
    if not isinstance(obj, dict):
        return Problem(where, "malformed JSON: a record must be an object")
    obj["__where__"] = where
    return obj


class _DuplicateKey(ValueError):
    pass


def _no_duplicate_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """An object with a key given twice is refused: JSON would keep the last value, and
    which one the exporter meant is unknown (a second `kind` could raise a chat message to
    a change control)."""
    obj = dict(pairs)
    if len(obj) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise _DuplicateKey(key)
            seen.add(key)
    return obj


MAX_NESTING = 100  # lists and mappings inside a field; far past any real record's
_BOM = "\ufeff".encode()
# What Windows tools write by default (PowerShell 5's Out-File, Notepad's "Unicode"): a
# JSON Lines file so written was refused line by line as malformed JSON, its encoding unsaid.
_UTF16_BOMS = (b"\xff\xfe", b"\xfe\xff")
_UTF16 = "UTF-16, by its byte-order mark: save it as UTF-8"
# A pretty-printed JSON export was refused line by line ("Extra data at column 7" ...).
_PRETTY = (
    "not JSON Lines: it starts with a line holding only '{' or '[', as pretty-printed JSON"
    " does; write one record object a line"
)


def _not_utf8(data: bytes, exc: UnicodeDecodeError, *, whole_file: bool = False) -> str:
    if data.startswith(_UTF16_BOMS):
        return f"not UTF-8 text ({_UTF16})"
    return not_utf8(data, exc, whole_file=whole_file)


def _unreadable(path: Path) -> Problem | None:
    """A folder (or a device, a pipe) named like a record file is not one; opening a pipe
    would wait forever."""
    if path.is_dir():
        return Problem(str(path), "a folder, not a record file")
    if path.exists() and not path.is_file():
        return Problem(str(path), "not a regular file")
    return None


def _os_problem(where: str, exc: OSError) -> Problem:
    return Problem(where, f"cannot be read: {exc.strerror or type(exc).__name__}")


def _first_line(exc: Exception) -> str:
    return " ".join(str(exc).split())[:200]


def _str(raw: dict[str, Any], key: str) -> str | None:
    value = raw.get(key)
    if value is None:
        return None
    if isinstance(value, dict | list):
        raise BadRecord(f"field `{key}` must be a single value")
    return str(value)


def _ids(raw: dict[str, Any], key: str) -> tuple[str, ...]:
    value = raw.get(key)
    if value is None:
        return ()
    if isinstance(value, str | int):
        return (str(value),)
    if isinstance(value, list) and all(isinstance(v, str | int) for v in value):
        return tuple(str(v) for v in value)
    raise BadRecord(f"field `{key}` must be an id or a list of ids")


def to_record(raw: dict[str, Any], org: Org) -> tuple[Record, list[Problem]]:
    """Validate one raw record against the organisation. Raises BadRecord."""
    where = raw.get("__where__", "?")
    warnings: list[Problem] = []
    rid = _str(raw, "id")
    if not rid or not rid.strip():
        raise BadRecord("missing required field `id`")
    _storable(raw)
    if has_control(rid.strip()):
        raise BadRecord(
            f"field `id` {rid.strip()!r} holds a control character (tab, line break, ...)"
        )
    _short_id(rid.strip())
    kind = _str(raw, "kind")
    if not kind:
        raise BadRecord("missing required field `kind`")
    if "at" not in raw or raw["at"] in (None, ""):
        raise BadRecord("missing required field `at`")
    try:
        at = parse_instant(raw["at"], "at")
        effective = (
            parse_instant(raw["effective_at"], "effective_at")
            if raw.get("effective_at") not in (None, "")
            else None
        )
    except TimeProblem as exc:
        raise BadRecord(str(exc)) from exc
    text = raw.get("text")
    if text is None:
        text = ""
    if not isinstance(text, str):
        raise BadRecord("field `text` must be a string")
    if kind not in org.authority:
        warnings.append(
            Problem(where, f"unknown kind {clipped(kind)}: accepted with authority 0", fatal=False)
        )
    person_ids, subject_ids = _known_ids(org)
    for key in ("author", "resolved_by"):
        pid = _str(raw, key)
        if pid is not None and pid not in person_ids:
            raise BadRecord(f"field `{key}` names unknown person id {clipped(pid)}")
    about = _ids(raw, "about")
    for sid in about:
        if sid not in subject_ids:
            raise BadRecord(f"field `about` names unknown service or project id {clipped(sid)}")
    acl = raw.get("acl")
    acl_groups = _ids(raw, "acl") if acl is not None else None
    extra = {str(k): v for k, v in raw.items() if k not in KNOWN_FIELDS and k != "__where__"}
    for key in extra:
        if (meant := _known_spelled_otherwise(key)) is not None:
            # kept as an unknown field, `ACL: [security]` left a restricted record public
            raise BadRecord(
                f"field `{key}` is `{meant}` written otherwise: field names are "
                "written as the corpus format writes them (lower case, underscores)"
            )
    record = Record(
        id=rid.strip(), kind=kind, at=at, effective_at=effective, text=text,
        author=_str(raw, "author"), title=_str(raw, "title"), parent=_str(raw, "parent"),
        channel=_str(raw, "channel"), status=_str(raw, "status"),
        supersedes=_ids(raw, "supersedes"), motivated_by=_ids(raw, "motivated_by"),
        resolved_by=_str(raw, "resolved_by"), about=about, acl=acl_groups,
        origin=where, extra=extra,
    )  # fmt: skip
    return record, warnings


def _known_spelled_otherwise(key: str) -> str | None:
    """The known field `key` spells in another case or with spaces or hyphens, if any."""
    plain = "_".join(key.strip().lower().replace("-", " ").split())
    return plain if plain in KNOWN_FIELDS else None


_known: list[tuple[Org, frozenset[str], frozenset[str]]] = []


def _known_ids(org: Org) -> tuple[frozenset[str], frozenset[str]]:
    """Person ids and service/project ids of `org`, built once per organisation object
    (a corpus of a million records is checked against the same one every time)."""
    if not _known or _known[0][0] is not org:
        people = frozenset(p.id for p in org.people)
        subjects = frozenset(s.id for s in org.services) | {p.id for p in org.projects}
        _known[:] = [(org, people, subjects)]
    return _known[0][1], _known[0][2]


def check_typed(record: Record) -> None:
    """The same refusals as `to_record`, for a record built from typed input (the web page,
    `brain add`): InputError naming the field."""
    raw = {"id": record.id, "title": record.title, "text": record.text, "author": record.author}
    try:
        _storable({k: v for k, v in raw.items() if v is not None})
        if not record.id.strip() or has_control(record.id):
            raise BadRecord(f"field `id` {record.id!r} is empty or holds a control character")
        if record.id != record.id.strip():  # an id the database's unique index crashes on
            raise BadRecord(f"field `id` {record.id!r} starts or ends with white space")
        _short_id(record.id)
    except BadRecord as exc:
        raise InputError(f"{record.origin or 'record'}: {exc}") from exc


def _short_id(rid: str) -> None:
    """An id over MAX_ID_BYTES would crash the database (graph/ident.py): refused, naming
    its start only (the whole of it would drown the message)."""
    if id_too_long(rid):
        size = len(rid.encode("utf-8", "surrogatepass"))
        raise BadRecord(
            f"field `id` {rid[:40]!r}... is {size:,} bytes long, over the {MAX_ID_BYTES:,}-byte"
            " limit for an id"
        )


def _storable(raw: dict[str, Any]) -> None:
    """A NUL would cut the query text short and a lone surrogate is not text: either is
    refused here, naming the field, before anything reaches the database."""
    for key, value in raw.items():
        if key == "__where__":
            continue
        if type(key) is str and type(value) is str and not UNSTORABLE.search(key + value):
            continue  # the common case, in one search (`unstorable`'s two faults)
        name = str(key).encode("unicode_escape").decode("ascii")
        for leaf in (key, *_leaves(value, name)):
            if isinstance(leaf, str) and (problem := unstorable(leaf)):
                raise BadRecord(f"field `{name}` {problem}")
            if isinstance(leaf, float) and not math.isfinite(leaf):
                raise BadRecord(f"field `{name}` holds {leaf}, which is not a JSON number")


def _leaves(value: Any, name: str) -> list[Any]:
    """Every key and plain value inside `value`, walked with a stack rather than recursion:
    a JSON line or front matter nested a thousand deep would exhaust Python's stack here or
    further on, so it is refused past MAX_NESTING levels."""
    out: list[Any] = []
    stack = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if not isinstance(item, dict | list | tuple):
            out.append(item)
            continue
        if depth >= MAX_NESTING:
            raise BadRecord(f"field `{name}` is nested over {MAX_NESTING} levels deep")
        if isinstance(item, dict):
            out += item
            item = item.values()
        stack += [(v, depth + 1) for v in item]
    return out


def record_files(folder: Path) -> Iterator[Path]:
    """records/**/*.md in a stable order. A folder named like a record file is listed too,
    so that reading it rejects it by name (its records, inside it, are listed as well)."""
    yield from sorted(folder.rglob("*.md"))


def not_record_files(folder: Path, jsonl_here: bool) -> Iterator[Problem]:
    """A warning for everything under `folder` that `record_files` leaves out, so that no
    export is dropped without a word: a file that is not *.md (`ADR-1.MD`, a `.jsonl` inside
    records/) and a link to a folder, which is not followed (it may loop). `jsonl_here`:
    the `*.jsonl` directly in `folder` are read. Hidden files (.DS_Store) are passed over.
    A folder that cannot be listed is rejected, naming it: globbing passes over it in
    silence, and every record inside it with it."""
    unlisted: list[OSError] = []
    for root, dirs, files in os.walk(folder, onerror=unlisted.append):
        here = Path(root)
        dirs.sort()
        for name in dirs:
            if (here / name).is_symlink() and not name.startswith(".") and name[-3:] != ".md":
                yield Problem(str(here / name), _LINK_NOT_FOLLOWED, fatal=False)
        for name in sorted(files):
            if name.startswith(".") or name.endswith(".md"):
                continue
            if not (jsonl_here and here == folder and name.endswith(".jsonl")):
                yield Problem(str(here / name), "not read: not a .md record file", fatal=False)
    for exc in unlisted:
        yield _os_problem(str(exc.filename or folder), exc)


_LINK_NOT_FOLLOWED = "not read: a link to a folder (links to folders are not followed)"
