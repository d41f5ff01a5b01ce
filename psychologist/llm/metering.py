"""Metering: every provider call becomes one `LLMCall` row, through `record_call` only."""

from __future__ import annotations

import logging
import time
from datetime import datetime
from typing import Any

from django.db.models.signals import post_delete, post_save

from psychologist.llm.models import LLMCall, ModelPrice
from psychologist.llm.prices import DEFAULT_PRICES, Price
from psychologist.llm.types import Usage

log = logging.getLogger(__name__)

_PER_MILLION = 1_000_000
# An edit in admin reaches the process that made it on its next call, the others within this.
PRICES_MAX_AGE_SECONDS = 60
_prices: tuple[float, dict[str, Price]] | None = None


def prices() -> dict[str, Price]:
    """The price table: the defaults, and over them the `ModelPrice` rows ops edit. Read from
    the database at most once a minute per process, not on every call."""
    global _prices
    now = time.monotonic()
    if _prices is None or now - _prices[0] >= PRICES_MAX_AGE_SECONDS:
        rows = ModelPrice.objects.values_list("model", *Price._fields)
        _prices = (now, DEFAULT_PRICES | {model: Price(*row) for model, *row in rows})
    return _prices[1]


def prices_forget(**kwargs: Any) -> None:
    """Drops this process's copy of the table: the next call reads it again."""
    global _prices
    _prices = None


# Signals, not the admin: a price changed by any path (admin, shell, a migration) is read anew.
post_save.connect(prices_forget, sender=ModelPrice, dispatch_uid="naisei.prices_forget.save")
post_delete.connect(prices_forget, sender=ModelPrice, dispatch_uid="naisei.prices_forget.delete")


def cost_micro_usd(*, model: str, usage: Usage) -> int:
    """The call's cost from the price table (micro-USD per million tokens), rounded up so that
    many tiny calls never add up to a free run."""
    price = prices().get(model)
    if price is None:
        log.warning("llm.unpriced_model model=%s", model)
        return 0
    weighted = (
        usage.input_tokens * price.input
        + usage.output_tokens * price.output
        + usage.cache_read_tokens * price.cache_read
        + usage.cache_write_tokens * price.cache_write
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
