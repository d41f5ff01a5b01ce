"""Flows as data (issue 5): guards checked by code, validation events, detours, STATE_JSON,
admin edits applied on the next turn, and load_flows."""

from __future__ import annotations

import json
from io import StringIO
from typing import Any

import pytest
from django.core.management import CommandError, call_command
from django.urls import reverse

from sessions_app.engine.flows import (
    Move,
    flow_get,
    move_validate,
    pending_guard,
    route,
    state_json_split,
)
from sessions_app.engine.services import session_state, thread_state
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
