"""Question sets are JSON Lines: one object a line, blank lines skipped, ids unique. Every
problem is one error naming the file and line."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from companybrain.errors import InputError


def json_objects(path: Path) -> Iterator[tuple[str, dict[str, Any]]]:
    """(`file:line`, object) for every non-blank line; a repeated `id` is an error."""
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except OSError as exc:
        raise InputError(f"{path}: cannot read the question set: {exc}") from exc
    seen: set[object] = set()
    for n, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        where = f"{path}:{n}"
        try:
            item = json.loads(line)
        except json.JSONDecodeError as exc:
            raise InputError(f"{where}: not valid JSON: {exc.msg}") from None
        if not isinstance(item, dict):
            raise InputError(f"{where}: expected a JSON object")
        if item.get("id") is not None:
            if item["id"] in seen:
                raise InputError(f"{where}: duplicate id {item['id']!r}")
            seen.add(item["id"])
        yield where, item
