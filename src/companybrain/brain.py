"""The Python API: `Brain(...)` opens one graph and offers what the CLI offers."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from companybrain.config import Settings, missing_graph
from companybrain.graph.connection import Store
from companybrain.graph.queries import schema_q

if TYPE_CHECKING:
    from collections.abc import Callable

    from companybrain.ask.agent import AgentAnswer, Step
    from companybrain.model.answer import Answer


class Brain:
    def __init__(
        self,
        graph: str | None = None,
        *,
        home: str | Path | None = None,
        settings: Settings | None = None,
        create: bool = True,
    ) -> None:
        """`create=False` (what only reads): a graph that does not exist is an InputError
        naming it and those that do, instead of a new empty graph answering from nothing."""
        settings = settings or Settings.from_env()
        if home is not None:
            settings = settings.with_(home=Path(home))
        if graph is not None:
            settings = settings.with_(graph=graph)
        self.settings = settings
        self.store = Store(settings)
        if not create:
            self.store.require_graph()
        self.store.ensure_schema()

    def status(self) -> dict[str, Any]:
        return status(self.store)

    def ask(
        self,
        question: str,
        now: str | datetime | None = None,
        as_of: str | None = None,
        as_person: str | None = None,
        *,
        as_of_field: str = "--as-of",
    ) -> Answer:
        """Answer with the record and the quote, or refuse with a reason (spec/answers.md).
        `as_of_field` is what errors call `as_of` (the CLI's option by default)."""
        from companybrain.ask.engine import ask

        return ask(
            self.store, self.settings, question, now=now, as_of=as_of, as_person=as_person,
            as_of_field=as_of_field,
        )  # fmt: skip

    def ask_agent(
        self,
        question: str,
        now: str | datetime | None = None,
        as_of: str | None = None,
        as_person: str | None = None,
        *,
        max_steps: int | None = None,
        on_step: Callable[[Step], None] | None = None,
    ) -> AgentAnswer:
        """A model calls the read-only tools in a loop (`on_step` sees each call as it
        happens); code checks its final answer. Without a model: the routed answer."""
        from companybrain.ask.agent import DEFAULT_MAX_STEPS, ask_agent

        return ask_agent(
            self.store, self.settings, question, now=now, as_of=as_of, as_person=as_person,
            max_steps=max_steps or DEFAULT_MAX_STEPS, on_step=on_step,
        )  # fmt: skip

    def close(self) -> None:
        self.store.close()


def status(store: Store) -> dict[str, Any]:
    """Where the data is, the server, and the graph's counts. A graph that does not exist is
    not created (a query would): no counts, and `missing` names the graphs that do exist."""
    from companybrain.ingest.status import last_ingest

    graphs = store.list_graphs()
    exists = store.graph_name in graphs
    return {
        "data": str(store.settings.home.resolve()) if store.embedded else None,
        "server": store.where,
        "mode": "embedded" if store.embedded else "external",
        "falkordb_version": store.server_version(),
        "graph": store.graph_name,
        "missing": None if exists else missing_graph(store.graph_name, graphs),
        "labels": schema_q.label_counts(store) if exists else {},
        "relationships": schema_q.relationship_counts(store) if exists else {},
        "last_ingest": last_ingest(store) if exists else None,
    }
