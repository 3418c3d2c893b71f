"""The project's shape: one module talks to FalkorDB, one to a model, Cypher lives only
under graph/queries, and imports point one way."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from tests.conftest import REPO_ROOT

PACKAGE = REPO_ROOT / "src" / "companybrain"
QUERY_START = re.compile(r"^\s*(MATCH|OPTIONAL MATCH|MERGE|CREATE|UNWIND|CALL db|CALL algo)\b")

# Lower layers never import higher ones.
LAYERS = [
    "model",
    "policy",
    "graph",
    "llm",
    "proposers",
    "ingest",
    "repo",
    "ask",
    "board",
    "evals",
    "synth",
    "surfaces",
]
PURE = {"model", "policy"}


def _modules() -> list[Path]:
    return sorted(PACKAGE.rglob("*.py"))


def _imports(path: Path) -> set[str]:
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
    return found


def _rel(path: Path) -> str:
    return path.relative_to(PACKAGE).as_posix()


def test_only_the_connection_imports_falkordb() -> None:
    users = {_rel(p) for p in _modules() if any(m.split(".")[0] == "falkordb" for m in _imports(p))}
    assert users == {"graph/connection.py"}


def test_only_the_model_client_imports_openai() -> None:
    users = {_rel(p) for p in _modules() if any(m.split(".")[0] == "openai" for m in _imports(p))}
    assert users <= {"llm/client.py"}


def test_cypher_lives_only_in_graph_queries() -> None:
    offenders = []
    for path in _modules():
        if _rel(path).startswith("graph/queries/"):
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if (
                isinstance(node, ast.Constant)
                and isinstance(node.value, str)
                and QUERY_START.match(node.value)
            ):
                offenders.append(f"{_rel(path)}:{node.lineno}")
    assert offenders == []


def test_pure_layers_do_no_io() -> None:
    offenders = []
    for path in _modules():
        top = _rel(path).split("/")[0]
        if top not in PURE:
            continue
        for module in _imports(path):
            if module.startswith(
                (
                    "companybrain.graph",
                    "companybrain.llm",
                    "falkordb",
                    "openai",
                    "subprocess",
                    "socket",
                    "companybrain.surfaces",
                )
            ):
                offenders.append(f"{_rel(path)} imports {module}")
    assert offenders == []


def test_imports_point_down_the_layers() -> None:
    offenders = []
    for path in _modules():
        top = _rel(path).split("/")[0]
        if top not in LAYERS:
            continue
        for module in _imports(path):
            parts = module.split(".")
            if parts[0] != "companybrain" or len(parts) < 2 or parts[1] not in LAYERS:
                continue
            if LAYERS.index(parts[1]) > LAYERS.index(top):
                offenders.append(f"{_rel(path)} imports {module}")
    assert offenders == []
