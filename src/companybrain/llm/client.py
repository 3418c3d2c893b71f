"""An OpenAI-compatible chat-completions client (vLLM, Ollama, NIM, OpenAI) through the
`openai` SDK. The only module that imports it. Everything it returns is a proposal: callers
check it before anything reaches the graph or the user."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

import openai

from companybrain.config import Settings
from companybrain.errors import ConfigError, ModelError, ModelRefused
from companybrain.policy.text import clipped

# Tries after the first: the SDK retries connection errors, timeouts, 429 and 5xx with
# exponential backoff (and a server's Retry-After).
MAX_RETRIES = 3


@dataclass(frozen=True)
class ToolCall:
    id: str
    name: str
    arguments: dict[str, Any]
    raw_arguments: str


@dataclass(frozen=True)
class Reply:
    content: str | None
    tool_calls: list[ToolCall] = field(default_factory=list)
    finish_reason: str | None = None
    refusal: str | None = None  # what the model said instead, when it declined to answer

    def as_message(self) -> dict[str, Any]:
        """The assistant turn to append to the conversation for the next call."""
        message: dict[str, Any] = {"role": "assistant", "content": self.content}
        if self.tool_calls:
            message["tool_calls"] = [
                {
                    "id": c.id,
                    "type": "function",
                    "function": {"name": c.name, "arguments": c.raw_arguments},
                }
                for c in self.tool_calls
            ]
        return message


class ModelClient:
    def __init__(self, settings: Settings) -> None:
        if not settings.model_configured:
            raise ConfigError(
                "no model is configured: set BRAIN_MODEL and BRAIN_MODEL_BASE_URL "
                "(or OPENAI_BASE_URL)"
            )
        self.settings = settings
        self.model = str(settings.model)
        self._client = openai.OpenAI(
            base_url=settings.model_base_url,
            api_key=settings.model_api_key,
            max_retries=MAX_RETRIES,
            timeout=settings.model_timeout,
        )

    def chat(
        self,
        messages: list[dict[str, Any]],
        tools: list[dict[str, Any]] | None = None,
        *,
        tool_choice: str | dict[str, Any] | None = None,
        temperature: float = 0.0,
    ) -> Reply:
        kwargs: dict[str, Any] = {
            "model": self.model,
            "messages": messages,
            "max_tokens": self.settings.model_max_tokens,
            "temperature": temperature,
        }
        if tools:
            kwargs["tools"] = tools
            if tool_choice is not None:
                kwargs["tool_choice"] = tool_choice
        if self.settings.model_extra:
            kwargs["extra_body"] = self.settings.model_extra
        try:
            response = self._client.chat.completions.create(**kwargs)
        except openai.APIError as exc:
            raise ModelError(f"the model endpoint failed: {exc}{self._hint(exc)}") from exc
        except ValueError as exc:  # the SDK reads the body as JSON: an HTML page, a blank
            raise ModelError(
                f"the model endpoint {self.settings.model_base_url} (BRAIN_MODEL_BASE_URL) "
                f"replied with something that is not JSON: {exc}"
            ) from exc
        return _read_reply(response)

    def _hint(self, exc: openai.APIError) -> str:
        """Which setting to look at, for the failures a setting causes."""
        s = self.settings
        if isinstance(exc, openai.AuthenticationError | openai.PermissionDeniedError):
            return " (check BRAIN_MODEL_API_KEY)"
        if isinstance(exc, openai.NotFoundError):
            return (
                f" (check BRAIN_MODEL={self.model!r}, a model the endpoint serves, and "
                f"BRAIN_MODEL_BASE_URL={s.model_base_url!r}: OpenAI-compatible servers "
                "usually answer under /v1)"
            )
        if isinstance(exc, openai.APITimeoutError):
            tries = MAX_RETRIES + 1
            return f" ({tries} tries of BRAIN_MODEL_TIMEOUT_S={s.model_timeout:g} seconds each)"
        if isinstance(exc, openai.APIConnectionError):
            return f" (could not reach BRAIN_MODEL_BASE_URL={s.model_base_url!r})"
        return ""

    def call_tool(self, messages: list[dict[str, Any]], tool: dict[str, Any]) -> ToolCall:
        """Ask for exactly one call of `tool`; anything else is a ModelError."""
        name = tool["function"]["name"]
        reply = self.chat(
            messages, [tool], tool_choice={"type": "function", "function": {"name": name}}
        )
        for call in reply.tool_calls:
            if call.name == name:
                return call
        if reason := refused(reply):
            raise ModelRefused(f"{reason} (it did not call {name})")
        raise ModelError(f"the model did not call {name} (finish reason: {reply.finish_reason})")


def _read_reply(response: Any) -> Reply:
    """The first choice of a chat completion. The SDK builds its objects without checking
    them, so any JSON a server sends arrives here: what is not a chat completion is a
    ModelError, never an AttributeError further on."""
    choices = getattr(response, "choices", None)
    if not isinstance(choices, list):
        raise ModelError("the model endpoint replied with JSON that is not a chat completion")
    if not choices:
        raise ModelError("the model endpoint returned no choices")
    choice = choices[0]
    message = getattr(choice, "message", None)
    if message is None:
        raise ModelError("the model endpoint returned a choice without a message")
    content = getattr(message, "content", None)
    if content is not None and not isinstance(content, str):
        raise ModelError(
            f"the model's reply has content of type {type(content).__name__}, not text"
        )
    tool_calls = getattr(message, "tool_calls", None) or []
    if not isinstance(tool_calls, list):
        raise ModelError("the model's reply has tool_calls that are not a list")
    finish = getattr(choice, "finish_reason", None)
    refusal = getattr(message, "refusal", None)
    return Reply(
        content=content,
        tool_calls=[_parse_call(c) for c in tool_calls],
        finish_reason=finish if isinstance(finish, str) else None,
        refusal=refusal.strip() or None if isinstance(refusal, str) else None,
    )


def refused(reply: Reply) -> str | None:
    """Why a reply holds no answer, when the model refused: its words, shortened."""
    return f"the model refused: {clipped(reply.refusal, 200)}" if reply.refusal else None


def _parse_call(call: Any) -> ToolCall:
    function = getattr(call, "function", None)
    name = getattr(function, "name", None)
    if not isinstance(name, str) or not name:
        raise ModelError("the model's reply has a tool call without a function name")
    raw = getattr(function, "arguments", None) or "{}"
    if not isinstance(raw, str):  # arguments are a JSON string; some servers send an object
        raw = json.dumps(raw) if isinstance(raw, dict) else str(raw)
    try:
        args = json.loads(raw)
    except json.JSONDecodeError:
        args = {"__invalid_json__": raw}  # kept so that checks can reject it with a reason
    if not isinstance(args, dict):
        args = {"__invalid_json__": raw}
    call_id = getattr(call, "id", None)
    return ToolCall(
        id=call_id if isinstance(call_id, str) else "",
        name=name,
        arguments=args,
        raw_arguments=raw,
    )


def function_tool(name: str, description: str, parameters: dict[str, Any]) -> dict[str, Any]:
    """A tool definition in the chat-completions format."""
    return {
        "type": "function",
        "function": {"name": name, "description": description, "parameters": parameters},
    }
