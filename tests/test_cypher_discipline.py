"""No value is ever formatted into a query string; identifiers go through `ident`."""

from __future__ import annotations

import ast
import re

from tests.conftest import REPO_ROOT

PACKAGE = REPO_ROOT / "src" / "companybrain"
CYPHER = re.compile(r"\b(MATCH|MERGE|CREATE|RETURN|DELETE|DETACH|UNWIND|CALL|SET|WHERE)\b")
ALLOWED_CALLS = {"ident", "ident_list"}


def _is_allowed(expr: ast.expr) -> bool:
    return (
        isinstance(expr, ast.Call)
        and isinstance(expr.func, ast.Name)
        and expr.func.id in ALLOWED_CALLS
    )


def _literal_text(node: ast.expr) -> str:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return "".join(_literal_text(v) for v in node.values if isinstance(v, ast.Constant))
    return ""


def _constants(tree: ast.Module) -> set[str]:
    """Module-level names bound to string literals: query fragments, not values."""
    names: set[str] = set()
    for node in tree.body:
        if (
            isinstance(node, ast.Assign)
            and len(node.targets) == 1
            and isinstance(node.targets[0], ast.Name)
            and _is_literal(node.value)
        ):
            names.add(node.targets[0].id)
    return names


def _is_literal(node: ast.expr) -> bool:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return True
    return isinstance(node, ast.BinOp) and _is_literal(node.left) and _is_literal(node.right)


def formatted_queries(source: str, filename: str = "<src>") -> list[str]:
    """Every place where a non-identifier value is formatted into a Cypher-looking string."""
    problems: list[str] = []
    tree = ast.parse(source, filename)
    constants = _constants(tree)
    for node in ast.walk(tree):
        where = f"{filename}:{getattr(node, 'lineno', '?')}"
        if isinstance(node, ast.JoinedStr) and CYPHER.search(_literal_text(node)):
            for part in node.values:
                if isinstance(part, ast.FormattedValue) and not _is_allowed(part.value):
                    problems.append(f"{where}: f-string formats {ast.unparse(part.value)}")
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "format"
            and CYPHER.search(_literal_text(node.func.value))
        ):
            problems.append(f"{where}: str.format on a query")
        elif isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod | ast.Add):
            sides = (node.left, node.right)
            if any(CYPHER.search(_literal_text(s)) for s in sides):
                for side in sides:
                    fragment = isinstance(side, ast.Name) and side.id in constants
                    if (
                        not _literal_text(side)
                        and not _is_allowed(side)
                        and not fragment
                        and not isinstance(side, ast.BinOp)
                    ):
                        problems.append(f"{where}: concatenates {ast.unparse(side)} into a query")
    return problems


def test_the_scanner_catches_formatted_values() -> None:
    bad = """
def a(store, name):
    store.query(f"MATCH (p:Person {{id: '{name}'}}) RETURN p")
def b(store, name):
    store.query("MATCH (p) WHERE p.id = '%s' RETURN p" % name)
def c(store, name):
    store.query("MATCH (p) WHERE p.id = '{}' RETURN p".format(name))
def d(store, name):
    store.query("MATCH (p) WHERE p.id = '" + name + "' RETURN p")
"""
    assert len(formatted_queries(bad)) == 4


def test_the_scanner_accepts_parameters_and_checked_identifiers() -> None:
    good = """
def a(store, name, label):
    store.query("MATCH (p:Person {id: $id}) RETURN p", {"id": name})
    store.query(f"CREATE INDEX FOR (n:{ident(label)}) ON (n.id)")
"""
    assert formatted_queries(good) == []


def test_no_module_formats_a_value_into_a_query() -> None:
    problems: list[str] = []
    for path in sorted(PACKAGE.rglob("*.py")):
        problems += formatted_queries(path.read_text(), str(path.relative_to(REPO_ROOT)))
    assert problems == []
