"""Which query options of a FALKORDB_URL the client would not take. redis-py reads `?name=`
options into keyword arguments of the connection it makes at the first command, so an
option it has no parameter for (`?x=1`, `?timeout=5`) surfaced there as a TypeError, far
from the setting. The parameters are read from the client's own classes, not listed here."""

from __future__ import annotations

import inspect
from functools import cache

import redis
from redis.connection import ConnectionPool, parse_url

# Set by the client itself from the URL's scheme, host and path, never by an option.
_FROM_URL = frozenset({"connection_class", "host", "port", "path", "username", "password"})


def unknown_options(url: str) -> list[str]:
    """The URL's query options no connection or pool parameter takes, in order. Raises
    ValueError when an option's value cannot be read (as the client would)."""
    for ours, theirs in (("falkor://", "redis://"), ("falkors://", "rediss://")):
        if url.startswith(ours):  # as FalkorDB.from_url reads them
            url = theirs + url[len(ours) :]
    options = parse_url(url)
    kind = options.get("connection_class", redis.Connection)
    known = _parameters(kind) | _parameters(ConnectionPool)
    return [name for name in options if name not in known and name not in _FROM_URL]


@cache
def _parameters(cls: type) -> frozenset[str]:
    names: set[str] = set()
    for klass in cls.__mro__:
        init = klass.__dict__.get("__init__")
        if init is None:
            continue
        for name, param in inspect.signature(init).parameters.items():
            if param.kind not in (param.VAR_KEYWORD, param.VAR_POSITIONAL) and name != "self":
                names.add(name)
    return frozenset(names)
