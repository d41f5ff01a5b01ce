"""The engine through the real anthropic SDK against the fake Messages API (QUALITY R6): the
request shape, metering, and every injected fault ending in bounded retries and a gentle card —
with the client's answer stored in every case."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from psychologist.models import LLMCall
from sessions_app.engine.agents.calls import REASKS
from sessions_app.engine.agents.schemas import ANALYST_TOOL, NARRATOR_TOOL
from sessions_app.models import AskMessage
from tests import fake_anthropic as fake
from tests.agent_outputs import analyst_output, narrator_output
from tests.engine.conftest import answer

pytestmark = pytest.mark.django_db

ANALYST = analyst_output(
    questions=["The user avoids a hard talk at work.", "The user sleeps badly."],
    observation="Avoidance at work.",
    slots_updated={"topic": "work"},
)
NARRATOR = narrator_output("Do you avoid a hard talk at work?", "How have you been sleeping?")


def test_the_analyst_call_is_a_forced_tool_use_with_the_stable_prefix_cached(
    session, fake_anthropic
):
    fake_anthropic.queue(
        fake.tool_use(ANALYST_TOOL, ANALYST), fake.tool_use(NARRATOR_TOOL, NARRATOR)
    )

    state = answer(session, "Work stress")

    assert state["current_card"]["text"] == "Do you avoid a hard talk at work?"
    assert state["engine"] == "anthropic"
    analyst_body, narrator_body = fake_anthropic.requests
    assert analyst_body["tool_choice"] == {
        "type": "tool",
        "name": ANALYST_TOOL,
        "disable_parallel_tool_use": True,
    }
    assert [tool["name"] for tool in analyst_body["tools"]] == [ANALYST_TOOL]
    system = analyst_body["system"]
    assert len(system) == 3  # the prompt, the rules, the profile: the cacheable prefix
    assert [("cache_control" in block) for block in system] == [False, False, True]
    assert system[2]["text"].startswith("Client profile (data):")
    assert "Work stress" not in system[0]["text"] + system[1]["text"]
    assert analyst_body["messages"][-1]["role"] == "user"
    assert "Recap of the batch just answered" in str(analyst_body["messages"][-1]["content"])
    assert len(analyst_body["metadata"]["user_id"]) == 24  # opaque, never the user's id
    assert narrator_body["system"][0]["text"].startswith("You work inside «naisei»")
    calls = list(LLMCall.objects.order_by("id"))
    assert [c.agent for c in calls] == ["analyst", "narrator"]
    # Tokens behind a cache breakpoint are billed as cache writes/reads, not as plain input.
    assert all(
        c.ok and c.input_tokens + c.cache_write_tokens + c.cache_read_tokens > 0 for c in calls
    )
    assert all(c.cost_micro_usd > 0 for c in calls)
    assert calls[0].cache_write_tokens > 0
    assert {c.session_id for c in calls} == {session.pk}


def faults(reply: Callable[[], fake.Reply], count: int) -> list[fake.Reply]:
    return [reply() for _ in range(count)]


def schema_violation() -> fake.Reply:
    return fake.tool_use(ANALYST_TOOL, {**ANALYST, "mood_delta": "ecstatic"})


FAULTS = {
    # transport faults: the SDK's own bounded retries (1 + ANTHROPIC_MAX_RETRIES = 3 requests)
    "429": (lambda: fake.fault(429, retry_after_ms=5), 3, "rate_limited"),
    "529": (lambda: fake.fault(529, retry_after_ms=5), 3, "overloaded"),
    "500": (lambda: fake.fault(500, retry_after_ms=5), 3, "server_error"),
    "malformed_json": (fake.malformed, 3, "malformed_response"),
    "timeout": (lambda: fake.slow(0.6, fake.tool_use(ANALYST_TOOL, ANALYST)), 3, "timeout"),
    # output faults: the engine's own bounded re-asks (1 + REASKS requests)
    "schema_violation": (schema_violation, 1 + REASKS, "output_invalid"),
    "no_tool_call": (lambda: fake.text("Here are my thoughts."), 1 + REASKS, "output_invalid"),
    "refusal": (lambda: fake.text("No.", stop_reason="refusal"), 1, "refusal"),
    "max_tokens": (lambda: fake.text("The user", stop_reason="max_tokens"), 1, "max_tokens"),
}


@pytest.mark.parametrize("name", list(FAULTS))
def test_each_injected_fault_ends_in_bounded_retries_and_a_gentle_card(
    session, fake_anthropic, settings, name
):
    reply, expected_requests, code = FAULTS[name]
    settings.ANTHROPIC_TIMEOUT_SECONDS = 0.3
    fake_anthropic.queue(*faults(reply, expected_requests))

    state = answer(session, "Work stress about my manager")

    assert len(fake_anthropic.requests) == expected_requests
    assert state["current_card"]["kind"] == "fallback"
    assert state["current_card"]["text"].startswith("Let's pause on this one")
    assert state["status"] == "active"
    stored = session.messages.filter(kind=AskMessage.Kind.TOPIC)
    assert [m.text for m in stored] == ["Work stress about my manager"]
    [failed] = session.events.filter(type="analyst.failed")
    assert failed.payload["code"] == code
    assert LLMCall.objects.filter(agent="analyst", ok=False).exists()


def test_after_a_fault_the_next_answer_goes_to_the_model_again(session, fake_anthropic):
    fake_anthropic.queue(*faults(lambda: fake.fault(529, retry_after_ms=5), 3))
    answer(session, "Work stress")
    fake_anthropic.queue(
        fake.tool_use(ANALYST_TOOL, ANALYST), fake.tool_use(NARRATOR_TOOL, NARRATOR)
    )

    state = answer(session, "It is mostly my manager")

    assert state["current_card"]["text"] == "Do you avoid a hard talk at work?"


def test_an_invalid_reply_then_a_valid_one_is_re_asked_with_the_errors(
    session, fake_anthropic
) -> Any:
    fake_anthropic.queue(
        schema_violation(),
        fake.tool_use(ANALYST_TOOL, ANALYST),
        fake.tool_use(NARRATOR_TOOL, NARRATOR),
    )

    state = answer(session, "Work stress")

    assert state["current_card"]["kind"] == "question"
    reask = fake_anthropic.requests[1]["messages"][-1]["content"][0]
    assert reask["type"] == "tool_result"
    assert reask["is_error"] is True
    assert "mood_delta" in reask["content"]
