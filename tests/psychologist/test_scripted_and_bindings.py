from __future__ import annotations

from typing import Any

import pytest
from django.core.exceptions import ValidationError
from pytest_django.fixtures import Settings

from psychologist.llm.registry import binding_for_agent, provider_for_agent
from psychologist.llm.scripted import ScriptExhausted, use_script
from psychologist.llm.service import complete
from psychologist.llm.types import LLMError, LLMOutputInvalid
from psychologist.models import LLMCall, ModelBinding
from sessions_app.engine.agents.schemas import ANALYST_TOOL
from tests.agent_outputs import analyst_output
from tests.psychologist.builders import agent_request

pytestmark = pytest.mark.django_db

VALID_ANALYST = analyst_output(questions=["The user avoids conflicts."], observation="Scripted.")


def recording(data: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return {
        "tool_calls": [{"id": "t1", "name": ANALYST_TOOL, "input": data}],
        "usage": {"input_tokens": 100, "output_tokens": 20},
        **extra,
    }


@pytest.fixture
def scripted(settings: Settings) -> None:
    settings.LLM_BINDINGS = {
        agent: {"provider": "scripted", "model": "scripted"} for agent in settings.LLM_BINDINGS
    }


@pytest.mark.usefixtures("scripted")
def test_it_replays_recorded_responses_in_order() -> None:
    second = {**VALID_ANALYST, "session_complete": True, "questions": []}
    with use_script([recording(VALID_ANALYST), recording(second, cost_micro_usd=7)]) as script:
        first_response = complete(request=agent_request("analyst"))
        second_response = complete(request=agent_request("analyst"))

    assert first_response.tool_input(ANALYST_TOOL) == VALID_ANALYST
    assert second_response.tool_input(ANALYST_TOOL)["session_complete"] is True
    assert second_response.provider == "scripted"
    assert script.remaining == 0
    assert [r.agent for r in script.requests] == ["analyst", "analyst"]
    assert list(LLMCall.objects.values_list("cost_micro_usd", flat=True).order_by("id")) == [0, 7]


@pytest.mark.usefixtures("scripted")
def test_it_raises_a_clear_error_when_the_script_is_exhausted() -> None:
    with use_script([recording(VALID_ANALYST)]):
        complete(request=agent_request("analyst"))
        with pytest.raises(ScriptExhausted, match="no response left for call 2"):
            complete(request=agent_request("analyst"))

    failed = LLMCall.objects.get(ok=False)
    assert failed.error_code == "script_exhausted"


@pytest.mark.usefixtures("scripted")
def test_it_refuses_a_recording_made_for_another_agent() -> None:
    with (
        use_script([recording(VALID_ANALYST, agent="narrator")]),
        pytest.raises(LLMError, match="recorded for agent 'narrator'"),
    ):
        complete(request=agent_request("analyst"))


@pytest.mark.usefixtures("scripted")
def test_it_says_so_when_no_script_is_installed() -> None:
    with pytest.raises(LLMError, match="no script is installed"):
        complete(request=agent_request("analyst"))


@pytest.mark.usefixtures("scripted")
def test_output_that_violates_the_tool_schema_is_rejected_but_metered() -> None:
    broken = {**VALID_ANALYST, "mood_delta": "ecstatic", "questions": ["a", "b", "c"]}
    with use_script([recording(broken)]), pytest.raises(LLMOutputInvalid) as caught:
        complete(request=agent_request("analyst"))

    assert "mood_delta" in caught.value.detail
    assert "questions" in caught.value.detail
    call = LLMCall.objects.get()
    assert (call.ok, call.error_code, call.input_tokens) == (False, "output_invalid", 100)


@pytest.mark.usefixtures("scripted")
def test_a_missing_forced_tool_call_is_rejected() -> None:
    with (
        use_script([{"text": "I'd rather chat.", "stop_reason": "end_turn"}]),
        pytest.raises(LLMOutputInvalid, match="did not call analyst_output"),
    ):
        complete(request=agent_request("analyst"))


@pytest.mark.usefixtures("scripted")
@pytest.mark.parametrize("stop_reason", ["refusal", "max_tokens"])
def test_a_refused_or_truncated_answer_is_surfaced_never_read_as_no_risk(stop_reason: str) -> None:
    with (
        use_script([{"text": "", "stop_reason": stop_reason}]),
        pytest.raises(LLMOutputInvalid) as caught,
    ):
        complete(request=agent_request("analyst"))

    assert caught.value.code == stop_reason
    assert caught.value.response is not None
    assert caught.value.response.is_incomplete
    assert LLMCall.objects.get().stop_reason == stop_reason


def test_bindings_fall_back_to_settings(settings: Settings) -> None:
    binding = binding_for_agent("narrator")

    assert binding.provider == settings.LLM_BINDINGS["narrator"]["provider"] == "offline"


def test_a_binding_edited_in_the_database_takes_effect_on_the_next_call() -> None:
    assert provider_for_agent("analyst").name == "offline"

    ModelBinding.objects.create(agent="analyst", provider="scripted", model="scripted-v2")
    with use_script([recording(VALID_ANALYST)]):
        response = complete(request=agent_request("analyst"))
    assert response.provider == "scripted"
    assert LLMCall.objects.get().model == "scripted-v2"

    ModelBinding.objects.filter(agent="analyst").update(
        provider="offline", model="offline-rules-v1"
    )
    assert complete(request=agent_request("analyst")).provider == "offline"


def test_an_unknown_agent_is_an_error() -> None:
    with pytest.raises(LLMError, match="no binding"):
        binding_for_agent("astrologer")


def test_the_offline_engine_refuses_agents_it_has_no_rules_for(settings) -> None:
    settings.LLM_BINDINGS = {
        **settings.LLM_BINDINGS,
        "astrologer": {"provider": "offline", "model": "offline-rules-v1"},
    }
    request = agent_request("analyst")
    request = type(request)(**{**request.__dict__, "agent": "astrologer"})

    with pytest.raises(LLMError, match="no rules for agent 'astrologer'"):
        complete(request=request)


def test_an_anthropic_binding_must_name_a_priced_model() -> None:
    binding = ModelBinding(agent="analyst", provider="anthropic", model="claude-unpriced-9")

    with pytest.raises(ValidationError, match="model prices"):
        binding.full_clean()
    ModelBinding(agent="analyst", provider="anthropic", model="claude-haiku-4-5").full_clean()
