"""Opening a session (SPEC §3): intro, at most two hooks from history, the topic card."""

from __future__ import annotations

import pytest

from sessions_app import services
from sessions_app.engine.selectors import session_state, thread_state
from sessions_app.models import AskSession, UserProfile
from tests import factories
from tests.engine.conftest import answer

pytestmark = pytest.mark.django_db


def past_session(user, topic: str) -> AskSession:
    return factories.AskSessionFactory(
        user=user, status="completed", slots={"topic": topic}, session_summary="…"
    )


def test_hooks_come_from_the_last_session_and_the_profile_two_at_most(alice):
    past_session(alice, "sleep")
    past_session(alice, "my sister")
    UserProfile.objects.filter(user=alice).update(
        observed_patterns=["You tend to expect the worst before it happens."]
    )
    session = services.session_create(owner=alice, actor=alice)

    notice = session_state(session)["notice"]
    assert notice["text"] == "Good to see you again. Let's take a calm look at where you are today."
    assert notice["items"] == [
        "Last time you talked about «my sister».",
        "Something that came up before: You tend to expect the worst before it happens.",
    ]
    [started] = session.events.filter(type="session.started")
    assert started.payload["hooks"] == 2


def test_a_yes_to_the_suggested_topic_takes_the_suggestion(alice):
    past_session(alice, "my sister")
    session = services.session_create(owner=alice, actor=alice)
    answer(session, "yes")
    assert thread_state(session)["slots"]["topic"] == "my sister"
    session.refresh_from_db()
    # The title is a neutral label, never the client's words.
    assert session.session_title.startswith("Reflection · ")


def test_a_russian_client_is_greeted_in_russian(alice):
    UserProfile.objects.filter(user=alice).update(locale="ru")
    session = services.session_create(owner=alice, actor=alice)
    state = session_state(session)
    assert state["current_card"]["text"] == "О чём тебе хочется поговорить сегодня?"
    assert state["notice"]["text"].startswith("Привет.")


def test_a_minor_starts_with_the_guard_trigger_set(alice):
    UserProfile.objects.filter(user=alice).update(is_minor=True)
    session = services.session_create(owner=alice, actor=alice)
    assert thread_state(session)["slots"] == {"is_minor": True}


def test_a_crisis_session_starts_in_the_crisis_flow_with_the_resources(alice):
    session = services.session_create(
        owner=alice, actor=alice, session_type=AskSession.SessionType.CRISIS_INTERVENTION
    )
    state = session_state(session)
    assert thread_state(session)["intent"] == "crisis"
    assert state["current_card"]["kind"] == "crisis_resources"
    assert state["notice"]["kind"] == "crisis_resources"
