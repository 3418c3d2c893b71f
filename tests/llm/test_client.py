from __future__ import annotations

import pytest

from companybrain.errors import ConfigError, ModelError
from companybrain.llm.client import ModelClient, function_tool
from tests.support.model_server import ScriptedModelServer, text, tool_call

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
