"""Resolve what a decision says it supersedes (or is superseded by) to decision ids: a link
to a file or an anchor, a file name, a number ("ADR-0003", "#3") or a title. Pure."""

from __future__ import annotations

import posixpath
import re
from dataclasses import dataclass
from urllib.parse import unquote

from companybrain.policy.statuses import NEVER_IN_FORCE
from companybrain.policy.text import fold_name
from companybrain.repo.decisions import REF_FILE, REF_NUMBER, DecisionEntry, Ref
from companybrain.repo.markdown import slug


@dataclass(frozen=True)
class Supersession:
    newer: str
    older: str
    quote: str  # the line that says so, verbatim
    recorded_in: str  # the decision whose text holds the line
    line: int


# The code a log heads its entries with ("R1 Keep the wrong rule", "DEC-12: Use Kafka"), by
# which other entries name it ("Supersedes: R1"). Capitals and a number, case kept.
_CODE = re.compile(r"^\s*([A-Z]{1,6}-?\d{1,5})(?=$|[\s:.,;)\]–—-])")


class _Index:
    def __init__(self, entries: list[DecisionEntry]) -> None:
        self.by_id = {e.id: e for e in entries}
        self.by_code: dict[str, list[str]] = {}
        self.by_anchor: dict[tuple[str, str], str] = {}
        self.by_name: dict[str, list[str]] = {}
        self.by_number: dict[int, list[DecisionEntry]] = {}
        self.by_title: dict[str, list[str]] = {}
        for e in entries:
            if e.heading is not None:
                self.by_anchor.setdefault((e.path, slug(e.heading)), e.id)
                self.by_anchor.setdefault((e.path, slug(e.title)), e.id)
            else:
                self.by_name.setdefault(posixpath.basename(e.path).lower(), []).append(e.id)
                stem = re.sub(r"\.(md|markdown)$", "", posixpath.basename(e.path).lower())
                self.by_name.setdefault(stem, []).append(e.id)
            if e.number is not None:
                self.by_number.setdefault(e.number, []).append(e)
            code = _CODE.match(e.heading or e.title or "")
            if code:
                self.by_code.setdefault(code.group(1), []).append(e.id)
            for t in {fold_name(e.title), fold_name(e.heading or "")}:
                if t:
                    self.by_title.setdefault(t, []).append(e.id)


def _one(ids: list[str], me: DecisionEntry) -> str | None:
    others = [i for i in dict.fromkeys(ids) if i != me.id]
    return others[0] if len(others) == 1 else None


def resolve(ref: Ref, me: DecisionEntry, index: _Index) -> str | None:
    """The id `ref` points at, or None when it names nothing (or more than one thing)."""
    if ref.target and not re.match(r"^[a-z]+://", ref.target):
        target = unquote(ref.target)
        file_part, _, anchor = target.partition("#")
        path = (
            posixpath.normpath(posixpath.join(posixpath.dirname(me.path), file_part))
            if file_part
            else me.path
        )
        path = path.lstrip("./") if path.startswith("./") else path
        if anchor:
            found = index.by_anchor.get((path, anchor.lower()))
            if found and found != me.id:
                return found
        if path in index.by_id and path != me.id:
            return path
        by_name = _one(index.by_name.get(posixpath.basename(file_part).lower(), []), me)
        if by_name:
            return by_name
    text = ref.text
    for m in REF_FILE.finditer(text):
        found = _one(index.by_name.get(posixpath.basename(m.group(0)).lower(), []), me)
        if found:
            return found
    for m in REF_NUMBER.finditer(text):
        number = int(m.group(1) or m.group(2))
        candidates = index.by_number.get(number, [])
        same_dir = [
            e.id for e in candidates if posixpath.dirname(e.path) == posixpath.dirname(me.path)
        ]
        found = _one(same_dir, me) or _one([e.id for e in candidates], me)
        if found:
            return found
    code = _CODE.match(text)
    if code:
        found = _one(index.by_code.get(code.group(1), []), me)
        if found:
            return found
    folded = fold_name(re.sub(r"^\s*\d{1,5}\s*[.:]\s*", "", text))
    if folded:
        found = _one(index.by_title.get(folded, []), me)
        if found:
            return found
        found = _one(index.by_name.get(folded.replace(" ", "-"), []), me)
        if found:
            return found
    return None


def supersessions(
    entries: list[DecisionEntry],
) -> tuple[list[Supersession], list[tuple[str, Ref]]]:
    """Every supersession the entries state, resolved; and the references that named
    nothing, each with the path of the file that holds it (reported, never guessed). A
    decision rejected, withdrawn or only proposed supersedes nothing: "Supersedes ADR-1"
    in a rejected ADR-3 does not make ADR-1 superseded, nor ADR-3 the one in force."""
    index = _Index(entries)
    found: dict[tuple[str, str], Supersession] = {}
    unresolved: list[tuple[str, Ref]] = []
    for e in entries:
        for ref in e.supersedes:
            target = resolve(ref, e, index)
            if target and (e.status or "") in NEVER_IN_FORCE:
                continue
            if target:
                said = Supersession(e.id, target, ref.quote, e.id, ref.line)
                found.setdefault((e.id, target), said)
            else:
                unresolved.append((e.path, ref))
        for ref in e.superseded_by:
            target = resolve(ref, e, index)
            if target and (index.by_id[target].status or "") in NEVER_IN_FORCE:
                continue
            if target:
                said = Supersession(target, e.id, ref.quote, e.id, ref.line)
                found.setdefault((target, e.id), said)
            else:
                unresolved.append((e.path, ref))
    return list(found.values()), unresolved
