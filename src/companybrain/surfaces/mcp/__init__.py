"""The MCP surface: every read-only tool of the registry, over stdio or streamable HTTP."""
