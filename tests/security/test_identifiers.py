"""Labels, relationship types and property names go through one gate, graph/ident.py, with
a fixed allow-list; the code is scanned to show that nothing else builds an identifier."""

from __future__ import annotations

import ast
import re
import unicodedata

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companybrain.errors import InputError
from companybrain.graph import schema
from companybrain.graph.ident import (
    ALLOWED,
    LABELS,
    PROPERTIES,
    RELATIONSHIPS,
    has_control,
    ident,
    ident_list,
)
from tests.conftest import REPO_ROOT
from tests.security.hostile import NASTY, examples, hostile_text, tried

PACKAGE = REPO_ROOT / "src" / "companybrain"
QUERIES = PACKAGE / "graph" / "queries"
LABEL_IN_QUERY = re.compile(r"\(\w*:([A-Z]\w*)")
TYPE_IN_QUERY = re.compile(r"\[\w*:([A-Z_|]+)")


def _python_files() -> list:
    return sorted(PACKAGE.rglob("*.py"))


def _string_literals(tree: ast.AST) -> list[str]:
    """Every string constant but docstrings and other bare-expression strings."""
    bare = {id(n.value) for n in ast.walk(tree) if isinstance(n, ast.Expr)}
    return [
        n.value
        for n in ast.walk(tree)
        if isinstance(n, ast.Constant) and isinstance(n.value, str) and id(n) not in bare
    ]


def test_every_label_and_type_the_queries_write_is_on_the_allow_list() -> None:
    """The allow-list is the graph model's whole vocabulary, so it cannot drift."""
    used_labels: set[str] = set()
    used_types: set[str] = set()
    for path in sorted(QUERIES.glob("*.py")):
        for text in _string_literals(ast.parse(path.read_text())):
            used_labels |= set(LABEL_IN_QUERY.findall(text))
            for group in TYPE_IN_QUERY.findall(text):
                used_types |= set(filter(None, group.split("|")))
    assert used_labels and used_types
    assert used_labels <= LABELS, used_labels - LABELS
    assert used_types <= RELATIONSHIPS, used_types - RELATIONSHIPS


def test_the_schema_names_only_allowed_identifiers() -> None:
    for label in schema.KEYED_LABELS:
        assert ident(label) == label
    for label, prop in schema.RANGE_INDEXES:
        assert ident(label) == label and ident(prop) == prop
    for label, props in schema.FULLTEXT_INDEXES:
        assert ident_list("n", props) == ", ".join(f"n.{p}" for p in props)
        assert ident(label) == label


def test_only_the_query_layer_calls_the_gate_and_only_ident_py_defines_it() -> None:
    """`ident` is defined once, imported only under graph/queries (other layers may read the
    allow-list itself, e.g. to check a label in a web address), and nothing else in the
    package quotes an identifier with backticks or assembles a label from pieces."""
    callers: list[str] = []
    definitions: list[str] = []
    backticks: list[str] = []
    for path in _python_files():
        rel = str(path.relative_to(REPO_ROOT))
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name in {
                "ident", "ident_list"
            }:  # fmt: skip
                definitions.append(rel)
            if (
                isinstance(node, ast.ImportFrom)
                and node.module == "companybrain.graph.ident"
                and {a.name for a in node.names} & {"ident", "ident_list", "*"}
            ):
                callers.append(rel)
        for text in _string_literals(tree):
            if "`" in text and re.search(r"\b(MATCH|MERGE|CREATE|SET|RETURN)\b", text):
                backticks.append(rel)
    assert definitions == ["src/companybrain/graph/ident.py"] * 2
    assert all(c.startswith("src/companybrain/graph/queries/") for c in callers), callers
    assert backticks == [], "a backtick-quoted identifier bypasses the allow-list"


def test_dynamic_query_text_only_interpolates_ident() -> None:
    """Every f-string that reads like Cypher formats only `ident(...)`/`ident_list(...)`
    calls whose arguments are string constants or names bound to schema constants, never
    data read at run time (a front-matter key, a kind, a header)."""
    problems: list[str] = []
    cypher = re.compile(r"\b(MATCH|MERGE|CREATE|SET|RETURN|INDEX|DELETE)\b")
    for path in _python_files():
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if not isinstance(node, ast.JoinedStr):
                continue
            literal = "".join(v.value for v in node.values if isinstance(v, ast.Constant))
            if not cypher.search(literal):
                continue
            for part in node.values:
                if not isinstance(part, ast.FormattedValue):
                    continue
                call = part.value
                ok = (
                    isinstance(call, ast.Call)
                    and isinstance(call.func, ast.Name)
                    and call.func.id in {"ident", "ident_list"}
                )
                if not ok:
                    problems.append(f"{path.name}:{node.lineno}: {ast.unparse(part.value)}")
    assert problems == []


@pytest.mark.parametrize(
    "name",
    [
        "Person`) DETACH DELETE n //", "Person:Admin", "Person {id: 1}", "person", "SOURCE",
        "Source ", " Source", "Sourсe", "Source\u200b", "Source\x00", "", "1Source", "n.id",
        "id; DROP", "WORKED_WITH|ABOUT", "x" * 65, "Mallory", "`Source`", "$label",
    ],
)  # fmt: skip
def test_hostile_names_are_refused(name: str) -> None:
    tried("identifiers.hostile_names")
    with pytest.raises(InputError, match="not an allowed graph identifier"):
        ident(name)


def test_non_strings_are_refused() -> None:
    for value in (None, 1, b"Source", ["Source"]):
        with pytest.raises(InputError):
            ident(value)  # type: ignore[arg-type]


@examples(500)
@given(name=st.one_of(hostile_text(3), st.sampled_from(NASTY), st.from_regex(r"\A\w{1,70}\Z")))
def test_only_allowed_names_pass(name: str) -> None:
    tried("identifiers.generated_names")
    if name in ALLOWED:
        assert ident(name) == name
    else:
        with pytest.raises(InputError):
            ident(name)


def test_property_names_from_data_are_not_identifiers() -> None:
    """Unknown front-matter fields are kept as one JSON property, never as property names."""
    assert "extra_json" not in PROPERTIES
    with pytest.raises(InputError):
        ident_list("n", ("title", "owner`}) MATCH (m) DETACH DELETE m //"))
    with pytest.raises(InputError):
        ident_list("m", ("title",))


def test_a_control_character_is_what_unicode_calls_one() -> None:
    """has_control is a regex over two ranges: the same as Unicode's category Cc."""
    for code in range(0x110000):
        if 0xD800 <= code <= 0xDFFF:
            continue  # lone surrogates are refused before (policy.text.unstorable)
        char = chr(code)
        assert has_control(f"a{char}b") == (unicodedata.category(char) == "Cc"), hex(code)
