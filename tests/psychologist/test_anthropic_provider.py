"""The anthropic provider, through the real SDK, against the fake Messages API."""

from __future__ import annotations

import logging
from typing import Any

import pytest
from pytest_django.fixtures import Settings

from psychologist.llm.service import complete
from psychologist.llm.types import (
    LLMOutputInvalid,
    LLMRequest,
    LLMUnavailable,
    Message,
    ToolCall,
    ToolResult,
)
from psychologist.models import LLMCall, ModelBinding
from sessions_app.engine.agents.schemas import ANALYST_OUTPUT, ANALYST_TOOL
from tests import fake_anthropic as fake
from tests.agent_outputs import analyst_output
from tests.fake_anthropic import FakeAnthropic
from tests.psychologist.builders import agent_request

pytestmark = pytest.mark.django_db

VALID = analyst_output(
    questions=["The user avoids conflicts at work."],
    observation="Avoidance at work.",
    slots_updated={"topic": "work"},
)
CANARY = "CANARY-7f3a-private-words"


def ok() -> fake.Reply:
    return fake.tool_use(ANALYST_TOOL, VALID)


def analyst_request(**overrides: Any) -> LLMRequest:
    request = agent_request("analyst", turn_count=2)
    return LLMRequest(**{**request.__dict__, "opaque_user_id": "u-123", **overrides})


def test_it_sends_a_forced_tool_and_marks_the_stable_prefix_for_caching(
    fake_anthropic: FakeAnthropic,
) -> None:
    fake_anthropic.queue(ok())

    complete(request=analyst_request())

    [body] = fake_anthropic.requests
    assert body["model"] == "claude-haiku-4-5"
    assert body["max_tokens"] == 512
    assert body["tools"] == [
        {
            "name": ANALYST_TOOL,
            "description": ANALYST_OUTPUT.description,
            "input_schema": ANALYST_OUTPUT.input_schema,
        }
    ]
    assert body["tool_choice"] == {
        "type": "tool",
        "name": ANALYST_TOOL,
        "disable_parallel_tool_use": True,
    }
    assert [block["text"] for block in body["system"]] == [
        "You are the analyst.",
        "Rules: be brief.",
        "Profile: none yet.",
    ]
    assert [("cache_control" in block) for block in body["system"]] == [False, False, True]
    assert body["system"][-1]["cache_control"] == {"type": "ephemeral"}
    assert body["messages"] == [
        {"role": "user", "content": [{"type": "text", "text": "Here is the recap of the batch."}]}
    ]
    assert body["metadata"] == {"user_id": "u-123"}


def test_it_returns_our_own_dataclasses_and_meters_usage_and_cost(
    fake_anthropic: FakeAnthropic,
) -> None:
    usage = {
        "input_tokens": 1000,
        "output_tokens": 200,
        "cache_read_input_tokens": 5000,
        "cache_creation_input_tokens": 400,
    }
    fake_anthropic.queue(fake.tool_use(ANALYST_TOOL, VALID, usage=usage))

    response = complete(request=analyst_request())

    assert response.tool_calls[0].input == VALID
    assert isinstance(response.tool_calls[0], ToolCall)
    assert (response.provider, response.model, response.stop_reason) == (
        "anthropic",
        "claude-haiku-4-5",
        "tool_use",
    )
    # claude-haiku-4-5: $1 in, $5 out, $0.10 cache read, $1.25 cache write per million tokens.
    expected = 1000 * 1 + 200 * 5 + 5000 * 0.1 + 400 * 1.25
    assert response.cost_micro_usd == expected == 3000
    call = LLMCall.objects.get()
    assert (call.input_tokens, call.output_tokens) == (1000, 200)
    assert (call.cache_read_tokens, call.cache_write_tokens) == (5000, 400)
    assert call.cost_micro_usd == 3000
    assert call.ok
    assert call.stop_reason == "tool_use"
    assert call.latency_ms == response.latency_ms


def test_the_cached_prefix_carries_most_input_tokens_after_the_first_call(
    fake_anthropic: FakeAnthropic,
) -> None:
    profile = "Profile: " + "recurring patterns and history. " * 200
    request = analyst_request(system_blocks=["You are the analyst.", "Rules.", profile])
    fake_anthropic.queue(ok(), ok())

    first = complete(request=request)
    second = complete(request=request)

    assert first.usage.cache_write_tokens > 0
    assert first.usage.cache_read_tokens == 0
    assert second.usage.cache_read_tokens == first.usage.cache_write_tokens
    assert second.usage.cache_read_tokens / second.usage.total_input_tokens >= 0.7
    assert second.cost_micro_usd < first.cost_micro_usd


def test_a_tool_loop_sends_tool_calls_and_results_and_marks_the_history(
    fake_anthropic: FakeAnthropic,
) -> None:
    call = ToolCall(id="toolu_1", name="fetch_event", input={"id": 4})
    messages = [
        Message(role="user", content="Analyse the session."),
        Message(role="assistant", content="", tool_calls=(call,)),
        Message(role="user", content="", tool_results=(ToolResult("toolu_1", "event 4", True),)),
    ]
    fake_anthropic.queue(fake.text("Done.", stop_reason="end_turn"))

    response = complete(request=analyst_request(messages=messages, tool_choice=None))

    body = fake_anthropic.requests[0]
    assert "tool_choice" not in body
    assert body["messages"][1]["content"] == [
        {"type": "tool_use", "id": "toolu_1", "name": "fetch_event", "input": {"id": 4}}
    ]
    assert body["messages"][2]["content"] == [
        {
            "type": "tool_result",
            "tool_use_id": "toolu_1",
            "content": "event 4",
            "is_error": True,
            "cache_control": {"type": "ephemeral"},
        }
    ]
    assert response.text == "Done."


@pytest.mark.parametrize(
    "first_fault",
    [
        pytest.param(fake.fault(429, retry_after_ms=5), id="429"),
        pytest.param(fake.fault(529, retry_after=0.01), id="529"),
        pytest.param(fake.fault(500, retry_after_ms=5), id="500"),
    ],
)
def test_it_retries_a_transient_fault_then_succeeds(
    fake_anthropic: FakeAnthropic, first_fault: fake.Reply
) -> None:
    fake_anthropic.queue(first_fault, ok())

    response = complete(request=analyst_request())

    assert response.tool_input(ANALYST_TOOL) == VALID
    assert len(fake_anthropic.requests) == 2
    assert LLMCall.objects.get().ok


def test_it_retries_a_500_without_retry_after_using_the_sdks_backoff(
    fake_anthropic: FakeAnthropic,
) -> None:
    fake_anthropic.queue(fake.fault(500), ok())

    complete(request=analyst_request())

    assert len(fake_anthropic.requests) == 2


@pytest.mark.parametrize(
    ("status", "code"), [(429, "rate_limited"), (529, "overloaded"), (500, "server_error")]
)
def test_a_persistent_fault_ends_in_bounded_retries_then_llm_unavailable(
    fake_anthropic: FakeAnthropic, status: int, code: str
) -> None:
    fake_anthropic.queue(*[fake.fault(status, retry_after_ms=5) for _ in range(5)])

    with pytest.raises(LLMUnavailable) as caught:
        complete(request=analyst_request())

    assert caught.value.code == code
    assert len(fake_anthropic.requests) == 3  # the first attempt + ANTHROPIC_MAX_RETRIES
    call = LLMCall.objects.get()
    assert (call.ok, call.error_code, call.cost_micro_usd) == (False, code, 0)


def test_a_client_error_is_not_retried(fake_anthropic: FakeAnthropic) -> None:
    fake_anthropic.queue(fake.fault(400))

    with pytest.raises(LLMUnavailable) as caught:
        complete(request=analyst_request())

    assert caught.value.code == "rejected"
    assert len(fake_anthropic.requests) == 1


@pytest.mark.parametrize(
    ("overrides", "first_reply"),
    [
        pytest.param(
            {"ANTHROPIC_TIMEOUT_SECONDS": 0.3}, lambda: fake.slow(1.0, ok()), id="a-timeout"
        ),
        pytest.param({"ANTHROPIC_MAX_RETRIES": 1}, fake.malformed, id="a-malformed-body"),
    ],
)
def test_it_retries_then_succeeds(
    fake_anthropic: FakeAnthropic,
    settings: Settings,
    overrides: dict[str, Any],
    first_reply: Any,
) -> None:
    for name, value in overrides.items():
        setattr(settings, name, value)
    fake_anthropic.queue(first_reply(), ok())

    response = complete(request=analyst_request())

    assert response.tool_input(ANALYST_TOOL) == VALID
    assert len(fake_anthropic.requests) == 2


def test_a_timeout_on_every_attempt_ends_in_llm_unavailable(
    fake_anthropic: FakeAnthropic, settings: Settings
) -> None:
    settings.ANTHROPIC_TIMEOUT_SECONDS = 0.3
    settings.ANTHROPIC_MAX_RETRIES = 1
    fake_anthropic.queue(fake.slow(1.0, ok()), fake.slow(1.0, ok()))

    with pytest.raises(LLMUnavailable) as caught:
        complete(request=analyst_request())

    assert caught.value.code == "timeout"
    assert len(fake_anthropic.requests) == 2
    assert LLMCall.objects.get().error_code == "timeout"


def test_a_malformed_body_on_every_attempt_ends_in_llm_unavailable(
    fake_anthropic: FakeAnthropic, settings: Settings
) -> None:
    settings.ANTHROPIC_MAX_RETRIES = 1
    fake_anthropic.queue(fake.malformed(), fake.malformed())

    with pytest.raises(LLMUnavailable) as caught:
        complete(request=analyst_request())

    assert caught.value.code == "malformed_response"
    assert len(fake_anthropic.requests) == 2


def test_tool_output_that_violates_the_schema_is_rejected_and_still_metered(
    fake_anthropic: FakeAnthropic,
) -> None:
    broken = {**VALID, "crisis_signal": "maybe"}
    del broken["mood_delta"]
    fake_anthropic.queue(fake.tool_use(ANALYST_TOOL, broken))

    with pytest.raises(LLMOutputInvalid) as caught:
        complete(request=analyst_request())

    assert "crisis_signal" in caught.value.detail
    assert "mood_delta" in caught.value.detail
    call = LLMCall.objects.get()
    assert (call.ok, call.error_code) == (False, "output_invalid")
    assert call.cost_micro_usd > 0  # the tokens were spent all the same


def test_a_refusal_is_surfaced_and_never_read_as_no_risk(fake_anthropic: FakeAnthropic) -> None:
    fake_anthropic.queue(fake.text("", stop_reason="refusal"), fake.text("", stop_reason="refusal"))

    with pytest.raises(LLMOutputInvalid) as caught:
        complete(request=analyst_request())
    unforced = complete(request=analyst_request(tool_choice=None))

    assert caught.value.code == "refusal"
    assert unforced.stop_reason == "refusal"
    assert unforced.is_incomplete


def test_a_truncated_tool_call_is_surfaced_as_max_tokens(fake_anthropic: FakeAnthropic) -> None:
    partial = {"questions": ["The user avoids"]}
    fake_anthropic.queue(fake.tool_use(ANALYST_TOOL, partial, stop_reason="max_tokens"))

    with pytest.raises(LLMOutputInvalid) as caught:
        complete(request=analyst_request())

    assert caught.value.code == "max_tokens"
    assert LLMCall.objects.get().stop_reason == "max_tokens"


def test_a_truncated_tool_call_that_still_parses_is_not_an_answer(
    fake_anthropic: FakeAnthropic,
) -> None:
    fake_anthropic.queue(fake.tool_use(ANALYST_TOOL, VALID, stop_reason="max_tokens"))

    with pytest.raises(LLMOutputInvalid) as caught:
        complete(request=analyst_request())

    assert caught.value.code == "max_tokens"
    call = LLMCall.objects.get()
    assert (call.ok, call.error_code, call.stop_reason) == (False, "max_tokens", "max_tokens")


def test_a_request_may_bound_its_own_timeout_and_retries(
    fake_anthropic: FakeAnthropic, settings: Settings
) -> None:
    settings.ANTHROPIC_TIMEOUT_SECONDS = 30
    fake_anthropic.queue(*(fake.slow(0.6, ok()) for _ in range(3)))

    with pytest.raises(LLMUnavailable) as caught:
        complete(request=analyst_request(timeout_seconds=0.2, max_retries=1))

    assert caught.value.code == "timeout"
    assert len(fake_anthropic.requests) == 2  # one attempt, one retry, each cut at 0.2 s


def test_switching_a_binding_to_anthropic_takes_effect_on_the_next_call(
    fake_anthropic: FakeAnthropic, settings: Settings
) -> None:
    settings.LLM_BINDINGS = {
        agent: {"provider": "offline", "model": "offline-rules-v1"}
        for agent in settings.LLM_BINDINGS
    }
    assert complete(request=analyst_request()).provider == "offline"

    ModelBinding.objects.create(agent="analyst", provider="anthropic", model="claude-sonnet-4-6")
    fake_anthropic.queue(ok())
    response = complete(request=analyst_request())

    assert response.provider == "anthropic"
    assert fake_anthropic.requests[0]["model"] == "claude-sonnet-4-6"
    assert list(LLMCall.objects.order_by("id").values_list("provider", flat=True)) == [
        "offline",
        "anthropic",
    ]


def test_message_text_never_reaches_the_logs(
    fake_anthropic: FakeAnthropic, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    fake_anthropic.queue(fake.fault(500, retry_after_ms=5), ok())
    request = analyst_request(messages=[Message(role="user", content=f"My secret: {CANARY}")])

    complete(request=request)

    assert CANARY in str(fake_anthropic.requests[0])
    assert "llm.call" in caplog.text
    assert CANARY not in caplog.text


def test_tool_choice_any_lets_the_model_pick_a_tool(fake_anthropic: FakeAnthropic) -> None:
    fake_anthropic.queue(ok())

    complete(request=analyst_request(tool_choice="any"))

    assert fake_anthropic.requests[0]["tool_choice"] == {"type": "any"}
