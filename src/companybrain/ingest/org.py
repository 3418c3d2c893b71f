"""org.yaml → Org, with every problem named by field."""

from __future__ import annotations

import math
import re
from collections.abc import Hashable
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

import yaml

from companybrain.errors import InputError
from companybrain.graph.ident import MAX_ID_BYTES, has_control, id_too_long
from companybrain.model.records import (
    AUTHORITY_RANGE,
    DEFAULT_AUTHORITY,
    Org,
    Person,
    Project,
    Service,
    Team,
)
from companybrain.policy.text import unstorable

# libyaml's parser where PyYAML was built with it: an organisation of thousands of people
# loads in a fraction of the pure-Python parser's time (same safe constructor).
YAML_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
# PyYAML raises more than YAMLError on odd values (a date out of range such as 2024-13-01,
# a !!timestamp with a seconds offset): all of it is malformed input, not a crash.
YAML_ERRORS = (yaml.YAMLError, ValueError, TypeError, AttributeError, OverflowError)


class AliasRefused(yaml.YAMLError):
    pass


class _Loader(YAML_LOADER):  # type: ignore[misc,valid-type]
    """The safe loader, refusing a key given twice in one mapping: YAML would keep the last
    value, and which one the writer meant is unknown (a `kind:` written twice, the second
    one `change_control`, raised a chat message to authority 90; a second `people:` list
    replaced the first)."""

    def construct_mapping(self, node: yaml.MappingNode, deep: bool = False) -> dict[Any, Any]:
        seen: set[Any] = set()
        for key_node, _ in node.value:
            if key_node.tag == "tag:yaml.org,2002:merge":
                continue  # `<<:` merges on purpose; its keys may be overridden
            key = self.construct_object(key_node, deep=deep)
            if isinstance(key, Hashable) and key in seen:
                raise yaml.constructor.ConstructorError(
                    None, None, f"duplicate key {key!r}", key_node.start_mark
                )
            seen.add(key)
        return super().construct_mapping(node, deep=deep)

    def construct_yaml_int(self, node: yaml.ScalarNode) -> int | str:
        """YAML 1.1 reads `0123` as 83 (octal), `1_000` as 1000 and `12:30` as 750: an id,
        title or parent written so was stored as other text. A number that would not be
        written back as it stands is kept as the text it is."""
        value = super().construct_yaml_int(node)
        return value if str(value) == node.value else str(node.value)

    def construct_yaml_float(self, node: yaml.ScalarNode) -> float | str:
        """`1.10` would be 1.1: kept as written, as an integer is (`.nan` and `.inf` stay
        numbers, which a record refuses)."""
        value = super().construct_yaml_float(node)
        keep = not math.isfinite(value) or repr(value) == node.value
        return value if keep else str(node.value)

    def construct_yaml_bool(self, node: yaml.ScalarNode) -> bool | str:
        """`yes`, `no`, `on` and `off` are words (as YAML 1.2 reads them), not True or
        False: `channel: off` was stored as "False"."""
        if node.value.lower() in ("true", "false"):
            return bool(super().construct_yaml_bool(node))
        return str(node.value)


for _tag, _construct in (
    ("int", _Loader.construct_yaml_int),
    ("float", _Loader.construct_yaml_float),
    ("bool", _Loader.construct_yaml_bool),
):
    _Loader.add_constructor(f"tag:yaml.org,2002:{_tag}", _construct)


def load_yaml(text: str) -> Any:
    """YAML without aliases (`*name`): nine levels of them in 300 bytes expand into
    billions of values ("billion laughs"), past any size limit checked on the text. An
    alias needs a `*`, so text without one is not parsed twice."""
    if "*" in text and any(isinstance(e, yaml.AliasEvent) for e in yaml.parse(text, YAML_LOADER)):
        raise AliasRefused("YAML aliases (*name) are not allowed")
    return yaml.load(text, Loader=_Loader)


NEWLINE = b"\n"


def not_utf8(data: bytes, exc: UnicodeDecodeError, *, whole_file: bool) -> str:
    """Where text is not UTF-8: the byte, and for a whole file its line (a byte offset
    alone, 523,112, is hard to find in an editor)."""
    line = f", line {data.count(NEWLINE, 0, exc.start) + 1:,}" if whole_file else ""
    return f"not UTF-8 text ({exc.reason} at byte {exc.start:,}{line})"


ID_PATTERN = re.compile(r"^[a-z0-9][a-z0-9._-]*$")


def read_org(path: Path) -> Org:
    if path.is_dir():
        raise InputError(f"{path}: a folder, not a YAML file")
    try:
        data = path.read_bytes()
        raw = data.decode("utf-8")
    except OSError as exc:
        raise InputError(f"{path}: cannot be read: {exc.strerror or type(exc).__name__}") from exc
    except UnicodeDecodeError as exc:
        raise InputError(f"{path}: {not_utf8(data, exc, whole_file=True)}") from exc
    try:
        data = load_yaml(raw)
    except YAML_ERRORS as exc:
        raise InputError(f"{path}: malformed YAML: {exc}") from exc
    if not isinstance(data, dict):
        raise InputError(f"{path}: expected a mapping with company, people, services ...")
    return org_from_mapping(data, str(path))


def _list(data: dict[str, Any], key: str, where: str) -> list[dict[str, Any]]:
    items = data.get(key) or []
    if not isinstance(items, list) or not all(isinstance(i, dict) for i in items):
        raise InputError(f"{where}: `{key}` must be a list of mappings")
    return items


def _strs(value: Any, where: str) -> tuple[str, ...]:
    if value is None:
        return ()
    if isinstance(value, str):
        return (value,)
    if not isinstance(value, list) or not all(isinstance(v, str | int) for v in value):
        raise InputError(f"{where}: expected a list of strings")
    return tuple(str(v) for v in value)


def _id(item: dict[str, Any], where: str, seen: set[str]) -> str:
    value = item.get("id")
    if value is None:
        raise InputError(f"{where}: missing `id`")
    ident = str(value)
    if id_too_long(ident):
        raise InputError(f"{where}: id {ident[:40]!r}... is {_over_limit(ident)}")
    if not ID_PATTERN.match(ident):
        raise InputError(f"{where}: id {ident!r} must match [a-z0-9][a-z0-9._-]*")
    if ident in seen:
        raise InputError(f"{where}: duplicate id {ident!r}")
    seen.add(ident)
    return ident


def _name(item: dict[str, Any], where: str, key: str = "name") -> str:
    """A display name. Unquoted, `name: 2048` (a service) or `company: 1999` is a number to
    YAML: it was refused as "missing", though it was there; it is the text it is written as."""
    name = item.get(key)
    if isinstance(name, int | float) and not isinstance(name, bool):
        name = str(name)
    if name is None or (isinstance(name, str) and not name.strip()):
        raise InputError(f"{where}: missing `{key}`")
    if not isinstance(name, str):
        raise InputError(f"{where}: `{key}` must be text, got {name!r}")
    return name.strip()


MAX_NESTING = 100  # lists and mappings inside a value of org.yaml; far past any real one


def _storable(value: Any, where: str) -> None:
    """A NUL would cut the query text short and a lone surrogate is not text. Walked with a
    stack, not recursion, and refused past MAX_NESTING levels: a value nested thousands
    deep (or one that holds itself) raised RecursionError."""
    stack: list[tuple[Any, str, int]] = [(value, where, 0)]
    while stack:
        item, at, depth = stack.pop()
        if isinstance(item, dict | list) and depth >= MAX_NESTING:
            raise InputError(f"{where}: nested over {MAX_NESTING} levels deep")
        if isinstance(item, dict):
            for key, inner in item.items():
                stack.append((key, at, depth + 1))
                stack.append((inner, f"{at}.{key}" if at else str(key), depth + 1))
        elif isinstance(item, list):
            stack += [(inner, f"{at}[{i}]", depth + 1) for i, inner in enumerate(item)]
        elif isinstance(item, str) and (problem := unstorable(item)):
            raise InputError(f"{at}: {problem}")


def _groups(value: Any, where: str) -> tuple[str, ...]:
    """Group names become ids of Group nodes: no surrounding space, no control characters."""
    groups = _strs(value, where)
    for group in groups:
        if group != group.strip() or has_control(group):
            raise InputError(
                f"{where}: group {group!r} has surrounding space or a control character"
            )
        if id_too_long(group):
            raise InputError(f"{where}: group {group[:40]!r}... is {_over_limit(group)}")
    return groups


def _over_limit(ident: str) -> str:
    """Ids (and group names, which are ids too) over MAX_ID_BYTES would crash the database
    (graph/ident.py)."""
    size = len(ident.encode("utf-8", "surrogatepass"))
    return f"{size:,} bytes long, over the {MAX_ID_BYTES:,}-byte limit for an id"


def org_from_mapping(data: dict[str, Any], where: str = "org.yaml") -> Org:
    for key, value in data.items():
        _storable(value, f"{where}: {key}")
    company = _name(data, where, "company")
    tz = str(data.get("timezone") or "UTC")
    try:
        ZoneInfo(tz)
    except (ZoneInfoNotFoundError, ValueError) as exc:
        raise InputError(f"{where}: timezone {tz!r} is not an IANA time zone name") from exc

    people, teams, services, projects = [], [], [], []
    seen_people: set[str] = set()
    for i, item in enumerate(_list(data, "people", where)):
        at = f"{where}: people[{i}]"
        people.append(Person(
            id=_id(item, at, seen_people), name=_name(item, at),
            aliases=_strs(item.get("aliases"), f"{at}.aliases"),
            team=str(item["team"]) if item.get("team") is not None else None,
            email=str(item["email"]) if item.get("email") else None,
            groups=_groups(item.get("groups"), f"{at}.groups"),
        ))  # fmt: skip
    seen_teams: set[str] = set()
    for i, item in enumerate(_list(data, "teams", where)):
        at = f"{where}: teams[{i}]"
        teams.append(
            Team(
                id=_id(item, at, seen_teams),
                name=_name(item, at),
                lead=str(item["lead"]) if item.get("lead") else None,
                aliases=_strs(item.get("aliases"), f"{at}.aliases"),
            )
        )
    seen_services: set[str] = set()
    for i, item in enumerate(_list(data, "services", where)):
        at = f"{where}: services[{i}]"
        sid = _id(item, at, seen_services)
        if sid in seen_people:
            raise InputError(f"{at}: id {sid!r} is also a person's id")
        services.append(
            Service(
                id=sid, name=_name(item, at), aliases=_strs(item.get("aliases"), f"{at}.aliases")
            )
        )
    seen_projects: set[str] = set()
    for i, item in enumerate(_list(data, "projects", where)):
        at = f"{where}: projects[{i}]"
        deps = _strs(item.get("services"), f"{at}.services")
        for dep in deps:
            if dep not in seen_services:
                raise InputError(f"{at}.services: unknown service id {dep!r}")
        projects.append(
            Project(
                id=_id(item, at, seen_projects),
                name=_name(item, at),
                aliases=_strs(item.get("aliases"), f"{at}.aliases"),
                services=deps,
            )
        )
    for person in people:
        if person.team and person.team not in seen_teams:
            raise InputError(f"{where}: person {person.id!r} has unknown team {person.team!r}")
    for team in teams:
        if team.lead and team.lead not in seen_people:
            raise InputError(f"{where}: team {team.id!r} has unknown lead {team.lead!r}")

    authority = dict(DEFAULT_AUTHORITY)
    overrides = data.get("authority") or {}
    if not isinstance(overrides, dict):
        raise InputError(f"{where}: `authority` must map kinds to whole numbers")
    for kind, value in overrides.items():
        if not isinstance(value, int) or isinstance(value, bool):
            raise InputError(f"{where}: authority.{kind} must be a whole number, got {value!r}")
        if value not in AUTHORITY_RANGE:
            raise InputError(
                f"{where}: authority.{kind} must be from {AUTHORITY_RANGE.start} to "
                f"{AUTHORITY_RANGE.stop - 1}, got {value}"
            )
        authority[str(kind)] = value
    return Org(
        company=company.strip(),
        timezone=tz,
        people=tuple(people),
        teams=tuple(teams),
        services=tuple(services),
        projects=tuple(projects),
        authority=authority,
    )
