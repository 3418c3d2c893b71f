"""trace (what replaced what) and origin (where a file or decision came from): store reads
plus pure steps, read from history so that a file deleted today still has its past."""

from __future__ import annotations

import itertools
from collections.abc import Iterable
from datetime import datetime
from typing import TYPE_CHECKING, Any

from companybrain.ask.repo import answers
from companybrain.ask.repo.answers import Row
from companybrain.ask.repo.subjects import (
    PathSubject,
    find_decisions,
    resolve_decision,
    resolve_path,
)
from companybrain.ask.repo.then import Then
from companybrain.ask.tools import superseding_cycle
from companybrain.graph.queries import repo_read
from companybrain.model.answer import Answer, Citation, RefusalCode
from companybrain.policy.time import format_instant

if TYPE_CHECKING:
    from companybrain.graph.connection import Store


def _decision_subject(row: Row) -> dict[str, Any]:
    return {"id": row["id"], "type": "Decision", "name": row.get("title")}


# -- trace -------------------------------------------------------------------------------


def _pick(ids: list[str], by_id: dict[str, Row]) -> str:
    return max(ids, key=lambda i: (answers.decision_date(by_id.get(i, {})) or "", i))


def supersession_chain(decision_id: str, edges: list[Row], by_id: dict[str, Row]) -> list[str]:
    """Newest first: up from the decision through what superseded it, then down through what
    it superseded. Pure; cycles are cut."""
    newer: dict[str, list[str]] = {}
    older: dict[str, list[str]] = {}
    for e in edges:
        newer.setdefault(e["older"], []).append(e["newer"])
        older.setdefault(e["newer"], []).append(e["older"])
    up = [decision_id]
    while newer.get(up[-1]):
        nxt = _pick([n for n in newer[up[-1]] if n not in up] or [up[-1]], by_id)
        if nxt in up:
            break
        up.append(nxt)
    down: list[str] = []
    cur = decision_id
    while older.get(cur):
        choices = [o for o in older[cur] if o not in up and o not in down]
        if not choices:
            break
        cur = _pick(choices, by_id)
        down.append(cur)
    return list(reversed(up)) + down


def trace(
    store: Store,
    decision: str,
    *,
    question: str | None = None,
    now: datetime | None = None,
    then: Then | None = None,
) -> Answer:
    """What replaced what: the supersession chain through a decision, newest first (with
    `then`, as the decision log said on the day the question names)."""
    q = question or f"What replaced {decision}?"
    now = then.as_of if then else now
    on = f" {then.words}" if then else ""
    rows = then.rows(store) if then else repo_read.decisions(store)
    by_then = {r["id"]: r for r in rows}
    row, own = then.find(store, decision) if then else (resolve_decision(store, decision), None)
    if row is not None and then is not None:
        if own is None:
            return answers.not_recorded(
                q, "trace", _decision_subject(row), now,
                f"{row['id']} was not in the decision log{on}",
            )  # fmt: skip
        row = by_then[own]
    rival = None
    if row is None:
        found = find_decisions(store, decision, limit=2, rows=rows)
        if not found:
            return answers.not_in_graph(
                q, "trace", f"no decision record matches “{decision}”{on}", now
            )
        row = found[0].row
        tied = [f for f in found[1:] if (f.match.score, f.match.coverage)
                == (found[0].match.score, found[0].match.coverage)]  # fmt: skip
        rival = tied[0].row["id"] if tied else None
    by_id = {r["id"]: r for r in rows}
    edges = then.edges if then else repo_read.supersessions(store)
    chain = supersession_chain(row["id"], edges, by_id)
    if rival is not None and rival not in chain:  # two histories: which one is asked about?
        return answers.not_in_graph(
            q, "trace",
            f"“{decision}” matches two decisions with separate histories equally well{on}: "
            f"{row['id']} and {rival}; name the decision",
            now,
        )  # fmt: skip

    def stated(pairs: Iterable[tuple[str, str]]) -> list[Citation]:
        """The lines that say each of `pairs` (newer, older)."""
        out = []
        for newer_id, older_id in pairs:
            edge = next(
                (e for e in edges if (e["newer"], e["older"]) == (newer_id, older_id)), None
            )
            holder = by_id.get(edge["recorded_in"]) if edge and edge.get("recorded_in") else None
            if edge and holder and edge.get("line"):
                out.append(answers.cite_said(holder, int(edge["line"]), edge.get("quote") or ""))
            elif edge and edge.get("quote") and holder:
                out.append(answers.cite_quote(holder, edge["quote"]))
        return out

    if cycle := superseding_cycle(
        [(e["newer"], e["older"]) for e in edges], _linked(row["id"], edges)
    ):
        circle = f"{cycle[0]} supersedes " + ", which supersedes ".join([*cycle[1:], cycle[0]])
        return Answer.refused(
            q, RefusalCode.CONFLICT,
            f"{circle}{on}: the decision log contradicts itself about which decision is newer",
            tool="trace", subject=_decision_subject(row), as_of=answers.as_of_text(now),
            citations=stated(zip(cycle, [*cycle[1:], cycle[0]], strict=True)),
        )  # fmt: skip
    citations = [answers.cite_line(row), *stated(itertools.pairwise(chain))]
    if len(chain) == 1:
        text = f"Nothing recorded{on} supersedes {row['id']}, and it supersedes nothing."
        if (row.get("status") or "").lower() == "superseded":
            text += " Its status says it is superseded, by no decision the log holds."
    else:
        text = f"Newest first{on}: " + " ← ".join(chain) + "."
        if by_id.get(chain[0], {}).get("present") is False:
            text += f" The newest, {chain[0]}, was removed from the repository: none is in force."
        else:
            text += f" The one in force is {chain[0]}."
    return answers.answered(
        q, "trace", _decision_subject(row), now,
        {"decision": row["id"], "chain": chain,
         "items": [answers.decision_item(by_id[i]) for i in chain if i in by_id]},
        citations, text,
    )  # fmt: skip


def _linked(decision_id: str, edges: list[Row]) -> set[str]:
    """The decisions joined to `decision_id` by supersessions, either way."""
    near: dict[str, set[str]] = {}
    for e in edges:
        near.setdefault(e["newer"], set()).add(e["older"])
        near.setdefault(e["older"], set()).add(e["newer"])
    seen, todo = {decision_id}, [decision_id]
    while todo:
        for other in near.get(todo.pop(), ()):
            if other not in seen:
                seen.add(other)
                todo.append(other)
    return seen


# -- origin ------------------------------------------------------------------------------


def _commit_result(c: Row, co: list[Row]) -> dict[str, Any]:
    return {
        "commit": c["commit"],
        "author": c["author"],
        "author_name": c["author_name"],
        "date": c.get("landed_at") or c.get("committer_at"),
        "written_at": c.get("author_at"),
        "co_authors": [{"id": p["id"], "name": p["name"], "is_agent": p["is_agent"]} for p in co],
    }


def _landed_by(c: Row, until: datetime | None) -> bool:
    """Whether commit `c` had landed by `until` (None: by now)."""
    if until is None:
        return True
    landed = c.get("landed_ms")
    return landed is not None and landed <= int(until.timestamp() * 1000)


def origin(
    store: Store,
    subject: str,
    *,
    question: str | None = None,
    now: datetime | None = None,
    until: datetime | None = None,
    then: Then | None = None,
) -> Answer:
    """The commit and author that introduced a file or recorded a decision; with `until`
    (the day a question names), only what had landed by then counts, and `then`, the
    decision log of that day, says whether the decision was in it (removed, and restored
    since: recorded by then, but not in the log that day)."""
    q = question or f"Where did {subject} come from?"
    now = until or now
    day = f" by {format_instant(until)}" if until else ""
    row = resolve_decision(store, subject)
    if row:
        c = repo_read.commit(store, row["commit"]) if row.get("commit") else None
        if c is not None and not _landed_by(c, until):
            return answers.not_recorded(
                q, "origin", _decision_subject(row), now, f"{row['id']} was not recorded{day}"
            )
        if c is None:
            return answers.not_recorded(
                q,
                "origin",
                _decision_subject(row),
                now,
                f"git blame found no commit for {row['id']}",
            )
        if c["commit"] in repo_read.shallow_boundary(store):
            return answers.not_recorded(
                q, "origin", _decision_subject(row), now, _before_shallow(row["id"], c)
            )
        result = {
            **_commit_result(c, repo_read.co_authors_of(store, c["commit"])),
            "decision": row["id"],
        }
        text = (f"{row['id']} was recorded in {c['commit'][:12]} by {c['author_name']}, "
                f"which landed {result['date']}" + _written_earlier(c))  # fmt: skip
        own = then.own_id(row["id"]) if then else None
        if then is not None and own is None:
            result["in_log_then"] = False
            text += f"; it was not in the decision log {then.words}"
        elif then is not None and own != row["id"]:
            text += f"; {then.words} it was {own}"
        return answers.answered(
            q, "origin", _decision_subject(row), now, result,
            [answers.cite_commit(c), answers.cite_line(row)], text + ".",
        )  # fmt: skip
    ps = resolve_path(store, subject)
    if ps is None:
        return answers.not_in_graph(
            q, "origin", f"{subject} is not a file or decision in the history", now
        )
    adds = [a for a in repo_read.first_adds(store, list(ps.paths)) if _landed_by(a, until)]
    if not adds:
        return answers.not_recorded(
            q, "origin", ps.as_subject(), now,
            f"the history holds no commit that added {ps.asked}{day}",
        )  # fmt: skip
    c = _present_file_add(store, ps, adds)
    if c["commit"] in repo_read.shallow_boundary(store):
        return answers.not_recorded(
            q, "origin", ps.as_subject(), now, _before_shallow(c["file"], c)
        )
    result = {**_commit_result(c, repo_read.co_authors_of(store, c["commit"])), "file": c["file"]}
    text = f"{c['file']} was added in {c['commit'][:12]} by {c['author_name']}"
    text += f", landed {result['date']}"
    text += _written_earlier(c)
    # a path added again after its file was renamed away is that new file, not a name
    named = ps.asked if c is not adds[0] else _named_by(store, c["file"], ps.renames, until)
    if until is not None and ps.kind == "file" and named != ps.asked:
        text += f"; by {format_instant(until)} it was named {named}"
        if _named_by(store, named, ps.renames, None) == ps.asked:
            text += f", renamed to {ps.asked} after that day"
    elif until is not None and ps.kind == "folder" and not named.startswith(f"{ps.asked}/"):
        text += f"; by {format_instant(until)} it was {named}, not in {ps.asked} yet"
    elif ps.kind == "file" and c["file"] != ps.asked:
        text += f"; it was later renamed to {ps.asked}"
    elif ps.kind == "folder" and not c["file"].startswith(f"{ps.asked}/"):
        text += f"; it was later moved into {ps.asked}"
    gone = repo_read.last_delete(store, ps.asked) if ps.kind == "file" else None
    if gone and not _re_added_after(adds, gone) and _landed_by(gone, until):
        text += f"; it was deleted in {gone['commit'][:12]}"
        result["deleted_in"] = gone["commit"]
    return answers.answered(
        q, "origin", ps.as_subject(), now, result, [answers.cite_commit(c)], text + "."
    )


def _present_file_add(store: Store, ps: PathSubject, adds: list[Row]) -> Row:
    """The add that began the file asked about: the first, unless a file of that path was
    renamed away and the path added again later (another file, which began there)."""
    if ps.kind != "file":
        return adds[0]
    away = [
        k["landed_ms"]
        for r in ps.renames
        if r["old"] == ps.asked and (k := repo_read.commit(store, r["commit"])) is not None
    ]
    again = [
        a for a in adds if a["file"] == ps.asked and away and (a.get("landed_ms") or 0) > max(away)
    ]
    return again[0] if again else adds[0]


def _named_by(store: Store, path: str, renames: tuple[Row, ...], until: datetime | None) -> str:
    """The name `path` had by `until` (now when None): followed through its renames that had
    landed by then."""
    done = [
        r for r in renames
        if (k := repo_read.commit(store, r["commit"])) is not None and _landed_by(k, until)
    ]  # fmt: skip
    for _ in done:
        path = next((r["new"] for r in done if r["old"] == path), path)
    return path


def _before_shallow(what: str, c: Row) -> str:
    return (
        f"the history read is a shallow clone that begins at {c['commit'][:12]}; {what} was "
        "already there, and the commit that brought it is not in that history (fetch the "
        "whole history and run ingest-repo again)"
    )


def _written_earlier(c: Row) -> str:
    written, landed = (c.get("author_at") or "")[:10], (c.get("landed_at") or "")[:10]
    if written and landed and written < landed:
        return f" (written {written}, landed {landed})"
    return ""


def _re_added_after(adds: list[Row], gone: Row) -> bool:
    return any((a.get("landed_ms") or 0) > (gone.get("landed_ms") or 0) for a in adds)
