"""State follows the branch (SPEC §5): a fork or a workline switch brings back the
phase, step, slots, fatigue, ready-to-close and turn count of the path root → the new head."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, note, settings
from hypothesis import strategies as st

from sessions_app import services
from sessions_app.engine.flows import validator
from sessions_app.engine.graph import branch
from sessions_app.engine.selectors import session_state, thread_state, workline_path
from sessions_app.engine.services import (
    answer_submit,
    message_fork,
    message_submit,
    session_continue,
    workline_activate,
    workline_create,
)
from sessions_app.models import AskMessage, AskSession, Workline
from tests import factories
from tests.engine.conftest import answer, card_of

pytestmark = pytest.mark.django_db

TIRED = "I'm so tired, that's enough for today"


def state_of(session: AskSession) -> dict[str, Any]:
    """Everything that must follow the branch, as the client and the sandbox see it."""
    state, thread = session_state(session), thread_state(session)
    card = state["current_card"]
    return {
        "phase": state["phase"],
        "turn_count": state["turn_count"],
        "ready_to_close": state["ready_to_close"],
        "card_kind": card["kind"] if card else None,
        "answered": state["answered"],
        **{key: thread[key] for key in ("intent", "step", "slots", "pending_guard")},
        "suspended_intent": thread["suspended_intent"],
    }


def on_path(session: AskSession) -> list[AskMessage]:
    session.refresh_from_db()
    return workline_path(session.active_workline)


def cards_on_path(session: AskSession) -> list[AskMessage]:
    return [m for m in on_path(session) if m.kind == AskMessage.Kind.QUESTION_CARD]


def test_the_crisis_constant_is_the_flows_one():
    assert branch.CRISIS_INTENT == validator.CRISIS_FLOW


def test_a_fork_before_the_fatigue_brings_back_the_earlier_state_and_nothing_of_the_branch(
    session,
):
    answer(session, "Work stress")  # the topic; the offline engine answers
    answer(session, "My manager keeps piling work on me.")
    answer(session, "I stay late and feel anxious.")
    before = state_of(session)
    card = cards_on_path(session)[-1]
    answer(session, TIRED)
    tired = state_of(session)
    assert tired["ready_to_close"] is True
    assert tired["slots"].get("fatigue") is True
    assert tired["card_kind"] == "completion"

    message_fork(session=session, from_message=card)

    after = state_of(session)
    assert after == before
    assert after["ready_to_close"] is False
    assert "fatigue" not in after["slots"]
    # and the abandoned branch's tip, forked back to, is exactly as it was left
    tip = AskMessage.objects.filter(session=session, kind="question_card").latest("id")
    message_fork(session=session, from_message=tip)
    assert state_of(session) == tired


def test_a_fork_back_to_the_topic_card_returns_to_the_intro_phase(session):
    topic_card = cards_on_path(session)[0]
    answer(session, "Work stress")
    answer(session, "My manager keeps piling work on me.")
    assert session_state(session)["phase"] == "dialogue"

    message_fork(session=session, from_message=topic_card)

    state = state_of(session)
    assert state["phase"] == "intro"
    assert state["turn_count"] == 0
    assert "topic" not in state["slots"]
    assert state["step"] == validator.flow_get("reflection_session").first_step


def test_switching_worklines_brings_each_its_own_state(session):
    answer(session, "Work stress")
    answer(session, "My manager keeps piling work on me.")
    answer(session, TIRED)
    main_state = state_of(session)
    main = Workline.objects.get(session=session, name="main")

    other = workline_create(session=session, name="sleep")
    session.refresh_from_db()
    assert session.ready_to_close is False  # the offer belonged to main's last card
    message_submit(session=session, text="I sleep badly since the move.")
    other_state = state_of(session)
    assert other_state["ready_to_close"] is False
    assert "fatigue" not in other_state["slots"]

    workline_activate(session=session, workline=main)
    assert state_of(session) == main_state
    workline_activate(session=session, workline=other)
    assert state_of(session) == other_state


def test_a_fork_inside_a_crisis_keeps_the_crisis_flow(session):
    answer(session, "Work stress")
    card = cards_on_path(session)[-1]
    answer(session, "I want to kill myself tonight")
    session.refresh_from_db()
    assert session.current_intent_code == "crisis"

    message_fork(session=session, from_message=card)

    session.refresh_from_db()
    assert session.current_intent_code == "crisis"
    assert session.slots.get("crisis") is True
    assert session.final_risk_level in ("L3", "L4")


# --- the property -----------------------------------------------------------------------------

WORDS = [
    "My manager keeps piling work on me.",
    "I stay late and feel anxious at night.",
    "My sister says I should rest more.",
    "Sometimes I think I always fail.",
    TIRED,
    "Maybe a short walk would help.",
]
operations = st.lists(
    st.one_of(
        st.tuples(st.just("answer"), st.integers(min_value=0, max_value=len(WORDS) - 1)),
        st.tuples(st.just("fork"), st.integers(min_value=0, max_value=40)),
    ),
    min_size=1,
    max_size=9,
)


def _act(session: AskSession, text: str) -> None:
    """What a client does with the card showing: answer it, or Continue after a completion."""
    card = card_of(session)
    if card["kind"] == "completion":
        session_continue(session=session)
        card = card_of(session)
    answer_submit(session=session, card_id=card["id"], text=text)


def _path_actions(session: AskSession) -> list[str | None]:
    """What the client did along the active path: its words in order, None for a Continue
    (a completion card the path goes on from)."""
    path = on_path(session)
    actions: list[str | None] = []
    for index, message in enumerate(path):
        if message.role == "client" and message.kind in ("answer", "topic"):
            actions.append(message.text)
        elif message.payload.get("kind") == "completion" and index + 1 < len(path):
            actions.append(None)
    return actions


def _linear_replay(actions: list[str | None]) -> AskSession:
    client = factories.ClientFactory()
    linear = services.session_create(owner=client, actor=client)
    for action in actions:
        if action is None:
            session_continue(session=linear)
        else:
            _act(linear, action)
    return linear


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(ops=operations)
def test_a_forked_session_s_state_equals_a_linear_session_played_along_the_same_path(ops):
    client = factories.ClientFactory()
    session = services.session_create(owner=client, actor=client)
    _act(session, "Work stress")
    for n, op in enumerate(ops):
        if op[0] == "answer":
            # Numbered: the same words twice would be read as a client's retry.
            _act(session, f"{WORDS[op[1]]} ({n})")
        else:
            # "Continue from here" on a card the client saw (editing an answer is a fork from
            # its card): the state a linear session rests in at that card.
            cards = cards_on_path(session)
            if cards:
                message_fork(session=session, from_message=cards[op[1] % len(cards)])

    actions = _path_actions(session)
    note(f"operations {ops!r}; the path's actions {actions!r}")
    linear = _linear_replay(actions)

    assert state_of(session) == state_of(linear)


def test_a_fork_back_to_an_answer_counts_it_but_keeps_nothing_the_agents_did_after(session):
    answer(session, "Work stress")
    answer(session, "My manager keeps piling work on me.")
    counted = session_state(session)["turn_count"]
    answer(session, TIRED)
    assert session_state(session)["ready_to_close"] is True
    tired = AskMessage.objects.get(session=session, kind="answer", text=TIRED)

    message_fork(session=session, from_message=tired)

    state = state_of(session)
    assert state["turn_count"] == counted + 1  # the answer is on the path
    assert state["ready_to_close"] is False  # the closing offer came after it
    assert "fatigue" not in state["slots"]
