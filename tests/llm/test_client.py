from __future__ import annotations

import pytest

from companybrain.errors import ConfigError, ModelError
from companybrain.llm.client import ModelClient, function_tool
from tests.support.model_server import (
    ScriptedModelServer,
    http_error,
    raw_body,
    text,
    tool_call,
)

TOOL = function_tool("record_facts", "Record facts.", {"type": "object", "properties": {}})


def test_a_tool_call_is_parsed_and_the_budget_is_sent(
    model_settings, model_server: ScriptedModelServer
) -> None:  # type: ignore[no-untyped-def]
    model_server.play(tool_call("record_facts", {"ownership": [], "decisions": []}))
    call = ModelClient(model_settings).call_tool([{"role": "user", "content": "hi"}], TOOL)
    assert call.name == "record_facts"
    assert call.arguments == {"ownership": [], "decisions": []}
    sent = model_server.requests[0]
    assert sent["max_tokens"] >= 2048
    assert sent["chat_template_kwargs"] == {"enable_thinking": False}
    assert sent["tool_choice"]["function"]["name"] == "record_facts"


def test_a_reply_without_the_tool_is_a_model_error(
    model_settings, model_server: ScriptedModelServer
) -> None:  # type: ignore[no-untyped-def]
    model_server.play(text("I think Ben owns it."))
    with pytest.raises(ModelError, match="did not call record_facts"):
        ModelClient(model_settings).call_tool([{"role": "user", "content": "hi"}], TOOL)


def test_invalid_json_arguments_are_kept_for_the_checks(
    model_settings, model_server: ScriptedModelServer
) -> None:  # type: ignore[no-untyped-def]
    model_server.play(tool_call("record_facts", "{not json"))
    call = ModelClient(model_settings).call_tool([{"role": "user", "content": "hi"}], TOOL)
    assert call.arguments == {"__invalid_json__": "{not json"}


def test_no_model_configured_is_a_clear_error(settings) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(ConfigError, match="BRAIN_MODEL"):
        ModelClient(settings)


def test_the_fake_fails_when_called_beyond_its_script(model_settings) -> None:  # type: ignore[no-untyped-def]
    server = ScriptedModelServer().start()
    try:
        client = ModelClient(model_settings.with_(model_base_url=server.base_url))
        with pytest.raises(ModelError):
            client.chat([{"role": "user", "content": "hi"}])
        with pytest.raises(AssertionError, match="beyond the script"):
            server.assert_done()
    finally:
        server.stop()


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ("<html>Bad gateway</html>", "BRAIN_MODEL_BASE_URL.*not JSON"),
        ("", "not JSON"),
        ("[1, 2]", "not a chat completion"),
        ('{"choices": [{"index": 0, "finish_reason": "stop"}]}', "without a message"),
        (
            '{"choices": [{"index": 0, "message": {"role": "assistant", "content": 123}}]}',
            "content of type int",
        ),
        (
            '{"choices": [{"index": 0, "message": {"role": "assistant", "content": null,'
            ' "tool_calls": [{"id": "a", "type": "function"}]}}]}',
            "tool call without a function name",
        ),
        (
            '{"choices": [{"index": 0, "message": {"role": "assistant", "content": null,'
            ' "tool_calls": "record_facts"}}]}',
            "not a list",
        ),
    ],
)
def test_a_reply_that_is_not_a_chat_completion_is_one_model_error(
    model_settings, model_server: ScriptedModelServer, body: str, message: str
) -> None:  # type: ignore[no-untyped-def]
    model_server.play(raw_body(body))
    with pytest.raises(ModelError, match=message):
        ModelClient(model_settings).chat([{"role": "user", "content": "hi"}])


@pytest.mark.parametrize(
    ("reply", "hint"),
    [
        (http_error(401, "Incorrect API key provided"), "(check BRAIN_MODEL_API_KEY)"),
        (http_error(403, "Forbidden"), "(check BRAIN_MODEL_API_KEY)"),
        (
            http_error(404, "The model `scripted` does not exist"),
            "(check BRAIN_MODEL='scripted', a model the endpoint serves, and BRAIN_MODEL_BASE_URL=",
        ),
    ],
)
def test_a_failure_a_setting_causes_names_the_setting(
    model_settings, model_server: ScriptedModelServer, reply, hint: str
) -> None:  # type: ignore[no-untyped-def]
    """ "Error code: 404" alone (a base URL without /v1, a model name the server does not
    have) or a 401 named no setting to look at."""
    model_server.play(reply)
    with pytest.raises(ModelError) as failed:
        ModelClient(model_settings).chat([{"role": "user", "content": "hi"}])
    assert hint in str(failed.value)


def test_an_endpoint_nobody_listens_on_names_the_url(model_settings) -> None:  # type: ignore[no-untyped-def]
    import socket

    with socket.socket() as s:  # a port that was free a moment ago
        s.bind(("127.0.0.1", 0))
        url = f"http://127.0.0.1:{s.getsockname()[1]}/v1"
    client = ModelClient(model_settings.with_(model_base_url=url))
    client._client = client._client.with_options(max_retries=0)
    with pytest.raises(ModelError, match=f"could not reach BRAIN_MODEL_BASE_URL='{url}'"):
        client.chat([{"role": "user", "content": "hi"}])


def test_a_refusal_is_reported_with_its_words(
    model_settings, model_server: ScriptedModelServer
) -> None:  # type: ignore[no-untyped-def]
    """A reply holding only a `refusal` was "did not call record_facts (finish reason:
    stop)", with no word of what the model said."""
    model_server.play({"role": "assistant", "content": None, "refusal": "I can't help. " * 40})
    with pytest.raises(ModelError) as refused:
        ModelClient(model_settings).call_tool([{"role": "user", "content": "hi"}], TOOL)
    assert str(refused.value) == (
        "the model refused: "
        + repr("I can't help. " * 39 + "I can't help.")[:200]
        + "... (559 characters) (it did not call record_facts)"
    )
