"""The one entry point callers use: resolve the agent's provider, call it, validate, meter."""

from __future__ import annotations

import time
from dataclasses import replace

from django.conf import settings

from psychologist.llm.metering import record_call
from psychologist.llm.registry import provider_for_agent, provider_name_for_agent
from psychologist.llm.schemas import check_forced_tool
from psychologist.llm.types import (
    INCOMPLETE_STOP_REASONS,
    LLMError,
    LLMOutputInvalid,
    LLMRequest,
    LLMResponse,
    Usage,
)


def complete(*, request: LLMRequest) -> LLMResponse:
    """Call the agent's bound provider and return its answer, metered in `LLMCall`.

    Raises `LLMUnavailable` after the provider's bounded retries, and `LLMOutputInvalid` when a
    forced tool was not called with schema-valid input — with `code` "refusal" or "max_tokens"
    when that is why, so the caller never reads a refused or truncated answer as "no risk".
    Never call it inside a database transaction: it waits on the network.
    """
    provider = provider_for_agent(request.agent)
    started = time.monotonic()
    try:
        response = provider.complete(request)
    except LLMError as exc:
        _meter(request, provider.name, provider.model, started, None, exc.code)
        raise
    response = replace(response, latency_ms=_elapsed_ms(started))
    try:
        _check_output(request, response)
    except LLMError as exc:
        _meter(request, response.provider, response.model, started, response, exc.code)
        raise
    _meter(request, response.provider, response.model, started, response, "")
    return response


# Providers that answer without a model: the embedded rules and recorded replays.
NOT_A_MODEL = frozenset({"offline", "scripted"})


def model_serves(agent: str) -> bool:
    """Whether a real model serves `agent` now (not the offline engine, not a replay), for a
    caller that asks only a model — the safety check's one more opinion. Without an API key no
    model can answer, and that is known without a query."""
    if not settings.ANTHROPIC_API_KEY:
        return False
    return provider_name_for_agent(agent) not in NOT_A_MODEL | {""}


def _check_output(request: LLMRequest, response: LLMResponse) -> None:
    if request.tool_choice is None or request.tool_choice == "any":
        return
    spec = request.tool(request.tool_choice)
    if spec is None:
        raise LLMError(
            f"tool_choice names an unoffered tool {request.tool_choice!r}", code="bad_request"
        )
    try:
        check_forced_tool(spec=spec, response=response)
        if response.is_incomplete:
            # Cut off or refused, a call can still parse: it is not an answer all the same.
            detail = f"{spec.name}: the answer stopped at {response.stop_reason}"
            raise LLMOutputInvalid(detail, response=response)
    except LLMOutputInvalid as exc:
        if response.stop_reason in INCOMPLETE_STOP_REASONS:
            exc.code = response.stop_reason
        raise


def _elapsed_ms(started: float) -> int:
    return int((time.monotonic() - started) * 1000)


def _meter(
    request: LLMRequest,
    provider: str,
    model: str,
    started: float,
    response: LLMResponse | None,
    error_code: str,
) -> None:
    record_call(
        agent=request.agent,
        provider=provider,
        model=model,
        session_id=request.session_id,
        usage=response.usage if response else Usage(),
        cost_micro_usd=response.cost_micro_usd if response else 0,
        latency_ms=response.latency_ms if response else _elapsed_ms(started),
        stop_reason=response.stop_reason if response else "",
        error_code=error_code,
    )
