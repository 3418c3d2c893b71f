"""Resolving how one entry names another ("ADR-7", "ADR 0007", "[ADR-0012](0012-x.md)",
"docs/adr/0003-use-markdown.md", a record id such as ADR-007, the code a decision log gives
its entries such as "R1", or a "quoted title") to an entry id in the brain.
Ambiguous or unknown references resolve to nothing rather than to a guess."""

from __future__ import annotations

import posixpath
import re
from collections.abc import Iterable
from dataclasses import dataclass

from companybrain.policy.text import fold_name

_LINK = re.compile(r"\[([^\]]*)\]\(([^)\s]+)\)")
_ADR_NUMBER = re.compile(r"\b(?:ADR|RFC|DR)[-\s_]?0*(\d+)\b", re.I)
_LEADING_NUMBER = re.compile(r"^(?:adr[-_])?0*(\d+)[-_.]", re.I)
# "R1 The router prompt's rule", "DEC-12: Use Kafka": capitals and a number, case kept.
_CODE = re.compile(r"^([A-Z]{1,6}-?\d{1,5})(?=$|[\s:.)\]–—-])")
_QUOTES = "\"'`“”‘’"


@dataclass(frozen=True)
class EntryRef:
    id: str
    title: str | None = None
    path: str | None = None
    date: str | None = None
    label: str = "Decision"
    repo: str | None = None  # the repository of a decision read from git; None: a record

    @property
    def number(self) -> int | None:
        """The record number an entry is known by: 0007-x.md, ADR-007, "ADR 7: ..."."""
        base = posixpath.basename(self.path or self.id.split("#", 1)[0])
        for candidate in (base, self.id):
            m = _LEADING_NUMBER.match(candidate)
            if m:
                return int(m.group(1))
            m = _ADR_NUMBER.fullmatch(candidate.strip())
            if m:
                return int(m.group(1))
        m = _ADR_NUMBER.match(self.title or "")
        return int(m.group(1)) if m else None

    @property
    def code(self) -> str | None:
        """The code a log heads an entry with: "R1 The router prompt's rule" -> R1."""
        m = _CODE.match((self.title or "").strip())
        return m.group(1) if m else None

    @property
    def names(self) -> set[str]:
        """The entry's title as a reference may quote it: whole, and without its code."""
        title = fold_name(self.title or "")
        code = self.code
        out = {title} if title else set()
        if code:
            out.add(fold_name((self.title or "").strip()[len(code) :].lstrip(" :.)–—-")))
        return {n for n in out if n}


class RefIndex:
    def __init__(self, entries: Iterable[EntryRef]) -> None:
        self.entries = {e.id: e for e in entries}
        self._by_number: dict[int, list[str]] = {}
        self._by_base: dict[str, list[str]] = {}
        self._by_code: dict[str, list[str]] = {}
        self._by_name: dict[str, list[str]] = {}
        for e in self.entries.values():
            if e.code:
                self._by_code.setdefault(e.code, []).append(e.id)
            for name in e.names:
                self._by_name.setdefault(name, []).append(e.id)
            n = e.number
            if n is not None:
                self._by_number.setdefault(n, []).append(e.id)
            if e.path:
                self._by_base.setdefault(posixpath.basename(e.path).lower(), []).append(e.id)

    def __contains__(self, entry_id: object) -> bool:
        return entry_id in self.entries

    def get(self, entry_id: str) -> EntryRef | None:
        return self.entries.get(entry_id)

    def resolve(self, ref: str, from_entry: str) -> str | None:
        """The entry id `ref` names, read from inside `from_entry`; None when unknown. An
        entry names only entries of its own repository (or, a company record, records):
        "ADR-3" in one repository's log is not another repository's ADR-3."""
        found = self._resolve(ref, from_entry)
        if found is None or from_entry not in self.entries:
            return found
        return found if self.entries[found].repo == self.entries[from_entry].repo else None

    def names_other(self, ref: str, from_entry: str) -> bool:
        """Does `ref`, written in `from_entry`, name an entry other than that one? (A
        reference to itself resolves to nothing, as does one to an entry not held.)"""
        found = self.resolve(ref, from_entry)
        if found is not None:
            return found != from_entry
        here = self.entries.get(from_entry)
        if here is None:
            return True
        number = _ADR_NUMBER.search(ref)
        bare = ref.strip().strip(_QUOTES + ".,;:")
        return not (
            (number is not None and int(number.group(1)) == here.number)
            or bare in (here.id, here.code, here.path, posixpath.basename(here.path or ""))
        )

    def _resolve(self, ref: str, from_entry: str) -> str | None:
        quoted = ref.strip()[:1] in _QUOTES
        ref = ref.strip().strip(_QUOTES + ".,;:")
        if not ref:
            return None
        if ref in self.entries:
            return ref
        if ref in self._by_code:
            return self._only(self._by_code[ref], from_entry)
        if quoted:
            return self._only(self._by_name.get(fold_name(ref), []), from_entry)
        link = _LINK.search(ref)
        if link:
            return self._by_path(link.group(2), from_entry) or self.resolve(
                link.group(1), from_entry
            )
        if ref.lower().endswith(".md"):
            return self._by_path(ref, from_entry)
        m = _ADR_NUMBER.search(ref)
        if m:
            return self._only(self._by_number.get(int(m.group(1)), []), from_entry)
        return None

    def _by_path(self, target: str, from_entry: str) -> str | None:
        target = target.split("#", 1)[0]
        here = self.entries.get(from_entry)
        if here and here.path and not target.startswith("/"):
            joined = posixpath.normpath(posixpath.join(posixpath.dirname(here.path), target))
            if joined in self.entries:
                return joined
        if target.lstrip("/") in self.entries:
            return target.lstrip("/")
        return self._only(self._by_base.get(posixpath.basename(target).lower(), []), from_entry)

    def _only(self, ids: list[str], from_entry: str) -> str | None:
        """The one entry (other than the one reading, and of its repository) a reference
        names; two is no answer."""
        here = self.entries.get(from_entry)
        found = [
            i
            for i in dict.fromkeys(ids)
            if i != from_entry and (here is None or self.entries[i].repo == here.repo)
        ]
        return found[0] if len(found) == 1 else None
