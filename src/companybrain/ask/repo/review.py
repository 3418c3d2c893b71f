"""review: which recorded decisions a change touches, from the decision log as it stood at
that commit. For the files the change touches it lists the decisions they rest on (R1 …),
experiments recorded as tried and disproven under them (D1 …, as warnings unless a newer
decision superseded theirs), superseded decisions labelled as such (S1 …) and who knows each
file (P1 …). Experiments count only if their quote is in the decision's text at that commit,
so reviewing an old commit again shows what was known then."""

from __future__ import annotations

import re
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from companybrain.ask.repo import answers, expertise
from companybrain.ask.repo.answers import Row
from companybrain.ask.repo.subjects import spans_of, with_old_names
from companybrain.errors import InputError
from companybrain.graph.queries import findings_q, repo_read
from companybrain.model.answer import Answer, Citation
from companybrain.policy.statuses import NEVER_IN_FORCE
from companybrain.policy.text import quote_in
from companybrain.repo import gitcmd
from companybrain.repo.blame import Blame, blame
from companybrain.repo.decision_files import is_decision_file
from companybrain.repo.decisions import DecisionEntry
from companybrain.repo.gitcmd import GitError
from companybrain.repo.review import Snapshot, snapshot

if TYPE_CHECKING:
    from companybrain.graph.connection import Store

MAX_EXPERT_FILES = 10
EXPERTS_PER_FILE = 3


# statuses (repo/decisions.py KNOWN_STATUS) that say a decision is not, or no longer, one
# to follow: context for a review, not guidance
NOT_GUIDANCE = {"disproven", "rejected", "deprecated", "withdrawn", "obsolete", "retired"}
STALE = {"superseded", "replaced"}  # by a decision the log does not hold, where none does
UNKNOWN = {"unknown"}  # written in a form no one status is read from (repo/decisions.py)


def repository_path(store: Store, given: Path | None = None) -> Path:
    """The repository to read: the one given, else the one ingested into this graph (the
    current folder's when several were)."""
    if given is not None:
        return gitcmd.toplevel(given)
    known = repo_read.repositories(store)
    if len(known) == 1 and Path(known[0]["path"]).exists():
        return Path(known[0]["path"])
    try:
        here = gitcmd.toplevel(Path.cwd())
    except InputError:
        here = None
    if here and (not known or any(Path(k["path"]) == here for k in known)):
        return here
    if not known:
        raise InputError("no repository is ingested into this graph: run `brain ingest-repo PATH`")
    if len(known) == 1:
        raise InputError(
            f"the repository ingested here, {known[0]['path']}, is no longer there: name its "
            "folder with --repo PATH"
        )
    raise InputError("several repositories are ingested here; name one with --repo PATH")


def _row(e: DecisionEntry, known: Row, superseded_by: list[str]) -> Row:
    return {
        "id": e.id,
        "title": e.title,
        "status": e.status,
        "date": e.date,
        "text": e.text,
        "line_start": e.line_start,
        "recorded_at": known.get("recorded_at"),
        "superseded_by": superseded_by,
    }


class EntryIds:
    """The ids the graph keeps an entry of the commit under: its own, the same entry in the
    files its file was renamed to or from since (a log moved to docs/ after the commit
    keeps its board findings under its new path), and the section its heading became (given
    the repository and the commit)."""

    def __init__(
        self,
        store: Store,
        at_rev: dict[str, DecisionEntry],
        repo: Path | None = None,
        rev: str | None = None,
    ) -> None:
        paths = sorted({e.path for e in at_rev.values()})
        names = {p: with_old_names(store, [p])[0] for p in paths}
        self.of: dict[str, list[str]] = {}
        self.back: dict[str, str] = {}
        for e in at_rev.values():
            suffix = e.id[len(e.path) :] if e.id.startswith(e.path) else None
            ids = [e.id] if suffix is None else [q + suffix for q in names[e.path]]
            self.of[e.id] = list(dict.fromkeys([e.id, *ids]))
            for gid in self.of[e.id]:
                self.back.setdefault(gid, e.id)
        self.back.update({i: i for i in at_rev})  # an entry's own id is its own
        if repo is not None and rev is not None:
            self._renamed_headings(store, at_rev, names, repo, rev)

    def _renamed_headings(
        self,
        store: Store,
        at_rev: dict[str, DecisionEntry],
        names: dict[str, list[str]],
        repo: Path,
        rev: str,
    ) -> None:
        """Sections whose ids say too little, followed by their lines (see `same_sections`):
        one whose heading was changed since `rev` (no decision of the tree read holds it),
        and one whose heading the log repeats ("Heading", "Heading (2)" in order: an entry
        written above another of that heading since `rev` took its id)."""
        graph = {r["id"]: r for r in repo_read.decisions(store)}

        def repeated(did: str) -> bool:
            return _REPEAT.match(did) is not None or f"{did} (2)" in at_rev.keys() | graph.keys()

        olds = [
            e
            for e in at_rev.values()
            if e.heading is not None
            and (repeated(e.id) or not any(graph.get(g, {}).get("present") for g in self.of[e.id]))
        ]
        heads = repo_read.repositories(store)
        if not olds or len(heads) != 1:
            return
        for path in sorted({e.path for e in olds}):
            news = [
                r
                for r in graph.values()
                if r.get("present") and r.get("heading") and r.get("path") in names[path]
                and (r["id"] not in self.back or repeated(r["id"]))
            ]  # fmt: skip
            here = [e for e in olds if e.path == path]
            if not news:
                continue
            pairs = same_sections(repo, rev, here, heads[0]["head"], news)
            moved = {old: new for old, new in pairs.items() if new not in self.of[old]}
            for old, new in moved.items():  # its id is another entry's now: that entry was
                for g in self.of[old]:  # not in the log then (its findings are still read,
                    if self.back.get(g) == old:  # each checked against the text then)
                        del self.back[g]
                self.of[old] = [new, *self.of[old]]
            for old, new in moved.items():
                self.back[new] = old

    def graph_ids(self, ids: list[str]) -> list[str]:
        return sorted({g for i in ids for g in self.of.get(i, [i])})

    def known(self, did: str, graph: dict[str, Row]) -> Row:
        return next((graph[g] for g in self.of.get(did, [did]) if g in graph), {})


_REPEAT = re.compile(r" \(\d+\)$")


def same_sections(
    repo: Path, rev: str, olds: list[DecisionEntry], head: str, news: list[Row]
) -> dict[str, str]:
    """old entry id (a section at `rev`) -> new decision id (a section at `head`), for the
    pairs that share most of the old section's written lines, as lines of history (blame,
    without following moved lines, names the same commit and line), each the other's only
    best. A section deleted and another written in its place shares a "Date:" line at most."""
    try:
        then = {e.path: blame(repo, rev, e.path, moves=False) for e in olds}
        now = {r["path"]: blame(repo, head, r["path"], moves=False) for r in news}
    except GitError:
        return {}

    def keys(b: Blame, start: int, end: int) -> set[tuple[str, int, str]]:
        return {(b.lines[n], *b.origins[n]) for n in range(start, end + 1) if n in b.origins}

    shared: dict[tuple[str, str], int] = {}
    for e in olds:
        written = [
            n for n, line in enumerate(e.text.split("\n"), start=e.line_start) if line.strip()
        ]
        mine = set().union(*(keys(then[e.path], n, n) for n in written))
        for r in news:
            theirs = keys(now[r["path"]], int(r["line_start"]), int(r["line_end"]))
            if 2 * (n := len(mine & theirs)) > len(written):  # most of what it said
                shared[(e.id, r["id"])] = n

    def best(side: int, name: str) -> tuple[str, str] | None:
        mine = {pair: n for pair, n in shared.items() if pair[side] == name}
        top = [pair for pair, n in mine.items() if n == max(mine.values())]
        return top[0] if len(top) == 1 else None

    return {old: new for old, new in shared if best(0, old) == best(1, new) == (old, new)}


def _rests_on(
    store: Store, snap: Snapshot, at_rev: dict[str, DecisionEntry], ids: EntryIds
) -> dict[str, list[dict[str, Any]]]:
    """decision id -> how it rests on the changed files (text at the commit first)."""
    out: dict[str, list[dict[str, Any]]] = {}
    for did, hits in snap.named.items():
        out[did] = [{"file": n.path, "via": "text", "line": n.line, "quote": n.quote} for n in hits]
    paths, _ = with_old_names(store, [p for p in snap.paths])
    for r in repo_read.decisions_resting_on(store, paths) + repo_read.file_finding_decisions(
        store, paths
    ):
        e = at_rev.get(ids.back.get(r["id"], ""))
        if e is None or r["via"] == "text" or is_decision_file(r["file"]):
            continue  # unknown at that commit; text links are judged from its text, above
        if r["via"] == "commit" and e.id in snap.named:
            continue  # it names files: its recording commit adds nothing
        if r["via"] == "finding" and not quote_in(r.get("rationale_quote") or "", e.text):
            continue  # the board read it from a later text
        out.setdefault(e.id, []).append(
            {"file": r["file"], "via": r["via"], "line": None, "quote": r.get("rationale_quote")}
        )
    return out


def _supersessions_then(
    store: Store, snap: Snapshot, at_rev: dict[str, DecisionEntry], ids: EntryIds
) -> list[tuple[str, str]]:
    """(newer, older) as known at the commit: what the decision texts said then, and the
    supersessions the board confirmed whose quote the newer text already held."""
    pairs = [(s.newer, s.older) for s in snap.supersessions]
    for e in repo_read.supersessions(store):
        newer_entry = at_rev.get(ids.back.get(e["newer"], ""))
        older = ids.back.get(e["older"], "")
        if (
            e["via"] == "finding"
            and newer_entry is not None
            and (newer_entry.status or "") not in NEVER_IN_FORCE  # at the commit
            and older in at_rev
            and quote_in(e.get("quote") or "", newer_entry.text)
        ):
            pairs.append((newer_entry.id, older))
    return list(dict.fromkeys(pairs))


def review(
    store: Store,
    rev: str,
    base: str | None = None,
    *,
    repo: Path | None = None,
    question: str | None = None,
    now: datetime | None = None,
) -> Answer:
    q = question or f"Review {rev}" + (f" against {base}" if base else "")
    path = repository_path(store, repo)
    snap = snapshot(path, rev, base)
    at_rev = {e.id: e for e in snap.decisions}
    graph = {r["id"]: r for r in repo_read.decisions(store)}
    ids = EntryIds(store, at_rev, path, snap.rev)
    before = {e.id: e for e in snap.before}
    before.update({new: before[old] for new, old in snap.retitled.items()})
    pairs = _supersessions_then(store, snap, at_rev, ids)
    newer: dict[str, list[str]] = {}
    for newer_id, older_id in pairs:
        newer.setdefault(older_id, []).append(newer_id)
    rests = _rests_on(store, snap, at_rev, ids)

    def row_of(did: str) -> Row:
        return _row(at_rev[did], ids.known(did, graph), sorted(newer.get(did, [])))

    rows = {did: row_of(did) for did in rests}
    # a superseded decision brings the decision that replaced it, as the guidance now
    guidance: dict[str, str] = {}
    for did in list(rows):
        for nid in newer.get(did, []):
            if nid in at_rev and nid not in rows:
                rows[nid] = row_of(nid)
                guidance[nid] = did
    live = [r for r in rows.values() if not r["superseded_by"]]
    old = [r for r in rows.values() if r["superseded_by"]]
    live.sort(key=lambda r: (r["id"] in guidance, r.get("date") or "", r["id"]))
    old.sort(key=lambda r: (r.get("date") or "", r["id"]))
    citations: list[Citation] = []
    decisions = []
    replaces: dict[str, list[str]] = {}
    for newer_id, older_id in pairs:
        if older_id in rows:
            replaces.setdefault(newer_id, []).append(older_id)
    evidence = _evidence(store, rows, ids)
    for n, r in enumerate(live, start=1):
        how = rests.get(r["id"], [])
        decisions.append(answers.decision_item(
            r, label=f"R{n}", rests_on=sorted({h["file"] for h in how}) or None,
            replaces=sorted(replaces[r["id"]]) if r["id"] in replaces else None,
            evidence=evidence.get(r["id"]), edited_by_change=_edited(before, at_rev, r["id"]),
            added_by_change=True if r["id"] in snap.added else None,
        ))  # fmt: skip
        text_hit = next((h for h in how if h["via"] == "text"), None)
        citations.append(answers.cite_line(r, text_hit["line"] if text_hit else None))
        citations += [answers.cite_quote(r, q) for q in evidence.get(r["id"], [])]
    superseded = []
    for n, r in enumerate(old, start=1):
        superseded.append(answers.decision_item(
            r, label=f"S{n}", rests_on=sorted({h["file"] for h in rests.get(r["id"], [])}) or None,
            evidence=evidence.get(r["id"]),
        ))  # fmt: skip
        citations.append(answers.cite_line(r))
        citations += [answers.cite_quote(r, q) for q in evidence.get(r["id"], [])]
    # decisions the files rested on before the change, which the change deletes
    gone = {did: _row(before[did], graph.get(did, {}), []) for did in sorted(snap.deleted)}
    deleted = []
    for n, (did, r) in enumerate(gone.items(), start=1):
        hits = snap.deleted[did]
        deleted.append(
            answers.decision_item(r, label=f"X{n}", rests_on=sorted({h.path for h in hits}))
        )
        citations.append(answers.cite_line(r, hits[0].line))
    found = findings_q.experiments(
        store,
        verdict=findings_q.TRIED_AND_FAILED,
        entries=ids.graph_ids(sorted(rows)) + sorted(gone),
    )
    exps: list[dict[str, Any]] = []
    for e in found:  # under the id of the entry at the commit, once
        e = {**e, "decision": ids.back.get(e["decision"], e["decision"])}
        held = at_rev.get(e["decision"])
        was = before.get(e["decision"])
        kept = held is not None and quote_in(e["quote"], held.text)
        # an experiment the change itself deletes (with its decision, or from it) still warns
        removed = (
            not kept
            and was is not None
            and (held is not None or e["decision"] in gone)
            and quote_in(e["quote"], was.text)
        )
        if (kept or removed) and not any(
            x["decision"] == e["decision"] and x["quote"] == e["quote"] for x in exps
        ):
            exps.append({**e, "removed_by_change": removed})
    # in reading order: by file, then by line
    exps.sort(
        key=lambda e: (
            (at_rev.get(e["decision"]) or before[e["decision"]]).path,
            _place(rows.get(e["decision"]) or gone[e["decision"]], e["quote"]),
        )
    )
    warnings: list[dict[str, Any]] = []
    retired: list[dict[str, Any]] = []
    for e in exps:
        still = sorted(newer.get(e["decision"], []))
        item = {
            "id": e["id"],
            "decision": e["decision"],
            "verdict": e["verdict"],
            "quote": e["quote"],
        }
        if e["removed_by_change"]:
            item["removed_by_change"] = True
            row = _row(before[e["decision"]], graph.get(e["decision"], {}), [])  # as it was
        else:
            row = rows[e["decision"]]
        citations.append(answers.cite_quote(row, e["quote"]))
        if still:
            retired.append({**item, "superseded_by": still})
        else:
            warnings.append({**item, "label": f"D{len(warnings) + 1}"})
    experts = _experts(store, snap)
    for n, x in enumerate(experts, start=1):
        x["label"] = f"P{n}"
    if not rows and not deleted:
        text = "No recorded decision rests on the files this change touches."
    else:
        # a decision recorded as disproven or rejected is context, not guidance; so is one
        # whose status says it is superseded, by a decision the log does not hold
        status = [(d.get("status") or "").lower() for d in decisions]
        not_guidance = sum(s in NOT_GUIDANCE for s in status)
        stale = sum(s in STALE for s in status)
        unknown = sum(s in UNKNOWN for s in status)
        text = f"{len(decisions) - not_guidance - stale - unknown} decision(s) to follow"
        if not_guidance:
            text += f" ({not_guidance} more recorded as disproven or rejected)"
        if stale:
            text += f" ({stale} more whose status says superseded, by none in the log)"
        if unknown:
            text += f" ({unknown} more whose status cannot be read: see the ingest's warnings)"
        text += f", {len(superseded)} superseded"
        text += f", {len(warnings)} experiment(s) already tried and disproven (do not retry)"
        removed_warnings = sum(bool(w.get("removed_by_change")) for w in warnings)
        edited = [d["label"] for d in decisions if d.get("edited_by_change")]
        added = [d["label"] for d in decisions if d.get("added_by_change")]
        if added:
            text += (f"; this change itself adds {', '.join(added)} to the decision log: not "
                     "yet recorded before it")  # fmt: skip
        if edited:
            text += f"; this change edits {', '.join(edited)}, the decision(s) it rests on"
        if deleted:
            text += (f"; this change deletes {', '.join(d['label'] for d in deleted)}, the "
                     "decision(s) these files rested on")  # fmt: skip
        if removed_warnings:
            text += f", and deletes {removed_warnings} of those experiment(s)"
        text += "."
    result = {
        "rev": snap.rev, "base": snap.base, "subject": snap.subject, "rev_at": snap.rev_at,
        "files": [{"path": c.path, "status": c.status, "old_path": c.old_path}
                  for c in snap.changes],
        "decisions": decisions, "warnings": warnings, "superseded": superseded,
        "superseded_experiments": retired, "deleted": deleted, "experts": experts,
    }  # fmt: skip
    return answers.answered(
        q, "review", {"id": snap.rev, "type": "Commit", "name": snap.subject}, now,
        result, citations, text, as_of=snap.rev_at,
    )  # fmt: skip


def _edited(
    before: dict[str, DecisionEntry], at_rev: dict[str, DecisionEntry], did: str
) -> bool | None:
    """True when the change edits the decision's own text (None: it does not)."""
    was = before.get(did)
    return True if was is not None and was.text.strip() != at_rev[did].text.strip() else None


def _place(row: Row, quote: str) -> int:
    return answers.quote_place(row.get("text"), row.get("line_start"), quote)


def _evidence(store: Store, rows: dict[str, Row], ids: EntryIds) -> dict[str, list[str]]:
    """decision id -> the sentences its measurements stand in, in reading order: only those
    the decision held at the commit, so an old change is judged by the figures known then."""
    out: dict[str, list[str]] = {}
    for gid, found in findings_q.measurements(store, ids.graph_ids(sorted(rows))).items():
        did = ids.back.get(gid, gid)
        text = rows[did].get("text") or ""
        quotes = [m["quote"] for m in found if quote_in(m["quote"], text)]
        if quotes:
            held = dict.fromkeys([*out.get(did, []), *quotes])
            out[did] = sorted(held, key=lambda q: _place(rows[did], q))
    return out


def _experts(store: Store, snap: Snapshot) -> list[dict[str, Any]]:
    """Who knows each changed file, from the history before the change."""
    out: list[dict[str, Any]] = []
    cut = repo_read.shallow_boundary(store)  # a shallow clone's first commit: no one's work
    for change in snap.changes[:MAX_EXPERT_FILES]:
        before = change.old_path or change.path  # the name it had before the change
        spans = [s.as_param() for s in spans_of(store, [before], snap.rev_ms - 1)]
        people, _ = expertise.rank(repo_read.expertise(store, spans, cut))
        for e in people[:EXPERTS_PER_FILE]:
            out.append({"file": change.path, **e.to_dict()})
    return out
