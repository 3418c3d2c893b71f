"""Asking the brain: question tools, the router, the agent loop."""
