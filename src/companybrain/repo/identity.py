"""People from git: one id per person, the lower-cased e-mail after `.mailmap`.

Authors and committers come out of `git log` already mapped (%aN/%aE); Co-authored-by
trailers are not, so they go through `git check-mailmap`, once per distinct identity."""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from companybrain.graph.ident import digest_id, id_too_long
from companybrain.repo import gitcmd
from companybrain.repo.agents import agent_kind

_CONTACT = re.compile(r"^(?P<name>.*?)\s*<(?P<email>[^<>]*)>\s*$")


@dataclass(frozen=True)
class Identity:
    id: str
    name: str
    email: str
    agent: str | None

    @property
    def is_agent(self) -> bool:
        return self.agent is not None


def person_id(name: str, email: str) -> str:
    email = _printable(email)
    found = email if email else f"{_printable(name)}@unknown"
    return digest_id(found) if id_too_long(found) else found  # (one over the limit: ident.py)


def _printable(text: str) -> str:
    """Without control characters: a Person id with one crashes FalkorDB (see graph/ident)."""
    return "".join(c for c in text if unicodedata.category(c) != "Cc").strip().lower()


@lru_cache(maxsize=4096)
def identity(name: str, email: str) -> Identity:
    return Identity(
        person_id(name, email), name.strip() or email, email.strip(), agent_kind(name, email)
    )


class Mailmap:
    """Maps trailer identities through the repository's .mailmap, with a cache."""

    def __init__(self, repo: Path) -> None:
        self.repo = repo
        self._cache: dict[tuple[str, str], Identity] = {}
        self._enabled = gitcmd.ok(repo, "cat-file", "-e", "HEAD:.mailmap")

    def map(self, name: str, email: str) -> Identity:
        key = (name, email)
        if key not in self._cache:
            mapped_name, mapped_email = name, email
            if self._enabled and "\n" not in name + email:
                out = gitcmd.text(self.repo, "check-mailmap", f"{name} <{email}>", check=False)
                m = _CONTACT.match(out.strip())
                if m:
                    mapped_name, mapped_email = m.group("name") or name, m.group("email")
            found = identity(mapped_name, mapped_email)
            # an agent stays an agent whatever the mailmap calls it
            if found.agent is None and agent_kind(name, email):
                found = Identity(found.id, found.name, found.email, agent_kind(name, email))
            self._cache[key] = found
        return self._cache[key]
