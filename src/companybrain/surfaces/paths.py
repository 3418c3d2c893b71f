"""What a served reply (a web page, an API call, an MCP tool's error) may say about where
things are: the data folder by its setting and a repository by its name, never their place
on the server's disk, which is no business of whoever can reach the server."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from companybrain.config import Settings


def hide_paths(
    text: str, settings: Settings, repositories: Iterable[Mapping[str, Any]] = ()
) -> str:
    """`text` with the data folder written `$BRAIN_HOME` (a database error names its socket
    and log) and each repository's folder (rows of repo_read.repositories) its name."""
    text = text.replace(str(settings.home.resolve()), "$BRAIN_HOME")
    folders = {str(r["path"]): str(r["repo"]) for r in repositories if r.get("path")}
    for folder in sorted(folders, key=len, reverse=True):  # a folder inside another first
        text = text.replace(folder, folders[folder])
    return text
