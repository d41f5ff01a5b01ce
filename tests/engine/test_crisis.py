"""Crisis (SPEC §3): the deterministic net on every client text plus the Analyst's signal; the
escalation commits with the client's words, with no model, worker or Redis needed."""

from __future__ import annotations

from typing import Any

import pytest

from psychologist.llm.scripted import use_script
from sessions_app.engine.selectors import session_state, thread_state
from sessions_app.engine.services import answer_submit
from sessions_app.models import AskMessage, AskSession, Notification
from tests import factories
from tests.engine.conftest import analyst, answer, card_of, event_types, narrator, script

pytestmark = pytest.mark.django_db


@pytest.fixture
def on_duty(db: Any) -> Any:
    counselor = factories.on_duty_counselor("erin")
    off = factories.CounselorFactory(username="frank")
    factories.UserProfileFactory(user=off, on_duty=False)
    return counselor


def test_the_keyword_net_escalates_a_phrase_the_analyst_missed_with_no_model_call(
    session, bind, on_duty
):
    bind("analyst", "narrator")
    with script(analyst(), narrator("What happens at work?", "And at night?")):
        answer(session, "Work stress")
    # The model would have said "no crisis"; it is never even asked: the net decides first.
    with use_script([analyst(crisis_signal=False)]) as unused:
        state = answer(session, "Honestly I think everyone would be better off dead without me")

    assert unused.remaining == 1
    session.refresh_from_db()
    assert session.final_risk_level == "L3"
    assert session.intervention_triggered is True
    assert session.session_type == AskSession.SessionType.CRISIS_INTERVENTION
    assert thread_state(session)["intent"] == "crisis"
    assert thread_state(session)["suspended_intent"] == "reflection_session"
    assert state["current_card"]["kind"] == "crisis_resources"
    assert state["notice"]["kind"] == "crisis_resources"
    # Region unknown (locale "en", no time zone of ours): the international list, emergency first.
    assert "emergency number" in state["notice"]["items"][0]
    assert any("findahelpline.com" in item for item in state["notice"]["items"])
    [alert] = Notification.objects.filter(kind="crisis_alert")
    assert alert.user == on_duty
    assert alert.payload == {"session_id": str(session.pk), "risk_level": "L3"}
    assert thread_state(session)["slots"]["counselor_notified"] is True
    types = event_types(session)
    assert types[types.index("answer.received", 5) + 1 :][:2] == [
        "intent.suspended",
        "risk.escalated",
    ]


def test_the_escalation_and_the_resources_exist_with_every_model_down(session, bind, settings):
    settings.LLM_BINDINGS = {
        agent: {"provider": "anthropic", "model": "claude-haiku-4-5"}
        for agent in settings.LLM_BINDINGS
    }  # no API key: any model call would fail
    state = answer(session, "Я не хочу больше жить")

    assert state["current_card"]["kind"] == "crisis_resources"
    # Written in Russian by an English-locale client: answered in Russian.
    assert "Прямо сейчас можно обратиться" in state["notice"]["text"]
    session.refresh_from_db()
    assert session.final_risk_level == "L3"
    assert session.messages.filter(kind=AskMessage.Kind.TOPIC).count() == 1
    assert session.messages.filter(kind=AskMessage.Kind.CRISIS_RESOURCES).count() == 1
    assert "risk.escalated" in event_types(session)


def test_the_analysts_crisis_signal_escalates_too(session, bind, on_duty):
    bind("analyst", "narrator")
    with script(analyst(crisis_signal=True)):
        state = answer(session, "Things have been very dark lately")

    session.refresh_from_db()
    assert session.final_risk_level == "L3"
    [event] = session.events.filter(type="risk.escalated")
    assert event.payload["source"] == "analyst"
    assert state["current_card"]["kind"] == "crisis_resources"


def test_risk_never_goes_down_and_a_second_signal_raises_it_to_l4(session, bind):
    bind("analyst", "narrator")
    answer(session, "I want to kill myself")
    # In the crisis flow the Analyst says all is calm: the level stays.
    with script(analyst(crisis_signal=False, state_after="support"), narrator("Who is near?")):
        answer(session, "I am at home now")
    session.refresh_from_db()
    assert session.final_risk_level == "L3"

    with script():
        answer_submit(session=session, card_id=card_of(session)["id"], text="I want to die")
    session.refresh_from_db()
    assert session.final_risk_level == "L4"


def test_a_refused_analysis_is_never_read_as_no_risk(session, bind):
    bind("analyst", "narrator")
    refusal = {"agent": "analyst", "text": "I can't help with that.", "stop_reason": "refusal"}
    with script(refusal):
        state = answer(session, "Work stress")

    assert state["current_card"]["kind"] == "fallback"
    session.refresh_from_db()
    assert session.final_risk_level == "L2"
    assert session.follow_up_needed is True
    [event] = session.events.filter(type="risk.unassessed")
    assert event.payload["reason"] == "refusal"
    assert session.messages.filter(kind=AskMessage.Kind.TOPIC, text="Work stress").exists()


def test_a_truncated_analysis_is_never_read_as_no_risk(session, bind):
    bind("analyst", "narrator")
    truncated = {"agent": "analyst", "text": "The user", "stop_reason": "max_tokens"}
    with script(truncated):
        answer(session, "Work stress")
    [event] = session.events.filter(type="risk.unassessed")
    assert event.payload["reason"] == "max_tokens"


def test_a_crisis_in_one_last_thing_keeps_the_session_open(session):
    from sessions_app.engine.services import last_thing_submit, session_end

    session_end(session=session)
    last_thing_submit(session=session, text="I keep thinking about suicide")

    state = session_state(session)
    assert state["status"] == "active"
    assert state["phase"] == "dialogue"
    assert state["current_card"]["kind"] == "crisis_resources"
