"""Which tier analyses a session (ADR decision 7): few events carry too little behavioural
signal to justify a strong model. The tier names an agent, so the binding table decides the
provider and model, and cost genuinely diverges in metering."""

from __future__ import annotations

from dataclasses import dataclass

from psychologist.models import AnalysisTier, LLMAgent

HEAVY_FROM_EVENTS = 20


@dataclass(frozen=True)
class Tier:
    name: AnalysisTier
    agent: LLMAgent
    max_iterations: int
    budget_micro_usd: int
    max_tokens: int
    max_hypotheses: int


LIGHT = Tier(
    name=AnalysisTier.LIGHT,
    agent=LLMAgent.PSYCHOLOGIST_LIGHT,
    max_iterations=4,
    budget_micro_usd=50_000,
    max_tokens=2048,
    max_hypotheses=4,
)
HEAVY = Tier(
    name=AnalysisTier.HEAVY,
    agent=LLMAgent.PSYCHOLOGIST,
    max_iterations=8,
    budget_micro_usd=300_000,
    max_tokens=4096,
    max_hypotheses=8,
)
TIERS = {tier.name: tier for tier in (LIGHT, HEAVY)}


def tier_for(event_count: int) -> Tier:
    return LIGHT if event_count < HEAVY_FROM_EVENTS else HEAVY
