"""One more opinion (SPEC §3 Crisis, issue #26): with a model configured, the `safety` model
reads every client message after it is committed — through the real anthropic SDK against the
fake Messages API. Its verdict can raise the risk (through the one escalation path: event,
resources card, on-duty counselors alerted), never lower it; its failure, refusal or timeout
leaves the local layers alone, metered as a failed call; the offline engine is never asked."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connections

from psychologist.models import LLMCall
from sessions_app.engine.crisis.safety_model import SAFETY_TOOL
from sessions_app.models import AskMessage, AskSession, Notification, SessionEvent
from tests import factories
from tests import fake_anthropic as fake

pytestmark = pytest.mark.django_db

# Nothing the local net flags (checked below), something a reader might still worry about.
ORDINARY = "I sorted out my things today and I feel calm now."
NET_L3 = "honestly everyone would be better off without me"


@pytest.fixture
def safety_model(fake_anthropic: fake.FakeAnthropic, settings: Any) -> fake.FakeAnthropic:
    """The safety check on anthropic (the fake), every other agent on the offline engine."""
    settings.LLM_BINDINGS = {
        agent: {"provider": "offline", "model": "offline-rules-v1"}
        for agent in settings.LLM_BINDINGS
    } | {"safety": {"provider": "anthropic", "model": "claude-haiku-4-5"}}
    settings.LLM_SAFETY_TIMEOUT_SECONDS = 0.3
    return fake_anthropic


@pytest.fixture
def on_duty(db: Any) -> Any:
    return factories.on_duty_counselor("nina")


def verdict(level: str, category: str, confidence: float = 0.9, **kwargs: Any) -> fake.Reply:
    data = {"category": category, "level": level, "confidence": confidence}
    return fake.tool_use(SAFETY_TOOL, data, **kwargs)


def start(api_as: Any) -> tuple[Any, str]:
    client = factories.ClientFactory()
    factories.UserProfileFactory(user=client, locale="en-US", time_zone="UTC")
    api = api_as(client)
    created = api.post("/api/ask/sessions", {}, format="json")
    assert created.status_code == 201, created.content
    return api, created.json()["_id"]


def say(api: Any, session_id: str, text: str) -> dict[str, Any]:
    response = api.post(f"/api/ask/sessions/{session_id}/messages", {"text": text}, format="json")
    assert response.status_code == 200, response.content
    return response.json()


def escalations(session_id: str) -> list[dict[str, Any]]:
    events = SessionEvent.objects.filter(session_id=session_id, type="risk.escalated")
    return [event.payload for event in events.order_by("seq")]


def safety_requests(fake_api: fake.FakeAnthropic) -> list[dict[str, Any]]:
    return [r for r in fake_api.requests if (r.get("tool_choice") or {}).get("name") == SAFETY_TOOL]


def test_the_ordinary_line_is_not_flagged_by_the_local_net():
    from sessions_app.engine.safety import assess

    assert not assess(ORDINARY, "en-US", context=False).positive
    assert not assess(ORDINARY, "en-US", context=True).positive


def test_a_model_verdict_of_l4_escalates_a_line_the_local_net_let_pass(
    api_as, on_duty, safety_model
):
    safety_model.queue_for_tool(SAFETY_TOOL, verdict("L4", "preparatory"))
    api, session_id = start(api_as)

    state = say(api, session_id, ORDINARY)

    session = AskSession.objects.get(pk=session_id)
    assert session.final_risk_level == "L4"
    assert session.intervention_triggered is True
    [escalated] = escalations(session_id)
    assert escalated["source"] == "model"
    assert escalated["level"] == "L4"
    assert escalated["categories"] == ["preparatory"]
    assert escalated["spans"] == []  # the model quotes nothing back
    assert state["current_card"]["kind"] == "crisis_resources"
    assert state["notice"]["kind"] == "crisis_resources"
    assert session.messages.filter(kind=AskMessage.Kind.CRISIS_RESOURCES).exists()
    [alert] = Notification.objects.filter(kind=Notification.Kind.CRISIS_ALERT, session=session)
    assert alert.user == on_duty
    # The words were stored first; the Analyst's batch was superseded by the crisis.
    assert session.messages.filter(role="client", text=ORDINARY).count() == 1
    assert not session.messages.filter(kind=AskMessage.Kind.ANALYSIS).exists()
    [body] = safety_requests(safety_model)
    assert body["model"] == "claude-haiku-4-5"
    assert body["tool_choice"]["name"] == SAFETY_TOOL
    assert f"<client_words>{ORDINARY}</client_words>" in str(body["messages"])
    assert ORDINARY not in str(body["system"])
    [call] = LLMCall.objects.filter(agent="safety")
    assert (call.ok, call.session_id) == (True, session.pk)
    assert call.cost_micro_usd > 0


@pytest.mark.django_db(transaction=True)
def test_the_model_is_asked_after_the_words_are_committed_and_outside_any_transaction(
    api_as, on_duty, safety_model
):
    caller = connections["default"]
    seen: dict[str, bool] = {}

    def look(body: dict[str, Any]) -> None:
        if body["tool_choice"]["name"] != SAFETY_TOOL:
            return
        seen["in_transaction"] = caller.in_atomic_block
        try:  # another connection sees only what was committed
            seen["stored"] = AskMessage.objects.filter(role="client", text=ORDINARY).exists()
        finally:
            connections.close_all()

    safety_model.on_request = look
    safety_model.queue_for_tool(SAFETY_TOOL, verdict("L0", "none"))
    api, session_id = start(api_as)

    say(api, session_id, ORDINARY)

    assert seen == {"in_transaction": False, "stored": True}


FAILURES = {
    # one attempt and one retry, each cut at LLM_SAFETY_TIMEOUT_SECONDS
    "timeout": ([fake.slow(0.6, verdict("L4", "intent_plan")) for _ in range(2)], "timeout"),
    "529": ([fake.fault(529, retry_after_ms=5) for _ in range(2)], "overloaded"),
    "500": ([fake.fault(500, retry_after_ms=5) for _ in range(2)], "server_error"),
    "refusal": ([fake.text("I can't help with that.", stop_reason="refusal")], "refusal"),
    "max_tokens": ([verdict("L4", "method", stop_reason="max_tokens")], "max_tokens"),
}


@pytest.mark.parametrize("name", list(FAILURES))
def test_a_failed_safety_call_leaves_the_turn_to_the_local_layers(
    api_as, on_duty, safety_model, name
):
    replies, code = FAILURES[name]
    safety_model.queue_for_tool(SAFETY_TOOL, *replies)
    api, session_id = start(api_as)

    state = say(api, session_id, ORDINARY)

    session = AskSession.objects.get(pk=session_id)
    assert len(safety_requests(safety_model)) == len(replies)
    assert state["current_card"]["kind"] != "crisis_resources"
    assert session.messages.filter(kind=AskMessage.Kind.ANALYSIS).exists()  # the turn went on
    assert state["status"] == "active"
    assert session.final_risk_level in ("", None, "L0")
    assert session.intervention_triggered is False
    assert escalations(session_id) == []
    # A silent second opinion pages nobody (risk_unassessed is the Analyst's).
    assert not session.events.filter(type="risk.unassessed").exists()
    assert not Notification.objects.filter(session=session).exists()
    assert session.messages.filter(role="client", text=ORDINARY).count() == 1
    [call] = LLMCall.objects.filter(agent="safety")
    assert (call.ok, call.error_code) == (False, code)


def test_a_verdict_below_the_confidence_bar_changes_nothing(api_as, on_duty, safety_model):
    safety_model.queue_for_tool(SAFETY_TOOL, verdict("L4", "intent_plan", confidence=0.4))
    api, session_id = start(api_as)

    state = say(api, session_id, ORDINARY)

    assert escalations(session_id) == []
    assert state["current_card"]["kind"] != "crisis_resources"
    assert LLMCall.objects.get(agent="safety").ok


def test_the_model_never_lowers_what_the_local_net_raised(api_as, on_duty, safety_model):
    api, session_id = start(api_as)

    say(api, session_id, NET_L3)  # the net escalates: the model is not asked this turn
    assert safety_requests(safety_model) == []
    safety_model.queue_for_tool(SAFETY_TOOL, verdict("L0", "none", confidence=0.99))
    say(api, session_id, "Thanks, I am reading the numbers now.")

    session = AskSession.objects.get(pk=session_id)
    assert len(safety_requests(safety_model)) == 1  # asked about the next message
    assert session.final_risk_level == "L3"
    assert session.intervention_triggered is True
    assert session.current_intent_code == "crisis"
    assert [e["source"] for e in escalations(session_id)] == ["keyword"]
    assert LLMCall.objects.get(agent="safety").ok


def test_inside_the_crisis_flow_a_model_l4_raises_the_level_without_paging_twice(
    api_as, on_duty, safety_model
):
    api, session_id = start(api_as)
    say(api, session_id, NET_L3)
    safety_model.queue_for_tool(SAFETY_TOOL, verdict("L4", "intent_plan"))

    say(api, session_id, ORDINARY)  # the net lets it pass, even inside a crisis

    session = AskSession.objects.get(pk=session_id)
    assert session.final_risk_level == "L4"
    assert [(e["source"], e["level"]) for e in escalations(session_id)] == [
        ("keyword", "L3"),
        ("model", "L4"),
    ]
    assert Notification.objects.filter(kind=Notification.Kind.CRISIS_ALERT).count() == 1


def test_the_offline_engine_makes_no_safety_call(api_as, on_duty):
    api, session_id = start(api_as)

    say(api, session_id, ORDINARY)

    assert not LLMCall.objects.filter(agent="safety").exists()
    assert LLMCall.objects.filter(agent="analyst", provider="offline").exists()


@pytest.mark.parametrize("provider", ["offline", "scripted"])
def test_with_an_api_key_a_safety_binding_to_no_model_makes_no_call(
    api_as, on_duty, safety_model, settings, provider
):
    settings.LLM_BINDINGS = settings.LLM_BINDINGS | {
        "safety": {"provider": provider, "model": provider}
    }
    api, session_id = start(api_as)

    say(api, session_id, ORDINARY)

    assert safety_model.requests == []
    assert not LLMCall.objects.filter(agent="safety").exists()
