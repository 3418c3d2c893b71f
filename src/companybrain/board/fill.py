"""Filling the board from the brain: an item for each decision entry and company record,
sections for an entry too long for one model call (the whole waits for them), an item for
each file summary and a folder item that waits for its files. Running it again adds what is
new, re-reads what changed and drops what is gone; items already done stay done."""

from __future__ import annotations

import posixpath
import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

from companybrain.board.handoffs import ref_index
from companybrain.board.options import BoardOptions
from companybrain.board.rules_worker import relation_targets
from companybrain.board.sections import split
from companybrain.board.worker import text_hash
from companybrain.errors import BusyError, InputError
from companybrain.graph.queries import board_q, findings_q, repo_write
from companybrain.ingest.lock import LOCK_TTL_S, IngestLock
from companybrain.policy.finding_checks import check_confirmation
from companybrain.repo import gitcmd

if TYPE_CHECKING:
    from companybrain.graph.connection import Store

FILE_MODES = ("rationale", "all", "none")
MAX_FILE_BYTES = 400_000
# A fill waits this long for another fill of the same board (two `brain board run` started
# together) before giving up: past the lock's expiry, so a killed fill is waited out too.
FILL_WAIT_S = LOCK_TTL_S + 30
Row = dict[str, Any]


@dataclass
class FillReport:
    created: int = 0  # items created (sections, files and folders included)
    entries: int = 0  # entries and records new or changed
    unchanged: int = 0
    removed: int = 0  # items whose entry left the brain
    files: int = 0
    skipped_files: list[str] = field(default_factory=list)  # with the reason
    repo: str | None = None


def fill(
    brain: Store,
    board: Store,
    options: BoardOptions,
    *,
    repo: Path | None = None,
    files: str = "rationale",
    on_file: Callable[[str], None] | None = None,
) -> FillReport:
    if files not in FILE_MODES:
        raise InputError(f"--files must be one of {', '.join(FILE_MODES)}, got {files!r}")
    if repo is not None:
        _check_repo(brain, repo)
    board.ensure_schema()
    with _one_fill_at_a_time(board):
        return _fill(brain, board, options, repo=repo, files=files, on_file=on_file)


@contextmanager
def _one_fill_at_a_time(board: Store) -> Iterator[None]:
    """Two fills at once both created the same items, and one failed halfway with a unique
    constraint violation: a fill holds the board's lock, and a second one waits for it."""
    deadline = time.monotonic() + FILL_WAIT_S
    with ExitStack() as held:
        while True:
            try:  # only taking the lock is tried again, never the fill itself
                held.enter_context(IngestLock(board, what="board fill"))
                break
            except BusyError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.2)
        yield


def _fill(
    brain: Store,
    board: Store,
    options: BoardOptions,
    *,
    repo: Path | None,
    files: str,
    on_file: Callable[[str], None] | None,
) -> FillReport:
    report = FillReport()
    existing = board_q.top_item_hashes(board)
    done = board_q.done_items(board)
    order = board_q.next_order(board)
    rows: list[Row] = []
    pairs: list[Row] = []
    replace: list[str] = []
    current: set[str] = set()

    entries = board_q.brain_entries(brain)
    for e in entries:
        e["kind"] = "entry" if e["label"] == "Decision" else "record"
        e["item"], e["hash"] = f"{e['kind']}:{e['id']}", text_hash(e["text"])
    again = _judge_again(brain, board, existing, entries)
    findings_q.drop_not_in_force(brain)

    for e in entries:
        kind, item_id, digest = e["kind"], e["item"], e["hash"]
        current.add(item_id)
        # done on the board but not in the brain (its graph was reset or re-ingested): the
        # reading is lost, so read it again
        lost = item_id in done and e.get("read_hash") != digest
        if existing.get(item_id) == digest and not lost and e["id"] not in again:
            report.unchanged += 1
            continue
        if item_id in existing:
            replace.append(item_id)
        report.entries += 1
        item = {
            "id": item_id,
            "kind": kind,
            "entry": e["id"],
            "label": e["label"],
            "title": e["title"] or e["id"],
            "hash": digest,
            "path": e["path"],
        }
        order = _with_sections(
            rows, pairs, order, item, e["text"], options.max_chars, keep_text=False
        )

    file_paths = _file_paths(brain, files)
    changed_files = False
    if file_paths:
        where = repo or _repo_of(brain)
        if where is None:
            report.skipped_files.append("file summaries need the repository: pass --repo PATH")
        else:
            report.repo = str(where)
            for path in file_paths:
                if on_file:
                    on_file(path)
                text = _file_text(where, path, report)
                if text is None:
                    continue
                item_id = f"file:{path}"
                current.add(item_id)
                digest = text_hash(text)
                if existing.get(item_id) == digest:
                    continue
                changed_files = True
                if item_id in existing:
                    replace.append(item_id)
                report.files += 1
                item = {
                    "id": item_id,
                    "kind": "file",
                    "entry": path,
                    "label": "File",
                    "title": path,
                    "hash": digest,
                    "path": path,
                }
                order = _with_sections(
                    rows, pairs, order, item, text, options.max_chars, keep_text=True
                )
    scanned = ("entry:", "record:", "file:") if report.repo else ("entry:", "record:")
    gone = [i for i in existing if i not in current and i.startswith(scanned)]
    report.removed = len(gone)
    files_gone = any(i.startswith("file:") for i in gone)
    rebuild = changed_files or files_gone
    if rebuild:  # folders are cheap: summarise them again over their files
        replace += [i for i in existing if i.startswith("dir:")]
    board_q.delete_items(board, replace + gone)
    report.created += board_q.create_items(board, rows)
    board_q.link_parts(board, pairs)
    if rebuild:
        files_now = sorted(i.removeprefix("file:") for i in current if i.startswith("file:"))
        report.created += _folders(board, files_now, order)
    return report


def _judge_again(
    brain: Store, board: Store, existing: dict[str, str], entries: list[Row]
) -> set[str]:
    """Settled handoffs the texts no longer bear out: a confirmation that no longer passes
    the checks (its quotes not in its entries any more: a sentence edited away, an entry
    gone; or a quote the checks now refuse) would keep its relation in the brain, citing
    what no record says, and a rejection from or to an entry that changed
    would never be judged again (raised anew, it is the same handoff). They go from the
    board; the entries on both sides are returned, to be read again, so that what the texts
    say now is raised and judged anew."""
    texts = {e["id"]: e["text"] for e in entries}
    changed = {e["id"] for e in entries if existing.get(e["item"], e["hash"]) != e["hash"]}
    targets = partial(relation_targets, ref_index(brain))
    stale = [
        h
        for h in board_q.handoffs(board, "confirmed")
        if check_confirmation(
            h["raised_by"],
            h["settled_by"],
            h["quote_from"] or "",
            texts.get(h["from_entry"], ""),
            h["quote_to"] or "",
            texts.get(h["to_entry"], ""),
            from_id=h["from_entry"],
            to_id=h["to_entry"],
            relation=h["relation"],
            targets=targets,
        ).outcome
        != "confirmed"
    ] + [
        h for h in board_q.handoffs(board, "rejected") if changed & {h["from_entry"], h["to_entry"]}
    ]
    # An open one to or from an entry that left the brain can never be judged (its item
    # failed for good): it goes with the entry.
    moot = [
        h
        for h in board_q.handoffs(board, "open")
        if h["from_entry"] not in texts or h["to_entry"] not in texts
    ]
    board_q.drop_handoffs(board, [h["id"] for h in stale + moot])
    return {e for h in stale for e in (h["from_entry"], h["to_entry"])}


def _with_sections(
    rows: list[Row],
    pairs: list[Row],
    order: int,
    item: Row,
    text: str,
    max_chars: int,
    *,
    keep_text: bool,
) -> int:
    """The item and, when `text` is too long for one call, its sections first (the whole
    waits for them)."""
    spans = split(text, max_chars)
    parts = len(spans) if len(spans) > 1 else 0
    for n, (start, end) in enumerate(spans if parts else [], 1):
        part_id = f"part:{item['id']}#{n}"
        rows.append(
            _item(
                **{
                    **item,
                    "id": part_id,
                    "kind": "part",
                    "title": f"{item['title']} ({n}/{parts})",
                },
                order=order,
                parent=item["id"],
                start=start,
                end=end,
                text=text[start:end] if keep_text else None,
            )
        )
        pairs.append({"child": part_id, "parent": item["id"]})
        order += 1
    rows.append(
        _item(
            **item,
            order=order,
            waiting=parts,
            parts=parts,
            end=len(text),
            text=text if keep_text else None,
        )
    )
    return order + 1


def _item(**fields: Any) -> Row:
    """A row for board_q.create_items, every column present."""
    row: Row = dict.fromkeys(
        ("id", "kind", "entry", "label", "title", "hash", "parent", "text", "path"), None
    )
    row.update(order=0, waiting=0, start=0, end=0, parts=0)
    row.update(fields)
    return row


def _folders(board: Store, files: list[str], order: int) -> int:
    """A folder item per folder holding a summarised file, waiting for its files and
    sub-folders that are not finished yet; deepest folders first."""
    if not files:
        return 0
    statuses = board_q.item_statuses(board)
    children: dict[str, list[str]] = {}
    for path in files:
        child, folder = f"file:{path}", posixpath.dirname(path) or "."
        while True:
            children.setdefault(folder, [])
            if child not in children[folder]:
                children[folder].append(child)
            if folder == ".":
                break
            child, folder = f"dir:{folder}", posixpath.dirname(folder) or "."
    rows: list[Row] = []
    pairs: list[Row] = []
    for folder in sorted(children, key=lambda f: (-f.count("/") - (f != "."), f)):
        waiting = sum(
            1 for c in children[folder] if statuses.get(c, "pending") in ("pending", "claimed")
        )
        item_id = f"dir:{folder}"
        rows.append(
            _item(
                id=item_id,
                kind="dir",
                entry=folder,
                label="Folder",
                title=f"{folder}/",
                order=order,
                waiting=waiting,
                hash="",
                path=folder,
                parts=len(children[folder]),
            )
        )
        pairs += [{"child": c, "parent": item_id} for c in children[folder]]
        order += 1
    created = board_q.create_items(board, rows)
    board_q.link_parts(board, pairs)
    return created


def _file_paths(brain: Store, mode: str) -> list[str]:
    if mode == "none":
        return []
    if mode == "all":
        return sorted(board_q.known_paths(brain))
    return board_q.rationale_files(brain)


def _repo_of(brain: Store) -> Path | None:
    """The ingested repository's folder, when this graph holds exactly one that still exists."""
    found = [Path(r["path"]) for r in repo_write.repositories(brain) if r.get("path")]
    found = [p for p in found if p.is_dir()]
    return found[0] if len(found) == 1 else None


def _check_repo(brain: Store, repo: Path) -> None:
    """--repo must be the repository this graph was read from (there, or a clone of it): a
    folder outside git read every file as gone and dropped its items, and another
    repository's file of the same path was summarised into this graph's file."""
    try:
        top = gitcmd.toplevel(repo)
    except gitcmd.GitError as exc:
        raise InputError(f"--repo {repo}: {exc}") from exc
    for r in repo_write.repositories(brain):
        if r.get("head") and gitcmd.resolve(top, r["head"]) is None:
            raise InputError(
                f"--repo {repo} is not the repository graph {brain.graph_name!r} holds "
                f"({r['repo']!r}, read from {r['path']}): its commit {r['head'][:12]} is not "
                "there (if that history was rewritten, run `brain ingest-repo` again first)"
            )


def _file_text(repo: Path, path: str, report: FillReport) -> str | None:
    """The file as it is at HEAD; None (with the reason noted) when it cannot be read."""
    try:
        data = gitcmd.run(repo, "show", f"HEAD:{path}")
    except gitcmd.GitError:
        report.skipped_files.append(f"{path}: not in HEAD (deleted or renamed)")
        return None
    if b"\0" in data[:8000]:
        report.skipped_files.append(f"{path}: binary")
        return None
    if len(data) > MAX_FILE_BYTES:
        report.skipped_files.append(f"{path}: larger than {MAX_FILE_BYTES} bytes")
        return None
    return data.decode("utf-8", "replace")
