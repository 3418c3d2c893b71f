"""The one list of read-only tools that the agent loop and the MCP server offer: a name, a
one-line description a model can act on, a JSON schema for the arguments, and a function
from (context, arguments) to the answer envelope.

Read-only is enforced, not promised: every tool runs against a `ReadOnlyStore`, which sends
each query as GRAPH.RO_QUERY, so the server itself rejects a write."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import jsonschema

from companybrain.config import Settings
from companybrain.errors import InputError, StoreError
from companybrain.graph.connection import Row, Store
from companybrain.model.answer import Answer


class ReadOnlyStore(Store):
    """A store whose every query runs read-only on the server (GRAPH.RO_QUERY)."""

    def query(
        self, cypher: str, params: Mapping[str, Any] | None = None, *, read_only: bool = False
    ) -> list[Row]:
        return super().query(cypher, params, read_only=True)

    def command(self, *args: Any) -> Any:
        if str(args[0]).upper() not in {"MODULE", "GRAPH.LIST", "PING"}:
            raise StoreError(f"{args[0]} is not allowed on a read-only store")
        return super().command(*args)

    def delete_graph(self) -> bool:
        raise StoreError("cannot delete a graph through a read-only store")

    def ensure_schema(self) -> None:
        self._schema_ready = True  # creating indexes is a write; readers use what exists

    def for_graph(self, graph: str) -> Store:
        return ReadOnlyStore(self.settings, graph)


@dataclass(frozen=True)
class ToolContext:
    """What every tool call is answered against: the graph (read-only), settings, the clock
    the question is read against (None: the real time) and who is asking (None: the
    unrestricted CLI view)."""

    store: Store
    settings: Settings
    now: datetime | None = None
    as_person: str | None = None


ToolFn = Callable[[ToolContext, dict[str, Any]], Answer]


@dataclass(frozen=True)
class ToolSpec:
    name: str
    description: str
    parameters: dict[str, Any]
    run: ToolFn = field(repr=False)

    def check_arguments(self, arguments: Mapping[str, Any]) -> dict[str, Any]:
        """The arguments, validated against the schema; one clear error naming the field."""
        args = dict(arguments)
        if "__invalid_json__" in args:
            raise InputError(f"{self.name}: the arguments are not a JSON object")
        try:
            jsonschema.validate(args, self.parameters)
        except jsonschema.ValidationError as exc:
            where = ".".join(str(p) for p in exc.absolute_path) or "arguments"
            raise InputError(f"{self.name}: {where}: {exc.message}") from None
        return args

    def __call__(self, ctx: ToolContext, arguments: Mapping[str, Any]) -> Answer:
        return self.run(ctx, self.check_arguments(arguments))

    def chat_tool(self) -> dict[str, Any]:
        """The definition in the chat-completions format."""
        return {
            "type": "function",
            "function": {
                "name": self.name,
                "description": self.description,
                "parameters": self.parameters,
            },
        }


def schema(
    required: Mapping[str, str], optional: Mapping[str, str] | None = None
) -> dict[str, Any]:
    """An object schema of string arguments, each with its description."""
    props = {k: {"type": "string", "description": v} for k, v in required.items()}
    props |= {k: {"type": "string", "description": v} for k, v in (optional or {}).items()}
    return {
        "type": "object",
        "properties": props,
        "required": list(required),
        "additionalProperties": False,
    }
