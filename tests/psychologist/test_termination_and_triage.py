"""ADR decisions 6 and 7: the ending is classified by rules, the tier by the log's size."""

from __future__ import annotations

import pytest

from psychologist.models import AnalysisTier, LLMAgent, TerminationCause
from psychologist.termination import termination_classify
from psychologist.triage import HEAVY, LIGHT, tier_for


@pytest.mark.parametrize(
    ("reason", "cause"),
    [
        (None, TerminationCause.GRACEFUL),
        ("", TerminationCause.GRACEFUL),
        ("abandoned_timeout", TerminationCause.ABANDONED_TIMEOUT),
        ("heartbeat_timeout", TerminationCause.HEARTBEAT_TIMEOUT),
        ("killed", TerminationCause.KILLED),
        ("error", TerminationCause.ERROR),
    ],
)
def test_each_stored_termination_reason_maps_to_its_cause(reason, cause):
    assert termination_classify(reason).cause == cause


@pytest.mark.parametrize(
    ("reason", "cause"),
    [
        ("worker received SIGKILL", TerminationCause.KILLED),
        ("terminated by signal 15", TerminationCause.KILLED),
        ("Heartbeat missed for 90 s", TerminationCause.HEARTBEAT_TIMEOUT),
        ("idle for 20 hours", TerminationCause.ABANDONED_TIMEOUT),
        ("ValueError: boom (Traceback follows)", TerminationCause.ERROR),
        ("something nobody anticipated", TerminationCause.ERROR),
    ],
)
def test_free_text_reasons_are_classified_by_pattern_and_never_as_graceful(reason, cause):
    termination = termination_classify(reason)

    assert termination.cause == cause
    assert termination.abnormal


def test_the_classified_cause_becomes_a_sentence_for_the_prompt():
    assert "kill signal" in termination_classify("killed").fact
    assert not termination_classify(None).abnormal
    assert "graceful" in termination_classify(None).fact


def test_fewer_than_twenty_events_go_to_the_light_tier_and_twenty_to_the_heavy_one():
    assert tier_for(0) is LIGHT
    assert tier_for(19) is LIGHT
    assert tier_for(20) is HEAVY
    assert tier_for(500) is HEAVY


def test_the_tiers_differ_in_agent_iterations_and_budget_as_the_adr_says():
    assert (LIGHT.name, LIGHT.agent, LIGHT.max_iterations, LIGHT.budget_micro_usd) == (
        AnalysisTier.LIGHT,
        LLMAgent.PSYCHOLOGIST_LIGHT,
        4,
        50_000,
    )
    assert (HEAVY.name, HEAVY.agent, HEAVY.max_iterations, HEAVY.budget_micro_usd) == (
        AnalysisTier.HEAVY,
        LLMAgent.PSYCHOLOGIST,
        8,
        300_000,
    )
