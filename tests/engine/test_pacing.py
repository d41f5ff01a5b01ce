"""Pacing, fatigue and meta questions with the scripted provider (SPEC §3, session design §8–9)."""

from __future__ import annotations

from typing import Any

import pytest

from sessions_app.engine.selectors import session_state
from sessions_app.engine.services import session_continue
from tests.engine.conftest import analyst, answer, card_of, event_types, narrator, script

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def scripted(bind: Any) -> None:
    bind("analyst", "narrator")


def batch(**fields: Any) -> list[dict[str, Any]]:
    """One Analyst reply and the Narrator's two cards for it."""
    questions = fields.pop("questions", None)
    if questions is None:
        questions = ["The user avoids a hard talk.", "The user feels tense."]
    cards = [f"Card {n}: {q.replace('The user', 'do you')}" for n, q in enumerate(questions, 1)]
    replies = [analyst(questions=questions, **fields)]
    return replies + ([narrator(*cards)] if questions else [])


def play(session: Any, turns: int, last: dict[str, Any] | None = None, **fields: Any) -> dict:
    """From the topic card, answer until `turns` rounds are complete (two cards a batch). The
    Analyst sees `turn_count == turns` on the last call, which replies with `last`."""

    def reply(at: int) -> list[dict[str, Any]]:
        return batch(**(last if last is not None and at == turns else fields))

    with script(*reply(0)):
        state = answer(session, "Work stress")
    while state["turn_count"] < turns:
        completing = state["turn_count"] % 2 == 1
        with script(*(reply(state["turn_count"] + 1) if completing else [])):
            state = answer(session, f"An answer about work, round {state['turn_count']}")
    return state


def play_on(session: Any, turns: int, **fields: Any) -> dict[str, Any]:
    state = session_state(session)
    while state["turn_count"] < turns:
        completing = state["turn_count"] % 2 == 1
        with script(*(batch(**fields) if completing else [])):
            state = answer(session, f"round {state['turn_count']}")
    return state


def test_session_complete_is_not_honoured_before_four_turns(session):
    state = play(session, 2, session_complete=True)
    assert state["ready_to_close"] is False
    assert card_of(session)["kind"] == "question"


def test_session_complete_after_four_turns_ends_the_batch_with_the_completion_card(session):
    last = {"questions": ["The user found a first step."], "session_complete": True}
    state = play(session, 4, last=last)
    assert state["turn_count"] == 4
    assert state["ready_to_close"] is True
    assert state["current_card"]["kind"] == "question"  # the last question first …
    with script():
        state = answer(session, "a small step on Monday")
    assert state["current_card"]["kind"] == "completion"  # … then the completion card
    assert state["current_card"]["text"] == "Looks like we covered this well. End the session?"
    assert "pacing.ready_to_close" in event_types(session)


def test_continue_clears_the_signal_and_the_dialogue_goes_on(session):
    state = play(session, 4, last={"questions": [], "session_complete": True})
    assert state["current_card"]["kind"] == "completion"

    session_continue(session=session)

    state = session_state(session)
    assert state["ready_to_close"] is False
    assert state["current_card"]["kind"] == "open"
    with script(*batch()):
        state = answer(session, "There is one more thing about my sister.")
    assert state["ready_to_close"] is False
    assert state["current_card"]["kind"] == "question"


def test_the_engine_offers_closing_at_eight_turns_whatever_the_analyst_says(session):
    state = play(session, 6)
    assert state["ready_to_close"] is False
    state = play_on(session, 8, session_complete=False)
    assert state["turn_count"] == 8
    assert state["ready_to_close"] is True
    reasons = [e.payload["reason"] for e in session.events.filter(type="pacing.ready_to_close")]
    assert reasons == ["hard_limit"]


def test_a_tired_client_gets_no_next_question_and_the_session_is_ready_to_close(session):
    play(session, 2)
    # The Analyst even proposes more questions; the engine still asks nothing more.
    with script(analyst(session_complete=False)):
        state = answer(session, "I'm tired, enough for today")

    assert state["ready_to_close"] is True
    assert state["current_card"]["kind"] == "completion"
    analysis = session.messages.filter(kind="analysis").order_by("-id").first()
    assert analysis.payload["output"]["questions"] == []
    assert "tired" in analysis.text
    reasons = [e.payload["reason"] for e in session.events.filter(type="pacing.ready_to_close")]
    assert reasons == ["fatigue"]


def test_fatigue_in_the_middle_of_a_batch_skips_its_remaining_cards(session):
    with script(*batch()):
        answer(session, "Work stress")
    with script(analyst(questions=[], session_complete=True)):
        state = answer(session, "I am exhausted, I do not want to continue")
    assert state["current_card"]["kind"] == "completion"


def test_a_meta_question_gets_the_focus_back_and_the_session_goes_on(session):
    play(session, 2)
    reply = batch(questions=["What is happening for the user right now?"])
    with script(*reply):
        state = answer(session, "Why do you keep asking me questions? Who are you?")

    assert state["ready_to_close"] is False
    assert state["status"] == "active"
    assert state["current_card"]["kind"] == "question"
    assert "right now" in state["current_card"]["text"]


def test_a_meta_question_mid_batch_goes_straight_to_the_analyst(session):
    with script(*batch()):
        answer(session, "Work stress")
    with script(*batch(questions=["What is happening for the user right now?"])):
        state = answer(session, "are you a bot?")
    assert state["turn_count"] == 1
    assert state["current_card"]["kind"] == "question"


def test_mood_delta_is_stored_with_every_analyst_reply(session):
    with script(*batch(mood_delta="declining")):
        answer(session, "Work stress")
    [event] = session.events.filter(type="analyst.responded")
    assert event.payload["mood_delta"] == "declining"
    analysis = session.messages.get(kind="analysis")
    assert analysis.payload["mood_delta"] == "declining"


def test_an_insight_is_shown_as_the_notice_of_the_next_batch(session):
    with script(
        analyst(suggested_insight="The user treats a harsh thought as a fact."),
        narrator("Which thought?", "What else?", insight="You treat a harsh thought as a fact."),
    ):
        state = answer(session, "Work stress")
    assert state["notice"] == {
        "kind": "insight",
        "text": "You treat a harsh thought as a fact.",
        "items": [],
    }
