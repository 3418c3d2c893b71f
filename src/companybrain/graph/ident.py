"""Identifiers (labels, relationship types, property names) cannot be Cypher parameters.
The few places that need one in a query string pass it through `ident`, which accepts only
plain names; values always travel as `$params`."""

from __future__ import annotations

import re

from companybrain.errors import InputError

_IDENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]{0,63}$")


def ident(name: str) -> str:
    if not isinstance(name, str) or not _IDENT.match(name):
        raise InputError(f"not a valid graph identifier: {name!r}")
    return name


def ident_list(var: str, props: tuple[str, ...] | list[str]) -> str:
    """`n.a, n.b` for an index definition, every part checked."""
    return ", ".join(f"{ident(var)}.{ident(p)}" for p in props)
