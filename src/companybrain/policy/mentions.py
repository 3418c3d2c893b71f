"""Where a text names known people and services. The text is folded into words (policy/text.py
rules: case, punctuation and white space do not matter) and every mention of a person or a
service becomes one marker token, `<p:ID>` or `<s:ID>`, so that wording can be matched once
instead of once per spelling of every name. A name two entities share is marked `<?>`:
an ambiguous name never resolves to either."""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from functools import cached_property, lru_cache

from companybrain.model.records import Org, Person
from companybrain.policy.text import fold_name

PERSON = "p"
SERVICE = "s"
AMBIGUOUS = "<?>"
MARKER = re.compile(r"<([ps]):([a-z0-9._-]+)>")
# Words, plus the punctuation that ends a clause (kept so that clauses can be told apart).
_TOKEN = re.compile(r"[^\W_]+|[,;.!?()\[\]|:]")
CLAUSE_END = frozenset(",;.!?()[]|:")
_SPACED_DASH = re.compile(r"\s[-\u2012\u2013\u2014\u2015]+\s")  # "owns it — not Ines": a clause end
# A Markdown link: its text, and its target in brackets (at most one level of them inside).
_LINK = re.compile(r"\[([^\[\]\n]{1,200})\]\((?:[^()\s]|\([^()\s]*\)){0,500}\)")
Names = tuple[tuple[str, tuple[str, ...]], ...]  # (id, names) per entity
# One-word names that are also common words ("we will own it", "the dev box") name someone
# only when written with a capital letter; every other name matches in any case.
COMMON_WORDS = frozenset(
    (  # noqa: SIM905 (a word list reads better as words)
        "will may mark grant bill rob pat sue max june april august joy hope faith frank drew "
        "chase dean guy jack art ray rich rose sky summer dawn eve ivy lane page reed wade win "
        "young dev ops sam"
    ).split()
)


def marker(kind: str, entity_id: str) -> str:
    return f"<{kind}:{entity_id}>"


@dataclass(frozen=True)
class Template:
    """A text as words and clause punctuation, with names replaced by markers."""

    tokens: tuple[str, ...]

    @property
    def text(self) -> str:
        """Words and markers only, one space apart: what wording patterns match."""
        return " ".join(t for t in self.tokens if t not in CLAUSE_END)

    def ids(self, kind: str) -> list[str]:
        """The ids of `kind` mentioned, in order of first mention."""
        return list(dict.fromkeys(i for k, i in self._markers if k == kind))

    @cached_property
    def _markers(self) -> tuple[tuple[str, str], ...]:
        """(kind, id) of every marker token, in order (a template is asked for its people
        and its services, often several times)."""
        found = (MARKER.fullmatch(t) for t in self.tokens if t.startswith("<"))
        return tuple((m.group(1), m.group(2)) for m in found if m)

    def clauses(self) -> list[list[str]]:
        """Token runs between clause punctuation (punctuation dropped)."""
        out: list[list[str]] = [[]]
        for token in self.tokens:
            if token in CLAUSE_END:
                out.append([])
            else:
                out[-1].append(token)
        return [c for c in out if c]


CACHED_CHARS = 400  # texts up to this long have their templates kept (NameIndex.template)


class NameIndex:
    """Every name and alias of an organisation's people and services, folded."""

    def __init__(self, people: Names, services: Names) -> None:
        entries: dict[tuple[str, ...], set[str]] = {}
        for kind, group in ((PERSON, people), (SERVICE, services)):
            for entity_id, names in group:
                for name in names:
                    words = tuple(_plain(w) for w in fold_name(name).split())
                    if words:
                        entries.setdefault(words, set()).add(marker(kind, entity_id))
        self._names = {
            words: (next(iter(ids)) if len(ids) == 1 else AMBIGUOUS)
            for words, ids in entries.items()
        }
        self._longest = max((len(w) for w in self._names), default=0)
        self._first = frozenset(w[0] for w in self._names)  # no name starts elsewhere
        # The same short texts come back: a directory's cells ("Amber Ledger", "Kofi
        # Mensah") in every snapshot, and each quote is read by several checks. A Template
        # is immutable, so one can be shared. Only short texts are kept, so the cache stays
        # small whatever a corpus holds (a "sentence" of a megabyte is not kept).
        self._cached = lru_cache(maxsize=8192)(self._template)

    def template(self, text: str) -> Template:
        return self._cached(text) if len(text) <= CACHED_CHARS else self._template(text)

    def _template(self, text: str) -> Template:
        text = _SPACED_DASH.sub(" ; ", unicodedata.normalize("NFKC", text))
        if "](" in text:  # "[Bo Lind](mailto:bo@...)": the words shown, not where they lead
            text = _LINK.sub(r"\1", text)
        if not text.isascii():
            text = _plain(text)
        cased = _TOKEN.findall(text)
        raw = [t.casefold() for t in cased]
        words = [i for i, t in enumerate(raw) if t not in CLAUSE_END]
        out: list[str] = []
        done = 0  # raw tokens before this index are already in `out`
        w = 0
        while w < len(words):
            if raw[words[w]] not in self._first:
                w += 1
                continue
            for n in range(min(self._longest, len(words) - w), 0, -1):
                key = tuple(raw[i] for i in words[w : w + n])
                found = self._names.get(key)
                if found and n == 1 and key[0] in COMMON_WORDS and cased[words[w]].islower():
                    found = None
                if found:
                    out.extend(raw[done : words[w]])
                    out.append(found)  # a name spanning "S. Rao" becomes one marker
                    done = words[w + n - 1] + 1
                    w += n
                    break
            else:
                w += 1
        out.extend(raw[done:])
        return Template(tuple(out))


def _plain(text: str) -> str:
    """`text` without its accents: "Zoe Akesson-Berg" names Zoë Åkesson-Berg."""
    if text.isascii():
        return text
    return unicodedata.normalize("NFC", _ACCENTS.sub("", unicodedata.normalize("NFD", text)))


_ACCENTS = re.compile("[\u0300-\u036f]")  # the Latin accents only ("ガ" keeps its mark)


@lru_cache(maxsize=32)
def _index(people: Names, services: Names) -> NameIndex:
    return NameIndex(people, services)


# The organisations asked about last, and their indexes: the company's own, and those
# in which an unlisted owner's name stands in for a person (policy/unknown_owner.py).
_last: list[tuple[Org, NameIndex]] = []


def name_index(org: Org) -> NameIndex:
    """The (cached) index of `org`'s names. The same organisation object is asked about
    for every sentence of every record: it is recognised by identity first, since building
    the cache key costs as much as a thousand people and services."""
    for at, (known, index) in enumerate(_last):
        if known is org:
            if at:  # the most recent first, so that the company's own is not pushed out
                _last.insert(0, _last.pop(at))
            return index
    index = _index(person_names(org), tuple((s.id, s.names) for s in org.services))
    _last[:] = [(org, index), *_last[:3]]
    return index


def person_names(org: Org) -> Names:
    """(id, names) of every person of `org`. A former member whose successor (below) is
    listed now gives up the names they share: text naming them names the person to ask
    now, not no one (a name two people share names neither). Kept for the organisation
    last asked about, by identity, as name_index keeps its index."""
    if _people and _people[0][0] is org:
        return _people[0][1]
    after = successors(org)
    out = []
    for p in org.people:
        names = p.names
        if p.id in after:
            taken = {fold_name(n) for n in after[p.id].names}
            names = tuple(n for n in names if fold_name(n) not in taken)
        out.append((p.id, names))
    _people[:] = [(org, tuple(out))]
    return _people[0][1]


_people: list[tuple[Org, Names]] = []


def successors(org: Org) -> dict[str, Person]:
    """Former members (dropped from org.yaml) whom org.yaml now lists under a new id: the
    one member with the same full name, and no other e-mail (an id changed, `bo` to
    `bo.lind`). Several members of that name are no one's successor."""
    current: dict[str, list[Person]] = {}
    for p in org.people:
        if not p.former:
            current.setdefault(fold_name(p.name), []).append(p)
    out = {}
    for p in org.people:
        same = current.get(fold_name(p.name), []) if p.former else []
        if len(same) == 1 and not (p.email and same[0].email and p.email != same[0].email):
            out[p.id] = same[0]
    return out


def successor_id(org: Org, person: str) -> str:
    """`person`, or the member who succeeds them under a new id (successors): a record's
    `author: bo` written before the id changed is theirs. Kept for the organisation last
    asked about, by identity, as person_names keeps its names."""
    if not (_after and _after[0][0] is org):
        _after[:] = [(org, {old: new.id for old, new in successors(org).items()})]
    return _after[0][1].get(person, person)


_after: list[tuple[Org, dict[str, str]]] = []


def template(text: str, org: Org) -> Template:
    return name_index(org).template(text)
