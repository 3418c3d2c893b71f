"""Model replies cached on disk by record content, proposer and model name, so that a re-run
costs nothing and a run without a model server can replay what a model once said."""

from __future__ import annotations

import hashlib
import json
import os
import re
import tempfile
from dataclasses import asdict
from pathlib import Path
from typing import Any

from companybrain.errors import InputError
from companybrain.model.records import Record


def record_digest(record: Record, version: str) -> str:
    """What a model was asked about: everything the record says, and the prompt version."""
    data = {k: v for k, v in asdict(record).items() if k != "origin"}
    blob = json.dumps([version, data], sort_keys=True, default=str, ensure_ascii=False)
    return hashlib.sha256(blob.encode()).hexdigest()


def _slug(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9._-]+", "_", name).strip("_") or "model"


class ProposalCache:
    def __init__(self, root: Path) -> None:
        self.root = root

    def _path(self, digest: str, proposer: str, model: str) -> Path:
        return self.root / f"{digest}.{_slug(proposer)}.{_slug(model)}.json"

    def load(self, digest: str, proposer: str, model: str | None) -> dict[str, Any] | None:
        """The cached entry; with no model name, the one entry for this record if there is
        exactly one (an offline replay need not know which model wrote the cache)."""
        if model is not None:
            path = self._path(digest, proposer, model)
            return self._read(path) if path.exists() else None
        found = sorted(self.root.glob(f"{digest}.{_slug(proposer)}.*.json"))
        if len(found) > 1:
            names = ", ".join(p.name.split(".")[-2] for p in found)
            raise InputError(
                f"the proposal cache holds replies of several models for this record ({names}):"
                " set BRAIN_MODEL to choose one"
            )
        return self._read(found[0]) if found else None

    def save(self, digest: str, proposer: str, model: str, entry: dict[str, Any]) -> None:
        self.root.mkdir(parents=True, exist_ok=True)
        path = self._path(digest, proposer, model)
        fd, tmp = tempfile.mkstemp(dir=self.root, prefix=".tmp-", suffix=".json")
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            json.dump(entry, out, ensure_ascii=False, indent=1, sort_keys=True)
        os.replace(tmp, path)  # atomic: a crash never leaves half an entry

    def _read(self, path: Path) -> dict[str, Any]:
        try:
            entry = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, json.JSONDecodeError) as exc:
            raise InputError(f"{path}: unreadable proposal cache entry ({exc}); delete it") from exc
        if not isinstance(entry, dict) or not isinstance(entry.get("arguments"), dict):
            raise InputError(f"{path}: a proposal cache entry needs an 'arguments' object")
        return entry
