"""Metering: every provider call becomes one `LLMCall` row, through `record_call` only."""

from __future__ import annotations

import logging
from datetime import datetime

from django.conf import settings

from psychologist.llm.models import LLMCall
from psychologist.llm.types import Usage

log = logging.getLogger(__name__)

_PER_MILLION = 1_000_000


def cost_micro_usd(*, model: str, usage: Usage) -> int:
    """The call's cost from `settings.LLM_PRICES` (micro-USD per million tokens), rounded up so
    that many tiny calls never add up to a free run."""
    prices = settings.LLM_PRICES.get(model)
    if prices is None:
        log.warning("llm.unpriced_model model=%s", model)
        return 0
    weighted = (
        usage.input_tokens * prices["input"]
        + usage.output_tokens * prices["output"]
        + usage.cache_read_tokens * prices["cache_read"]
        + usage.cache_write_tokens * prices["cache_write"]
    )
    return -(-weighted // _PER_MILLION)


def record_call(
    *,
    agent: str,
    provider: str,
    model: str,
    session_id: str | None,
    usage: Usage,
    cost_micro_usd: int,
    latency_ms: int,
    stop_reason: str = "",
    error_code: str = "",
) -> LLMCall:
    # Metadata only: message text never reaches the log or this table.
    log.info(
        "llm.call agent=%s provider=%s model=%s in=%d out=%d cache_read=%d cache_write=%d "
        "cost_micro_usd=%d latency_ms=%d stop=%s error=%s",
        agent,
        provider,
        model,
        usage.input_tokens,
        usage.output_tokens,
        usage.cache_read_tokens,
        usage.cache_write_tokens,
        cost_micro_usd,
        latency_ms,
        stop_reason,
        error_code or "-",
    )
    return LLMCall.objects.create(
        agent=agent,
        provider=provider,
        model=model,
        session_id=session_id,
        input_tokens=usage.input_tokens,
        output_tokens=usage.output_tokens,
        cache_read_tokens=usage.cache_read_tokens,
        cache_write_tokens=usage.cache_write_tokens,
        cost_micro_usd=cost_micro_usd,
        latency_ms=latency_ms,
        stop_reason=stop_reason,
        ok=not error_code,
        error_code=error_code,
    )


def recent_outcomes(*, since: datetime, limit: int, providers: list[str]) -> tuple[int, int]:
    """(calls, failed) among the last `limit` calls to `providers` since `since`: how the model
    has been answering lately, read from the meter rather than probed."""
    recent = LLMCall.objects.filter(provider__in=providers, created_at__gte=since).order_by(
        "-created_at", "-id"
    )
    outcomes = list(recent.values_list("ok", flat=True)[:limit])
    return len(outcomes), outcomes.count(False)
