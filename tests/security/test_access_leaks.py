"""Nothing from a record a person may not see reaches them, through any read path.

What each person may see is computed here from the corpus files themselves (the `acl` of
each record's front matter and the `groups` of org.yaml), not by the code under test.
Two checks on every answer:

- non-interference: the answer a person gets from the whole demo graph equals the answer
  an unrestricted asker gets from a graph ingested from ONLY the records that person may
  see. Any trace of a hidden record (a count, a ranking, a refusal code such as CONFLICT or
  ROW_CAP that exists only because of it, a chain link, a search hit) makes them differ;
- no hidden record's id, and no phrase of its text that no visible record has, appears
  anywhere in the answer object.

Every question of demo/questions.jsonl is asked as every person of demo/corpus/org.yaml
through the Brain API, and again with a row cap of 2 (so that ROW_CAP can fire); a sample
through `brain ask --as` (CLI), the MCP tools (the SDK's client on the server) and the web
API (`POST /api/ask` on the served app)."""

from __future__ import annotations

import json
import re
import shutil
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import anyio
import frontmatter
import pytest
import yaml
from click.testing import CliRunner

from companybrain.brain import Brain
from companybrain.config import Settings
from companybrain.graph.connection import Store
from companybrain.ingest.pipeline import ingest
from tests.conftest import REPO_ROOT

pytestmark = pytest.mark.slow

CORPUS = REPO_ROOT / "demo" / "corpus"
QUESTIONS = REPO_ROOT / "demo" / "questions.jsonl"
PHRASE_WORDS = 6
LOW_CAP = 2
# Questions about the restricted records, for the surfaces that are slower to drive.
SAMPLE_QUESTIONS = (
    "Who owns the audit log pipeline?",
    "Who owns the secrets vault?",
    "Who owns Keystone?",
    "What replaced ADR-016?",
    "Search for the Thales Luna appliance",
    "Who knows the secrets vault?",
    "Who knows the audit log pipeline?",
    "Search records for the audit pipeline anomaly investigation",
)
SAMPLE_PEOPLE = ("rafael", "viktor", "bruno", "marek")
# Questions that go looking for the restricted records by their ids and words, asked as
# every person beside the demo set.
PROBES = (
    "What replaced ADR-017?",
    "What did ADR-017 replace?",
    "Why do we auto-unseal the secrets vault from an appliance?",
    "Search for SEC-31",
    "Search records for SEC-40 key shares found on laptops",
    "Find records about anomalous deletes in the staging bucket",
    "Who owned the audit log pipeline on 2026-10-10?",
    "Who knows the audit log pipeline?",
    "Who owns the secrets vault right now?",
    "Who should sign off the Keystone release?",
)
NOW = "2026-10-20T12:00:00Z"


# -- what each person may see, from the files ---------------------------------------------


@dataclass
class Corpus:
    acl: dict[str, list[str] | None] = field(default_factory=dict)  # record id → acl
    text: dict[str, str] = field(default_factory=dict)  # record id → title and body
    groups: dict[str, set[str]] = field(default_factory=dict)  # person → groups

    def hidden_from(self, person: str) -> frozenset[str]:
        mine = self.groups[person]
        return frozenset(
            rid for rid, acl in self.acl.items() if acl is not None and not set(acl) & mine
        )


def read_corpus_files(root: Path) -> Corpus:
    corpus = Corpus()
    org = yaml.safe_load((root / "org.yaml").read_text())
    corpus.groups = {p["id"]: set(p.get("groups") or []) for p in org["people"]}
    for path in sorted((root / "records").rglob("*.md")):
        post = frontmatter.load(path)
        rid = str(post["id"])
        corpus.acl[rid] = list(post["acl"]) if post.get("acl") is not None else None
        corpus.text[rid] = f"{post.get('title') or ''}\n{post.content}"
    jsonl = root / "records.jsonl"
    for line in jsonl.read_text().splitlines() if jsonl.exists() else []:
        if line.strip():
            raw = json.loads(line)
            corpus.acl[raw["id"]] = raw.get("acl")
            corpus.text[raw["id"]] = f"{raw.get('title') or ''}\n{raw.get('text') or ''}"
    return corpus


def visible_copy(root: Path, hidden: frozenset[str], to: Path) -> Path:
    """The corpus without the records in `hidden` (files left out, JSON lines dropped)."""
    to.mkdir(parents=True)
    shutil.copy(root / "org.yaml", to / "org.yaml")
    for path in (root / "records").rglob("*.md"):
        if str(frontmatter.load(path)["id"]) not in hidden:
            target = to / path.relative_to(root)
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy(path, target)
    jsonl = root / "records.jsonl"
    kept = [
        line
        for line in (jsonl.read_text().splitlines() if jsonl.exists() else [])
        if line.strip() and json.loads(line)["id"] not in hidden
    ]
    (to / "records.jsonl").write_text("".join(f"{line}\n" for line in kept))
    return to


def _words(text: str) -> list[str]:
    return re.findall(r"[a-z0-9]+", text.lower())


def hidden_phrases(corpus: Corpus, hidden: frozenset[str]) -> dict[str, str]:
    """Every run of PHRASE_WORDS words of a hidden record that no visible record has,
    mapped to the record it comes from."""

    def runs(text: str) -> set[str]:
        words = _words(text)
        return {" ".join(words[i : i + PHRASE_WORDS]) for i in range(len(words) - PHRASE_WORDS + 1)}

    seen: set[str] = set()
    for rid, text in corpus.text.items():
        if rid not in hidden:
            seen |= runs(text)
    return {run: rid for rid in sorted(hidden) for run in runs(corpus.text[rid]) - seen}


def leaks(
    answer: dict[str, Any], hidden: frozenset[str], phrases: dict[str, str], asked: str = ""
) -> list[str]:
    """Ids of hidden records and phrases of their text found anywhere in `answer`, except
    what the asker typed themselves (`asked`, echoed back as the question or search)."""
    dumped = json.dumps(answer, ensure_ascii=False)
    said = " ".join(_words(asked))
    found = [
        f"id {rid}"
        for rid in hidden
        if re.search(rf"(?<![\w-]){re.escape(rid)}(?![\w-])", dumped) and rid not in asked
    ]
    flat = " ".join(_words(dumped))
    found += [
        f"text of {rid}: {run!r}" for run, rid in phrases.items() if run in flat and run not in said
    ]
    return found


# -- the graphs -----------------------------------------------------------------------------


@dataclass
class World:
    corpus: Corpus
    questions: list[dict[str, Any]]
    full: Settings
    views: dict[frozenset[str], Settings]  # hidden set → graph of only the visible records
    phrases: dict[frozenset[str], dict[str, str]]

    def view_of(self, person: str) -> Settings:
        return self.views[self.corpus.hidden_from(person)]


@pytest.fixture(scope="module")
def world(base_settings: Settings, tmp_path_factory: pytest.TempPathFactory) -> Iterator[World]:
    corpus = read_corpus_files(CORPUS)
    assert sum(acl is not None for acl in corpus.acl.values()) >= 8, "too few restricted records"
    questions = [json.loads(line) for line in QUESTIONS.read_text().splitlines() if line.strip()]
    full = base_settings.with_(graph="access_full")
    settings = [full]
    ingest(_fresh(full), CORPUS, full)
    views: dict[frozenset[str], Settings] = {}
    phrases: dict[frozenset[str], dict[str, str]] = {}
    for hidden in sorted({corpus.hidden_from(p) for p in corpus.groups}, key=len):
        view = base_settings.with_(graph=f"access_view_{len(views)}")
        folder = visible_copy(CORPUS, hidden, tmp_path_factory.mktemp("view") / "corpus")
        ingest(_fresh(view), folder, view)
        views[hidden], phrases[hidden] = view, hidden_phrases(corpus, hidden)
        settings.append(view)
    assert len(views) >= 2, "nobody is kept from any record"
    yield World(corpus, questions, full, views, phrases)
    for s in settings:
        Store(s).delete_graph()


def _fresh(settings: Settings) -> Store:
    store = Store(settings)
    store.delete_graph()
    return store


# -- the Brain API: every question as every person ------------------------------------------


def _check_answers(
    world: World, change: dict[str, Any], people: list[str], questions: list[dict[str, Any]]
) -> int:
    """Ask `questions` as each of `people` on the whole graph and compare with the
    unrestricted answer on the graph of what that person may see."""
    full = Brain(settings=world.full.with_(**change))
    views = {h: Brain(settings=s.with_(**change)) for h, s in world.views.items()}
    reference: dict[tuple[frozenset[str], str], dict[str, Any]] = {}
    asked = 0
    problems: list[str] = []
    try:
        for person in people:
            hidden = world.corpus.hidden_from(person)
            for q in questions:
                got = full.ask(q["question"], now=q["now"], as_person=person).to_dict()
                key = (hidden, q["id"])
                if key not in reference:
                    reference[key] = views[hidden].ask(q["question"], now=q["now"]).to_dict()
                asked += 1
                where = f"{q['id']} as {person}"
                if got != reference[key]:
                    problems.append(f"{where}: not as if hidden records did not exist: "
                                    f"{_diff(got, reference[key])}")  # fmt: skip
                found = leaks(got, hidden, world.phrases[hidden], q["question"])
                problems += [f"{where}: {leak}" for leak in found]
    finally:
        full.close()
        for brain in views.values():
            brain.close()
    assert problems == [], "\n".join(problems[:20])
    return asked


def _diff(got: dict[str, Any], want: dict[str, Any]) -> str:
    keys = [k for k in sorted(set(got) | set(want)) if got.get(k) != want.get(k)]
    return "; ".join(f"{k}: {got.get(k)!r} != {want.get(k)!r}"[:300] for k in keys)


def test_every_question_as_every_person_through_the_api(world: World) -> None:
    probes = [{"id": f"probe{i}", "question": q, "now": NOW} for i, q in enumerate(PROBES)]
    questions = [*world.questions, *probes]
    asked = _check_answers(world, {}, sorted(world.corpus.groups), questions)
    assert asked == len(questions) * len(world.corpus.groups)
    restricted_people = [p for p in world.corpus.groups if world.corpus.hidden_from(p)]
    assert restricted_people and len(restricted_people) < len(world.corpus.groups)


def test_row_cap_counts_only_visible_claims(world: World) -> None:
    """With a cap of two claims per service, a claim a person may not see must not be the
    one that makes the evidence query hit its cap (ROW_CAP would give it away). Three
    people of each kind of access, every ownership question."""
    kinds: dict[frozenset[str], list[str]] = {}
    for person in sorted(world.corpus.groups):
        kinds.setdefault(world.corpus.hidden_from(person), []).append(person)
    people = [p for group in kinds.values() for p in group[:3]]
    owner_questions = [q for q in world.questions if q["expect"].get("tool") == "owner_of"]
    asked = _check_answers(world, {"row_cap": LOW_CAP}, people, owner_questions)
    assert asked == len(people) * len(owner_questions) > 100


def test_hidden_records_change_answers_for_those_who_may_see_them(world: World) -> None:
    """The check above can fail: for people who may see the restricted records, several
    demo answers differ from those of people who may not."""
    everyone = Brain(settings=world.full)
    try:
        differing = [
            q["id"]
            for q in world.questions
            if everyone.ask(q["question"], now=q["now"], as_person="viktor").to_dict()
            != everyone.ask(q["question"], now=q["now"], as_person="rafael").to_dict()
        ]
    finally:
        everyone.close()
    assert len(differing) >= 6, differing


# -- the other surfaces, on a sample ----------------------------------------------------------


def _reference(world: World, person: str, question: str) -> dict[str, Any]:
    brain = Brain(settings=world.view_of(person))
    try:
        return brain.ask(question, now=NOW).to_dict()
    finally:
        brain.close()


def test_cli_as_person(world: World) -> None:
    from companybrain.surfaces.cli.main import cli

    env = {"BRAIN_HOME": str(world.full.home), "BRAIN_GRAPH": world.full.graph}
    for person in SAMPLE_PEOPLE:
        hidden = world.corpus.hidden_from(person)
        for question in SAMPLE_QUESTIONS:
            result = CliRunner().invoke(
                cli, ["ask", "--json", "--now", NOW, "--as", person, question], env=env
            )
            assert result.exit_code == 0, result.output
            got = json.loads(result.stdout)
            assert got == _reference(world, person, question), f"{question} as {person}"
            assert leaks(got, hidden, world.phrases[hidden], question) == []


MCP_CALLS = (
    ("owner_of", {"subject": "secrets vault"}),
    ("owner_of", {"subject": "audit log pipeline"}),
    ("owner_of", {"subject": "Keystone"}),
    ("who_knows", {"subject": "secrets vault"}),
    ("trace_decision", {"decision": "ADR-016"}),
    ("search_records", {"query": "Thales Luna appliance"}),
    ("search_records", {"query": "audit pipeline anomaly investigation"}),
    ("person_or_team", {"name": "security"}),
)


def _mcp_results(settings: Settings, person: str | None) -> list[dict[str, Any]]:
    from datetime import datetime

    from mcp import Client

    from companybrain.ask.registry import ReadOnlyStore, ToolContext, read_only_tools
    from companybrain.surfaces.mcp.server import build_server

    store = ReadOnlyStore(settings)
    ctx = ToolContext(store, settings, now=datetime.fromisoformat(NOW), as_person=person)
    server = build_server(ctx, read_only_tools())

    async def main() -> list[dict[str, Any]]:
        async with Client(server, read_timeout_seconds=60) as client:
            out = []
            for name, args in MCP_CALLS:
                result = await client.call_tool(name, args)
                assert not result.is_error, result.content
                out.append(dict(result.structured_content or {}))
            return out

    try:
        return anyio.run(main)
    finally:
        store.close()


def test_mcp_tools_as_person(world: World) -> None:
    for person in SAMPLE_PEOPLE:
        hidden = world.corpus.hidden_from(person)
        got = _mcp_results(world.full, person)
        want = _mcp_results(world.view_of(person), None)
        for (name, args), g, w in zip(MCP_CALLS, got, want, strict=True):
            assert g == w, f"{name} {args} as {person}: {_diff(g, w)}"
            found = leaks(g, hidden, world.phrases[hidden], json.dumps(args))
            assert found == [], f"{name} {args} as {person}"


def _post(url: str, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
    request = urllib.request.Request(
        url, data=json.dumps(body).encode(), headers={"Content-Type": "application/json"}
    )
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read() or b"{}")


def _get(url: str) -> tuple[int, Any]:
    try:
        with urllib.request.urlopen(url, timeout=60) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read() or b"{}")


def _without_clock(value: Any) -> Any:
    """The owners page answers as of now: leave the clock out of the comparison."""
    if isinstance(value, dict):
        return {k: _without_clock(v) for k, v in value.items() if k != "as_of"}
    if isinstance(value, list):
        return [_without_clock(v) for v in value]
    return value


def test_web_read_paths_as_person(world: World) -> None:
    """The web app's other read paths: a record page, the owners page and the graph view.
    A record someone may not see is a 404 worded like one that does not exist."""
    from companybrain.surfaces.web import create_app
    from tests.surfaces.web.conftest import Served

    services = ["audit-log", "secrets-vault", "identity-service", "billing-gateway"]
    tried = 0
    with Served(create_app(world.full)) as full:
        for person in SAMPLE_PEOPLE:
            hidden = world.corpus.hidden_from(person)
            phrases = world.phrases[hidden]
            for rid in sorted(world.corpus.acl):
                status, body = _get(f"{full.url}/api/record?id={rid}&as={person}")
                tried += 1
                if rid in hidden:
                    missing = _get(f"{full.url}/api/record?id=NO-SUCH-{rid}&as={person}")
                    assert status == missing[0] == 404, (rid, person, body)
                    assert json.dumps(body).replace(rid, "X") == json.dumps(missing[1]).replace(
                        f"NO-SUCH-{rid}", "X"
                    )
                else:
                    assert status == 200, (rid, person, body)
                    assert leaks(body, hidden, phrases) == [], (rid, person)
            status, owners = _get(f"{full.url}/api/owners?as={person}")
            assert status == 200 and leaks(owners, hidden, phrases) == [], person
            with Served(create_app(world.view_of(person))) as view:
                assert _without_clock(owners) == _without_clock(_get(f"{view.url}/api/owners")[1])
            for sid in services:
                status, node = _get(f"{full.url}/api/graph?id={sid}&as={person}")
                assert status == 200 and leaks(node, hidden, phrases) == [], (sid, person)
            tried += 2 + len(services)
    assert tried > 4 * len(world.corpus.acl)


def test_web_api_as_person(world: World) -> None:
    from companybrain.surfaces.web import create_app
    from tests.surfaces.web.conftest import Served

    with Served(create_app(world.full)) as served:
        for person in SAMPLE_PEOPLE:
            hidden = world.corpus.hidden_from(person)
            for question in SAMPLE_QUESTIONS:
                status, got = _post(
                    f"{served.url}/api/ask", {"question": question, "now": NOW, "as": person}
                )
                assert status == 200, got
                assert got == _reference(world, person, question), f"{question} as {person}"
                assert leaks(got, hidden, world.phrases[hidden], question) == []


# -- a supersession chain through a hidden decision ---------------------------------------


def _adr(rid: str, title: str, decision: str, **front: Any) -> str:
    from tests.ingest.corpus_builder import md

    head = {"id": rid, "kind": "adr", "at": front.pop("at"), "title": title, **front}
    return md(head, f"# {rid}: {title}\n\n## Decision\n\n{decision}\n")


def test_a_chain_never_runs_through_a_hidden_decision(
    base_settings: Settings, tmp_path: Path
) -> None:
    """ADR-3 (public) supersedes ADR-2 (only `sec` may see it), which supersedes ADR-1
    (public). Someone outside `sec` must not learn that ADR-3 replaced ADR-1, which they
    could only know through ADR-2."""
    from tests.ingest.corpus_builder import write_corpus

    e = "the ledger exports"
    records = {
        "ADR-1.md": _adr("ADR-1", "Nightly cron", f"We will run {e} as a nightly cron job.",
                         at="2026-01-01T00:00:00Z"),
        "ADR-2.md": _adr("ADR-2", "Queue them", f"We will send {e} through a queue.",
                         at="2026-02-01T00:00:00Z", supersedes=["ADR-1"], acl=["sec"]),
        "ADR-3.md": _adr("ADR-3", "Stream them", f"We will stream {e} as they happen.",
                         at="2026-03-01T00:00:00Z", supersedes=["ADR-2"]),
    }  # fmt: skip
    full_dir = write_corpus(tmp_path / "full", records)
    corpus = read_corpus_files(full_dir)
    full = base_settings.with_(graph="chain_full")
    ingest(_fresh(full), full_dir, full)
    graphs = [full]
    try:
        for person in ("ana", "bo", "cy"):
            hidden = corpus.hidden_from(person)
            view = base_settings.with_(graph=f"chain_view_{person}")
            graphs.append(view)
            folder = visible_copy(full_dir, hidden, tmp_path / f"view_{person}")
            ingest(_fresh(view), folder, view)
            for question in ("What replaced ADR-1?", "What did ADR-3 replace?"):
                got = Brain(settings=full).ask(question, now=NOW, as_person=person).to_dict()
                want = Brain(settings=view).ask(question, now=NOW).to_dict()
                assert got == want, f"{question} as {person}: {_diff(got, want)}"
                assert leaks(got, hidden, hidden_phrases(corpus, hidden), question) == []
        bo = Brain(settings=full).ask("What did ADR-3 replace?", now=NOW, as_person="bo")
        assert bo.result is not None and bo.result["chain"] == ["ADR-3", "ADR-2", "ADR-1"]
    finally:
        for settings in graphs:
            Store(settings).delete_graph()
