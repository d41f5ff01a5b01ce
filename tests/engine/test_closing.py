"""Closing in three stages, one last thing and the scheduler (SPEC §3)."""

from __future__ import annotations

import datetime as dt

import pytest
import time_machine

from psychologist.models import AnalysisRequest
from sessions_app.engine.selectors import session_state, thread_state
from sessions_app.engine.services import answer_submit, last_thing_submit, session_end
from sessions_app.models import AskMessage, Notification, UserProfile
from tests.engine.conftest import answer, card_of, event_types

pytestmark = pytest.mark.django_db


def closed_events(session) -> list[dict]:
    return [e.payload for e in session.events.filter(type="session.closed")]


def test_a_reschedule_in_one_last_thing_moves_the_session_and_ends_it_in_the_scheduler(session):
    answer(session, "Work stress")
    session_end(session=session)

    last_thing_submit(session=session, text="Could we reschedule? Friday at 7pm suits me better.")

    profile = UserProfile.objects.get(user=session.user)
    assert profile.schedule_weekdays == [5]
    assert profile.schedule_time == dt.time(19, 0)
    [note] = Notification.objects.filter(kind="schedule_changed")
    assert note.user == session.user
    assert note.payload["weekdays"] == [5]
    state = session_state(session)
    assert state["status"] == "completed"
    assert state["notice"] == {
        "kind": "reply",
        "text": "Done — your next session is on Friday.",
        "items": [],
    }
    assert thread_state(session)["intent"] == "scheduler"
    assert thread_state(session)["step"] == "confirmed"
    assert closed_events(session)[0]["ended_in"] == "scheduler"
    assert "schedule.changed" in event_types(session)
    assert AnalysisRequest.objects.filter(session=session).count() == 1


def test_a_reschedule_without_a_day_asks_for_one_first(session):
    session_end(session=session)
    last_thing_submit(session=session, text="I can't make it on Thursday next week")

    card = card_of(session)
    assert card["kind"] == "scheduler"
    assert session_state(session)["status"] == "active"

    answer_submit(session=session, card_id=card["id"], text="Saturday works")

    assert UserProfile.objects.get(user=session.user).schedule_weekdays == [6]
    assert session_state(session)["status"] == "completed"


def test_a_note_in_one_last_thing_gets_a_short_reply_and_closes(session):
    session_end(session=session)
    last_thing_submit(session=session, text="Thanks, this helped a bit.")

    state = session_state(session)
    assert state["status"] == "completed"
    assert state["notice"]["kind"] == "reply"
    assert state["notice"]["text"] == "Thank you for telling me. See you on Thursday."
    assert session.messages.filter(kind=AskMessage.Kind.NOTE).count() == 1
    assert closed_events(session)[0]["ended_in"] == "last_thing"


def test_finish_closes_with_the_event_and_the_analysis_request_together(session):
    session_end(session=session)
    last_thing_submit(session=session, finish=True)

    session.refresh_from_db()
    assert session.status == "completed"
    assert session.ended_at is not None
    assert session.final_risk_level == "L0"
    assert closed_events(session)[0]["ended_in"] == "finish"
    assert AnalysisRequest.objects.filter(session=session).count() == 1


def test_the_summary_covers_the_whole_dialogue_not_its_beginning(session):
    answer(session, "Work stress")
    for n in range(7):
        if card_of(session)["kind"] == "completion":
            break
        answer(session, f"Answer number {n} about the project deadline and my manager")
    answer_text = "The very last thing I said: my sister helps me"
    if card_of(session)["kind"] != "completion":
        answer(session, answer_text)
    session_end(session=session)
    session.refresh_from_db()
    assert "Work stress" in session.session_summary
    assert "sister" in session.session_summary or "Answer number 6" in session.session_summary


def test_the_next_session_day_is_computed_in_the_clients_time_zone(session):
    profile = UserProfile.objects.get(user=session.user)
    profile.time_zone = "Pacific/Auckland"
    profile.schedule_weekdays = [4, 5]
    profile.save()
    # Wednesday 12:00 UTC is already Thursday 01:00 in Auckland: the next session is Friday.
    with time_machine.travel(dt.datetime(2026, 12, 2, 12, 0, tzinfo=dt.UTC), tick=False):
        session_end(session=session)
    assert "See you on Friday." in session_state(session)["notice"]["text"]


def test_end_twice_is_refused_and_finish_before_the_closing_is_refused(session):
    with pytest.raises(Exception, match="E_VALIDATION"):
        last_thing_submit(session=session, finish=True)
    session_end(session=session)
    with pytest.raises(Exception, match="E_VALIDATION"):
        session_end(session=session)


def test_a_closing_with_every_model_down_still_closes_with_a_warm_line(session, settings):
    settings.LLM_BINDINGS = {
        agent: {"provider": "anthropic", "model": "claude-haiku-4-5"}
        for agent in settings.LLM_BINDINGS
    }
    answer(session, "Work stress")
    session_end(session=session)

    state = session_state(session)
    assert state["current_card"]["kind"] == "last_thing"
    assert state["notice"]["text"] == "Thank you for taking this time today. See you on Thursday."
    session.refresh_from_db()
    assert session.session_summary == "0 questions answered; the topic: «Work stress»."
