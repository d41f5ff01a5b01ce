"""Flows as data: guards checked by code, validation events, detours, STATE_JSON,
admin edits applied on the next turn, and load_flows."""

from __future__ import annotations

import json
from io import StringIO
from typing import Any

import pytest
from django.core.management import CommandError, call_command
from django.urls import reverse

from sessions_app.engine.flows.validator import (
    Move,
    move_validate,
    pending_guard,
    route,
    state_json_split,
)
from sessions_app.engine.selectors import flow_get, session_state, thread_state
from sessions_app.models import Flow, FlowGuard, FlowStep, UserProfile
from tests import factories
from tests.engine.conftest import analyst, answer, card_of, event_types, narrator, script

pytestmark = pytest.mark.django_db


def validate(step: str, move: Move, slots: dict[str, Any] | None = None, intent: str = "") -> Any:
    flow = flow_get(intent or "reflection_session")
    return move_validate(flow=flow, intent=flow.code, step=step, slots=slots or {}, move=move)


def blocked(session: Any) -> list[dict[str, Any]]:
    return [e.payload for e in session.events.filter(type="validation.blocked").order_by("seq")]


# --- the validator --------------------------------------------------------------------------


def test_a_guard_is_dormant_while_its_trigger_is_unset():
    outcome = validate("intro", Move("dialogue", {"topic": "work"}))
    assert outcome.accepted
    assert outcome.step == "dialogue"
    assert pending_guard(flow_get("reflection_session"), "intro", {}) is None


def test_an_active_guard_blocks_a_legal_move_and_names_its_missing_slots():
    outcome = validate("intro", Move("dialogue", {"guardian_name": "Maria"}), {"is_minor": True})
    assert not outcome.accepted
    assert outcome.step == "intro"
    assert outcome.reason == "guard"
    assert outcome.guard == "require_guardian_consent"
    assert outcome.missing_slots == ["guardian_contact"]
    assert outcome.slots["guardian_name"] == "Maria"  # merged first, even when blocked
    assert outcome.event().type == "validation.blocked"
    assert outcome.event().payload["missing_slots"] == ["guardian_contact"]


def test_slots_merge_before_the_guard_so_filling_them_lets_the_move_through():
    update = {"guardian_name": "Maria", "guardian_contact": "+49 30 1234"}
    outcome = validate("intro", Move("dialogue", update), {"is_minor": True})
    assert outcome.accepted
    assert outcome.event().type == "transition.applied"
    assert outcome.event().payload["slots_updated"] == ["guardian_contact", "guardian_name"]
    assert pending_guard(flow_get("reflection_session"), "dialogue", outcome.slots) is None


def test_an_illegal_move_is_rejected_before_any_guard_is_consulted():
    outcome = validate("intro", Move("insight"), {"is_minor": True})
    assert outcome.reason == "illegal_transition"
    assert outcome.guard is None


def test_staying_on_the_step_is_always_legal_even_under_an_active_guard():
    outcome = validate("intro", Move("intro"), {"is_minor": True})
    assert outcome.accepted


@pytest.mark.parametrize(
    ("move", "reason"),
    [
        (Move("nowhere"), "unknown_step"),
        (Move(None), "unknown_step"),
        (Move("dialogue", ["not", "an", "object"]), "malformed_slots"),
        (Move("dialogue", {"deep": {"nested": 1}}), "malformed_slots"),
        (Move("dialogue", {"k" * 31: 1}), "malformed_slots"),
        (Move("dialogue", intent="scheduler"), "wrong_intent"),
        (Move(None, malformed="state_json"), "malformed_state_json"),
    ],
)
def test_malformed_moves_are_rejected_the_same_way_and_never_crash(move, reason):
    outcome = validate("intro", move, {"topic": "work"})
    assert not outcome.accepted
    assert outcome.step == "intro"
    assert outcome.reason == reason
    assert outcome.event().type == "validation.blocked"


def test_the_crisis_guard_needs_a_safety_plan_and_a_notified_counselor_before_closing():
    slots = {"crisis": True, "safety_plan": "call my sister"}
    outcome = validate("safety_plan", Move("closing"), slots, intent="crisis")
    assert outcome.guard == "require_safety_plan"
    assert outcome.missing_slots == ["counselor_notified"]
    slots["counselor_notified"] = True
    assert validate("safety_plan", Move("closing"), slots, intent="crisis").accepted


@pytest.mark.parametrize(
    ("text", "shown", "data", "malformed"),
    [
        (
            'Hello\nSTATE_JSON: {"state_after": "dialogue"}',
            "Hello",
            {"state_after": "dialogue"},
            False,
        ),
        ("Hello\nSTATE_JSON: {broken", "Hello", None, True),
        ('Hello\nSTATE_JSON: ["a list"]\n\n', "Hello", None, True),
        ("Hello, no state here", "Hello, no state here", None, False),
    ],
)
def test_a_trailing_state_json_line_is_parsed_and_stripped(text, shown, data, malformed):
    assert state_json_split(text) == (shown, data, malformed)


def test_the_router_sends_crisis_words_to_crisis_and_a_move_wish_to_the_scheduler():
    assert route(text="I want to die", locale="en", intent="reflection_session") == "crisis"
    assert route(text="can we reschedule?", locale="en", intent="reflection_session") == (
        "scheduler"
    )
    assert route(text="work is hard", locale="en", intent="reflection_session") == (
        "reflection_session"
    )


# --- through the engine ---------------------------------------------------------------------


@pytest.fixture
def minor_session(alice: Any, bind: Any) -> Any:
    from sessions_app import services

    UserProfile.objects.filter(user=alice).update(is_minor=True)
    bind("analyst", "narrator")
    return services.session_create(owner=alice, actor=alice)


def test_a_guard_blocks_the_model_leaving_intro_early_and_the_reply_is_still_shown(minor_session):
    session = minor_session
    with script(analyst(state_after="dialogue"), narrator("What is hard at school?", "Who helps?")):
        state = answer(session, "School is hard")

    assert thread_state(session)["step"] == "intro"
    [block] = blocked(session)
    assert block["attempted_step"] == "dialogue"
    assert block["guard"] == "require_guardian_consent"
    assert block["missing_slots"] == ["guardian_name", "guardian_contact"]
    guard = thread_state(session)["pending_guard"]
    assert guard["code"] == "require_guardian_consent"
    # the reply is never swallowed: the engine's guard card first, then the Narrator's cards
    texts = [c["text"] for c in session.messages.filter(kind="text").last().payload["cards"]]
    assert texts[1:] == ["What is hard at school?", "Who helps?"]
    assert state["current_card"]["text"].startswith("Before we go on")
    assert "pending_guard" not in json.dumps(state)  # clients never see it


def test_pending_guard_clears_once_the_slots_are_filled_and_the_move_is_then_accepted(
    minor_session,
):
    session = minor_session
    with script(analyst(state_after="dialogue"), narrator("What is hard at school?")):
        answer(session, "School is hard")
    answer(session, "Maria Ivanova")  # the guard card fills guardian_name
    assert thread_state(session)["pending_guard"]["missing_slots"] == ["guardian_contact"]

    fill = {"guardian_contact": "maria@example.org"}
    with script(analyst(state_after="dialogue", slots_updated=fill), narrator("And now?")):
        answer(session, "Maths, mostly")

    thread = thread_state(session)
    assert thread["pending_guard"] is None
    assert thread["step"] == "dialogue"
    assert session_state(session)["phase"] == "dialogue"
    applied = session.events.filter(type="transition.applied").order_by("-seq").first()
    assert applied.payload["from_step"] == "intro"
    assert applied.payload["to_step"] == "dialogue"


def test_a_model_move_to_an_unknown_step_is_blocked_and_the_reply_still_shown(session, bind):
    bind("analyst", "narrator")
    with script(analyst(state_after="the_moon"), narrator("What matters most?")):
        state = answer(session, "Work stress")
    assert blocked(session)[0]["reason"] == "unknown_step"
    assert thread_state(session)["step"] == "intro"
    assert state["current_card"]["text"] == "What matters most?"


def test_a_plain_text_model_move_arrives_as_a_state_json_line(session, bind):
    bind("analyst", "narrator")
    plain = {
        "agent": "analyst",
        "text": "The user avoids a hard talk.\n"
        'STATE_JSON: {"state_after": "dialogue", "slots_updated": {"topic": "work"}, '
        '"crisis_signal": false, "session_complete": false, "mood_delta": "stable"}',
        "stop_reason": "end_turn",
    }
    with script(plain, narrator("Do you avoid a hard talk?")):
        state = answer(session, "Work stress")
    assert thread_state(session)["step"] == "dialogue"
    assert state["current_card"]["text"] == "Do you avoid a hard talk?"
    analysis = session.messages.get(kind="analysis")
    assert analysis.payload["output"]["questions"] == ["The user avoids a hard talk."]


def test_a_scheduler_detour_from_the_middle_of_a_dialogue_resumes_it(session, bind):
    bind("analyst", "narrator")
    with script(analyst(slots_updated={"theme": "work"}), narrator("First?", "Second?")):
        answer(session, "Work stress")
    state = answer(session, "Can we reschedule our next session? Friday would suit me better.")

    assert UserProfile.objects.get(user=session.user).schedule_weekdays == [5]
    types = event_types(session)
    assert types.index("intent.suspended") < types.index("schedule.changed")
    assert types.index("schedule.changed") < types.index("intent.resumed")
    thread = thread_state(session)
    assert thread["intent"] == "reflection_session"
    assert thread["step"] == "dialogue"
    assert thread["slots"]["theme"] == "work"
    assert thread["suspended_intent"] is None
    assert state["current_card"]["text"] == "Second?"  # the batch goes on where it was
    assert state["notice"]["text"] == "Done — your next session is on Friday."
    assert state["status"] == "active"


def test_a_guard_added_in_admin_changes_the_next_turn_without_a_restart(session, bind, client):
    bind("analyst", "narrator")
    wants = {"wants_insight": True}
    with script(analyst(state_after="dialogue"), narrator("One?")):
        answer(session, "Work stress")
    with script(analyst(state_after="insight", slots_updated=wants), narrator("Two?")):
        answer(session, "Answer one")
    assert thread_state(session)["step"] == "insight"
    with script(analyst(state_after="dialogue"), narrator("Three?")):
        answer(session, "Answer two")
    assert thread_state(session)["step"] == "dialogue"

    ops = factories.OpsFactory(username="olga", is_superuser=True)
    client.force_login(ops)
    step = FlowStep.objects.get(flow__code="reflection_session", code="dialogue")
    response = client.post(
        reverse("admin:sessions_app_flowguard_add"),
        {
            "step": step.pk,
            "code": "require_takeaway",
            "description": "Name one takeaway before the insight.",
            "trigger_slot": "wants_insight",
            "trigger_value": "true",
            "required_slots": '["takeaway"]',
        },
    )
    assert response.status_code == 302, response.content[:2000]

    with script(analyst(state_after="insight", slots_updated=wants), narrator("Four?")):
        answer(session, "Answer three")

    assert thread_state(session)["step"] == "dialogue"
    assert blocked(session)[-1]["guard"] == "require_takeaway"
    assert card_of(session)["text"] == "Four?"


# --- files, command, admin ------------------------------------------------------------------


def test_the_built_in_flows_are_installed_by_the_migration():
    assert set(Flow.objects.values_list("code", flat=True)) >= {
        "reflection_session",
        "scheduler",
        "crisis",
    }
    codes = list(
        FlowStep.objects.filter(flow__code="reflection_session").values_list("code", flat=True)
    )
    assert codes == ["intro", "topic", "dialogue", "insight", "closing"]
    assert set(FlowGuard.objects.values_list("code", flat=True)) >= {
        "require_safety_plan",
        "require_guardian_consent",
    }


def flow_file(tmp_path: Any, name: str, data: Any) -> str:
    path = tmp_path / name
    path.write_text(data if isinstance(data, str) else json.dumps(data))
    return str(path)


CUSTOM = {
    "code": "check_in",
    "name": "Check-in",
    "steps": [
        {"code": "ask", "order": 1, "allowed_next": ["done"], "prompt_fragment": "Ask."},
        {
            "code": "done",
            "order": 2,
            "allowed_next": [],
            "guards": [
                {
                    "code": "needs_mood",
                    "trigger_slot": "checked",
                    "trigger_value": True,
                    "required_slots": ["mood"],
                }
            ],
        },
    ],
}


def test_load_flows_is_an_idempotent_upsert(tmp_path):
    path = flow_file(tmp_path, "check_in.json", CUSTOM)
    call_command("load_flows", path, stdout=StringIO())
    call_command("load_flows", path, stdout=StringIO())
    assert Flow.objects.filter(code="check_in").count() == 1
    assert FlowStep.objects.filter(flow__code="check_in").count() == 2
    edited = {**CUSTOM, "steps": CUSTOM["steps"][:1]}
    edited["steps"][0] = {**edited["steps"][0], "allowed_next": []}
    call_command("load_flows", flow_file(tmp_path, "check_in.json", edited), stdout=StringIO())
    assert list(FlowStep.objects.filter(flow__code="check_in").values_list("code", flat=True)) == [
        "ask"
    ]


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("{not json", "line 1, column 2"),
        ({**CUSTOM, "steps": [{"code": "ask"}]}, "steps/0: 'allowed_next' is a required property"),
        (
            {**CUSTOM, "steps": [{"code": "ask", "allowed_next": ["nope"]}]},
            "steps/0/allowed_next/0: 'nope' is not a step",
        ),
        ({**CUSTOM, "code": "Bad Code"}, "code: 'Bad Code' does not match"),
    ],
)
def test_a_malformed_flow_file_names_the_field_and_nothing_is_half_loaded(
    tmp_path, content, message
):
    good = flow_file(tmp_path, "good.json", CUSTOM)
    bad = flow_file(tmp_path, "bad.json", content)
    with pytest.raises(CommandError, match=message.replace("(", r"\(").replace(")", r"\)")):
        call_command("load_flows", good, bad, stdout=StringIO())
    assert not Flow.objects.filter(code="check_in").exists()


@pytest.mark.parametrize("model", [Flow, FlowStep, FlowGuard])
def test_the_flow_admin_pages_open_for_ops(client, model):
    ops = factories.OpsFactory(username="olga", is_superuser=True)
    client.force_login(ops)
    name = model._meta.model_name
    assert client.get(reverse(f"admin:sessions_app_{name}_changelist")).status_code == 200
    obj = model.objects.order_by("pk").first()
    assert (
        client.get(reverse(f"admin:sessions_app_{name}_change", args=[obj.pk])).status_code == 200
    )


def test_the_analyst_is_told_the_steps_prompt_fragment_the_slots_and_the_pending_guard(
    minor_session,
):
    with script(analyst(state_after="dialogue"), narrator("One?")) as provider:
        answer(minor_session, "School is hard")
    with script(analyst(state_after="dialogue"), narrator("Two?")) as provider:
        answer(minor_session, "Maria")  # the guard card: its answer fills guardian_name
        answer(minor_session, "Maths")
    final = provider.requests[0].messages[-1].content
    assert "Opening. The client has just chosen what to talk about." in final
    assert '"guardian_name": "Maria"' in final
    assert '"pending_guard": {"code": "require_guardian_consent"' in final
    assert '"missing_slots": ["guardian_contact"]' in final


# --- flows from any domain -------------------------------------------------------

BOOKING = {
    "code": "visit_booking",
    "name": "Visit booking",
    "reply_as_written": True,
    "steps": [
        {
            "code": "who",
            "order": 1,
            "allowed_next": ["when"],
            "guards": [
                {
                    "code": "minor_needs_consent",
                    "trigger_slot": "is_child",
                    "trigger_value": True,
                    "required_slots": ["guardian_name", "guardian_consent"],
                }
            ],
        },
        {"code": "when", "order": 2, "allowed_next": ["done"], "reply_as_written": False},
        {"code": "done", "order": 3, "allowed_next": []},
    ],
}


def plain(text: str, move: dict[str, Any]) -> dict[str, Any]:
    """A plain-text model's reply: its words, then the move alone on a STATE_JSON line."""
    body = f"{text}\nSTATE_JSON: {json.dumps(move)}"
    return {"agent": "analyst", "text": body, "stop_reason": "end_turn"}


@pytest.fixture
def booking_session(alice: Any, bind: Any, tmp_path: Any) -> Any:
    from sessions_app import services
    from sessions_app.engine.services import flow_files_load
    from sessions_app.models import AskSession

    path = tmp_path / "visit_booking.json"
    path.write_text(json.dumps(BOOKING))
    flow_files_load([path])
    bind("analyst", "narrator")
    session = services.session_create(owner=alice, actor=alice)
    AskSession.objects.filter(pk=session.pk).update(
        current_intent_code="visit_booking", current_step_code="who"
    )
    session.refresh_from_db()
    return session


def test_a_state_json_line_with_only_the_move_takes_safe_defaults_for_the_rest(session, bind):
    bind("analyst", "narrator")
    move = {"state_after": "dialogue", "slots_updated": {"topic": "work"}}
    with script(plain("The user avoids a hard talk.", move), narrator("Do you avoid it?")):
        state = answer(session, "Work stress")

    assert "analyst.failed" not in event_types(session)
    assert thread_state(session)["step"] == "dialogue"
    assert state["current_card"]["text"] == "Do you avoid it?"
    output = session.messages.get(kind="analysis").payload["output"]
    assert output["crisis_signal"] is False
    assert output["session_complete"] is False
    assert output["mood_delta"] == "stable"
    assert output["questions"] == ["The user avoids a hard talk."]


def test_risk_still_comes_from_the_safety_net_when_the_move_line_says_nothing_of_it(session, bind):
    bind("analyst", "narrator")
    move = {"state_after": "dialogue", "slots_updated": {}}
    with script(plain("The user is worn out.", move), narrator("What wears you out?")):
        answer(session, "Work stress")
    with script():  # the net escalates before any model is asked
        answer(session, "I want to kill myself tonight")
    session.refresh_from_db()
    assert session.current_intent_code == "crisis"
    assert session.final_risk_level in ("L3", "L4")
    assert "risk.escalated" in event_types(session)


def test_a_move_line_that_is_not_json_is_still_re_asked_and_never_crashes(session, bind):
    bind("analyst", "narrator")
    broken = {"agent": "analyst", "text": "Hm.\nSTATE_JSON: {nope", "stop_reason": "end_turn"}
    with script(broken, broken, broken):
        state = answer(session, "Work stress")
    assert "analyst.failed" in event_types(session)
    assert state["current_card"]["kind"] == "fallback"


def test_a_flow_that_shows_the_reply_as_written_skips_the_narrator_and_the_client_sees_it(
    booking_session, api_as, alice
):
    session = booking_session
    reply = "Since Matthew is a child, I need a guardian's name and consent first."
    move = {"state_after": "when", "slots_updated": {"is_child": True, "patient": "Matthew"}}
    client = api_as(alice)
    url = reverse("sessions:session-messages", kwargs={"session_id": session.pk})
    with script(plain(reply, move)) as provider:  # no Narrator recording: none may be asked
        response = client.post(url, {"text": "Book my son Matthew, he is 7"}, format="json")

    assert response.status_code == 200
    assert response.json()["current_card"]["text"] == reply
    assert [r.agent for r in provider.requests] == ["analyst"]
    analyst_facts = provider.requests[0].messages[-1].content
    assert '"reply_as_written": true' in analyst_facts
    [block] = blocked(session)
    assert block["guard"] == "minor_needs_consent"
    assert block["missing_slots"] == ["guardian_name", "guardian_consent"]
    assert thread_state(session)["step"] == "who"
    state = client.get(reverse("sessions:session-state", kwargs={"session_id": session.pk}))
    assert state.json()["current_card"]["text"] == reply
    assert "STATE_JSON" not in json.dumps(state.json())


def test_the_reply_as_written_still_passes_the_output_filter(booking_session):
    reply = "I'll save that to your file. Which doctor would you like to see?"
    with script(plain(reply, {"state_after": "who"})):
        state = answer(booking_session, "A visit for me")
    assert state["current_card"]["text"] == "Which doctor would you like to see?"


def test_a_step_may_turn_the_flow_s_written_replies_back_into_question_cards(booking_session):
    session = booking_session
    slots = {"is_child": False}
    with script(plain("Which day suits you?", {"state_after": "when", "slots_updated": slots})):
        answer(session, "A visit for me")
    assert thread_state(session)["step"] == "when"
    move = {"state_after": "when", "slots_updated": {}}
    with script(plain("The user prefers mornings.", move), narrator("Are mornings better?")):
        state = answer(session, "Mornings")
    assert state["current_card"]["text"] == "Are mornings better?"


def test_an_agent_without_a_reply_on_a_written_step_still_gets_question_cards(booking_session):
    with script(analyst(state_after="who", reply=None), narrator("Who is the visit for?")):
        state = answer(booking_session, "A visit")
    assert state["current_card"]["text"] == "Who is the visit for?"


def test_a_booking_flow_keeps_its_own_words_about_days_and_times(booking_session):
    slots = {"is_child": False}
    with script(plain("Which day?", {"state_after": "when", "slots_updated": slots})):
        answer(booking_session, "A visit for me")
    with script(plain("The user wants Friday.", {"state_after": "when"}), narrator("Friday?")):
        answer(booking_session, "Another day would be better, Friday maybe")
    assert thread_state(booking_session)["intent"] == "visit_booking"
    assert route(text="can we reschedule?", locale="en", intent="visit_booking") == (
        "visit_booking"
    )


def test_reply_as_written_is_stored_per_flow_and_per_step_and_validated(tmp_path):
    from sessions_app.engine.services import FlowFileError, flow_files_load

    path = tmp_path / "visit_booking.json"
    path.write_text(json.dumps(BOOKING))
    flow_files_load([path])
    flow = flow_get("visit_booking")
    assert flow.reply_as_written is True
    assert [flow.step(code).reply_as_written for code in ("who", "when", "done")] == [
        True,
        False,
        True,
    ]
    assert Flow.objects.get(code="visit_booking").reply_as_written is True
    assert FlowStep.objects.get(flow__code="visit_booking", code="who").reply_as_written is None

    bad = {**BOOKING, "steps": [{**BOOKING["steps"][2], "reply_as_written": "yes"}]}
    path.write_text(json.dumps(bad))
    with pytest.raises(FlowFileError, match="steps/0/reply_as_written"):
        flow_files_load([path])
    assert flow_get("reflection_session").reply_as_written is False
