"""connect: how two things of a repository are joined (files, decisions, commits, people),
the shortest path algo.SPpaths finds in either direction, every decision and commit on it
cited."""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING, Any

from companybrain.ask.repo import answers
from companybrain.ask.repo.subjects import clean, resolve_commit, resolve_decision, resolve_path
from companybrain.graph.queries import repo_read
from companybrain.model.answer import Answer, Citation

if TYPE_CHECKING:
    from companybrain.graph.connection import Store


def _node_id(store: Store, text: str) -> str:
    decision = resolve_decision(store, text)
    if decision:
        return str(decision["id"])
    ps = resolve_path(store, text)
    if ps and ps.kind == "file":
        return ps.asked
    return resolve_commit(store, text) or clean(text).lower()


def connect(
    store: Store, a: str, b: str, *, question: str | None = None, now: datetime | None = None
) -> Answer:
    q = question or f"How is {a} connected to {b}?"
    source, target = _node_id(store, a), _node_id(store, b)
    subject = {"id": source, "type": "Path", "name": f"{source} → {target}"}
    found = repo_read.connection(store, source, target)
    if found is None:
        return answers.not_recorded(
            q, "connect", subject, now, f"no path of at most 6 steps joins {a} and {b}"
        )
    nodes = found["path"]["nodes"]
    edges = found["path"]["edges"]
    path: list[dict[str, Any]] = [
        {"id": n.get("id"), "type": (n.get("_labels") or ["?"])[0]} for n in nodes
    ]
    citations: list[Citation] = []
    for n in path:
        if n["type"] == "Decision":
            row = repo_read.decision(store, n["id"])
            if row:
                citations.append(answers.cite_line(row))
        elif n["type"] == "Commit":
            commit = repo_read.commit(store, n["id"])
            if commit:
                citations.append(answers.cite_commit(commit))
    steps = [f"{path[0]['id']}"]
    for edge, node in zip(edges, path[1:], strict=False):
        steps.append(f"-[{edge['_type']}]- {node['id']}")
    return answers.answered(
        q, "connect", subject, now,
        {"path": path, "relations": [e["_type"] for e in edges]},
        citations, " ".join(steps) + ".",
    )  # fmt: skip
