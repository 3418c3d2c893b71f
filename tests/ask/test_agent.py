"""The agent loop against a real local chat-completions server with scripted turns, over a
tiny registry of tools that return real answer envelopes."""

from __future__ import annotations

import json
from typing import Any

import pytest

from companybrain.ask.agent import Step, run_agent
from companybrain.ask.registry import ToolContext, ToolSpec, schema
from companybrain.config import Settings
from companybrain.graph.connection import Store
from companybrain.model.answer import Answer, Citation, RefusalCode
from tests.support.model_server import ScriptedModelServer, text, tool_call

ROUTER = "DECISIONS.md#The router prompt's wrong rule is load-bearing"


def _why(ctx: ToolContext, args: dict[str, Any]) -> Answer:
    return Answer(
        question=f"why {args['topic']}",
        tool="why",
        subject={"id": "src/router/prompt.ts", "type": "File", "name": "src/router/prompt.ts"},
        as_of=None,
        status="answered",
        result={
            "decisions": [
                {
                    "id": ROUTER,
                    "title": "Wrong rule is load-bearing",
                    "status": "accepted",
                    "date": "2025-09-12",
                }
            ]
        },
        citations=[
            Citation(
                record=ROUTER,
                lines=(812, 818),
                quote="the corrected text routed to memory 0/20 times, the old text 16/20",
            )
        ],
    )


def _disproven(ctx: ToolContext, args: dict[str, Any]) -> Answer:
    return Answer(
        question=f"disproven {args['topic']}",
        tool="disproven",
        subject=None,
        as_of=None,
        status="answered",
        result={
            "experiments": [
                {
                    "id": "exp-router-fix",
                    "decision": ROUTER,
                    "verdict": "disproven",
                    "quote": "the fix would help",
                }
            ]
        },
        citations=[Citation(record="exp-router-fix", quote="the fix would help")],
    )


def _owner_of(ctx: ToolContext, args: dict[str, Any]) -> Answer:
    return Answer.refused(
        f"owner of {args['subject']}", RefusalCode.NO_CLAIM, "not recorded", tool="owner_of"
    )


TOOLS = [
    ToolSpec("why", "Decisions behind a file or topic.", schema({"topic": "path or topic"}), _why),
    ToolSpec("disproven", "What was tried and failed.", schema({"topic": "topic"}), _disproven),
    ToolSpec("owner_of", "Who owns a service.", schema({"subject": "service"}), _owner_of),
]


@pytest.fixture
def ctx(model_settings: Settings, store: Store) -> ToolContext:
    return ToolContext(store=store, settings=model_settings)


def test_an_answer_that_passes_every_check(
    ctx: ToolContext, model_server: ScriptedModelServer
) -> None:
    final = (
        f"The wrong line stays: the corrected text routed to memory 0/20 times against 16/20 "
        f"[{ROUTER}]. The fix was tried and disproven [exp-router-fix]."
    )
    model_server.play(
        tool_call("why", {"topic": "router prompt"}),
        tool_call("disproven", {"topic": "router prompt"}, call_id="call_2"),
        text(final),
    )
    seen: list[Step] = []
    out = run_agent(
        "Why does the router prompt say memory can only read?", ctx, TOOLS, on_step=seen.append
    )
    assert out.status == "answered"
    assert out.text == final and out.text_by == "model"
    assert out.checks_line == "2 citations checked · 2 figures matched to evidence"
    assert [s.tool for s in seen] == ["why", "disproven"]  # streamed as they happened
    assert seen[0].line() == "why(topic='router prompt') · answered · 1 citation"
    assert {c.record for c in out.citations} == {ROUTER, "exp-router-fix"}
    # the model saw each tool's envelope, and the tool list with its schema
    second = model_server.requests[1]
    assert second["messages"][-1]["role"] == "tool"
    assert ROUTER in second["messages"][-1]["content"]
    assert {t["function"]["name"] for t in second["tools"]} == {"why", "disproven", "owner_of"}
    assert out.to_dict()["answer_by"] == "model"


def test_an_id_no_tool_returned_is_withheld(
    ctx: ToolContext, model_server: ScriptedModelServer
) -> None:
    model_server.play(
        tool_call("why", {"topic": "router"}),
        text("The rule is load-bearing [DECISIONS.md#Some other entry]."),
    )
    out = run_agent("Why the rule?", ctx, TOOLS)
    assert out.status == "withheld" and out.text_by == "template"
    assert "DECISIONS.md#Some other entry], which no tool returned" in out.text
    assert "The rule is load-bearing" not in out.text  # never the unchecked text
    assert ROUTER in out.text  # the evidence instead
    assert "no tool returned" in (out.reason or "")


def test_a_figure_from_a_different_record_is_withheld(
    ctx: ToolContext, model_server: ScriptedModelServer
) -> None:
    model_server.play(
        tool_call("why", {"topic": "router"}),
        tool_call("disproven", {"topic": "router"}, call_id="call_2"),
        text(f"The fix measured 16/20 [exp-router-fix], so the rule stays [{ROUTER}]."),
    )
    out = run_agent("Why the rule?", ctx, TOOLS)
    assert out.status == "withheld"
    assert 'the figure "16/20" does not appear in the evidence of [exp-router-fix]' in out.text
    assert "The fix measured" not in out.text


def test_i_dont_know_that_asserts_an_owner_is_withheld(
    ctx: ToolContext, model_server: ScriptedModelServer
) -> None:
    model_server.play(
        tool_call("owner_of", {"subject": "ledger"}),
        text("I don't know for sure, but Priya Raman owns the ledger."),
    )
    out = run_agent("Who owns the ledger?", ctx, TOOLS)
    assert out.status == "withheld"
    assert out.reason == (
        "says it does not know, yet makes a claim beside that; "
        "names someone or something unknown, which no tool returned in this run"
    )
    assert "Priya" not in out.text


def test_a_plain_abstention_is_shown_as_model_written(
    ctx: ToolContext, model_server: ScriptedModelServer
) -> None:
    model_server.play(tool_call("owner_of", {"subject": "ledger"}), text("I don't know."))
    out = run_agent("Who owns the ledger?", ctx, TOOLS)
    assert out.status == "abstained" and out.text == "I don't know." and out.text_by == "model"


def test_a_loop_that_never_stops_hits_the_step_limit(
    ctx: ToolContext, model_server: ScriptedModelServer
) -> None:
    model_server.play(*[tool_call("why", {"topic": "router"}, call_id=f"c{i}") for i in range(3)])
    seen: list[Step] = []
    out = run_agent("Why?", ctx, TOOLS, max_steps=3, on_step=seen.append)
    assert out.status == "withheld"
    assert out.reason == "the model did not give a final answer within 3 steps"
    assert len(seen) == 3 and len(model_server.requests) == 3  # no call beyond the limit
    assert ROUTER in out.text


def test_bad_calls_go_back_to_the_model_as_errors(
    ctx: ToolContext, model_server: ScriptedModelServer
) -> None:
    model_server.play(
        tool_call("drop_graph", {}),
        tool_call("why", {"path": "x"}, call_id="call_2"),
        tool_call("why", "{not json", call_id="call_3"),
        text("I don't know."),
    )
    seen: list[Step] = []
    out = run_agent("Why?", ctx, TOOLS, on_step=seen.append)
    assert [s.error is not None for s in seen] == [True, True, True]
    assert "no tool named 'drop_graph'" in (seen[0].error or "")
    assert "why: arguments: 'topic' is a required property" in (seen[1].error or "")
    assert "not a JSON object" in (seen[2].error or "")
    assert "no tool named" in model_server.requests[1]["messages"][-1]["content"]
    assert out.status == "abstained"


def test_an_empty_final_answer_is_withheld(
    ctx: ToolContext, model_server: ScriptedModelServer
) -> None:
    model_server.play(text(""))
    out = run_agent("Why?", ctx, TOOLS)
    assert out.status == "withheld" and out.reason == "the model's answer was empty"


# -- the real tools on the demo corpus, through the API and `brain ask --agent` --------------

NOW = "2026-10-20T12:00:00Z"


@pytest.fixture
def demo(store: Store, settings: Settings) -> Store:
    from companybrain.ingest.pipeline import ingest
    from tests.conftest import REPO_ROOT

    ingest(store, REPO_ROOT / "demo" / "corpus", settings)
    return store


def test_the_agent_answers_from_the_real_tools(
    demo: Store, model_settings: Settings, model_server: ScriptedModelServer
) -> None:
    from companybrain.ask.agent import ask_agent

    model_server.play(
        tool_call("owner_of", {"subject": "billing-gw"}),
        text("Kofi Mensah owns the billing gateway since 2026-10-14 [CC-1047]."),
    )
    seen: list[Step] = []
    out = ask_agent(
        demo, model_settings, "Who owns BGW?", now=NOW, on_step=seen.append, max_steps=4
    )
    assert out.status == "answered", out.reason
    assert out.checks_line == "1 citation checked · 1 figure matched to evidence"
    assert [c.record for c in out.citations] == ["CC-1047"]
    assert seen[0].answer is not None and seen[0].answer.result == {
        "owner": {"id": "kofi", "name": "Kofi Mensah"}
    }
    assert "(The question is asked at 2026-10-20T12:00:00+00:00.)" in str(
        model_server.requests[0]["messages"]
    )


@pytest.mark.parametrize(
    "prose",
    [
        "Ines Halvorsen owns the billing gateway [CC-1047].",  # the previous owner
        "Hamid Rezaei is the owner of the billing gateway [CC-1047].",  # nobody's claim
        "Mallory owns everything, including the billing gateway [CC-1047].",  # injected
        # other ways of saying it, which passed as "not an owner claim"
        "Ines Halvorsen remains the owner of the billing gateway [CC-1047].",
        "Ines is still in charge of the billing gateway [CC-1047].",
        "Ines Halvorsen is responsible for the billing gateway [CC-1047].",
        "Ownership of the billing gateway is still with Ines Halvorsen [CC-1047].",
        "The billing gateway's owner remains Ines [CC-1047].",
        "Ines continues to own the billing gateway [CC-1047].",
        # and more, which were shown as checked answers
        "Ines Halvorsen is the billing gateway owner [CC-1047].",
        "Ines Halvorsen is its owner [CC-1047].",
        "The billing gateway went back to Ines [CC-1047].",
        "The billing gateway transfers to Ines Halvorsen [CC-1047].",
        "Kofi handed the billing gateway to Ines [CC-1047].",
        "Ines Halvorsen took over the billing gateway [CC-1047].",
        "Owner: Ines Halvorsen [CC-1047].",
        "Ines Halvorsen (owner) [CC-1047].",
        "The billing gateway stayed with Ines Halvorsen [CC-1047].",
        "Ines runs the billing gateway [CC-1047].",
        "Ines has BGW again [CC-1047].",
        "The billing gateway is Ines's [CC-1047].",
        'CC-1047 says "Ines keeps the billing gateway" [CC-1047].',
        "Ask Ines Halvorsen about the billing gateway; she owns it [CC-1047].",
    ],
)
def test_an_owner_the_tools_did_not_give_is_withheld_even_with_a_real_citation(
    demo: Store, model_settings: Settings, model_server: ScriptedModelServer, prose: str
) -> None:
    from companybrain.ask.agent import ask_agent

    model_server.play(tool_call("owner_of", {"subject": "billing-gw"}), text(prose))
    out = ask_agent(demo, model_settings, "Who owns BGW?", now=NOW, max_steps=4)
    assert out.status == "withheld" and out.text_by == "template"
    assert "no owner_of answer of this run names as the owner" in (out.reason or "")
    assert prose not in out.text and "CC-1047" in out.text


def test_an_owner_of_what_owner_of_refused_is_withheld(
    demo: Store, model_settings: Settings, model_server: ScriptedModelServer
) -> None:
    """Two runbooks name two owners of the secrets vault (owner_of refuses CONFLICT); the
    billing gateway is Kofi's. "Kofi Mensah owns the secrets vault [CC-1047]" passed: Kofi
    was an owner an owner_of answer gave, and the vault was no subject with an owner."""
    from companybrain.ask.agent import ask_agent

    prose = "Kofi Mensah owns the secrets vault [CC-1047]."
    model_server.play(
        tool_call("owner_of", {"subject": "secrets vault"}),
        tool_call("owner_of", {"subject": "billing-gw"}, call_id="call_2"),
        text(prose),
    )
    out = ask_agent(demo, model_settings, "Who owns the vault and BGW?", now=NOW, max_steps=4)
    assert [s.answer.status for s in out.steps if s.answer] == ["refused", "answered"]
    assert (out.status, out.reason) == (
        "withheld",
        "calls someone the owner of what an owner_of answer of this run names no owner for",
    )
    assert prose not in out.text


@pytest.mark.parametrize(
    ("prose", "reason"),
    [
        (
            "Nadia Petrov owns the billing gateway and the search index [dir-2026-09].",
            "calls someone the owner of what an owner_of answer of this run gives to another",
        ),
        (
            "Nadia Petrov owns the search index and the billing gateway [dir-2026-09].",
            "calls someone the owner of what an owner_of answer of this run gives to another",
        ),
        (
            "The billing gateway and the search index are owned by Nadia Petrov [dir-2026-09].",
            "calls someone the owner of what an owner_of answer of this run gives to another",
        ),
        (  # by an alias, not the name an owner_of answer gave
            "Nadia Petrov owns BGW [dir-2026-09].",
            "calls someone the owner of what an owner_of answer of this run gives to another",
        ),
        (
            "Nadia Petrov owns the search index [dir-2026-09] and BGW [CC-1047].",
            "calls someone the owner of what an owner_of answer of this run gives to another",
        ),
        (  # the vault's owner_of refused CONFLICT
            "Kofi Mensah owns the billing gateway and the secrets vault [CC-1047].",
            "calls someone the owner of what an owner_of answer of this run names no owner for",
        ),
    ],
)
def test_each_subject_a_sentence_gives_an_owner_is_checked_for_that_owner(
    demo: Store,
    model_settings: Settings,
    model_server: ScriptedModelServer,
    prose: str,
    reason: str,
) -> None:
    """Kofi owns the billing gateway, Nadia the search index, and the vault's owner_of
    refused. A sentence naming two subjects was checked as one: an owner of either passed as
    the owner of both, beside a real citation; a subject named by an alias was no subject."""
    from companybrain.ask.agent import ask_agent

    model_server.play(
        tool_call("owner_of", {"subject": "billing-gw"}),
        tool_call("owner_of", {"subject": "search index"}, call_id="call_2"),
        tool_call("owner_of", {"subject": "secrets vault"}, call_id="call_3"),
        text(prose),
    )
    question = "Who owns BGW, the search index and the vault?"
    out = ask_agent(demo, model_settings, question, now=NOW, max_steps=4)
    assert [s.answer.status for s in out.steps if s.answer] == ["answered", "answered", "refused"]
    assert (out.status, out.text_by, out.reason) == ("withheld", "template", reason)
    assert prose not in out.text


@pytest.mark.parametrize(
    "prose",
    [
        "Kofi Mensah owns the billing gateway [CC-1047]. Nadia Petrov owns it too [dir-2026-09].",
        "Kofi Mensah owns the billing gateway [CC-1047]. Nadia Petrov also owns it [dir-2026-09].",
        "Nadia Petrov also owns the billing gateway [dir-2026-09].",
    ],
)
def test_an_owner_of_it_after_another_subject_is_checked_for_that_subject(
    demo: Store, model_settings: Settings, model_server: ScriptedModelServer, prose: str
) -> None:
    """ "it" in a sentence naming no subject stood for nothing: Nadia, the search index's
    owner, passed as an owner of the billing gateway; and "also owns" was no claim."""
    from companybrain.ask.agent import ask_agent

    model_server.play(
        tool_call("owner_of", {"subject": "billing-gw"}),
        tool_call("owner_of", {"subject": "search index"}, call_id="call_2"),
        text(prose),
    )
    out = ask_agent(demo, model_settings, "Who owns BGW and the search index?", now=NOW)
    assert (out.status, out.reason) == (
        "withheld",
        "calls someone the owner of what an owner_of answer of this run gives to another",
    )


@pytest.mark.parametrize(
    "prose",
    [
        "Nadia Petrov owns the search index and Kofi Mensah owns the billing gateway [CC-1047].",
        "Kofi Mensah owns BGW [CC-1047]; Nadia Petrov owns the search index [dir-2026-09].",
        "The billing gateway is owned by Kofi Mensah [CC-1047], while Nadia Petrov owns the "
        "search index [dir-2026-09].",
        "The billing gateway went to Kofi Mensah [CC-1047]. Kofi Mensah also owns it now "
        "[CC-1047]; Nadia Petrov owns the search index [dir-2026-09].",
    ],
)
def test_owners_of_two_subjects_may_each_be_named_in_one_sentence(
    demo: Store, model_settings: Settings, model_server: ScriptedModelServer, prose: str
) -> None:
    from companybrain.ask.agent import ask_agent

    model_server.play(
        tool_call("owner_of", {"subject": "billing-gw"}),
        tool_call("owner_of", {"subject": "search index"}, call_id="call_2"),
        text(prose),
    )
    out = ask_agent(demo, model_settings, "Who owns BGW and the search index?", now=NOW)
    assert (out.status, out.text, out.reason) == ("answered", prose, None)


@pytest.mark.parametrize(
    "prose",
    [
        "The billing gateway moved from Ines Halvorsen to Kofi Mensah [CC-1047].",
        "Kofi Mensah took over the billing gateway from Ines Halvorsen [CC-1047].",
        "Owner: Kofi Mensah [CC-1047]. Ines Halvorsen is the previous owner [CC-1047].",
        "Ask Kofi Mensah about the billing gateway; he owns it [CC-1047].",
        "Kofi Mensah runs the billing gateway [CC-1047]; Ines is not the owner any more.",
        "Ines Halvorsen moved to the ledger; Kofi Mensah owns the billing gateway [CC-1047].",
    ],
)
def test_the_owner_the_tools_gave_may_be_named_in_these_ways(
    demo: Store, model_settings: Settings, model_server: ScriptedModelServer, prose: str
) -> None:
    from companybrain.ask.agent import ask_agent

    model_server.play(tool_call("owner_of", {"subject": "billing-gw"}), text(prose))
    out = ask_agent(demo, model_settings, "Who owns BGW?", now=NOW, max_steps=4)
    assert (out.status, out.text, out.reason) == ("answered", prose, None)


@pytest.mark.parametrize(
    ("prose", "reason"),
    [
        (
            "Kofi Mensah owns the billing gateway; Zara Quinn is his deputy [CC-1047].",
            "names someone or something unknown, which no tool returned in this run",
        ),
        (
            "Kofi Mensah owns the billing gateway and the search index [CC-1047].",
            "names a person, service, project or team that no tool returned in this run",
        ),
        (
            "Kofi Mensah owns the billing gateway [CC-1047]. Lena Varga is his backup.",
            "names a person, service, project or team that no tool returned in this run",
        ),
    ],
)
def test_a_name_no_tool_returned_is_withheld_even_with_a_real_citation(
    demo: Store,
    model_settings: Settings,
    model_server: ScriptedModelServer,
    prose: str,
    reason: str,
) -> None:
    """Only citations, figures and owners were checked: a deputy the model made up, or a
    second service it gave the owner, was shown as a checked, model-written answer."""
    from companybrain.ask.agent import ask_agent

    model_server.play(tool_call("owner_of", {"subject": "billing-gw"}), text(prose))
    out = ask_agent(demo, model_settings, "Who owns BGW?", now=NOW, max_steps=4)
    assert (out.status, out.text_by, out.reason) == ("withheld", "template", reason)
    assert prose not in out.text and "CC-1047" in out.text


@pytest.mark.parametrize(
    ("prose", "reason"),
    [
        (
            "Kofi Mensah has owned the billing gateway since March [CC-1047].",
            'the date "March" does not appear in the evidence of [CC-1047]',
        ),
        (
            "Kofi Mensah owns the billing gateway since 14 March 2026 [CC-1047].",
            'the date "March" does not appear in the evidence of [CC-1047]',
        ),
        (
            "Kofi Mensah took the billing gateway over on Tuesday [CC-1047].",
            'the date "Tuesday" does not appear in the evidence of [CC-1047]',
        ),
    ],
)
def test_a_month_or_weekday_the_evidence_lacks_is_withheld(
    demo: Store,
    model_settings: Settings,
    model_server: ScriptedModelServer,
    prose: str,
    reason: str,
) -> None:
    """Figures were checked, words were not: "since 14 March 2026 [CC-1047]" passed, as
    14 and 2026 are in CC-1047, which took effect on 14 October."""
    from companybrain.ask.agent import ask_agent

    model_server.play(tool_call("owner_of", {"subject": "billing-gw"}), text(prose))
    out = ask_agent(demo, model_settings, "Who owns BGW?", now=NOW, max_steps=4)
    assert (out.status, out.text_by, out.reason) == ("withheld", "template", reason)


@pytest.mark.parametrize(
    "prose",
    [
        "Kofi Mensah has owned the billing gateway since 10 October 2026 [CC-1047].",
        "Kofi Mensah has owned the billing gateway since October 11th [CC-1047].",
    ],
)
def test_a_day_of_the_month_the_evidence_lacks_is_withheld(
    demo: Store, model_settings: Settings, model_server: ScriptedModelServer, prose: str
) -> None:
    """CC-1047 took effect on 2026-10-14 at 11:00: "since 10 October 2026" passed every
    check, 10 being its month (and 11 its hour), and was shown as a checked answer dating
    Kofi's ownership four days early."""
    from companybrain.ask.agent import ask_agent

    model_server.play(tool_call("owner_of", {"subject": "billing-gw"}), text(prose))
    out = ask_agent(demo, model_settings, "Who owns BGW?", now=NOW, max_steps=4)
    said = prose.split("since ")[1].split(" [")[0]
    assert (out.status, out.text_by, out.reason) == (
        "withheld",
        "template",
        f'the date "{said}" does not appear in the evidence of [CC-1047]',
    )
    assert prose not in out.text


@pytest.mark.parametrize(
    ("prose", "said"),
    [
        ("Kofi Mensah has owned the billing gateway for two years [CC-1047].", "two years"),
        ("Kofi Mensah took the billing gateway over a few days ago [CC-1047].", "a few days ago"),
        ("Ines handed the billing gateway over last week; Kofi owns it [CC-1047].", "last week"),
    ],
)
def test_a_time_in_words_the_evidence_lacks_is_withheld(
    demo: Store, model_settings: Settings, model_server: ScriptedModelServer, prose: str, said: str
) -> None:
    """Figures in digits were checked, times in words were not: "for two years [CC-1047]"
    was shown as a checked answer, CC-1047 being a week old."""
    from companybrain.ask.agent import ask_agent

    model_server.play(tool_call("owner_of", {"subject": "billing-gw"}), text(prose))
    out = ask_agent(demo, model_settings, "Who owns BGW?", now=NOW, max_steps=4)
    assert (out.status, out.reason) == (
        "withheld",
        f'the time "{said}" does not appear in the evidence of [CC-1047]',
    )


def test_a_month_or_weekday_the_evidence_gives_as_a_date_may_be_written(
    demo: Store, model_settings: Settings, model_server: ScriptedModelServer
) -> None:
    from companybrain.ask.agent import ask_agent

    prose = "Since Wed. Oct 14, 2026 Kofi Mensah owns the billing gateway [CC-1047]."
    model_server.play(tool_call("owner_of", {"subject": "billing-gw"}), text(prose))
    out = ask_agent(demo, model_settings, "Who owns BGW?", now=NOW, max_steps=4)
    assert (out.status, out.reason) == ("answered", None)


def test_an_answer_of_megabytes_is_withheld_unchecked(
    demo: Store, model_settings: Settings, model_server: ScriptedModelServer
) -> None:
    """The checks are not linear in the answer: a reply repeating "Kofi Mensah owns the
    billing gateway [CC-1047]." 6,000 times took them seconds, 100,000 times (5 MB, a
    looping model or a hostile endpoint) half an hour, holding the command or the page."""
    from companybrain.ask.agent import ask_agent

    looping = "Kofi Mensah owns the billing gateway [CC-1047]. " * 6_000
    model_server.play(tool_call("owner_of", {"subject": "billing-gw"}), text(looping))
    out = ask_agent(demo, model_settings, "Who owns BGW?", now=NOW, max_steps=4)
    assert (out.status, out.text_by) == ("withheld", "template")
    assert (
        out.reason == f"the answer is {len(looping) - 1:,} characters; at most 20,000 are checked"
    )
    assert "CC-1047" in out.text and len(out.text) < 1_000


@pytest.mark.parametrize(
    "prose",
    [
        'Kofi Mensah owns the billing gateway [CC-1047]; CC-1047 notes "the move is temporary".',
        'Kofi Mensah owns the billing gateway [CC-1047]. The record adds: "Kofi is on call '
        'for the gateway" [CC-1047].',
        # words of the record CC-1047 outranks, given as CC-1047's
        'Kofi Mensah owns the billing gateway; CC-1047 says "Ines still owns billing '
        'gateway" [CC-1047].',
    ],
)
def test_words_quoted_from_no_record_the_tools_returned_are_withheld(
    demo: Store, model_settings: Settings, model_server: ScriptedModelServer, prose: str
) -> None:
    """Only citations, figures, dates and names were checked: words in quotation marks
    that CC-1047 never says were shown, as its words, in a checked answer."""
    from companybrain.ask.agent import ask_agent

    model_server.play(tool_call("owner_of", {"subject": "billing-gw"}), text(prose))
    out = ask_agent(demo, model_settings, "Who owns BGW?", now=NOW, max_steps=4)
    assert (out.status, out.reason) == (
        "withheld",
        "quotes words that are not in the evidence of [CC-1047]",
    )
    assert prose not in out.text


def test_words_quoted_from_the_record_cited_beside_them_may_be_shown(
    demo: Store, model_settings: Settings, model_server: ScriptedModelServer
) -> None:
    from companybrain.ask.agent import ask_agent

    prose = (
        'Kofi Mensah owns the "billing gateway": "ownership of the billing gateway transfers '
        'from Ines Halvorsen to Kofi Mensah" [CC-1047]; "Ines still owns billing gateway, '
        'ping her" is an outranked chat [msg-038].'
    )
    model_server.play(tool_call("owner_of", {"subject": "billing-gw"}), text(prose))
    out = ask_agent(demo, model_settings, "Who owns BGW?", now=NOW, max_steps=4)
    assert (out.status, out.reason) == ("answered", None)


def test_an_answer_just_under_the_limit_is_checked_in_seconds(
    demo: Store, model_settings: Settings, model_server: ScriptedModelServer
) -> None:
    """One word of 19,000 capital letters (a looping model, a hostile endpoint) held the
    command or the page for 110 s: every owner claim's pattern tried a name from every
    capital inside it."""
    import time

    from companybrain.ask.agent import ask_agent

    looping = "A" * 19_000
    model_server.play(tool_call("owner_of", {"subject": "billing-gw"}), text(looping))
    started = time.monotonic()
    out = ask_agent(demo, model_settings, "Who owns BGW?", now=NOW, max_steps=4)
    assert time.monotonic() - started < 30
    assert (out.status, out.reason) == (
        "withheld",
        "answers without citing anything a tool returned (cite or abstain)",
    )


@pytest.mark.parametrize(
    ("prose", "reason"),
    [
        (
            "Kofi Mensah no longer owns the billing gateway [CC-1047].",
            "says that the owner an owner_of answer of this run gave is not",
        ),
        (
            "Kofi Mensah does not own the billing gateway [CC-1047].",
            "says that the owner an owner_of answer of this run gave is not",
        ),
        (
            "Kofi Mensah used to own the billing gateway [CC-1047].",
            "says that the owner an owner_of answer of this run gave is not",
        ),
        (
            "The billing gateway has no owner since the transfer [CC-1047].",
            "says there is no owner where an owner_of answer of this run gave one",
        ),
        (
            "Ines Halvorsen and Kofi Mensah jointly own the billing gateway [CC-1047].",
            "calls someone the owner whom no owner_of answer of this run names as the owner",
        ),
        (
            "The billing gateway is owned by Kofi Mensah and Ines Halvorsen [CC-1047].",
            "calls someone the owner whom no owner_of answer of this run names as the owner",
        ),
        (
            "Kofi Mensah owns the billing gateway together with Ines Halvorsen [CC-1047].",
            "calls someone the owner whom no owner_of answer of this run names as the owner",
        ),
        (
            "The billing gateway has two owners, Kofi Mensah and Ines Halvorsen [CC-1047].",
            "calls someone the owner whom no owner_of answer of this run names as the owner",
        ),
        (
            "The owners of the billing gateway are Kofi Mensah and Ines Halvorsen [CC-1047].",
            "calls someone the owner whom no owner_of answer of this run names as the owner",
        ),
        (
            "Kofi Mensah shares ownership of the billing gateway with Ines Halvorsen [CC-1047].",
            "calls someone the owner whom no owner_of answer of this run names as the owner",
        ),
        (
            "Kofi Mensah owns the billing gateway [CC-1047], and so does Ines Halvorsen.",
            "calls someone the owner whom no owner_of answer of this run names as the owner",
        ),
    ],
)
def test_denying_the_owner_or_adding_a_joint_one_is_withheld(
    demo: Store,
    model_settings: Settings,
    model_server: ScriptedModelServer,
    prose: str,
    reason: str,
) -> None:
    """Only someone called the owner was checked: saying the owner owns it no longer, that
    there is none, or that the previous owner owns it with him passed, citing CC-1047."""
    from companybrain.ask.agent import ask_agent

    model_server.play(tool_call("owner_of", {"subject": "billing-gw"}), text(prose))
    out = ask_agent(demo, model_settings, "Who owns BGW?", now=NOW, max_steps=4)
    assert (out.status, out.text_by, out.reason) == ("withheld", "template", reason)


def test_the_owners_of_a_project_may_be_named_together(
    demo: Store, model_settings: Settings, model_server: ScriptedModelServer
) -> None:
    from companybrain.ask.agent import ask_agent

    prose = (
        "Kofi Mensah owns the billing gateway [CC-1047]; Darius Karimi and Marek Novotny own "
        "the ledger service and the event bus [dir-2026-09]. Ines Halvorsen no longer owns "
        "the billing gateway [CC-1047]."
    )
    model_server.play(tool_call("owner_of", {"subject": "halyard"}), text(prose))
    out = ask_agent(demo, model_settings, "Who owns Halyard?", now=NOW, max_steps=4)
    assert (out.status, out.reason) == ("answered", None)


@pytest.mark.parametrize(
    ("prose", "reason"),
    [
        (
            "ADR-004 is still in force [ADR-004].",
            "says a decision is in force that a chain of this run shows replaced",
        ),
        (
            "ADR-004 was never superseded [ADR-004].",
            "says a decision is in force that a chain of this run shows replaced",
        ),
        (
            "The current decision is ADR-009 [ADR-009].",
            "says a decision is in force that a chain of this run shows replaced",
        ),
        (
            "ADR-009 replaced ADR-015 [ADR-009].",
            "says a decision replaced another that no chain of this run shows it replacing",
        ),
        (
            "ADR-015 was superseded by ADR-004 [ADR-004].",
            "says a decision replaced another that no chain of this run shows it replacing",
        ),
    ],
)
def test_a_decision_chain_told_the_wrong_way_round_is_withheld(
    demo: Store,
    model_settings: Settings,
    model_server: ScriptedModelServer,
    prose: str,
    reason: str,
) -> None:
    """The chain is ADR-015 over ADR-009 over ADR-004. Saying the oldest is in force, or
    that one replaced another the other way round, was shown as a checked answer: its
    citation was real, and nothing read what it said of the chain."""
    from companybrain.ask.agent import ask_agent

    model_server.play(tool_call("trace_decision", {"decision": "ADR-004"}), text(prose))
    out = ask_agent(demo, model_settings, "Why did we adopt ADR-004?", now=NOW, max_steps=4)
    assert (out.status, out.text_by, out.reason) == ("withheld", "template", reason)
    assert prose not in out.text


@pytest.mark.parametrize(
    "prose",
    [
        "ADR-015 supersedes ADR-009 [ADR-015], which replaced ADR-004 [ADR-009].",
        "ADR-004 was superseded by ADR-009 [ADR-009]; ADR-015 is in force [ADR-015].",
        "ADR-015 [ADR-015] replaced ADR-004 by way of ADR-009 [ADR-009].",
        "The decision in force is ADR-015 [ADR-015]; ADR-004 is no longer in force [ADR-004].",
    ],
)
def test_a_decision_chain_told_as_traced_is_shown(
    demo: Store, model_settings: Settings, model_server: ScriptedModelServer, prose: str
) -> None:
    from companybrain.ask.agent import ask_agent

    model_server.play(tool_call("trace_decision", {"decision": "ADR-004"}), text(prose))
    out = ask_agent(demo, model_settings, "Why did we adopt ADR-004?", now=NOW, max_steps=4)
    assert (out.status, out.text, out.reason) == ("answered", prose, None)


@pytest.mark.parametrize(
    ("prose", "reason"),
    [
        (  # returned by owner_of, ranked by no who_knows
            "Marek Novotny knows the billing gateway best [msg-018].",
            "calls someone an expert whom no who_knows answer of this run ranks",
        ),
        (
            "Marek Novotny is an expert on the billing gateway [msg-018].",
            "calls someone an expert whom no who_knows answer of this run ranks",
        ),
        (  # ranked second
            "Ines Halvorsen knows the billing gateway best [PAY-111].",
            "says someone knows most whom no who_knows answer of this run ranks first",
        ),
        (
            "Ines Halvorsen is the main expert on the billing gateway [PAY-111].",
            "says someone knows most whom no who_knows answer of this run ranks first",
        ),
        (
            "The top expert on the billing gateway is Ines Halvorsen [PAY-111].",
            "says someone knows most whom no who_knows answer of this run ranks first",
        ),
        (  # ranked for the billing gateway only
            "Ines Halvorsen knows the billing gateway and the event bus [PAY-111].",
            "calls someone an expert on what no who_knows answer of this run ranks them for",
        ),
    ],
)
def test_an_expert_the_tools_did_not_rank_so_is_withheld(
    demo: Store,
    model_settings: Settings,
    model_server: ScriptedModelServer,
    prose: str,
    reason: str,
) -> None:
    """who_knows ranks Kofi, then Ines, Sunita, Bruno and Camille for the billing gateway.
    Anyone a tool of the run had returned (Marek, the event bus's owner) passed as an
    expert, and the second one as the one who knows most, beside a real citation."""
    from companybrain.ask.agent import ask_agent

    model_server.play(
        tool_call("who_knows", {"subject": "billing gateway"}),
        tool_call("owner_of", {"subject": "event bus"}, call_id="call_2"),
        text(prose),
    )
    out = ask_agent(demo, model_settings, "Who knows BGW?", now=NOW, max_steps=4)
    assert (out.status, out.text_by, out.reason) == ("withheld", "template", reason)
    assert prose not in out.text


@pytest.mark.parametrize(
    "prose",
    [
        "Kofi Mensah knows the billing gateway best [PAY-111]; Ines Halvorsen knows it too "
        "[c-014].",
        "Kofi Mensah is the main expert on the billing gateway [PAY-111], and Marek Novotny "
        "owns the event bus [dir-2026-09].",
    ],
)
def test_experts_as_the_tools_ranked_them_are_shown(
    demo: Store, model_settings: Settings, model_server: ScriptedModelServer, prose: str
) -> None:
    from companybrain.ask.agent import ask_agent

    model_server.play(
        tool_call("who_knows", {"subject": "billing gateway"}),
        tool_call("owner_of", {"subject": "event bus"}, call_id="call_2"),
        text(prose),
    )
    out = ask_agent(demo, model_settings, "Who knows BGW?", now=NOW, max_steps=4)
    assert (out.status, out.text, out.reason) == ("answered", prose, None)


@pytest.mark.parametrize(
    ("prose", "reason"),
    [
        (
            "Kofi Mensah leads the Payments team [kofi].",
            "says someone leads a team that a person_or_team answer of this run gives another "
            "lead, or none",
        ),
        (
            "Kofi Mensah is the team lead of Payments [payments].",
            "says someone leads a team that a person_or_team answer of this run gives another "
            "lead, or none",
        ),
        (
            "The Payments team is led by Marek Novotny [payments].",
            "says someone leads a team that a person_or_team answer of this run gives another "
            "lead, or none",
        ),
        (
            "Marek Novotny is on the Payments team [marek].",
            "puts someone on a team that no person_or_team answer of this run puts them on",
        ),
    ],
)
def test_a_team_lead_or_member_the_tools_did_not_give_is_withheld(
    demo: Store,
    model_settings: Settings,
    model_server: ScriptedModelServer,
    prose: str,
    reason: str,
) -> None:
    """Sunita Rao leads Payments, where Kofi is a member; Marek is on Platform. A person's
    id beside the prose ("[kofi]") passed it as checked: nothing read who it said leads or
    is on a team."""
    from companybrain.ask.agent import ask_agent

    model_server.play(
        tool_call("person_or_team", {"name": "Kofi Mensah"}),
        tool_call("person_or_team", {"name": "payments"}, call_id="call_2"),
        tool_call("person_or_team", {"name": "Marek Novotny"}, call_id="call_3"),
        text(prose),
    )
    out = ask_agent(demo, model_settings, "Who is Kofi Mensah?", now=NOW, max_steps=4)
    assert (out.status, out.text_by, out.reason) == ("withheld", "template", reason)
    assert prose not in out.text


def test_a_team_lead_and_members_as_the_tools_gave_them_are_shown(
    demo: Store, model_settings: Settings, model_server: ScriptedModelServer
) -> None:
    from companybrain.ask.agent import ask_agent

    prose = (
        "Kofi Mensah is on the Payments team [kofi], which is led by Sunita Rao [payments]; "
        "Marek Novotny leads Platform [marek]."
    )
    model_server.play(
        tool_call("person_or_team", {"name": "Kofi Mensah"}),
        tool_call("person_or_team", {"name": "payments"}, call_id="call_2"),
        tool_call("person_or_team", {"name": "Marek Novotny"}, call_id="call_3"),
        text(prose),
    )
    out = ask_agent(demo, model_settings, "Who is Kofi Mensah?", now=NOW, max_steps=4)
    assert (out.status, out.text, out.reason) == ("answered", prose, None)


@pytest.mark.parametrize(
    "prose",
    [
        "We adopted ADR-004 because of LED-41 [LED-41].",
        "ADR-015 was motivated by LED-41 [ADR-015].",
        "LED-41 prompted ADR-015 [LED-41].",
    ],
)
def test_a_motivation_the_chain_does_not_give_is_withheld(
    demo: Store, model_settings: Settings, model_server: ScriptedModelServer, prose: str
) -> None:
    """LED-41 motivated ADR-009 only. Giving it as the reason for ADR-004 or ADR-015 was
    shown as a checked answer: LED-41 was a real citation of the run."""
    from companybrain.ask.agent import ask_agent

    model_server.play(tool_call("trace_decision", {"decision": "ADR-004"}), text(prose))
    out = ask_agent(demo, model_settings, "Why did we adopt ADR-004?", now=NOW, max_steps=4)
    assert (out.status, out.text_by, out.reason) == (
        "withheld",
        "template",
        "says a decision was motivated by something no chain of this run gives as its motivation",
    )


@pytest.mark.parametrize(
    "prose",
    [
        "ADR-009 was motivated by LED-41 [LED-41].",
        "ADR-009 [ADR-009] was adopted because of LED-41 [LED-41].",
        "ADR-015 replaced ADR-009 [ADR-015], which was motivated by LED-41 [LED-41].",
    ],
)
def test_a_motivation_the_chain_gives_is_shown(
    demo: Store, model_settings: Settings, model_server: ScriptedModelServer, prose: str
) -> None:
    from companybrain.ask.agent import ask_agent

    model_server.play(tool_call("trace_decision", {"decision": "ADR-004"}), text(prose))
    out = ask_agent(demo, model_settings, "Why did we adopt ADR-004?", now=NOW, max_steps=4)
    assert (out.status, out.text, out.reason) == ("answered", prose, None)


def test_names_the_tools_returned_or_the_question_used_may_be_written(
    demo: Store, model_settings: Settings, model_server: ScriptedModelServer
) -> None:
    from companybrain.ask.agent import ask_agent

    prose = (
        "Kofi Mensah owns BGW, the Billing Gateway: it moved to him from Ines Halvorsen "
        "on Wednesday 14 October 2026 [CC-1047]."
    )
    model_server.play(tool_call("owner_of", {"subject": "billing-gw"}), text(prose))
    out = ask_agent(demo, model_settings, "Who owns BGW?", now=NOW, max_steps=4)
    assert (out.status, out.text, out.reason) == ("answered", prose, None)


def test_as_person_hides_restricted_records_from_the_agent(
    demo: Store, model_settings: Settings, model_server: ScriptedModelServer
) -> None:
    from companybrain.ask.agent import ask_agent

    model_server.play(
        tool_call("owner_of", {"subject": "audit log pipeline"}),
        text("Amara owns the audit log pipeline [CC-1038]."),
    )
    out = ask_agent(demo, model_settings, "Who owns the audit log?", now=NOW, as_person="rafael")
    # CC-1038 is restricted: rafael's tools never returned it, so the citation fails
    assert out.status == "withheld"
    assert "cites [CC-1038], which no tool returned" in (out.reason or "")
    assert "CC-1038" not in model_server.requests[1]["messages"][-1]["content"]


def test_brain_ask_agent_streams_each_call_and_labels_the_prose(
    demo: Store, run_cli: Any, model_server: ScriptedModelServer
) -> None:
    model_server.play(
        tool_call("owner_of", {"subject": "billing-gw"}),
        tool_call("trace_decision", {"decision": "ADR-004"}, call_id="call_2"),
        text("Kofi Mensah owns the billing gateway [CC-1047]."),
    )
    env = {"BRAIN_MODEL": "scripted", "BRAIN_MODEL_BASE_URL": model_server.base_url}
    result = run_cli("ask", "--agent", "--now", NOW, "Who owns BGW?", env=env)
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    first = next(i for i, line in enumerate(lines) if "owner_of(subject='billing-gw')" in line)
    second = next(i for i, line in enumerate(lines) if "trace_decision(decision=" in line)
    answer = next(i for i, line in enumerate(lines) if line.startswith("Answer"))
    assert first < second < answer  # each call is printed before the answer
    assert "(model-written)" in lines[answer]
    assert "checked by code: 1 citation checked · 0 figures matched to evidence" in result.output


def test_brain_ask_agent_json_keeps_stdout_for_the_json(
    demo: Store, run_cli: Any, model_server: ScriptedModelServer
) -> None:
    model_server.play(tool_call("owner_of", {"subject": "billing-gw"}), text("I don't know."))
    env = {"BRAIN_MODEL": "scripted", "BRAIN_MODEL_BASE_URL": model_server.base_url}
    result = run_cli("ask", "--agent", "--json", "--now", NOW, "Who owns BGW?", env=env)
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["mode"] == "agent" and data["status"] == "abstained"
    assert data["steps"][0]["tool"] == "owner_of" and data["steps"][0]["citations"] == ["CC-1047"]


def test_without_a_model_agent_says_so_and_falls_back_to_the_routed_answer(
    demo: Store, run_cli: Any, settings: Settings
) -> None:
    result = run_cli("ask", "--agent", "--now", NOW, "Who owns BGW?")
    assert result.exit_code == 0, result.output
    assert "--agent: no model is configured; showing the routed answer" in result.output
    assert "Kofi Mensah" in result.output and "CC-1047" in result.output

    from companybrain.ask.agent import ask_agent

    out = ask_agent(demo, settings, "Who owns BGW?", now=NOW)
    assert out.routed is not None and out.routed.tool == "owner_of"
    data = out.to_dict()
    assert data["mode"] == "routed" and "no model is configured" in data["note"]
    assert data["result"]["owner"]["id"] == "kofi"


def test_calls_beyond_the_per_turn_cap_are_not_run(
    ctx: ToolContext, model_server: ScriptedModelServer
) -> None:
    from companybrain.ask.agent import MAX_CALLS_PER_TURN

    many = [
        {"id": f"c{i}", "type": "function",
         "function": {"name": "why", "arguments": '{"topic": "x"}'}}
        for i in range(MAX_CALLS_PER_TURN + 2)
    ]  # fmt: skip
    model_server.play(
        {"role": "assistant", "content": None, "tool_calls": many}, text("I don't know.")
    )
    seen: list[Step] = []
    run_agent("Why?", ctx, TOOLS, on_step=seen.append)
    assert sum(s.answer is not None for s in seen) == MAX_CALLS_PER_TURN
    assert [s.error for s in seen[MAX_CALLS_PER_TURN:]] == [
        f"not run: at most {MAX_CALLS_PER_TURN} tool calls per turn"
    ] * 2
    # every call still gets its tool message, as the protocol requires
    tool_messages = [m for m in model_server.requests[1]["messages"] if m["role"] == "tool"]
    assert len(tool_messages) == MAX_CALLS_PER_TURN + 2


def test_a_model_that_fails_mid_loop_leaves_the_evidence_and_the_reason(
    demo: Store, run_cli: Any, model_server: ScriptedModelServer
) -> None:
    from tests.support.model_server import http_error

    model_server.play(tool_call("owner_of", {"subject": "billing-gw"}), http_error(400, "gone"))
    env = {"BRAIN_MODEL": "scripted", "BRAIN_MODEL_BASE_URL": model_server.base_url}
    result = run_cli("ask", "--agent", "--json", "--now", NOW, "Who owns BGW?", env=env)
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["status"] == "withheld" and data["answer_by"] == "template"
    assert data["reason"].startswith("the model failed at step 2: the model endpoint failed")
    assert [c["record"] for c in data["citations"]] == ["CC-1047"]
    assert "CC-1047" in data["answer"]


def test_the_agent_answers_for_the_day_asked_whatever_day_the_model_passes(
    demo: Store, model_settings: Settings, model_server: ScriptedModelServer
) -> None:
    """Kofi owns the billing gateway from 14 October, Ines before. The model called
    owner_of without the question's day (or with another one) and the answer named Kofi
    for 13 October, citing CC-1047."""
    from companybrain.ask.agent import ask_agent

    for question, as_of, call in (
        ("Who owned BGW on 2026-10-13?", None, {"subject": "billing-gw"}),
        ("Who owns BGW?", "2026-10-13", {"subject": "billing-gw"}),
        ("Who owned BGW on 2026-10-13?", None, {"subject": "billing-gw", "as_of": "2026-10-19"}),
    ):
        model_server.play(tool_call("owner_of", call), text("Ines Halvorsen [dir-2026-09]."))
        seen: list[Step] = []
        ask_agent(
            demo, model_settings, question, now=NOW, as_of=as_of, on_step=seen.append,
            max_steps=4,
        )  # fmt: skip
        [step] = seen
        assert step.answer is not None and step.answer.as_of == "2026-10-13T23:59:59.999Z"
        assert step.answer.result == {"owner": {"id": "ines", "name": "Ines Halvorsen"}}


def test_a_vague_date_is_refused_before_the_model_picks_a_day_for_it(
    demo: Store, model_settings: Settings, model_server: ScriptedModelServer
) -> None:
    """A model given "3 weeks ago" would pick a day itself (owner_of with as_of
    2026-09-29) and be answered for it. Nothing is scripted: the model is not asked."""
    from companybrain.ask.agent import ask_agent

    out = ask_agent(demo, model_settings, "Who owned BGW 3 weeks ago?", now=NOW, max_steps=4)
    assert out.routed is not None and out.routed.refusal is not None
    assert out.routed.refusal.code == RefusalCode.VAGUE_DATE
    assert out.note is None and model_server.requests == []


def test_a_refusal_is_withheld_saying_that_the_model_refused(
    ctx: ToolContext, model_server: ScriptedModelServer
) -> None:
    """A reply holding only a `refusal` was withheld as "the model's answer was empty"."""
    model_server.play({"role": "assistant", "content": None, "refusal": "I can't help with that."})
    out = run_agent("Why?", ctx, TOOLS)
    assert out.status == "withheld"
    assert out.reason == 'the model refused: "I can\'t help with that."'
