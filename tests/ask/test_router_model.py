"""The model router against the scripted local chat-completions server: the model picks a
tool and a subject from an enum of ids; code checks that the subject is named in the
question, and checks the model's explanation before showing it."""

from __future__ import annotations

from typing import Any

import pytest

from companybrain.ask.engine import ask
from companybrain.config import Settings
from companybrain.errors import ConfigError
from companybrain.graph.connection import Store
from tests.ask.conftest import NOW
from tests.support.model_server import (
    ScriptedModelServer,
    http_error,
    raw_body,
    text,
    tool_call,
)


@pytest.fixture
def routed(demo_settings: Settings, model_server: ScriptedModelServer) -> Settings:
    return demo_settings.with_(
        model="scripted", model_base_url=model_server.base_url, model_api_key="t", router="model"
    )


def test_the_model_routes_and_its_checked_explanation_is_shown(
    demo: Store, routed: Settings, model_server: ScriptedModelServer
) -> None:
    model_server.play(
        tool_call("owner_of", {"subject": "billing-gateway"}),
        text(
            "Kofi Mensah owns the Billing Gateway per change control CC-1047. "
            "msg-038 says 'Ines still owns billing gateway, ping her', but a chat has lower "
            "authority."
        ),
    )
    answer = ask(demo, routed, "Who owns the billing gateway?", now=NOW)
    assert answer.tool == "owner_of" and answer.result == {
        "owner": {"id": "kofi", "name": "Kofi Mensah"}
    }
    assert answer.explanation_by == "model"
    assert answer.explanation.startswith("Kofi Mensah owns")
    routing = model_server.requests[0]
    offered = {t["function"]["name"]: t["function"]["parameters"] for t in routing["tools"]}
    assert set(offered) == {
        "owner_of", "who_knows", "trace_decision", "person_or_team", "search_records"
    }  # fmt: skip
    enum = offered["owner_of"]["properties"]["subject"]["enum"]
    assert "billing-gateway" in enum and "halyard" in enum and "kofi" not in enum
    assert "ADR-009" in offered["trace_decision"]["properties"]["subject"]["enum"]


def test_an_unknown_project_mapped_to_a_real_one_is_not_in_graph(
    demo: Store, routed: Settings, model_server: ScriptedModelServer
) -> None:
    model_server.play(
        tool_call("owner_of", {"subject": "halyard"}),
        text("Project Zeus is not in the graph, so no owner can be named."),
    )
    answer = ask(demo, routed, "Who owns Project Zeus?", now=NOW)
    assert answer.status == "refused" and answer.refusal is not None
    assert answer.refusal.code.value == "NOT_IN_GRAPH"
    assert answer.subject is None and answer.result is None
    assert answer.explanation_by == "model"


def test_an_explanation_that_calls_the_outranked_owner_is_replaced(
    demo: Store, routed: Settings, model_server: ScriptedModelServer
) -> None:
    model_server.play(
        tool_call("owner_of", {"subject": "billing-gateway"}),
        text("The billing gateway is owned by Ines Halvorsen; Kofi Mensah is named in CC-1047."),
    )
    answer = ask(demo, routed, "Who owns the billing gateway?", now=NOW)
    assert answer.result == {"owner": {"id": "kofi", "name": "Kofi Mensah"}}
    assert answer.explanation_by == "template"
    assert "owned by Ines" not in answer.explanation


def test_an_explanation_that_says_approved_is_replaced(
    demo: Store, routed: Settings, model_server: ScriptedModelServer
) -> None:
    model_server.play(
        tool_call("owner_of", {"subject": "halyard"}),
        text("Kofi Mensah, Darius Karimi and Marek Novotny own it, so the release is approved."),
    )
    answer = ask(demo, routed, "Who should sign off the Halyard release?", now=NOW)
    assert answer.result is not None and answer.result["approval"] == "not recorded"
    assert answer.explanation_by == "template"
    assert "approved" not in answer.explanation


def test_no_tool_call_is_out_of_scope(
    demo: Store, routed: Settings, model_server: ScriptedModelServer
) -> None:
    model_server.play(
        text("I can only talk about the weather in general terms."),
        text("This is out of scope: the records cannot answer it."),
    )
    answer = ask(demo, routed, "What's the weather in Lisbon today?", now=NOW)
    assert answer.tool is None and answer.refusal is not None
    assert answer.refusal.code.value == "OUT_OF_SCOPE"


def test_an_id_outside_the_enum_or_search_words_not_asked_are_refused(
    demo: Store, routed: Settings, model_server: ScriptedModelServer
) -> None:
    model_server.play(
        tool_call("who_knows", {"subject": "quantum-scheduler"}),
        text("The question names nothing the graph knows."),
        tool_call("search_records", {"query": "kafka broker failover"}),
        text("Those search words are not in the question, so nothing is recorded."),
    )
    invented = ask(demo, routed, "Who knows the quantum scheduler?", now=NOW)
    assert invented.refusal is not None and invented.refusal.code.value == "NOT_IN_GRAPH"
    drifted = ask(demo, routed, "Search records for 3DS challenge timeouts", now=NOW)
    assert drifted.refusal is not None and drifted.refusal.code.value == "NOT_IN_GRAPH"


def test_approval_questions_are_decided_by_code_before_the_model(
    demo: Store, routed: Settings, model_server: ScriptedModelServer
) -> None:
    model_server.play(text("Approval authority is not recorded, so this is out of scope."))
    answer = ask(demo, routed, "Is the Halyard release approved?", now=NOW)
    assert answer.refusal is not None and answer.refusal.code.value == "OUT_OF_SCOPE"
    assert len(model_server.requests) == 1 and "tools" not in model_server.requests[0]


def test_an_explanation_that_is_not_text_falls_back_to_the_template(
    demo: Store, routed: Settings, model_server: ScriptedModelServer
) -> None:
    model_server.play(
        tool_call("owner_of", {"subject": "billing-gateway"}),
        raw_body(
            '{"choices": [{"index": 0, "message": {"role": "assistant", "content": 123},'
            ' "finish_reason": "stop"}]}'
        ),
    )
    answer = ask(demo, routed, "Who owns the billing gateway?", now=NOW)
    assert answer.status == "answered" and answer.explanation_by == "template"
    assert answer.explanation.startswith("Kofi Mensah owns")


@pytest.mark.parametrize(
    "wording",
    [
        "Kofi Mensah owns the billing gateway since 15 October 2027, per CC-1047.",
        "Kofi Mensah and Ines Halvorsen jointly own the billing gateway per CC-1047.",
    ],
)
def test_an_explanation_with_a_wrong_date_or_a_second_owner_is_replaced(
    demo: Store, routed: Settings, model_server: ScriptedModelServer, wording: str
) -> None:
    model_server.play(tool_call("owner_of", {"subject": "billing-gateway"}), text(wording))
    answer = ask(demo, routed, "Who owns the billing gateway?", now=NOW)
    assert answer.explanation_by == "template" and answer.explanation != wording


@pytest.mark.parametrize(
    "wording",
    [
        "Kofi Mensah owns the billing gateway and the search index per CC-1047.",
        "Kofi Mensah owns the billing gateway, and the ledger service too, per CC-1047.",
        "Kofi Mensah owns the billing gateway per CC-1047; he also owns Project Beacon.",
    ],
)
def test_an_explanation_giving_the_owner_another_service_is_replaced(
    demo: Store, routed: Settings, model_server: ScriptedModelServer, wording: str
) -> None:
    """The answer is about the billing gateway alone: a second service, which neither the
    answer nor its evidence names, was shown beside it as the model's checked explanation
    (only capitalised names were looked for)."""
    model_server.play(tool_call("owner_of", {"subject": "billing-gateway"}), text(wording))
    answer = ask(demo, routed, "Who owns the billing gateway?", now=NOW)
    assert answer.result == {"owner": {"id": "kofi", "name": "Kofi Mensah"}}
    assert answer.explanation_by == "template" and answer.explanation != wording


def test_an_explanation_naming_the_services_of_its_project_is_shown(
    demo: Store, routed: Settings, model_server: ScriptedModelServer
) -> None:
    wording = (
        "Project Halyard rests on the billing gateway, owned by Kofi Mensah per CC-1047, the "
        "ledger service, owned by Darius Karimi, and the event bus, owned by Marek Novotny."
    )
    model_server.play(tool_call("owner_of", {"subject": "halyard"}), text(wording))
    answer = ask(demo, routed, "Who owns Project Halyard?", now=NOW)
    assert (answer.explanation_by, answer.explanation) == ("model", wording)


def test_a_failing_or_unknown_routing_reply_leaves_the_question_to_the_rules(
    demo: Store, routed: Settings, model_server: ScriptedModelServer
) -> None:
    """It ended the question with "error: the model endpoint failed" or "the model chose an
    unknown tool", though the rules, which work offline, read it plainly."""
    model_server.play(
        http_error(400, "bad request"),
        text("Kofi Mensah owns the Billing Gateway per CC-1047."),
        tool_call("drop_database", {"subject": "billing-gateway"}),
        text("Kofi Mensah owns the Billing Gateway per CC-1047."),
    )
    for _ in range(2):
        answer = ask(demo, routed, "Who owns the billing gateway?", now=NOW)
        assert answer.status == "answered", answer.to_dict()
        assert answer.result == {"owner": {"id": "kofi", "name": "Kofi Mensah"}}


def test_a_subject_the_question_does_not_name_is_refused_saying_so(
    demo: Store, routed: Settings, model_server: ScriptedModelServer
) -> None:
    """It said the question names no service the graph knows: false, it names one."""
    model_server.play(
        tool_call("owner_of", {"subject": "payments-api"}),
        text("The payments API is owned by someone."),
    )
    answer = ask(demo, routed, "Who owns the billing gateway?", now=NOW)
    assert answer.refusal is not None and answer.refusal.code.value == "NOT_IN_GRAPH"
    assert (
        answer.refusal.message == "the model chose Payments API, which the question does not name"
    )


def test_why_the_model_was_not_used_is_logged(
    demo: Store,
    routed: Settings,
    model_server: ScriptedModelServer,
    caplog: pytest.LogCaptureFixture,
) -> None:
    """A model endpoint refusing every call (a wrong key) or an explanation the checks
    discarded left no trace: the answer came from the rules with the template, and whoever
    set BRAIN_ROUTER=model could not tell why their model was never heard."""
    model_server.play(
        http_error(401, "Incorrect API key provided"),
        http_error(401, "Incorrect API key provided"),
    )
    answer = ask(demo, routed, "Who owns the billing gateway?", now=NOW)
    assert answer.result == {"owner": {"id": "kofi", "name": "Kofi Mensah"}}
    assert answer.explanation_by == "template"
    logged = [r.getMessage() for r in caplog.records if r.levelname == "WARNING"]
    assert logged == [
        "the model could not route the question, the rules read it: the model endpoint "
        "failed: Error code: 401 - Incorrect API key provided (check BRAIN_MODEL_API_KEY)",
        "the model's explanation was not shown, the template is: the model failed: the model "
        "endpoint failed: Error code: 401 - Incorrect API key provided (check "
        "BRAIN_MODEL_API_KEY)",
    ]
    caplog.clear()
    model_server.play(
        tool_call("owner_of", {"subject": "billing-gateway"}),
        text("The billing gateway is owned by Ines Halvorsen, per CC-1047."),
    )
    assert ask(demo, routed, "Who owns the billing gateway?", now=NOW).explanation_by == (
        "template"
    )
    assert [r.getMessage() for r in caplog.records] == [
        "the model's explanation was not shown, the template is: it calls Ines Halvorsen "
        "the owner, which an outranked claim does not allow"
    ]


def test_the_model_router_without_a_model_leaves_the_question_to_the_rules(
    demo: Store, demo_settings: Settings, run_cli: Any, caplog: pytest.LogCaptureFixture
) -> None:
    """`BRAIN_ROUTER=model` with no model set failed every question with "error: no model
    is configured" (and `--agent` too, after saying it would show the routed answer), though
    the rules read it offline, as they do when the endpoint fails."""
    answer = ask(demo, demo_settings.with_(router="model"), "Who owns BGW?", now=NOW)
    assert answer.result == {"owner": {"id": "kofi", "name": "Kofi Mensah"}}
    env = {"BRAIN_GRAPH": demo_settings.graph, "BRAIN_ROUTER": "model"}
    for agent in ([], ["--agent"]):
        result = run_cli("ask", *agent, "--now", NOW, "Who owns BGW?", env=env)
        assert result.exit_code == 0, result.output
        assert "owner: Kofi Mensah (kofi)" in result.stdout
    assert [r.getMessage() for r in caplog.records if r.levelname == "WARNING"] == [
        "the model could not route the question, the rules read it: no model is configured "
        "(set BRAIN_MODEL and BRAIN_MODEL_BASE_URL)"
    ] * 3
    # An evaluation of the model router says there is none, instead of scoring the rules.
    evaluated = run_cli("eval", "questions", "--router", "model", env=env)
    assert isinstance(evaluated.exception, ConfigError)
    assert str(evaluated.exception) == (
        "the model router cannot be evaluated: no model is configured "
        "(set BRAIN_MODEL and BRAIN_MODEL_BASE_URL)"
    )


def test_an_explanation_the_model_refused_to_write_is_logged_as_refused(
    demo: Store,
    routed: Settings,
    model_server: ScriptedModelServer,
    caplog: pytest.LogCaptureFixture,
) -> None:
    """It was logged as "the template is: it is empty"."""
    model_server.play(
        tool_call("owner_of", {"subject": "billing-gateway"}),
        {"role": "assistant", "content": None, "refusal": "I won't."},
    )
    answer = ask(demo, routed, "Who owns the billing gateway?", now=NOW)
    assert answer.explanation_by == "template"
    assert [r.getMessage() for r in caplog.records] == [
        "the model's explanation was not shown, the template is: the model refused: \"I won't.\""
    ]


def test_a_routing_the_model_refused_is_left_to_the_rules(
    demo: Store,
    routed: Settings,
    model_server: ScriptedModelServer,
    caplog: pytest.LogCaptureFixture,
) -> None:
    """A refusal (no tool call, only a `refusal` field) was read as the model finding no
    question type: "Who owns the billing gateway?" was refused OUT_OF_SCOPE."""
    model_server.play(
        {"role": "assistant", "content": None, "refusal": "I can't help with that."},
        text("Kofi Mensah owns the Billing Gateway per CC-1047."),
    )
    answer = ask(demo, routed, "Who owns the billing gateway?", now=NOW)
    assert answer.result == {"owner": {"id": "kofi", "name": "Kofi Mensah"}}
    assert next(r.getMessage() for r in caplog.records) == (
        "the model could not route the question, the rules read it: the model refused: "
        '"I can\'t help with that."'
    )
