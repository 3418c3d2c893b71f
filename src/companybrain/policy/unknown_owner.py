"""An owner the organisation does not list. A change control that hands a service to a new
hire not yet in org.yaml is the newest and highest word on who owns it: dropped, it would
let the directory's older owner answer, with a citation. Such a statement is checked as any
other, with the name standing in for a person, and kept with the name as written, so that
owner_of refuses instead of naming the owner before it.

So is a name several people share ("Ace", an alias of two): it names no one person.

A name is one to four capitalised words of letters that name no one and nothing the
organisation knows ("Zara Quinn", "Zara"), or only people, more than one; lower-case words,
acronyms ("TBD"), words with digits ("PLAT-77") and names mixing scripts (a Cyrillic "а" in
a Latin name: a look-alike of someone listed) are never taken for a name."""

from __future__ import annotations

import re
import unicodedata
from dataclasses import replace

from companybrain.model.records import Org, Person
from companybrain.policy.mentions import AMBIGUOUS, person_names, template
from companybrain.policy.text import fold_name

STAND_IN = "unknown.owner"  # the stand-in's id: only ever in an organisation of its own
# The owner a directory row or `Owner:` line gives when it says there is none ("vacant",
# "unassigned", "TBD"): a claim of no one, which is no name and no id either.
VACANT = "(vacant)"
MAX_WORDS = 4
# Capitalised words that are never (part of) a person's name: a sentence starts with them
# ("Who owns feature flags?", "Everyone owns the runbook").
NOT_NAMES = frozenset(
    (  # noqa: SIM905 (a word list reads better as words)
        "who whom whose what which why how when where whoever the a an this that these those "
        "it its i we you he she they them us our your their his her my me everyone everybody "
        "someone somebody anyone anybody nobody noone none no one all each every both either "
        "neither some any another other others here there now then today tomorrow yesterday "
        "ownership owner owners please note also effective from to as per and or of team"
    ).split()
)
_WORD = re.compile(r"[^\W\d_](?:[^\W\d_]|['\u2019-])*")  # letters: "PLAT-77" is no name


def candidates(sentence: str, org: Org) -> list[str]:
    """Runs of capitalised words in `sentence` that may name someone org.yaml does not."""
    runs: list[list[str]] = []
    end = -1
    for m in _WORD.finditer(sentence):
        if not m.group()[0].isupper():
            end = -1
            continue
        if runs and end >= 0 and sentence[end : m.start()] == " ":
            runs[-1].append(m.group())
        else:
            runs.append([m.group()])
        end = m.end()
    names = (" ".join(run) for run in runs if len(run) <= MAX_WORDS)
    return [n for n in dict.fromkeys(names) if unknown(n, org)]


def unknown(name: str, org: Org) -> bool:
    """Is `name` a plausible name that no person, service, project or team of `org` has,
    or one that several people have (an alias two people share names neither)?"""
    words = name.split()
    if not 1 <= len(words) <= MAX_WORDS or not all(_WORD.fullmatch(w) for w in words):
        return False
    if any(len(w) > 1 and w.isupper() for w in words):  # "TBD", "SRE": not a name
        return False
    if any(w.casefold() in NOT_NAMES for w in words):
        return False
    marked = template(name, org).text
    if marked == AMBIGUOUS:
        return len(shared_by(name, org)) > 1
    if "<" in marked:  # names (part of) a known person or service
        return False
    if len(_scripts(name)) > 1:  # "Сy Pаrk" with Cyrillic С and а: a look-alike, no one new
        return False
    return fold_name(name) not in _teams_and_projects(org)


def shared_by(name: str, org: Org) -> list[str]:
    """The ids of the people whose name, first name or alias `name` is."""
    folded = fold_name(name)
    return [pid for pid, names in person_names(org) if any(fold_name(n) == folded for n in names)]


def _scripts(name: str) -> set[str]:
    """The scripts of the letters of `name` (LATIN, CYRILLIC, GREEK, ...)."""
    return {unicodedata.name(c, "?").split()[0] for c in name if c.isalpha()}


_stand_ins: dict[str, Org] = {}
_base: list[Org] = []
_named: list[tuple[Org, frozenset[str]]] = []


def _teams_and_projects(org: Org) -> frozenset[str]:
    """The folded names of `org`'s teams and projects (kept for the organisation last
    asked about: every sentence of a run asks about the same one)."""
    if not _named or _named[0][0] is not org:
        names = [n for team in org.teams for n in team.names]
        names += [n for project in org.projects for n in project.names]
        _named[:] = [(org, frozenset(fold_name(n) for n in names))]
    return _named[0][1]


def stand_in_org(org: Org, name: str) -> Org:
    """`org` with one person only, named `name` (id STAND_IN): its services, projects and
    teams as they are, so that every ownership check reads the sentence as it would with
    a listed person. Kept per name for the organisation last asked about: a new hire's
    name comes back in every record that mentions them."""
    if not _base or _base[0] is not org:
        _base[:] = [org]
        _stand_ins.clear()
    if name not in _stand_ins:
        if len(_stand_ins) >= 64:
            _stand_ins.pop(next(iter(_stand_ins)))
        _stand_ins[name] = replace(org, people=(Person(STAND_IN, name),))
    return _stand_ins[name]
