"""The counselor's workspace at the service layer (SPEC §1, §3 Crisis): claim, take
over, write, hand back, steer — and, while a person speaks, no agent and no card."""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
import time_machine
from django.core.serializers.json import DjangoJSONEncoder

from psychologist.llm.models import LLMCall
from sessions_app import selectors, services
from sessions_app.access import session_for, session_for_claim
from sessions_app.engine.selectors import session_state, thread_state
from sessions_app.engine.services import (
    counselor_message_send,
    message_submit,
    session_claim,
    session_continue,
    session_end,
    session_hand_back,
    session_take_over,
    steer_note_add,
)
from sessions_app.errors import ApplicationError
from sessions_app.models import AskMessage, AskSession
from sessions_app.privacy import CLIENT_MAX_PRIVACY
from sessions_app.realtime.frames import event_view
from tests import factories
from tests.engine.conftest import analyst, answer, event_types, narrator, script

pytestmark = pytest.mark.django_db

CRISIS_WORDS = "Honestly I want to kill myself"
NOW = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)


@pytest.fixture
def frank(db: Any) -> Any:
    return factories.on_duty_counselor("frank", first_name="Frank")


def refusal(call: Callable[..., object], /, *args: Any, **kwargs: Any) -> ApplicationError:
    """The error `call` must refuse with."""
    with pytest.raises(ApplicationError) as refused:
        call(*args, **kwargs)
    return refused.value


def in_crisis(session: AskSession, bind: Any) -> AskSession:
    bind("analyst", "narrator")
    with script(analyst(), narrator("What happens at work?", "And at night?")):
        answer(session, "Work stress")
    answer(session, CRISIS_WORDS)  # the net decides: no model is asked
    session.refresh_from_db()
    assert session.is_crisis
    assert session.alerted_at is not None
    return session


def taken_over(session: AskSession, counselor: Any) -> AskSession:
    session_claim(session=session_for_claim(counselor, session.pk), counselor=counselor)
    session_take_over(session=session, counselor=counselor)
    session.refresh_from_db()
    return session


def counts(session: AskSession) -> tuple[int, int]:
    calls = LLMCall.objects.filter(session=session).count()
    return calls, session.events.filter(type="card.dealt").count()


# --- claim ---------------------------------------------------------------------------------------


def test_an_alerted_counselor_claims_and_the_time_from_alert_to_claim_is_recorded(
    session, bind, erin, frank
):
    with time_machine.travel(NOW, tick=False) as clock:
        session = in_crisis(session, bind)
        clock.shift(timedelta(seconds=95))
        claimed = session_claim(session=session_for_claim(erin, session.pk), counselor=erin)

    assert claimed.counselor_handoff["counselor_id"] == erin.pk
    assert claimed.handoff_reason == "crisis_alert"
    assert claimed.handoff_time == NOW + timedelta(seconds=95)
    event = session.events.get(type="handoff.created")
    assert event.payload["seconds_to_claim"] == 95
    assert event.payload["counselor_id"] == erin.pk
    assert event.actor_user == erin


def test_once_claimed_the_claimer_may_open_it_and_every_other_counselor_still_gets_403(
    session, bind, erin, frank
):
    session = in_crisis(session, bind)
    before = refusal(session_for, erin, session.pk)
    assert (before.status, before.code) == (403, "E_FORBIDDEN")

    session_claim(session=session_for_claim(erin, session.pk), counselor=erin)

    assert session_for(erin, session.pk).pk == session.pk
    other = refusal(session_for, frank, session.pk)
    assert (other.status, other.code) == (403, "E_FORBIDDEN")


def test_a_second_claim_is_refused_with_its_own_code_naming_who_holds_it(
    session, bind, erin, frank
):
    session = in_crisis(session, bind)
    session_claim(session=session, counselor=erin)
    session_claim(session=session, counselor=erin)  # the holder again: nothing changes

    refused = refusal(
        lambda: session_claim(session=session_for_claim(frank, session.pk), counselor=frank)
    )

    assert (refused.status, refused.code) == (409, "E_ALREADY_CLAIMED")
    assert "Erin" in refused.detail
    assert session.events.filter(type="handoff.created").count() == 1


def test_claiming_a_closed_session_is_refused_with_a_clear_code(session, bind, erin):
    session = in_crisis(session, bind)
    AskSession.objects.filter(pk=session.pk).update(status=AskSession.Status.COMPLETED)

    refused = refusal(
        lambda: session_claim(session=session_for_claim(erin, session.pk), counselor=erin)
    )

    assert (refused.status, refused.code) == (409, "E_SESSION_CLOSED")


def test_a_counselor_neither_alerted_nor_in_the_caseload_cannot_claim(session, bind, dana):
    session = in_crisis(session, bind)  # dana is off duty: never alerted
    refused = refusal(session_for_claim, dana, session.pk)
    assert (refused.status, refused.code) == (403, "E_FORBIDDEN")


def test_the_crisis_queue_holds_only_live_unheld_sessions_and_names_them_neutrally(
    session, bind, erin, frank
):
    session = in_crisis(session, bind)
    [row] = selectors.crisis_queue(user=frank)
    assert row.pk == session.pk
    assert row.may_open is False  # alerted, not in his caseload: no name on the row
    assert row.label.startswith("Support session · ")
    assert "kill" not in row.label.lower()

    session_claim(session=session, counselor=erin)
    assert selectors.crisis_queue(user=frank) == []

    AskSession.objects.filter(pk=session.pk).update(
        handoff_counselor=None, handoff_time=None, status=AskSession.Status.COMPLETED_PARTIAL
    )
    assert selectors.crisis_queue(user=frank) == []


# --- take over: a person speaks, the engine is silent ---------------------------------------------


def test_while_a_counselor_speaks_no_agent_is_called_and_no_card_is_dealt(session, bind, erin):
    session = taken_over(in_crisis(session, bind), erin)
    before = counts(session)

    counselor_message_send(session=session, counselor=erin, text="I'm Erin. I'm here.")
    with script():  # any agent call would exhaust the (empty) script and fail the turn
        message_submit(session=session, text="Thank you. I'm scared.")
        message_submit(session=session, text="I am at home.")

    assert counts(session) == before
    state = session_state(session)
    assert state["current_card"] is None
    assert state["counselor"]["name"] == "Erin"
    assert state["counselor"]["since"] is not None
    assert [m["text"] for m in state["counselor_messages"]] == ["I'm Erin. I'm here."]
    assert state["answered"][-1] == {"question": "", "answer": "I am at home."}
    assert state["notice"]["kind"] == "crisis_resources"  # the resources stay in view
    received = session.events.filter(type="message.received").order_by("-seq").first()
    assert received.payload["to"] == "counselor"


def test_a_card_answered_as_the_counselor_took_over_reaches_the_counselor(session, bind, erin):
    session = in_crisis(session, bind)
    card_id = session_state(session)["current_card"]["id"]
    session = taken_over(session, erin)
    before = counts(session)

    from sessions_app.engine.services import answer_submit

    answer_submit(session=session, card_id=card_id, text="I am safe for now.")

    assert counts(session) == before
    last = AskMessage.objects.filter(session=session).order_by("-id").first()
    assert (last.role, last.kind, last.text) == ("client", "text", "I am safe for now.")


def test_continue_and_end_are_refused_while_a_counselor_speaks(session, bind, erin):
    session = taken_over(in_crisis(session, bind), erin)
    for move in (session_continue, session_end):
        refused = refusal(move, session=session)
        assert (refused.status, refused.code) == (409, "E_COUNSELOR_SPEAKING")
    assert LLMCall.objects.filter(session=session, agent="summarizer").count() == 0


def test_only_the_holder_takes_over_and_writes(session, bind, erin, frank, bob):
    session = in_crisis(session, bind)
    session_claim(session=session, counselor=erin)
    refused = refusal(session_take_over, session=session, counselor=bob)
    assert (refused.status, refused.code) == (409, "E_NOT_HOLDER")
    not_yet = refusal(counselor_message_send, session=session, counselor=erin, text="Hello")
    assert not_yet.code == "E_NOT_TAKEN_OVER"


def test_a_crisis_phrase_while_a_counselor_speaks_raises_the_risk_but_deals_no_card(
    session, bind, bob
):
    bind("analyst", "narrator")
    with script(analyst(), narrator("What happens at work?", "And at night?")):
        answer(session, "Work stress")
    session_claim(session=session, counselor=bob)  # his caseload: a general session
    session_take_over(session=session, counselor=bob)
    session.refresh_from_db()
    before = counts(session)

    message_submit(session=session, text=CRISIS_WORDS)

    session.refresh_from_db()
    assert session.final_risk_level == "L3"
    assert session.intervention_triggered is True
    assert thread_state(session)["intent"] == "crisis"
    assert counts(session) == before
    escalated = session.events.get(type="risk.escalated")
    assert escalated.payload["notified"] == 0  # the counselor is already there


# --- hand back -----------------------------------------------------------------------------------


def test_hand_back_resumes_the_ai_where_it_stood_with_the_human_part_as_the_recap(
    session, bind, bob
):
    bind("analyst", "narrator")
    with script(analyst(), narrator("What happens at work?", "And at night?")):
        answer(session, "Work stress")
    answer(session, "Meetings.")
    step, slots = thread_state(session)["step"], thread_state(session)["slots"]
    session_claim(session=session, counselor=bob)
    session_take_over(session=session, counselor=bob)
    counselor_message_send(session=session, counselor=bob, text="How is your sleep?")
    message_submit(session=session, text="Short, maybe five hours.")

    with script(analyst(), narrator("What keeps you up?")) as replay:
        result = session_hand_back(session=session, counselor=bob)

    prompt = replay.requests[0].messages[-1].content
    assert "(counselor) How is your sleep?" in prompt
    assert "Short, maybe five hours." in prompt
    assert "handed back" in prompt
    assert replay.requests[1].agent == "narrator"
    # The pause is acknowledged first (a fixed text); the Analyst's question waits behind it.
    check_in = "Thank you for waiting. How are you feeling right now?"
    assert result.card["text"] == check_in
    session.refresh_from_db()
    assert session.counselor_speaking is False
    assert thread_state(session)["step"] == step
    assert thread_state(session)["slots"] == slots
    state = session_state(session)
    assert state["counselor"] is None
    assert state["current_card"]["text"] == check_in
    assert event_types(session)[-4:-2] == ["counselor.handed_back", "analyst.responded"]
    assert answer(session, "Tired, but okay.")["current_card"]["text"] == "What keeps you up?"


# --- steer ---------------------------------------------------------------------------------------

STEER = "Canary-steer-7731: explore her sister as a support."


def test_a_steer_note_reaches_the_analysts_next_prompt_and_never_a_client_payload(
    session, bind, bob, alice, api_as
):
    bind("analyst", "narrator")
    with script(analyst(), narrator("What happens at work?", "And at night?")):
        answer(session, "Work stress")
    event = steer_note_add(session=session, counselor=bob, text=STEER)
    assert event.type == "steer.noted"

    answer(session, "Meetings.")
    with script(analyst(), narrator("Who could help?")) as replay:
        answer(session, "Nights are hard.")

    analyst_request, narrator_request = replay.requests
    assert STEER in analyst_request.messages[-1].content
    assert "Counselor guidance" in analyst_request.messages[-1].content
    assert STEER not in json.dumps([m.content for m in narrator_request.messages])
    # Delivered once: the call after does not carry it again.
    with script(analyst(), narrator("Anything else?")) as later:
        answer(session, "Maybe.")
    assert STEER not in later.requests[0].messages[-1].content

    client = api_as(alice)
    payloads = [
        json.dumps(session_state(session), cls=DjangoJSONEncoder),
        json.dumps(list(AskMessage.objects.filter(session=session).values("text", "payload"))),
        client.get(f"/api/ask/sessions/{session.pk}/tree").content.decode(),
        client.get(f"/api/ask/sessions/{session.pk}/state").content.decode(),
        client.post(
            "/api/ask/export", {"password": "pw-for-tests-1"}, format="json"
        ).content.decode(),
        json.dumps(
            [event_view(e, CLIENT_MAX_PRIVACY) for e in session.events.all()],
            cls=DjangoJSONEncoder,
        ),
    ]
    for payload in payloads:
        assert "Canary-steer-7731" not in payload
    assert "Canary-steer-7731" in json.dumps(
        [e.payload for e in session.events.filter(type="steer.noted")]
    )


# --- neutral titles ------------------------------------------------------------------------------


def test_the_automatic_title_is_a_neutral_label_never_the_clients_words(session, bind):
    with time_machine.travel(NOW, tick=False):
        fresh = services.session_create(owner=factories.ClientFactory(), actor=None)
    bind("analyst", "narrator")
    with script(analyst(), narrator("What happens at work?", "And at night?")):
        answer(session, "My boss yells at me every day")
    session.refresh_from_db()
    assert "boss" not in session.session_title
    assert session.session_title.startswith("Reflection · ")
    assert fresh.session_title == ""

    answer(session, CRISIS_WORDS)
    session.refresh_from_db()
    assert session.session_title.startswith("Support session · ")


def test_a_title_the_client_chose_is_kept(session, bind, alice):
    services.session_update(session=session, actor=alice, changes={"session_title": "Tuesday"})
    bind("analyst", "narrator")
    with script(analyst(), narrator("What happens at work?", "And at night?")):
        answer(session, "My boss yells at me every day")
    session.refresh_from_db()
    assert session.session_title == "Tuesday"
    assert session.title_by_client is True
