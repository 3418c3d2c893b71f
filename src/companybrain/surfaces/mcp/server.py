"""The brain as an MCP server, on the official `mcp` SDK's low-level server: every read-only
tool of the registry with its JSON schema and description, and the answer envelope of
spec/answers.md as its structured result. Nothing served here can write: the tools run on a
read-only store, and the server offers tools only (no resources, prompts or sampling)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from contextlib import suppress
from importlib.metadata import version
from typing import Any

import anyio
import anyio.to_thread
import mcp_types as types
from mcp.server.context import ServerRequestContext
from mcp.server.lowlevel.server import Server
from mcp.server.stdio import stdio_server
from mcp.shared.exceptions import MCPError
from starlette.applications import Starlette

from companybrain.ask.registry import ToolContext, ToolSpec
from companybrain.errors import BrainError, StoreError
from companybrain.graph.queries import repo_read
from companybrain.ingest.status import answer_warning
from companybrain.model.answer import Answer
from companybrain.surfaces.paths import hide_paths

INSTRUCTIONS = (
    "Read-only tools over a company brain: company records (ownership, experts, decisions) "
    "and code repositories (why code is the way it is, what breaks, what was disproven, who "
    "knows a file). Every result is an answer envelope: status answered or refused, the "
    "result, and citations with the exact quote behind them. Cite the `record` ids you use."
)

_CITATION = {
    "type": "object",
    "required": ["record"],
    "properties": {
        "record": {"type": "string"},
        "quote": {"type": "string"},
        "kind": {"type": "string"},
        "authority": {"type": "integer"},
        "at": {"type": "string"},
        "effective_at": {"type": "string"},
        "lines": {"type": "array", "items": {"type": "integer"}, "minItems": 2, "maxItems": 2},
    },
}
_OUTRANKED = {
    "type": "object",
    "required": ["record", "why"],
    "properties": {
        "record": {"type": "string"},
        "kind": {"type": ["string", "null"]},
        "authority": {"type": ["integer", "null"]},
        "owner": {"type": ["string", "null"]},
        "quote": {"type": ["string", "null"]},
        "why": {"type": "string"},
    },
}
REFUSAL_CODES = [
    "NOT_IN_GRAPH",
    "VAGUE_DATE",
    "NO_CLAIM",
    "MISSING_PROVENANCE",
    "CONFLICT",
    "LOW_AUTHORITY",
    "ROW_CAP",
    "OUT_OF_SCOPE",
]
# The answer envelope of spec/answers.md; clients validate every result against it.
ENVELOPE_SCHEMA: dict[str, Any] = {
    "type": "object",
    "required": [
        "question",
        "tool",
        "subject",
        "as_of",
        "status",
        "refusal",
        "result",
        "citations",
        "outranked",
        "explanation",
        "explanation_by",
    ],
    "properties": {
        "question": {"type": "string"},
        "tool": {"type": ["string", "null"]},
        "subject": {"type": ["object", "null"]},
        "as_of": {"type": ["string", "null"]},
        "status": {"enum": ["answered", "refused"]},
        "refusal": {
            "oneOf": [
                {"type": "null"},
                {
                    "type": "object",
                    "required": ["code", "message"],
                    "properties": {
                        "code": {"enum": REFUSAL_CODES},
                        "message": {"type": "string"},
                    },
                },
            ]
        },
        "result": {"type": ["object", "null"]},
        "citations": {"type": "array", "items": _CITATION},
        "outranked": {"type": "array", "items": _OUTRANKED},
        "explanation": {"type": "string"},
        "explanation_by": {"enum": ["model", "template"]},
    },
}

_READ_ONLY = types.ToolAnnotations(
    read_only_hint=True, destructive_hint=False, idempotent_hint=True, open_world_hint=False
)


def build_server(ctx: ToolContext, tools: Sequence[ToolSpec]) -> Server[Any]:
    """An MCP server offering `tools`, each answered against `ctx` (graph, clock, person)."""
    by_name = {t.name: t for t in tools}
    listing = [
        types.Tool(
            name=t.name,
            description=t.description,
            input_schema=t.parameters,
            output_schema=ENVELOPE_SCHEMA,
            annotations=_READ_ONLY,
        )
        for t in tools
    ]

    async def list_tools(
        _ctx: ServerRequestContext[Any], _params: types.PaginatedRequestParams | None
    ) -> types.ListToolsResult:
        return types.ListToolsResult(tools=listing)

    async def call_tool(
        _ctx: ServerRequestContext[Any], params: types.CallToolRequestParams
    ) -> types.CallToolResult:
        spec = by_name.get(params.name)
        if spec is None:
            raise MCPError(types.INVALID_PARAMS, f"no tool named {params.name!r}")
        arguments = dict(params.arguments or {})

        def answer_call() -> tuple[Answer, str | None]:
            # a graph deleted since the server started (`brain reset`) is gone: one error
            # naming it, never answered from as if the company had no such service
            ctx.store.require_graph()
            answer = spec(ctx, arguments)
            return answer, answer_warning(ctx.store, counts=ctx.as_person is None)

        try:
            # the store is synchronous: run the query off the event loop
            answer, warning = await anyio.to_thread.run_sync(answer_call)
        except BrainError as exc:  # a bad argument or a failed query: the message is for them
            text = await anyio.to_thread.run_sync(_without_paths, ctx, exc)
            return types.CallToolResult(content=[types.TextContent(text=text)], is_error=True)
        data = answer.to_dict()
        content: list[types.ContentBlock] = [
            types.TextContent(text=json.dumps(data, ensure_ascii=False))
        ]
        if warning:  # the envelope has no field for it: a text of its own, after the answer
            content.append(types.TextContent(text=f"warning: {warning}"))
        return types.CallToolResult(content=content, structured_content=data)

    return Server(
        "companybrain",
        version=version("companybrain"),
        instructions=INSTRUCTIONS,
        on_list_tools=list_tools,
        on_call_tool=call_tool,
    )


def _without_paths(ctx: ToolContext, exc: BrainError) -> str:
    """The error as a client sees it: no folder of the server's machine (a git error names
    the repository's, a database error its socket). The repositories are looked up unless
    the database is what failed."""
    repositories: list[dict[str, Any]] = []
    if not isinstance(exc, StoreError):
        with suppress(BrainError):
            repositories = repo_read.repositories(ctx.store)
    return hide_paths(str(exc), ctx.settings, repositories)


def serve_stdio(server: Server[Any]) -> None:
    async def run() -> None:
        async with stdio_server() as (read_stream, write_stream):
            await server.run(read_stream, write_stream, server.create_initialization_options())

    anyio.run(run)


def http_app(server: Server[Any], host: str) -> Starlette:
    """Streamable HTTP at /mcp. On a loopback host the SDK turns DNS-rebinding protection on."""
    return server.streamable_http_app(host=host)


def serve_http(server: Server[Any], host: str, port: int) -> None:
    import uvicorn

    uvicorn.run(http_app(server, host), host=host, port=port, log_level="warning")
