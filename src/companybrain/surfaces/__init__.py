"""The surfaces people and programs use: the CLI, the MCP server."""
