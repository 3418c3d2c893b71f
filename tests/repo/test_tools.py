"""The repository tools on the scenario repository: answers, refusals and citations."""

from __future__ import annotations

from datetime import UTC, datetime

from companybrain.ask.repo import history_tools, told, tools
from companybrain.model.answer import RefusalCode
from tests.repo.checks import assert_citations_hold
from tests.repo.conftest import BATCH, ROUTER, ROUTER_EXPERIMENT, Scenario

NOW = datetime(2025, 12, 1, tzinfo=UTC)
STREAM = "DECISIONS.md#2025-05-01: Stream exporter writes"


def _ids(items: list[dict]) -> list[str]:  # type: ignore[type-arg]
    return [i["id"] for i in items]


def test_why_a_file_follows_its_renames(built: Scenario) -> None:
    for asked in ("src/export/writer.py", "src/exporter.py"):  # today's name and the old one
        a = tools.why(built.store, asked, now=NOW)
        assert a.status == "answered", a.refusal
        assert _ids(a.result["decisions"]) == [STREAM, BATCH]  # live first
        assert a.result["decisions"][1]["status"] == "superseded"
        assert a.result["decisions"][1]["superseded_by"] == [STREAM]
        assert_citations_hold(a, built.root)
        assert a.citations[0].lines == (24, 24)


def test_why_a_topic_a_symbol_and_what_is_not_recorded(built: Scenario) -> None:
    a = tools.why(built.store, "Why does the exporter batch its writes?", now=NOW)
    assert _ids(a.result["decisions"])[0] == BATCH
    assert_citations_hold(a, built.root)
    sym = tools.why(built.store, "TaskStore.add", now=NOW)
    assert _ids(sym.result["decisions"]) == ["docs/adr/0003-use-falkordb.md"]
    assert sym.citations[0].lines == (13, 13)
    assert_citations_hold(sym, built.root)
    nothing = tools.why(built.store, "Why do we deploy on Kubernetes?", now=NOW)
    assert nothing.status == "refused" and nothing.refusal.code == RefusalCode.NO_CLAIM
    assert nothing.refusal.message.startswith("not recorded")
    assert nothing.citations == []
    readme = tools.why(built.store, "README.md", now=NOW)
    assert readme.refusal is not None and readme.refusal.code == RefusalCode.NO_CLAIM
    # A path the history does not know is not a topic of its words (`src`, `router`, `py`).
    for unknown in ("src/nothing.py", "src/nothing/router.py"):
        missing = tools.why(built.store, unknown, now=NOW)
        assert missing.refusal is not None, (unknown, missing.result)
        assert missing.refusal.code == RefusalCode.NO_CLAIM


def test_what_breaks_lists_decisions_and_live_disproven_experiments(built: Scenario) -> None:
    a = tools.what_breaks(built.store, "src/router.py", now=NOW)
    assert _ids(a.result["decisions"]) == [ROUTER]
    assert a.result["decisions"][0]["evidence"] == ["0 times out of 20"]
    (exp,) = a.result["disproven"]
    assert exp["decision"] == ROUTER and exp["quote"] == ROUTER_EXPERIMENT
    assert "superseded_by" not in exp
    assert_citations_hold(a, built.root)
    quote_cite = next(c for c in a.citations if c.quote == ROUTER_EXPERIMENT)
    assert quote_cite.lines == (17, 18)  # the quote runs over two lines of DECISIONS.md
    writer = tools.what_breaks(built.store, "src/export/writer.py", now=NOW)
    (old,) = writer.result["disproven"]
    assert old["decision"] == BATCH and old["superseded_by"] == [STREAM]
    unknown = tools.what_breaks(built.store, "src/nothing.py", now=NOW)
    assert unknown.refusal is not None and unknown.refusal.code == RefusalCode.NOT_IN_GRAPH


def test_disproven_by_topic(built: Scenario) -> None:
    a = tools.disproven(built.store, "corrected router text", now=NOW)
    assert [e["decision"] for e in a.result["experiments"]] == [ROUTER]
    assert_citations_hold(a, built.root)
    by_file = tools.disproven(built.store, "src/export/writer.py", now=NOW)
    assert [e["decision"] for e in by_file.result["experiments"]] == [BATCH]
    none = tools.disproven(built.store, "kubernetes autoscaling", now=NOW)
    assert none.refusal is not None and none.refusal.code == RefusalCode.NO_CLAIM


def test_who_knows_ranks_people_not_agents(built: Scenario) -> None:
    a = tools.who_knows(built.store, "src/router.py", now=NOW)
    experts = a.result["experts"]
    assert [e["id"] for e in experts] == ["bob@example.com", "ann@example.com", "carol@example.com"]
    assert experts[0]["commits"] == 2  # as bob@old and as Bob Stone: one person after .mailmap
    assert [e["id"] for e in a.result["agents"]] == ["noreply@anthropic.com"]
    assert a.result["bus_factor"] == 1
    assert_citations_hold(a, built.root)
    folder = tools.who_knows(built.store, "src", now=NOW)
    assert folder.subject["type"] == "Folder"
    assert "dave@example.com" in [e["id"] for e in folder.result["experts"]]  # deleted file counts
    bot = tools.who_knows(built.store, "src/store.py", now=NOW)
    assert [e["id"] for e in bot.result["agents"]] == ["198982749+copilot@users.noreply.github.com"]


def test_trace_newest_first(built: Scenario) -> None:
    a = history_tools.trace(built.store, "docs/adr/0002-use-postgresql.md", now=NOW)
    assert a.result["chain"] == ["docs/adr/0003-use-falkordb.md", "docs/adr/0002-use-postgresql.md"]
    assert_citations_hold(a, built.root)
    by_topic = history_tools.trace(built.store, "batch exporter writes", now=NOW)
    assert by_topic.result["chain"] == [STREAM, BATCH]
    alone = history_tools.trace(built.store, "docs/adr/0001-record-architecture-decisions.md")
    assert alone.result["chain"] == ["docs/adr/0001-record-architecture-decisions.md"]


def test_origin_of_a_deleted_file_and_of_a_decision(built: Scenario) -> None:
    a = history_tools.origin(built.store, "src/legacy.py", now=NOW)
    assert a.result["commit"] == built.shas["written_early"]
    assert a.result["author"] == "dave@example.com"
    assert a.result["date"] == "2025-06-01T09:00:00+00:00"  # when it landed, by the merge
    assert a.result["written_at"] == "2025-01-15T09:00:00+00:00"
    assert a.result["deleted_in"] == built.shas["delete"]
    assert_citations_hold(a, built.root)
    renamed = history_tools.origin(built.store, "src/export/writer.py", now=NOW)
    assert renamed.result["file"] == "src/exporter.py"
    assert renamed.result["commit"] == built.shas["init"]
    d = history_tools.origin(built.store, ROUTER, now=NOW)
    assert (d.result["commit"], d.result["author"]) == (built.shas["log_v1"], "bob@example.com")
    co = history_tools.origin(built.store, "nope.txt", now=NOW)
    assert co.refusal is not None and co.refusal.code == RefusalCode.NOT_IN_GRAPH


def test_told_on_a_day_and_at_a_commit(built: Scenario) -> None:
    day = told.told(built.store, "2025-03-01", "tests", "AGENTS.md", now=NOW)
    assert day.result["file"] == "AGENTS.md"
    assert day.result["text"] == "## Tests\n\nRun pytest before committing."
    assert day.as_of == "2025-03-01T23:59:59.999Z"
    assert_citations_hold(day, built.root)
    later = told.told(built.store, "2025-04-01", "tests", "AGENTS.md", now=NOW)
    assert "ruff check" in later.result["text"]
    assert later.result["blob"] != day.result["blob"]
    # the agent that co-wrote this commit was told the version in its parent's tree
    at_commit = told.told(built.store, built.shas["agents_v2"], "tests", now=NOW)
    assert at_commit.result["text"] == day.result["text"]
    assert at_commit.result["commit"] == built.shas["coauthored"]
    claude = told.told(built.store, built.shas["coauthored"], "router", "CLAUDE.md", now=NOW)
    assert "Never edit the router prompt" in claude.result["text"]
    assert claude.result["agents"] == ["noreply@anthropic.com"]  # Claude co-wrote it
    bot = told.told(built.store, built.shas["bot"], "", "AGENTS.md", now=NOW)
    assert bot.result["agents"] == ["198982749+copilot@users.noreply.github.com"]
    assert "ruff check" in bot.result["text"]
    before = told.told(built.store, "2025-01-20", "tests", now=NOW)
    assert before.refusal is not None and before.refusal.code == RefusalCode.NO_CLAIM
    silent = told.told(built.store, "2025-04-01", "deployment", "AGENTS.md", now=NOW)
    assert silent.refusal is not None and silent.refusal.code == RefusalCode.NO_CLAIM
    assert silent.citations == []
    vague = told.told(built.store, "last week", "tests", now=NOW)
    assert vague.refusal is not None and vague.refusal.code == RefusalCode.VAGUE_DATE


def test_file_findings_from_the_board_add_rationale_but_never_to_other_records(
    built: Scenario,
) -> None:
    from companybrain.graph.queries import findings_q
    from companybrain.model.findings import Finding, FindingKind

    board = "docs/adr/20250401-use-falkordb-for-the-board.md"
    quote = "Workers claim entries from a shared board; a claim must be atomic."
    findings_q.add_findings(
        built.store,
        board,
        [
            Finding(board, FindingKind.FILE, quote, "src/store.py"),
            Finding(board, FindingKind.FILE, quote, "docs/adr/0003-use-falkordb.md"),
        ],
    )
    a = tools.why(built.store, "src/store.py", now=NOW)
    via = {d["id"]: d["via"] for d in a.result["decisions"]}
    assert via[board] == "finding"
    assert via["docs/adr/0003-use-falkordb.md"] == "text"
    assert_citations_hold(a, built.root)
    other = tools.what_breaks(built.store, "docs/adr/0003-use-falkordb.md", now=NOW)
    assert other.refusal is not None and other.refusal.code == RefusalCode.NO_CLAIM


def test_connect_and_reasoning_rank(built: Scenario) -> None:
    from companybrain.ask.repo.connect import connect

    a = connect(built.store, "src/router.py", ROUTER, now=NOW)
    assert a.status == "answered"
    assert [n["id"] for n in a.result["path"]] == ["src/router.py", ROUTER]
    assert a.result["relations"] == ["RATIONALE"]
    assert_citations_hold(a, built.root)
    far = connect(built.store, "src/legacy.py", "carol@example.com", now=NOW)
    assert far.status == "answered" and len(far.result["path"]) > 2
    assert any(c.kind == "commit" for c in far.citations)
    store_rank = tools.what_breaks(built.store, "src/store.py", now=NOW).result["reasoning_rank"]
    router_rank = tools.what_breaks(built.store, "src/router.py", now=NOW).result["reasoning_rank"]
    assert store_rank["position"] < router_rank["position"]  # two decisions rest on it, one here


def test_a_finding_read_from_an_earlier_text_is_not_cited(built: Scenario) -> None:
    from companybrain.graph.queries import findings_q
    from companybrain.model.findings import Finding, FindingKind, Verdict

    madr = "docs/decisions/0001-use-madr.md"
    gone = Finding(madr, FindingKind.EXPERIMENT, "We tried AsciiDoc first: nobody read it.",
                   "asciidoc records", Verdict.DISPROVEN)  # fmt: skip
    findings_q.add_findings(built.store, madr, [gone])
    a = tools.disproven(built.store, "asciidoc records", now=NOW)
    assert a.refusal is not None and a.refusal.code == RefusalCode.NO_CLAIM
    kept = Finding(madr, FindingKind.EXPERIMENT, "Which format do new decision records use?",
                   "asciidoc records", Verdict.DISPROVEN)  # fmt: skip
    findings_q.add_findings(built.store, madr, [kept])
    b = tools.disproven(built.store, "asciidoc records", now=NOW)
    assert [e["quote"] for e in b.result["experiments"]] == [kept.quote]
    assert_citations_hold(b, built.root)
