"""What a model costs, in micro-USD per million tokens ($3 / MTok is 3_000_000).

Anthropic reports `input_tokens` WITHOUT the cached part, so the four counts are billed
separately. Ops edit the prices in admin (`ModelPrice`); a model the table does not list is
priced here, and a model priced nowhere is metered at zero (and logged).
"""

from __future__ import annotations

from typing import NamedTuple


class Price(NamedTuple):
    input: int
    output: int
    cache_read: int
    cache_write: int


DEFAULT_PRICES: dict[str, Price] = {
    "claude-opus-4-6": Price(5_000_000, 25_000_000, 500_000, 6_250_000),
    "claude-opus-4-5": Price(5_000_000, 25_000_000, 500_000, 6_250_000),
    "claude-sonnet-4-6": Price(3_000_000, 15_000_000, 300_000, 3_750_000),
    "claude-sonnet-4-5": Price(3_000_000, 15_000_000, 300_000, 3_750_000),
    "claude-haiku-4-5": Price(1_000_000, 5_000_000, 100_000, 1_250_000),
}
