"""The anthropic provider: the official SDK, and the only module that imports it.

- Structured output through tool use; `LLMRequest.tool_choice` forces the tool.
- Prompt caching: tools + system blocks form the stable prefix, marked `ephemeral` on the last
  system block; in a multi-turn exchange (a tool loop) the last message is marked too, so the
  next iteration reads the whole history from the cache.
- Retries and timeouts are the SDK's own (`ANTHROPIC_MAX_RETRIES`, `ANTHROPIC_TIMEOUT_SECONDS`,
  or the request's own `timeout_seconds` and `max_retries` when it sets them);
  a 200 whose body is not JSON is made retryable by a middleware. What still fails becomes
  `LLMUnavailable`, with a code saying why.
"""

from __future__ import annotations

import functools
import json
from typing import Any

import anthropic
from django.conf import settings

from psychologist.llm.metering import cost_micro_usd
from psychologist.llm.types import (
    LLMError,
    LLMRequest,
    LLMResponse,
    LLMUnavailable,
    Message,
    ToolCall,
    Usage,
)
from psychologist.llm.waits import network_waits

PROVIDER = "anthropic"
EPHEMERAL = {"type": "ephemeral"}
OVERLOADED = 529


class AnthropicProvider:
    name = PROVIDER

    def __init__(self, *, model: str) -> None:
        self.model = model

    def complete(self, request: LLMRequest) -> LLMResponse:
        client = _client_from_settings(request)
        params = build_params(request, model=self.model)
        try:
            # The SDK's retries and their pauses included: all of it is waiting on the network.
            with network_waits.get()():
                message = client.messages.create(**params)
        except anthropic.AnthropicError as exc:
            raise _unavailable(exc) from exc
        return _to_response(message)


def _client_from_settings(request: LLMRequest) -> anthropic.Anthropic:
    if not settings.ANTHROPIC_API_KEY:
        raise LLMError("ANTHROPIC_API_KEY is not set", code="not_configured")
    retries, timeout = request.max_retries, request.timeout_seconds
    return _client(
        api_key=settings.ANTHROPIC_API_KEY,
        base_url=settings.ANTHROPIC_BASE_URL or None,
        max_retries=int(settings.ANTHROPIC_MAX_RETRIES if retries is None else retries),
        timeout=float(settings.ANTHROPIC_TIMEOUT_SECONDS if timeout is None else timeout),
    )


@functools.lru_cache(maxsize=8)
def _client(
    *, api_key: str, base_url: str | None, max_retries: int, timeout: float
) -> anthropic.Anthropic:
    # One client per configuration, reused: it holds the connection pool (the safety check's
    # shorter bounds make a second one).
    return anthropic.Anthropic(
        api_key=api_key,
        base_url=base_url,
        max_retries=max_retries,
        timeout=timeout,
        middleware=[_require_json_body],
    )


def _require_json_body(request: Any, call_next: Any) -> Any:
    """A 200 whose body is not JSON is a transport fault, not an answer: make the SDK retry it
    like a 5xx instead of failing on the first garbled reply."""
    response = call_next(request)
    if response.status_code < 400:
        try:
            json.loads(response.http_response.read())
        except ValueError as exc:
            raise anthropic.RetryableError("response body is not valid JSON") from exc
    return response


def build_params(request: LLMRequest, *, model: str) -> dict[str, Any]:
    params: dict[str, Any] = {
        "model": model,
        "max_tokens": request.max_tokens,
        "messages": _messages(request.messages),
    }
    if request.system_blocks:
        system = [{"type": "text", "text": block} for block in request.system_blocks]
        system[-1]["cache_control"] = EPHEMERAL
        params["system"] = system
    if request.tools:
        params["tools"] = [
            {"name": t.name, "description": t.description, "input_schema": t.input_schema}
            for t in request.tools
        ]
    if request.tool_choice == "any":
        params["tool_choice"] = {"type": "any"}
    elif request.tool_choice:
        params["tool_choice"] = {
            "type": "tool",
            "name": request.tool_choice,
            "disable_parallel_tool_use": True,
        }
    if request.opaque_user_id:
        params["metadata"] = {"user_id": request.opaque_user_id}
    return params


def _messages(messages: list[Message]) -> list[dict[str, Any]]:
    converted = [{"role": m.role, "content": _content_blocks(m)} for m in messages]
    if len(converted) > 1:
        converted[-1]["content"][-1]["cache_control"] = EPHEMERAL
    return converted


def _content_blocks(message: Message) -> list[dict[str, Any]]:
    blocks: list[dict[str, Any]] = [
        {
            "type": "tool_result",
            "tool_use_id": result.tool_call_id,
            "content": result.content,
            "is_error": result.is_error,
        }
        for result in message.tool_results
    ]
    if message.content:
        blocks.append({"type": "text", "text": message.content})
    blocks += [
        {"type": "tool_use", "id": call.id, "name": call.name, "input": call.input}
        for call in message.tool_calls
    ]
    return blocks or [{"type": "text", "text": ""}]


def _to_response(message: Any) -> LLMResponse:
    usage = Usage(
        input_tokens=message.usage.input_tokens or 0,
        output_tokens=message.usage.output_tokens or 0,
        cache_read_tokens=message.usage.cache_read_input_tokens or 0,
        cache_write_tokens=message.usage.cache_creation_input_tokens or 0,
    )
    text = "".join(block.text for block in message.content if block.type == "text")
    calls = [
        ToolCall(id=block.id, name=block.name, input=dict(block.input or {}))
        for block in message.content
        if block.type == "tool_use"
    ]
    return LLMResponse(
        text=text,
        tool_calls=calls,
        stop_reason=message.stop_reason or "",
        usage=usage,
        model=message.model,
        provider=PROVIDER,
        cost_micro_usd=cost_micro_usd(model=message.model, usage=usage),
    )


def _unavailable(exc: anthropic.AnthropicError) -> LLMUnavailable:
    # Only the error class and status travel on: SDK messages may quote the request.
    if isinstance(exc, anthropic.APITimeoutError):
        return LLMUnavailable("the request timed out", code="timeout")
    if isinstance(exc, anthropic.APIConnectionError):
        return LLMUnavailable("could not connect", code="connection")
    if isinstance(exc, anthropic.RetryableError):
        return LLMUnavailable("the response body was not valid JSON", code="malformed_response")
    if isinstance(exc, anthropic.APIStatusError):
        status = exc.status_code
        if status == 429:
            return LLMUnavailable("rate limited (429)", code="rate_limited")
        if status == OVERLOADED:
            return LLMUnavailable("overloaded (529)", code="overloaded")
        if status >= 500:
            return LLMUnavailable(f"server error ({status})", code="server_error")
        return LLMUnavailable(f"request rejected ({status})", code="rejected")
    return LLMUnavailable(f"provider error ({type(exc).__name__})", code="provider_error")
