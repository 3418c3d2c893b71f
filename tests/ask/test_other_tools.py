"""who_knows, trace_decision, person_or_team and search_records on the demo corpus, and the
PageRank tie-break on a small corpus built for it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from companybrain.ask.engine import ask
from companybrain.ask.registry import ReadOnlyStore
from companybrain.config import Settings
from companybrain.graph.connection import Store
from companybrain.graph.queries import ask_q
from companybrain.ingest.pipeline import ingest
from companybrain.policy.text import quote_in
from tests.ask.conftest import NOW
from tests.ingest.corpus_builder import ORG, write_corpus


def q(store: Store, settings: Settings, question: str, **kw: Any) -> dict[str, Any]:
    return ask(store, settings, question, now=NOW, **kw).to_dict()


def test_who_knows_combines_weighted_paths_and_warns_about_a_bus_factor_of_one(
    demo: Store, demo_settings: Settings
) -> None:
    a = q(demo, demo_settings, "Who knows the search index?")
    assert a["tool"] == "who_knows" and a["subject"]["id"] == "search-index"
    [nadia] = a["result"]["experts"]
    assert nadia["id"] == "nadia"
    assert set(nadia["paths"]) == {"resolved_ticket", "wrote_doc", "commented_ticket", "chat"}
    weights = {"resolved_ticket": 6, "wrote_doc": 4, "commented_ticket": 2, "chat": 1}
    assert nadia["score"] == sum(weights[p] * n for p, n in nadia["paths"].items())
    assert a["result"]["bus_factor"] == 1 and "Nadia Petrov" in a["result"]["warning"]
    assert {"SRCH-12", "SRCH-14", "SRCH-17"} <= {c["record"] for c in a["citations"]}


def test_who_knows_ranks_people_by_score(demo: Store, demo_settings: Settings) -> None:
    a = q(demo, demo_settings, "Who knows the ledger service best?")
    ranked = [e["id"] for e in a["result"]["experts"]]
    assert ranked[:4] == ["darius", "rafael", "kofi", "lena"]
    scores = [e["score"] for e in a["result"]["experts"]]
    assert scores == sorted(scores, reverse=True)
    assert a["result"]["bus_factor"] == 2


def test_who_does_not_know_a_subject_is_refused(demo: Store, demo_settings: Settings) -> None:
    """ "Who doesn't know the ledger service?" answered Darius, Rafael, Kofi... with their
    records: the people who know it, cited, as the ones who do not."""
    for question in (
        "Who doesn't know the ledger service?",
        "Who has never worked on the ledger service?",
        "Who is not familiar with the search index?",
        "Who has no experience with ledger-svc?",
    ):
        a = q(demo, demo_settings, question)
        assert a["status"] == "refused" and a["result"] is None, (question, a["result"])
        assert a["refusal"]["code"] == "OUT_OF_SCOPE" and a["citations"] == [], question
    knows = q(demo, demo_settings, "Does Kofi know the ledger service or not?")
    assert knows["result"]["experts"][0]["id"] == "darius"
    owner = q(demo, demo_settings, "I don't know who owns the billing gateway")
    assert owner["result"]["owner"]["id"] == "kofi"


def test_who_knows_setting_someone_aside_is_refused(demo: Store, demo_settings: Settings) -> None:
    """ "Who knows the ledger service besides Darius?" answered Darius first, with his
    records: the one the asker had set aside, cited as the expert."""
    for question, words in (
        ("Who knows the ledger service besides Darius?", "besides Darius"),
        ("Other than Darius, who knows the ledger service?", "Other than Darius"),
        ("Who knows ledger-svc except for Darius Karimi?", "except for Darius Karimi"),
        ("Apart from Darius and Rafael, who is an expert on the ledger service?", "Apart from"),
        ("Who else knows the ledger service?", "Who else"),
    ):
        a = q(demo, demo_settings, question)
        assert a["status"] == "refused" and a["result"] is None, (question, a["result"])
        assert a["refusal"]["code"] == "OUT_OF_SCOPE" and a["citations"] == [], question
        assert f'"{words}' in a["refusal"]["message"], a["refusal"]["message"]
    plain = q(demo, demo_settings, "Who knows the ledger service? Darius is away.")
    assert plain["result"]["experts"][0]["id"] == "darius"


def test_who_knows_counts_only_records_the_asker_may_see(
    demo: Store, demo_settings: Settings
) -> None:
    everyone = q(demo, demo_settings, "Who knows the audit log pipeline?")
    outsider = q(demo, demo_settings, "Who knows the audit log pipeline?", as_person="rafael")
    cited = {c["record"] for c in outsider["citations"]}
    assert not cited & {"msg-044", "CC-1038", "SEC-31", "em-005"}
    assert {c["record"] for c in everyone["citations"]} > cited
    assert everyone["result"]["experts"][0]["score"] > outsider["result"]["experts"][0]["score"]


def test_ties_are_broken_by_who_worked_with_whom(
    store: Store, settings: Settings, tmp_path: Path
) -> None:
    def ticket(rid: str, about: str, author: str, resolver: str) -> dict[str, Any]:
        return {"id": rid, "kind": "ticket", "at": "2026-05-01T10:00:00Z", "author": author,
                "resolved_by": resolver, "status": "resolved", "about": [about],
                "title": rid, "text": f"{rid} work."}  # fmt: skip

    corpus = write_corpus(
        tmp_path / "c",
        {},
        jsonl=[
            ticket("T-1", "search-index", "ana", "ana"),  # ana: 6
            ticket("T-2", "search-index", "bo", "bo"),  # bo: 6, a tie
            ticket("T-3", "billing-gateway", "cy", "bo"),  # bo worked with cy, ana with nobody
        ],
        org=ORG,
    )
    ingest(store, corpus, settings)
    a = q(store, settings, "Who knows the search index?")
    experts = a["result"]["experts"]
    assert [e["score"] for e in experts] == [6, 6]
    assert [e["id"] for e in experts] == ["bo", "ana"]  # not the id order
    rank = ask_q.worked_with_rank(store)
    assert rank["bo"] > rank["ana"]
    assert a["result"]["bus_factor"] == 2 and "warning" not in a["result"]
    assert not ask_q.refresh_worked_with(store)  # nothing changed since: nothing rebuilt

    # A read-only connection (the MCP tools) uses the edges an earlier run derived.
    read_only = ReadOnlyStore(settings)
    again = ask(read_only, settings, "Who knows the search index?", now=NOW).to_dict()
    assert [e["id"] for e in again["result"]["experts"]] == ["bo", "ana"]


def test_trace_decision_walks_the_supersession_chain(demo: Store, demo_settings: Settings) -> None:
    a = q(demo, demo_settings, "Why did we stop publishing ledger events through Kafka?")
    assert a["tool"] == "trace_decision" and a["status"] == "answered"
    assert a["result"]["decision"] == "ADR-009"
    assert a["result"]["chain"] == ["ADR-015", "ADR-009", "ADR-004"]
    assert a["result"]["motivated_by"] == ["LED-41"]
    quotes = {c["record"]: c.get("quote") for c in a["citations"]}
    assert "stop publishing ledger events through Kafka" in quotes["ADR-009"]
    texts = ask_q.records_text(demo, list(quotes))
    for record, quote in quotes.items():
        if quote:
            assert quote_in(quote, texts[record]["text"])
    replaced = q(demo, demo_settings, "What replaced ADR-004?")
    assert replaced["subject"]["id"] == "ADR-004"
    assert replaced["result"]["chain"] == ["ADR-015", "ADR-009", "ADR-004"]
    loads = q(demo, demo_settings, "Why do we load the data warehouse in hourly micro-batches?")
    assert loads["result"]["chain"] == ["ADR-011", "ADR-003"]
    assert loads["result"]["motivated_by"] == ["DATA-23"]


def test_decisions_that_supersede_each_other_are_a_conflict_not_a_chain(
    store: Store, settings: Settings, tmp_path: Path
) -> None:
    """ADR-1 (January, superseded) lists ADR-2 under `supersedes` by mistake, and ADR-2
    (February) supersedes ADR-1. Asked about ADR-2, the answer gave the chain "newest
    first: ADR-1 <- ADR-2", the old decision as the newest, with both quotes; asked about
    ADR-1, the opposite order."""
    adr = "---\nid: ADR-{}\nkind: adr\nat: 2026-0{}-05T09:00:00Z\nsupersedes: [ADR-{}]\n---\n{}\n"
    records = {
        "adr1.md": adr.format(1, 1, 2, "We will use Kafka."),
        "adr2.md": adr.format(2, 2, 1, "We will use an outbox."),
        "adr3.md": adr.format(3, 3, 3, "We will use gRPC."),
    }
    ingest(store, write_corpus(tmp_path / "c", records), settings)

    for question in ("What replaced ADR-1?", "Why ADR-2?"):
        a = q(store, settings, question)
        assert (a["status"], a["result"]) == ("refused", None), question
        assert a["refusal"] == {
            "code": "CONFLICT",
            "message": "ADR-1 supersedes ADR-2, which supersedes ADR-1: the records contradict "
            "each other about which decision is newer",
        }
        assert {c["record"] for c in a["citations"]} == {"ADR-1", "ADR-2"}
    itself = q(store, settings, "Why ADR-3?")  # naming itself says nothing about order
    assert itself["status"] == "answered" and itself["result"]["chain"] == ["ADR-3"]


def test_decisions_replacing_the_same_one_are_not_shown_replacing_each_other(
    store: Store, settings: Settings, tmp_path: Path, run_cli: Any
) -> None:
    """ADR-2 and ADR-3 each supersede ADR-1; neither names the other. "What replaced
    ADR-1?" answered "chain, newest first: ADR-3 <- ADR-2 <- ADR-1", saying that ADR-3
    replaced ADR-2, with both quotes cited (seen in a generated company: three ADRs each
    superseding the same one)."""
    adr = "---\nid: ADR-{}\nkind: adr\nat: 2026-0{}-05T09:00:00Z\ntitle: {}\n{}---\nWe will {}.\n"
    records = {
        "adr1.md": adr.format(1, 1, "use Kafka", "", "use Kafka"),
        "adr2.md": adr.format(2, 2, "use an outbox", "supersedes: [ADR-1]\n", "use an outbox"),
        "adr3.md": adr.format(3, 3, "use gRPC", "supersedes: [ADR-1]\n", "use gRPC"),
        "adr4.md": adr.format(4, 4, "use HTTP", "supersedes: [ADR-3]\n", "use HTTP"),
    }
    corpus = write_corpus(tmp_path / "c", records)
    ingest(store, corpus, settings)

    a = q(store, settings, "What replaced ADR-1?")
    assert a["result"]["chain"] == ["ADR-4", "ADR-3", "ADR-2", "ADR-1"]
    olds = {d["id"]: d["supersedes"] for d in a["result"]["decisions"]}
    assert olds == {"ADR-4": ["ADR-3"], "ADR-3": ["ADR-1"], "ADR-2": ["ADR-1"], "ADR-1": []}
    assert "←" not in a["explanation"] and "(use gRPC) supersedes ADR-1" in a["explanation"]
    assert "(use an outbox) supersedes ADR-1" in a["explanation"]
    shown = run_cli("ask", "--now", NOW, "What replaced ADR-1?")
    assert shown.exit_code == 0, shown.output
    assert (
        "chain, newest first: ADR-4 supersedes ADR-3; ADR-3 supersedes ADR-1; "
        "ADR-2 supersedes ADR-1" in shown.output
    )
    line = q(store, settings, "What replaced ADR-3?")  # one line: shown as before
    assert line["result"]["chain"] == ["ADR-4", "ADR-3", "ADR-1"]
    assert "ADR-4 (use HTTP) ← ADR-3 (use gRPC) ← ADR-1 (use Kafka)" in line["explanation"]


def test_a_decision_without_a_status_is_not_said_to_be_accepted(
    store: Store, settings: Settings, tmp_path: Path
) -> None:
    """`status` is optional in an ADR's front matter. One without it was stored and
    answered as "accepted", a status no record gives: "ADR-2 (use an outbox, accepted) <-
    ADR-1 (use Kafka, accepted)", the superseded decision among them."""
    adr = "---\nid: ADR-{}\nkind: adr\nat: 2026-0{}-05T09:00:00Z\ntitle: {}\n{}---\nWe will {}.\n"
    records = {
        "adr1.md": adr.format(1, 1, "use Kafka", "", "use Kafka"),
        "adr2.md": adr.format(2, 2, "use an outbox", "supersedes: [ADR-1]\n", "use an outbox"),
    }
    ingest(store, write_corpus(tmp_path / "c", records), settings)

    a = q(store, settings, "What replaced ADR-1?")
    assert [{k: d[k] for k in ("id", "title", "status")} for d in a["result"]["decisions"]] == [
        {"id": "ADR-2", "title": "use an outbox", "status": None},
        {"id": "ADR-1", "title": "use Kafka", "status": None},
    ]
    assert "ADR-2 (use an outbox) ← ADR-1 (use Kafka)" in a["explanation"]
    assert "accepted" not in a["explanation"]


def test_trace_decision_reads_the_chain_as_of_the_day_asked(
    demo: Store, demo_settings: Settings
) -> None:
    """ "What replaced ADR-004 as of 2026-05-01?" named ADR-009 (recorded 19 May) and ADR-015
    (22 September), with their quotes: replacements that did not exist on the day asked."""
    may = q(demo, demo_settings, "What replaced ADR-004 as of 2026-05-01?")
    assert may["status"] == "answered" and may["result"]["chain"] == ["ADR-004"]
    assert may["result"]["motivated_by"] == []
    assert {c["record"] for c in may["citations"]} == {"ADR-004"}
    august = q(demo, demo_settings, "What replaced ADR-004 on 2026-08-01?")
    assert august["result"]["chain"] == ["ADR-009", "ADR-004"]
    assert august["result"]["motivated_by"] == ["LED-41"]
    early = q(demo, demo_settings, "What replaced ADR-015 on 2026-08-01?")
    assert early["status"] == "refused" and early["refusal"]["code"] == "NO_CLAIM"
    assert early["citations"] == []
    now = q(demo, demo_settings, "What replaced ADR-004?")
    assert now["result"]["chain"] == ["ADR-015", "ADR-009", "ADR-004"]
    # Statuses are the records' as they are now: ADR-004 was not superseded yet in May, and
    # ADR-009 not in August; the statuses they had then are not kept, so none is given.
    status = {d["id"]: d["status"] for d in may["result"]["decisions"]}
    assert status == {"ADR-004": None}, may["result"]["decisions"]
    status = {d["id"]: d["status"] for d in august["result"]["decisions"]}
    assert status["ADR-004"] == "superseded" and status["ADR-009"] is None, status
    assert "superseded" not in may["explanation"]
    assert {d["id"]: d["status"] for d in now["result"]["decisions"]}["ADR-004"] == "superseded"


def test_trace_decision_says_which_decision_each_motivation_is_for(
    demo: Store, demo_settings: Settings
) -> None:
    """ "Why did we stop using the transactional outbox?" ended "Motivated by: LED-41":
    LED-41 (events lost through Kafka) is why the outbox was adopted (ADR-009), not why it
    was replaced (ADR-015), but the answer said it of the whole chain."""
    a = q(demo, demo_settings, "Why did we stop using the transactional outbox?")
    assert a["result"]["chain"] == ["ADR-015", "ADR-009", "ADR-004"]
    assert a["result"]["motivated_by"] == ["LED-41"]
    by_id = {d["id"]: d for d in a["result"]["decisions"]}
    assert by_id["ADR-009"]["motivated_by"] == ["LED-41"]
    assert by_id["ADR-015"]["motivated_by"] == [] and by_id["ADR-004"]["motivated_by"] == []
    assert "ADR-009 was motivated by LED-41." in a["explanation"]
    assert "Motivated by" not in a["explanation"]


def test_who_made_a_decision_is_not_answered_with_its_chain(
    demo: Store, demo_settings: Settings
) -> None:
    """ "Who wrote ADR-009?" and "Who decided to use logical replication?" were answered
    with the supersession chain and its quotes: no one named, to a question asking who. And
    "Who owns ADR-009?" was refused NOT_IN_GRAPH, "names no service or project the graph
    knows ("ADR-009")", though the graph knows ADR-009."""
    for question in ("Who wrote ADR-009?", "Who decided to use logical replication?"):
        a = q(demo, demo_settings, question)
        assert a["status"] == "refused" and a["refusal"]["code"] == "OUT_OF_SCOPE", question
        assert a["citations"] == [] and "not who made or wrote it" in a["refusal"]["message"]
    owns = q(demo, demo_settings, "Who owns ADR-009?")
    assert owns["refusal"]["code"] == "OUT_OF_SCOPE"
    assert "names ADR-009 but no service or project" in owns["refusal"]["message"]
    assert q(demo, demo_settings, "What replaced ADR-004?")["result"]["chain"][0] == "ADR-015"


def test_person_and_team(demo: Store, demo_settings: Settings) -> None:
    person = q(demo, demo_settings, "Tell me about Kofi.")
    assert person["result"]["person"]["id"] == "kofi"
    assert person["result"]["person"]["team"] == {"id": "payments", "name": "Payments"}
    team = q(demo, demo_settings, "Who is on the security team?")
    members = {m["id"] for m in team["result"]["team"]["members"]}
    assert members == {"hana", "viktor", "amara", "linnea"}
    assert team["result"]["team"]["lead"]["id"] == "hana"
    nobody = q(demo, demo_settings, "Who is Quentin Marlowe?")
    assert nobody["refusal"]["code"] == "NOT_IN_GRAPH" and nobody["tool"] == "person_or_team"


def test_a_question_about_a_person_and_a_service_is_not_a_profile(
    demo: Store, demo_settings: Settings
) -> None:
    """ "Who did Ines hand the billing gateway to?" and "Did Amara take over the audit log?"
    fit no question type and were answered with Ines's and Amara's profiles: an answer to
    who they are, not to what was asked."""
    for question in (
        "Who did Ines hand the billing gateway to?",
        "Did Amara take over the audit log?",
        "Kofi and Project Halyard",
    ):
        a = q(demo, demo_settings, question)
        assert a["status"] == "refused" and a["result"] is None, (question, a["result"])
        assert a["refusal"]["code"] == "OUT_OF_SCOPE", question
    assert q(demo, demo_settings, "Kofi?")["result"]["person"]["id"] == "kofi"


def test_a_who_is_question_about_a_service_is_out_of_scope(
    demo: Store, demo_settings: Settings
) -> None:
    """ "Who's the tech lead for the billing gateway?" was refused NOT_IN_GRAPH, "the
    question names no person or team the graph knows", as if the billing gateway were
    unknown."""
    for question, what in (
        ("Who's the tech lead for the billing gateway?", "Billing Gateway"),
        ("Who is on call for the ledger service?", "Ledger Service"),
        ("Who is Halyard?", "Project Halyard"),
    ):
        a = q(demo, demo_settings, question)
        assert a["status"] == "refused" and a["refusal"]["code"] == "OUT_OF_SCOPE", question
        assert f"names {what} but no person or team" in a["refusal"]["message"], question
    nobody = q(demo, demo_settings, "Who is Quentin Marlowe?")
    assert nobody["refusal"]["code"] == "NOT_IN_GRAPH"


def test_a_search_that_names_a_day_reads_the_records_as_of_that_day(
    demo: Store, demo_settings: Settings
) -> None:
    """ "Search for outbox bloat on 2026-09-01" searched for "2026", "09" and "01" too, and
    listed ADR-015 (22 September) and CC-1024 under as_of 2026-09-01; "... from yesterday"
    ranked a chat first for saying "yesterday"."""
    dated = q(demo, demo_settings, "Search for outbox bloat on 2026-09-01")
    assert dated["as_of"].startswith("2026-09-01")
    assert [h["record"] for h in dated["result"]["hits"]] == ["LED-52"]
    undated = q(demo, demo_settings, "Search for outbox bloat")
    assert {"LED-52", "ADR-015"} <= {h["record"] for h in undated["result"]["hits"]}
    yesterday = q(demo, demo_settings, "Find records about the billing gateway from yesterday")
    assert "msg-022" not in {h["record"] for h in yesterday["result"]["hits"]}
    later = q(demo, demo_settings, "Search for the Thales Luna appliance on 2026-09-01")
    assert later["refusal"]["code"] == "NO_CLAIM"
    assert '"Thales Luna appliance" by 2026-09-01' in later["refusal"]["message"]


def test_a_search_for_records_about_a_former_owner_is_a_search(
    demo: Store, demo_settings: Settings
) -> None:
    """ "Find records about the previous owner of the billing gateway" was refused, "the
    records answer only who owns a service or project on one specific day": a search
    names no owner, and could list them."""
    a = q(demo, demo_settings, "Find records about the previous owner of the billing gateway")
    assert a["status"] == "answered" and a["tool"] == "search_records"
    assert "dir-2026-09" in {h["record"] for h in a["result"]["hits"]}
    asked = q(demo, demo_settings, "Who was the previous owner of the billing gateway?")
    assert asked["refusal"]["code"] == "OUT_OF_SCOPE"


def test_search_returns_hits_with_verbatim_snippets(demo: Store, demo_settings: Settings) -> None:
    a = q(demo, demo_settings, "Search records for 3DS challenge timeouts")
    hits = {h["record"]: h for h in a["result"]["hits"]}
    assert "PAY-134" in hits and a["subject"] is None
    texts = ask_q.records_text(demo, list(hits))
    for record, hit in hits.items():
        assert hit["snippet"] and quote_in(hit["snippet"], texts[record]["text"])
    restricted = q(demo, demo_settings, "Search for anomalous deletes", as_person="rafael")
    assert "SEC-31" not in {h["record"] for h in (restricted["result"] or {}).get("hits", [])}
    insider = q(demo, demo_settings, "Search for anomalous deletes", as_person="hana")
    assert "SEC-31" in {h["record"] for h in insider["result"]["hits"]}
    none = q(demo, demo_settings, "Search for zeppelin hangar")
    assert none["refusal"]["code"] == "NO_CLAIM" and none["citations"] == []


def test_a_search_naming_a_record_by_its_id_finds_it_first(
    demo: Store, demo_settings: Settings
) -> None:
    """'Search for CC-1047' listed only msg-037, a chat that mentions it: the full-text
    index holds titles and texts, and a record seldom names itself."""
    a = q(demo, demo_settings, "Search for CC-1047")
    assert [h["record"] for h in a["result"]["hits"]][:2] == ["CC-1047", "msg-037"]
    for c in a["citations"]:
        assert c["quote"] is None or quote_in(
            c["quote"], ask_q.records_text(demo, [c["record"]])[c["record"]]["text"]
        ), c
    # A record the asker may not see is not found by its id either.
    hidden = q(demo, demo_settings, "Search for ADR-017", as_person="tariq")
    assert "ADR-017" not in [h["record"] for h in (hidden["result"] or {}).get("hits", [])]
    assert "ADR-017" in [
        h["record"] for h in q(demo, demo_settings, "Search for ADR-017")["result"]["hits"]
    ]


def test_a_team_or_person_asked_about_a_past_day_is_refused(
    demo: Store, demo_settings: Settings
) -> None:
    """'Who is on the payments team as of 2026-01-01?' listed today's members under that
    day: org.yaml is the organisation as it is now, with no history."""
    past = q(demo, demo_settings, "Who is on the payments team as of 2026-01-01?")
    assert past["refusal"]["code"] == "OUT_OF_SCOPE" and past["result"] is None, past
    assert "no history" in past["refusal"]["message"]
    for question in ("Who is on the payments team?", "Who is on the payments team today?"):
        now = q(demo, demo_settings, question)
        assert now["tool"] == "person_or_team" and now["status"] == "answered", (question, now)
