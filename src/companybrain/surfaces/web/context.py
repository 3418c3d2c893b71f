"""What every page and API call shares: the settings, the person the server is pinned to,
one open Brain per graph, and who is asking. A graph is chosen by name only among those
that exist, so that a request can never create one."""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from datetime import datetime

from companybrain.ask.engine import viewer_for
from companybrain.board.options import board_graph
from companybrain.brain import Brain
from companybrain.config import Settings
from companybrain.errors import BrainError, ConfigError, InputError, ModelError, StoreError
from companybrain.graph.connection import Store
from companybrain.policy.access import Viewer
from companybrain.policy.text import cut
from companybrain.policy.time import clock_now
from companybrain.surfaces.paths import hide_paths

MAX_ERROR_CHARS = 1_000  # an error names what was wrong; it need not quote all of it


class NotFound(InputError):
    """Nothing to show (or nothing this person may see): the page answers 404."""


@dataclass(frozen=True)
class Asker:
    """Who a request is for: the person (None: unrestricted) and their view."""

    person: str | None
    viewer: Viewer


@dataclass
class WebContext:
    settings: Settings
    pinned: str | None = None  # `brain serve --as PERSON`: every request is this person's
    token: str | None = None  # required on every request when set
    _brains: dict[str, Brain] = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock)
    _lister: Store | None = field(default=None, repr=False)

    @property
    def default_graph(self) -> str:
        return self.settings.graph

    def graphs(self) -> list[str]:
        """The graphs a page may show: every graph on the server but the boards."""
        names = set(self._existing()) | {self.default_graph}
        return sorted(n for n in names if not n.endswith("_board"))

    def brain(self, graph: str | None) -> Brain:
        # given, even empty, a name is the graph asked for: `"graph": ""` (a client's variable
        # left empty) is no graph, never the default one's records
        name = self.default_graph if graph is None else graph
        # asked on every request: a graph deleted since it was opened (`brain reset`) is
        # gone, never answered from as if the company had nothing, nor created again. A
        # board is read through its brain (which applies access rules), never as a graph of
        # its own: its items hold the text of the records they read
        if name.endswith("_board") or name not in self._existing():
            raise NotFound(f"no graph named {name!r}")
        with self._lock:
            found = self._brains.get(name)
            if found is None:
                found = Brain(settings=self.settings.with_(graph=name), create=False)
                self._brains[name] = found
            return found

    def board(self, graph: str | None) -> Store | None:
        """The board graph beside a brain, when there is one."""
        brain = self.brain(graph)
        name = board_graph(brain.store.graph_name)
        if name not in brain.store.list_graphs():
            return None
        return brain.store.for_graph(name)

    def _existing(self) -> list[str]:
        """The graphs on the server, through a connection that never creates one."""
        with self._lock:
            if self._lister is None:
                self._lister = Store(self.settings)
            lister = self._lister
        return lister.list_graphs()

    def asker(self, store: Store, chosen: str | None) -> Asker:
        """The pinned person, else the one chosen in the form; an unknown id is an error."""
        chosen = (chosen or "").strip() or None
        if self.pinned and chosen and chosen != self.pinned:
            raise InputError(f"this server answers as {self.pinned!r} only")
        person = self.pinned or chosen
        return Asker(person, viewer_for(store, person, "as"))

    def close(self) -> None:
        with self._lock:
            for brain in self._brains.values():
                brain.close()
            self._brains.clear()
            if self._lister is not None:
                self._lister.close()
                self._lister = None


def now_utc() -> datetime:
    return clock_now()


def shown(exc: BaseException, settings: Settings) -> str:
    """An error as a page or API call shows it: the data folder is named by its setting,
    never by where it is on the server's disk (a database error names its socket and log);
    and cut short when long, since it may quote what was sent (an `as` of a megabyte)."""
    return cut(hide_paths(str(exc), settings), MAX_ERROR_CHARS)


def http_status(exc: BrainError) -> int:
    """A bad question or record is the caller's (400); a busy or unreachable database, a
    failing model or a broken setting is ours, and a client may try again later."""
    if isinstance(exc, StoreError):  # BusyError included
        return 503
    if isinstance(exc, ModelError):
        return 502
    if isinstance(exc, ConfigError):
        return 500
    return 400
