"""Leaving mid-session loses nothing; the state returns exactly the resume point (SPEC §3)."""

from __future__ import annotations

import pytest

from sessions_app.engine.selectors import session_state
from sessions_app.engine.services import answer_submit, message_fork
from sessions_app.models import AskMessage
from tests.engine.conftest import analyst, answer, narrator, script

pytestmark = pytest.mark.django_db


def test_leaving_in_the_middle_of_a_batch_and_coming_back_returns_the_same_card(session, bind):
    bind("analyst", "narrator")
    with script(analyst(), narrator("First card?", "Second card?")):
        answer(session, "Work stress")
    state = answer(session, "An answer to the first card")
    assert state["current_card"]["text"] == "Second card?"

    # The client closes the app (nothing is called) and opens it again.
    resumed = session_state(session)

    assert resumed == state
    assert resumed["phase"] == "dialogue"
    assert resumed["answered"][-1] == {
        "question": "First card?",
        "answer": "An answer to the first card",
    }


def test_a_fork_back_to_an_answer_deals_the_next_card_of_that_branch(session, bind):
    bind("analyst", "narrator")
    with script(analyst(), narrator("First card?", "Second card?")):
        answer(session, "Work stress")
    first_answer_state = answer(session, "First answer")
    second_card = first_answer_state["current_card"]
    with script(analyst(), narrator("Third card?")):
        answer(session, "Second answer")

    first_answer = session.messages.get(kind=AskMessage.Kind.ANSWER, text="First answer")
    message_fork(session=session, from_message=first_answer)

    state = session_state(session)
    assert state["current_card"] == second_card
    with script(analyst(), narrator("A new third card?")):
        answer_submit(session=session, card_id=second_card["id"], text="A different second answer")
    assert session_state(session)["current_card"]["text"] == "A new third card?"
    assert session.messages.filter(text="Second answer").exists()  # the old branch stays


def test_a_session_at_the_message_limit_refuses_the_answer_and_changes_nothing(session):
    from sessions_app.errors import ApplicationError

    card = session_state(session)["current_card"]
    session.__class__.objects.filter(pk=session.pk).update(message_count=100)
    before = session.messages.count()

    with pytest.raises(ApplicationError) as caught:
        answer_submit(session=session, card_id=card["id"], text="Work stress")

    assert caught.value.code == "E_SESSION_TOO_LONG"
    assert session.messages.count() == before
    assert session_state(session)["current_card"] == card


def test_a_session_near_the_limit_is_offered_closing_and_cannot_continue(session):
    from sessions_app.engine.services import last_thing_submit, session_continue, session_end
    from sessions_app.errors import ApplicationError

    session.__class__.objects.filter(pk=session.pk).update(message_count=90)
    state = answer(session, "Work stress")  # offline engine

    assert state["ready_to_close"] is True
    assert state["current_card"]["kind"] == "completion"
    with pytest.raises(ApplicationError) as caught:
        session_continue(session=session)
    assert caught.value.code == "E_SESSION_TOO_LONG"
    session_end(session=session)  # the closing still fits, note and reply included
    last_thing_submit(session=session, text="Thank you")
    assert session_state(session)["status"] == "completed"
