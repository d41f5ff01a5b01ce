"""The psychologist's tool loop through the real `anthropic` SDK against the fake Messages API:
the correction cycle, a model that never emits, the budget, provider faults, prompt caching."""

from __future__ import annotations

from typing import Any

import pytest

from psychologist.analysis import AnalysisRetry, analysis_perform
from psychologist.models import Analysis, AnalysisRequest, Hypothesis, LLMCall
from psychologist.schemas import EMIT_HYPOTHESES_TOOL, FETCH_EVENT_TOOL, SEARCH_EVENTS_TOOL
from sessions_app.models import AskSession
from tests import fake_anthropic as fake
from tests.fake_anthropic import FakeAnthropic
from tests.psychologist.builders import (
    TIRED_ENDING,
    event_ids,
    hypothesis_data,
    session_close,
    session_of_size,
    session_with_log,
)

pytestmark = pytest.mark.django_db


def emit(*hypotheses: dict[str, Any], **kwargs: Any) -> fake.Reply:
    return fake.tool_use(EMIT_HYPOTHESES_TOOL, {"hypotheses": list(hypotheses)}, **kwargs)


def outcomes(session: AskSession) -> list[str]:
    iterations = session.events.filter(type="psychologist.iteration").order_by("seq")
    return [event.payload["outcome"] for event in iterations]


def failure(session: AskSession) -> dict[str, Any]:
    return session.events.get(type="psychologist.analysis_failed").payload


@pytest.fixture
def analyse(django_capture_on_commit_callbacks):
    """Close a session (graceful unless a reason is given) and run its analysis."""

    def run(session: AskSession, reason: str | None = None) -> AnalysisRequest:
        with django_capture_on_commit_callbacks(execute=True):
            request = session_close(session, reason=reason)
        request.refresh_from_db()
        return request

    return run


def test_a_batch_citing_another_sessions_event_with_confidence_150_is_rejected_whole_then_corrected(
    alice, charlie, fake_anthropic: FakeAnthropic, analyse
):
    foreign = event_ids(session_with_log(user=charlie, answers=["Hello."]))[-1]
    session = session_with_log(user=alice, answers=TIRED_ENDING)
    ids = event_ids(session)
    good = hypothesis_data(ids[-1:], statement="Fatigue showed at the end.")
    bad = hypothesis_data([ids[1], foreign], target="flow", statement="Even pace.", confidence=150)
    fixed = {**bad, "evidence": [ids[1]], "confidence": 65}
    fake_anthropic.queue(emit(good, bad), emit(good, fixed))

    analyse(session)

    analysis = Analysis.objects.get(session=session)
    assert analysis.iterations == 2
    assert [(h.statement, h.confidence) for h in analysis.hypotheses.order_by("position")] == [
        ("Fatigue showed at the end.", 70),
        ("Even pace.", 65),
    ]
    # Nothing of the rejected batch was kept, not even its valid hypothesis.
    assert Hypothesis.objects.count() == 2
    assert outcomes(session) == ["rejected", "accepted"]
    second = fake_anthropic.requests[1]["messages"]
    [rejected_call] = second[-2]["content"]
    [tool_result] = second[-1]["content"]
    assert tool_result["tool_use_id"] == rejected_call["id"]
    assert tool_result["is_error"] is True
    assert tool_result["content"].splitlines() == [
        "REJECTED: nothing was recorded. Fix every problem below and call emit_hypotheses "
        "again with the complete batch.",
        "- hypotheses[1].confidence: must be an integer from 0 to 100, got 150.",
        f"- hypotheses[1].evidence[1]: event {foreign} belongs to another session; cite only "
        "events of the session under analysis.",
    ]


def test_a_model_that_never_emits_ends_as_analysis_failed_at_m_iterations_with_no_analysis(
    alice, fake_anthropic: FakeAnthropic, analyse
):
    session = session_with_log(user=alice, answers=TIRED_ENDING)
    ids = event_ids(session)
    fake_anthropic.queue(
        fake.text("Let me think about this session first."),
        fake.tool_use(SEARCH_EVENTS_TOOL, {"query": "tired"}),
        fake.tool_use(FETCH_EVENT_TOOL, {"event_id": ids[-1]}),
        fake.tool_use(SEARCH_EVENTS_TOOL, {"type": "answer"}),
        emit(hypothesis_data(ids[-1:])),  # never reached: M = 4 for the light tier
    )

    request = analyse(session, reason="killed")

    assert len(fake_anthropic.requests) == 4
    assert not Analysis.objects.exists()
    assert request.status == AnalysisRequest.Status.FAILED
    payload = failure(session)
    assert (payload["reason"], payload["iterations"], payload["tier"]) == (
        "no_valid_batch",
        4,
        "light",
    )
    assert outcomes(session) == ["no_tool", "read", "read", "read"]
    # The text-only reply was answered with a nudge to use the tools.
    nudge = fake_anthropic.requests[1]["messages"][-1]["content"][0]["text"]
    assert "emit_hypotheses" in nudge
    # The read helpers answered from the session's own log.
    fetched = fake_anthropic.requests[3]["messages"][-1]["content"][0]
    assert fetched["is_error"] is False
    assert f'"id": {ids[-1]}' in fetched["content"]


def test_a_budget_overrun_stops_the_loop_before_m_iterations(
    alice, fake_anthropic: FakeAnthropic, analyse
):
    session = session_with_log(user=alice, answers=TIRED_ENDING)
    # Haiku at $1/MTok in and $5/MTok out: 30 500 micro-USD a call, over 50 000 at the second.
    expensive = {"input_tokens": 30_000, "output_tokens": 100}
    fake_anthropic.queue(*(emit(hypothesis_data([]), usage=expensive) for _ in range(4)))

    analyse(session)

    assert len(fake_anthropic.requests) == 2
    assert not Analysis.objects.exists()
    payload = failure(session)
    assert payload["reason"] == "budget_exceeded"
    assert payload["detail"].startswith("spent 61000 of 50000 micro-USD")
    assert payload["cost_micro_usd"] == 61_000
    assert sum(LLMCall.objects.values_list("cost_micro_usd", flat=True)) == 61_000


def test_a_provider_fault_is_told_and_raised_so_that_django_q_retries_then_the_retry_completes(
    alice, fake_anthropic: FakeAnthropic
):
    session = session_with_log(user=alice, answers=TIRED_ENDING)
    request = session_close(session)  # enqueued; its run waits for a commit that never comes
    fake_anthropic.queue(*(fake.fault(529, retry_after_ms=5) for _ in range(3)))

    with pytest.raises(AnalysisRetry):
        analysis_perform(request_id=request.pk)

    payload = failure(session)
    assert (payload["reason"], payload["will_retry"]) == ("provider_unavailable", True)
    assert payload["detail"].startswith("overloaded")
    fake_anthropic.queue(emit(hypothesis_data(event_ids(session)[-1:])))
    assert analysis_perform(request_id=request.pk) is not None
    request.refresh_from_db()
    assert (request.status, request.attempts) == (AnalysisRequest.Status.DONE, 2)


def test_the_last_allowed_attempt_fails_without_asking_for_another_retry(
    alice, fake_anthropic: FakeAnthropic, settings
):
    settings.PSYCHOLOGIST_MAX_ATTEMPTS = 1
    session = session_with_log(user=alice, answers=TIRED_ENDING)
    request = session_close(session)
    fake_anthropic.queue(*(fake.fault(500, retry_after_ms=5) for _ in range(3)))

    assert analysis_perform(request_id=request.pk) is None

    assert failure(session)["will_retry"] is False


def test_the_stable_prefix_is_cached_and_carries_most_input_tokens_of_every_later_call(
    alice, fake_anthropic: FakeAnthropic, analyse
):
    session = session_of_size(30, user=alice)
    ids = event_ids(session)
    fake_anthropic.queue(
        fake.tool_use(SEARCH_EVENTS_TOOL, {"query": "week"}),
        emit(hypothesis_data([10**9])),  # rejected: no such event
        emit(hypothesis_data(ids[-2:])),
    )

    analyse(session)

    first, *later = fake_anthropic.requests
    assert first["system"][-1]["cache_control"] == {"type": "ephemeral"}
    assert first["tool_choice"] == {"type": "any"}
    assert all(body["system"] == first["system"] for body in later)
    calls = list(LLMCall.objects.filter(session=session).order_by("id"))
    assert len(calls) == 3
    assert calls[0].cache_write_tokens > 0
    assert calls[0].cache_read_tokens == 0
    for call in calls[1:]:
        total = call.input_tokens + call.cache_read_tokens + call.cache_write_tokens
        assert call.cache_read_tokens >= calls[0].cache_write_tokens
        assert call.cache_read_tokens / total >= 0.7
    analysis = Analysis.objects.get(session=session)
    assert analysis.cache_read_tokens == sum(c.cache_read_tokens for c in calls)
    assert analysis.cost_micro_usd == sum(c.cost_micro_usd for c in calls)
