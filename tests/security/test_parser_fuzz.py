"""Fuzzing every parser that takes user text: record files (front matter and JSON Lines),
org.yaml, record times, the dates in questions and `--as-of`, the question router, git
co-author trailers and the commit-history reader, and decision-record headers. Random
text and structured mutations of valid inputs; the only failures allowed are the
project's own errors (or a rejection entry) that name the file or field. Each test has a
time limit, so a parser that hangs fails."""

from __future__ import annotations

import json
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import example, given
from hypothesis import strategies as st

from companybrain.ask.catalog import Catalog
from companybrain.ask.router import Route, RulesRouter
from companybrain.errors import BrainError, InputError
from companybrain.ingest.corpus import read_corpus
from companybrain.ingest.org import org_from_mapping
from companybrain.ingest.times import TimeProblem, parse_instant
from companybrain.policy.time import QuestionTime, VagueDate, parse_as_of, parse_question_time
from companybrain.repo import dates, decisions
from companybrain.repo.agents import co_authors
from companybrain.repo.history import parse_record
from tests.ingest.corpus_builder import ORG
from tests.security.hostile import NASTY, examples, hostile_text, tried

pytestmark = pytest.mark.timeout(180)
NOW = datetime(2026, 10, 20, 12, tzinfo=UTC)
THE_ORG = org_from_mapping(ORG)
KEYS = [
    "id", "kind", "at", "effective_at", "author", "title", "parent", "channel", "status",
    "supersedes", "motivated_by", "resolved_by", "about", "acl", "text", "extra", "x y",
]  # fmt: skip
SCALARS = st.one_of(
    st.none(), st.booleans(), st.integers(), st.floats(allow_nan=True),
    hostile_text(4), st.sampled_from(NASTY), st.dates(), st.datetimes(),
    st.datetimes(timezones=st.timezones()),
    st.sampled_from(["2026-10-05T10:00:00Z", "2026-10-05", "2026-10-05T10:00:00",
                     "10/05/2026", "yesterday", "9999-12-31T23:59:59+14:00", "", "ana",
                     "billing-gateway", "change_control", "adr", ["ana"], "[", "{"]),
)  # fmt: skip
VALUES = st.recursive(SCALARS, lambda inner: st.one_of(
    st.lists(inner, max_size=3), st.dictionaries(st.text(max_size=5), inner, max_size=3)
), max_leaves=6)  # fmt: skip
VALID = {"id": "R-1", "kind": "wiki", "at": "2026-10-05T10:00:00Z", "title": "T"}


def _front(fields: dict[str, Any]) -> dict[str, Any]:
    return {**VALID, **fields}


@st.composite
def markdown_files(draw: st.DrawFn) -> str:
    """A valid record with some fields replaced, dropped or added, or its fences broken."""
    fields = _front(draw(st.dictionaries(st.sampled_from(KEYS), VALUES, max_size=4)))
    for key in draw(st.lists(st.sampled_from(KEYS), max_size=2)):
        fields.pop(key, None)
    try:
        front = yaml.safe_dump(fields, allow_unicode=True, sort_keys=False)
    except yaml.YAMLError:
        front = "id: R-1\n"
    body = draw(hostile_text(6))
    shape = draw(st.sampled_from(["ok", "no-close", "no-open", "bom", "raw-yaml", "empty"]))
    if shape == "no-close":
        return f"---\n{front}{body}"
    if shape == "no-open":
        return f"{front}---\n{body}"
    if shape == "bom":
        return f"\ufeff---\n{front}---\n{body}"
    if shape == "raw-yaml":
        return f"---\n{draw(hostile_text(6))}\n---\n{body}"
    if shape == "empty":
        return draw(st.sampled_from(["", "---\n---\n", "---\n", "   \n"]))
    return f"---\n{front}---\n{body}"


def _read(folder: Path) -> None:
    """read_corpus: every problem names the file it came from; only InputError escapes."""
    try:
        corpus = read_corpus(folder, org=THE_ORG)
    except InputError as exc:
        assert str(folder) in str(exc) or "record" in str(exc), exc
        return
    for problem in corpus.problems:
        assert problem.where.startswith(str(folder)), problem
        assert problem.message.strip(), problem
    for record in corpus.records:
        assert record.at.tzinfo is not None and record.id == record.id.strip()


@examples(300)
@given(text=markdown_files())
def test_markdown_record_files(tmp_path_factory: pytest.TempPathFactory, text: str) -> None:
    tried("fuzz.record_files")
    folder = tmp_path_factory.mktemp("md")
    (folder / "r.md").write_text(text, encoding="utf-8", errors="surrogatepass")
    _read(folder)


@examples(200)
@given(data=st.one_of(st.binary(max_size=300), st.text(max_size=300).map(str.encode)))
def test_raw_bytes_as_record_files(tmp_path_factory: pytest.TempPathFactory, data: bytes) -> None:
    tried("fuzz.record_files", 2)
    folder = tmp_path_factory.mktemp("raw")
    (folder / "r.md").write_bytes(data)
    (folder / "r.jsonl").write_bytes(data)
    _read(folder)


@examples(200)
@given(
    lines=st.lists(
        st.one_of(
            st.dictionaries(st.sampled_from(KEYS), VALUES, max_size=5).map(_front),
            VALUES,
            st.text(max_size=30),
        ),
        min_size=1,
        max_size=5,
    )
)
def test_json_lines(tmp_path_factory: pytest.TempPathFactory, lines: list[Any]) -> None:
    tried("fuzz.record_files", len(lines))
    folder = tmp_path_factory.mktemp("jsonl")
    out = []
    for line in lines:
        try:
            out.append(json.dumps(line, default=str) if not isinstance(line, str) else line)
        except ValueError:
            out.append("{")
    (folder / "r.jsonl").write_text("\n".join(out), encoding="utf-8", errors="surrogatepass")
    _read(folder)


@examples(300)
@given(changes=st.dictionaries(
    st.sampled_from(["company", "timezone", "people", "teams", "services", "projects",
                     "authority", "people.0", "services.0", "projects.0", "teams.0"]),
    VALUES, max_size=3,
))  # fmt: skip
def test_org_yaml(changes: dict[str, Any]) -> None:
    tried("fuzz.org_yaml")
    org = json.loads(json.dumps(ORG))
    for key, value in changes.items():
        section, _, index = key.partition(".")
        if index:
            if isinstance(org.get(section), list) and org[section]:
                org[section][0] = value if isinstance(value, dict) else {"id": value}
        else:
            org[section] = value
    try:
        org_from_mapping(org, "org.yaml")
    except InputError as exc:
        assert str(exc).startswith("org.yaml"), exc


@examples(500)
@given(value=st.one_of(VALUES, st.from_regex(
    r"\A\d{1,5}-\d{1,3}-\d{1,3}([T ]\d{1,3}:\d{1,3}(:\d{1,3}(\.\d{1,9})?)?)?"
    r"(Z|[+-]\d{1,2}:?\d{0,3})?\Z"
)))  # fmt: skip
def test_record_times(value: Any) -> None:
    tried("fuzz.record_times")
    try:
        moment = parse_instant(value, "effective_at")
    except TimeProblem as exc:
        assert str(exc).startswith("effective_at"), exc
        return
    assert moment.utcoffset() is not None


_DATEISH = st.one_of(
    st.builds(lambda y, m, d: f"{y:04d}-{m:02d}-{d:02d}", st.integers(0, 9999),
              st.integers(0, 13), st.integers(0, 32)),
    st.builds(lambda a, b, y: f"{a}/{b}/{y}", st.integers(0, 40), st.integers(0, 40),
              st.integers(0, 99999)),
    st.builds(lambda mo, d, y: f"{mo} {d}, {y}", st.sampled_from(
        ["Jan", "February", "Sept", "may", "Dec.", "Mon, Oct"]), st.integers(0, 40),
        st.integers(0, 99999)),
    st.builds(lambda n, u: f"{n} {u} ago", st.sampled_from(["3", "999", "a", "ten", "0"]),
              st.sampled_from(["days", "weeks", "day", "months"])),
    st.builds(lambda d, t: f"{d}T{t}", st.dates(min_value=date(1, 1, 1)),
              st.sampled_from(["00:00", "23:59:59.999999+14:00", "12:00Z", "25:61", "10:00-1400"])),
    st.sampled_from(["yesterday", "the day before yesterday", "today", "tomorrow", "now",
                     "3/4/2026", "during September", "Q3", "9999-12-31", "0001-01-01T00:00+14:00"]),
)  # fmt: skip


@examples(600)
@given(
    parts=st.lists(st.one_of(_DATEISH, hostile_text(2)), min_size=1, max_size=4),
    tz=st.sampled_from(["UTC", "Pacific/Kiritimati", "Pacific/Pago_Pago", "Europe/Berlin"]),
)
def test_dates_in_questions_and_as_of(parts: list[str], tz: str) -> None:
    tried("fuzz.question_dates", 2)
    question = "Who owns the billing gateway " + " ".join(parts) + "?"
    reading = parse_question_time(question, NOW, tz, names=("Ana Ruiz", "June", "Q3 Reports"))
    assert isinstance(reading, QuestionTime | VagueDate)
    if isinstance(reading, VagueDate):
        assert reading.message
    as_of = parse_as_of(" ".join(parts), NOW, tz)
    assert isinstance(as_of, QuestionTime | VagueDate)


def _catalog() -> Catalog:
    from companybrain.ask.catalog import DECISION, PERSON, PROJECT, SERVICE, TEAM, Entity

    catalog = Catalog(company="Testco", timezone="UTC")
    for kind, entities in (
        (PERSON, [(p.id, p.names) for p in THE_ORG.people]),
        (TEAM, [(t.id, t.names) for t in THE_ORG.teams]),
        (SERVICE, [(s.id, s.names) for s in THE_ORG.services]),
        (PROJECT, [(p.id, p.names) for p in THE_ORG.projects]),
        (DECISION, [("ADR-7", ("Publish ledger events through Kafka",))]),
    ):
        for eid, names in entities:
            entity = Entity(eid, kind, names[0], tuple(names))
            catalog.entities.setdefault(kind, {})[eid] = entity
    return catalog


CATALOG = None
_QUESTION_WORDS = st.sampled_from(
    ["who", "owns", "knows", "why", "did", "we", "the", "billing gateway", "Orion", "Ana",
     "team", "search", "records about", "approve", "sign off", "ADR-7", "Kafka", "ledger",
     "tell me about", "is", "?", "'s", "own", "its own", "Payments", "Search Index"]
)  # fmt: skip


@examples(500)
@given(words=st.lists(st.one_of(_QUESTION_WORDS, hostile_text(2)), min_size=1, max_size=12))
def test_questions_through_the_router(words: list[str]) -> None:
    global CATALOG
    CATALOG = CATALOG or _catalog()
    tried("fuzz.questions")
    question = " ".join(words)
    try:
        route = RulesRouter().route(question, CATALOG)
    except BrainError:
        return
    assert isinstance(route, Route)
    assert route.refusal is not None or route.tool is not None


_TRAILER = st.builds(
    lambda key, name, email, close: f"{key}: {name} <{email}{close}",
    st.sampled_from(["Co-authored-by", "co-authored-by", "CO-AUTHORED-BY", "Signed-off-by"]),
    hostile_text(3),
    st.one_of(hostile_text(2), st.just("eve@example.com")),
    st.sampled_from([">", "", ">>", "> trailing"]),
)


@examples(500)
@given(lines=st.lists(st.one_of(_TRAILER, hostile_text(3)), max_size=6))
def test_co_author_trailers(lines: list[str]) -> None:
    tried("fuzz.git_trailers")
    found = co_authors("Subject\n\n" + "\n".join(lines))
    emails = [e.lower() for _, e in found]
    assert len(emails) == len(set(emails))
    assert all(name and email and "\n" not in email for name, email in found)


@examples(500)
@given(
    fields=st.lists(st.binary(max_size=20), min_size=0, max_size=12),
    seps=st.lists(st.sampled_from([b"\x1f", b"\x1f\x00", b"\x00", b"\x1e", b"\t", b"\n"]),
                  max_size=12),
    changes=st.binary(max_size=80),
)  # fmt: skip
def test_commit_history_records(fields: list[bytes], seps: list[bytes], changes: bytes) -> None:
    tried("fuzz.git_history_records")
    record = b"".join(f + (seps[i] if i < len(seps) else b"\x1f") for i, f in enumerate(fields))
    for data in (record, record + b"\x1f\x00\n:100644 100644 " + changes):
        info = parse_record(data)
        if info is not None:
            assert isinstance(info.message, str)


_HEADER_LINE = st.one_of(
    st.builds(lambda lvl, t: "#" * lvl + " " + t, st.integers(1, 7), hostile_text(3)),
    st.builds(lambda k, v: f"{k}: {v}", st.sampled_from(
        ["Status", "**Status**", "Date", "Decision date", "Supersedes", "Superseded by",
         "Replaces", "Replaced-by", "*Date:*"]), st.one_of(hostile_text(2), _DATEISH,
        st.sampled_from(["Accepted", "[ADR-7](0007-x.md)", "#12", "ADR 0003", "0001-x.md"]))),
    st.sampled_from(["---", "...", "```", "| a | b |", "> quote", "- bullet", "", "title: x"]),
    hostile_text(3),
)  # fmt: skip


@examples(500)
@given(
    lines=st.lists(_HEADER_LINE, max_size=15),
    path=st.sampled_from(
        ["docs/adr/0001-use-x.md", "DECISIONS.md", "docs/decisions/20260301-x.md",
         "adr/2026-03-01-x.md", "decisions/README.md", "docs/adr/x.md"]
    ),
    kind=st.sampled_from(["adr", "log"]),
)  # fmt: skip
# Found by this test: PyYAML raises ValueError, not a YAML error, for a month of 13.
@example(lines=["---", "Superseded by: 6389-13-03", "", "---"], path="docs/adr/x.md", kind="log")
def test_decision_record_headers(lines: list[str], path: str, kind: str) -> None:
    tried("fuzz.decision_headers")
    text = "\n".join(lines)
    for entry in decisions.parse_file(path, text, kind):
        assert 1 <= entry.line_start <= entry.line_end <= max(1, len(text.splitlines()))
        assert entry.id and entry.path == path
    for line in lines:
        found = dates.find_date(line)
        assert found is None or date.fromisoformat(found)
        dates.strip_date(line)
        dates.date_in_filename(line)


# Inputs that crashed a parser before it was fixed; kept as plain regressions.
@pytest.mark.parametrize(
    "question",
    ["Who owned it on 9999-12-31?", "as of 0001-01-01T00:00:00+14:00", "on Dec 31, 9999",
     "on 12/31/9999", "on 9999-12-31T23:59:59-14:00"],
)  # fmt: skip
def test_dates_at_the_ends_of_the_calendar_are_refused_not_crashed(question: str) -> None:
    reading = parse_question_time(question, NOW, "Pacific/Kiritimati")
    assert isinstance(reading, VagueDate) and "calendar" in reading.reason


def test_a_yaml_timestamp_pyyaml_cannot_build_is_a_malformed_file(tmp_path: Path) -> None:
    (tmp_path / "r.md").write_text(
        "---\nid: R-1\nkind: wiki\nat: 2026-10-05T10:00:00Z\n"
        "x: !!timestamp '0788-04-12 14:07:05.000501+00:40:44'\n---\nbody\n"
    )
    corpus = read_corpus(tmp_path, org=THE_ORG)
    assert [p.message.split(":")[0] for p in corpus.rejected] == ["malformed front matter"]
    assert corpus.rejected[0].where.endswith("r.md")


def test_a_truncated_history_entry_is_skipped() -> None:
    record = b"a" * 40 + b"\x1f\x1fA\x1fa@x\x1f2026-01-01T00:00:00Z\x1fA\x1fa@x\x1f"
    record += b"2026-01-01T00:00:00Z\x1fmsg\x1f\x00\n:100644 100644 aaa bbb M"
    info = parse_record(record)
    assert info is not None and info.message == "msg" and info.changes == ()


# -- what a model replies is untrusted text too ----------------------------------------------

_ARGS = st.dictionaries(
    st.sampled_from(["subject", "query", "ownership", "decisions", "__invalid_json__", "x"]),
    VALUES,
    max_size=3,
)


@examples(300)
@given(
    tool=st.sampled_from(["owner_of", "who_knows", "trace_decision", "person_or_team",
                          "search_records"]),
    arguments=_ARGS,
    words=st.lists(st.one_of(_QUESTION_WORDS, hostile_text(2)), min_size=1, max_size=8),
)  # fmt: skip
def test_model_routing_replies(tool: str, arguments: dict[str, Any], words: list[str]) -> None:
    from companybrain.ask.router import agrees_with_rules, check_model_choice

    global CATALOG
    CATALOG = CATALOG or _catalog()
    tried("fuzz.model_replies")
    question = " ".join(words)
    route = check_model_choice(question, CATALOG, tool, arguments)
    route = agrees_with_rules(route, RulesRouter().route(question, CATALOG))
    assert route.refusal is not None or route.tool in {tool, None}
    if route.subject is not None:
        assert CATALOG.get(route.subject.id) is route.subject


@examples(300)
@given(
    ownership=st.one_of(
        VALUES,
        st.lists(st.fixed_dictionaries({}, optional={
            "service": st.one_of(st.sampled_from(["billing-gateway", "x"]), VALUES),
            "owner": st.one_of(st.sampled_from(["ana", "bo", "mallory"]), VALUES),
            "quote": st.one_of(st.sampled_from(["Bo Lind owns the billing gateway."]), VALUES),
        }), max_size=3),
    ),
    decisions=VALUES,
    text=hostile_text(6),
)  # fmt: skip
def test_model_fact_replies(ownership: Any, decisions: Any, text: str) -> None:
    """Whatever the proposer's tool call holds, the verifier answers with kept facts and
    rejections, and keeps only facts whose quote is in the record."""
    from companybrain.model.records import Record
    from companybrain.policy.text import quote_in
    from companybrain.policy.verify import verify
    from companybrain.proposers.prompts import read_reply

    tried("fuzz.model_replies")
    record = Record(
        id="R-1", kind="change_control", at=NOW, text=f"Bo Lind owns the billing gateway. {text}"
    )
    proposal = read_reply("R-1", {"ownership": ownership, "decisions": decisions})
    verified = verify(proposal, record, THE_ORG)
    for fact in verified.ownership:
        assert quote_in(fact.quote, record.text) and THE_ORG.person(fact.owner) is not None


@examples(300)
@given(words=st.lists(st.one_of(st.sampled_from(NASTY), hostile_text(3),
                                st.sampled_from(["Bo Lind", "owns", "the", "Billing Gateway",
                                                 ".", "CC-100", "approved", "http://x"])),
                      max_size=15))  # fmt: skip
def test_model_explanations(words: list[str]) -> None:
    from companybrain.policy.explanation import ExplanationFacts, Named, check_explanation

    tried("fuzz.model_replies")
    bo = Named("bo", ("Bo Lind", "Bo"))
    facts = ExplanationFacts(
        status="answered", owners=(bo,), in_evidence=(bo,), people=(bo,),
        quotes=("Bo Lind owns the billing gateway.",), vocabulary=frozenset({"Bo", "Lind"}),
    )  # fmt: skip
    reason = check_explanation(" ".join(words), facts)
    assert reason is None or reason.strip()
