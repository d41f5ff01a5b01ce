"""CBT homework at the closing and the next opening, at the engine's seam: the
offline banks per language, the anthropic summarizer through its tool, no homework in a
crisis, and the two-hook limit."""

from __future__ import annotations

import pytest

from sessions_app import services
from sessions_app.engine.agents.schemas import NARRATOR_TOOL, SUMMARY_TOOL
from sessions_app.engine.selectors import offline_tasks, session_state
from sessions_app.engine.services import last_thing_submit, session_end, task_accept
from sessions_app.models import AskSession, Task, UserProfile
from tests import factories
from tests import fake_anthropic as fake
from tests.agent_outputs import narrator_output
from tests.engine.conftest import answer

pytestmark = pytest.mark.django_db

SUMMARY = {
    "summary": "The client looked at a harsh thought about mistakes at work.",
    "key_insights": ["Mistakes feel like verdicts."],
    "cbt_techniques_used": ["Identifying automatic thoughts"],
}
EXPERIMENT = {
    "kind": "behavioral_experiment",
    "title": "Ask for fifteen minutes",
    "instructions": "Before Thursday, ask your manager for fifteen minutes and note what happens.",
}


def test_the_anthropic_summarizer_proposes_homework_through_its_tool(session, fake_anthropic):
    fake_anthropic.queue(
        fake.tool_use(SUMMARY_TOOL, {**SUMMARY, "tasks": [EXPERIMENT]}),
        fake.tool_use(NARRATOR_TOOL, narrator_output(closing="Thank you for today.")),
    )

    session_end(session=session)

    summarizer = fake_anthropic.requests[0]
    [tool] = summarizer["tools"]
    assert tool["input_schema"]["properties"]["tasks"]["maxItems"] == 2
    assert any("Homework:" in block["text"] for block in summarizer["system"])
    [task] = Task.objects.filter(session=session)
    assert (task.kind, task.title, task.status) == (
        "behavioral_experiment",
        "Ask for fifteen minutes",
        "proposed",
    )
    assert [f["name"] for f in task.template][:2] == ["prediction", "belief_before"]
    offer = session_state(session)["homework"]
    assert [t["_id"] for t in offer["tasks"]] == [str(task.pk)]


def test_a_proposal_outside_the_tool_schema_is_asked_again(session, fake_anthropic):
    wrong = {**SUMMARY, "tasks": [{**EXPERIMENT, "kind": "meditation_retreat"}]}
    fake_anthropic.queue(
        fake.tool_use(SUMMARY_TOOL, wrong),
        fake.tool_use(SUMMARY_TOOL, {**SUMMARY, "tasks": [EXPERIMENT, EXPERIMENT]}),
        fake.tool_use(NARRATOR_TOOL, narrator_output(closing="Thank you for today.")),
    )

    session_end(session=session)

    assert len(fake_anthropic.requests) == 3
    assert "Invalid input" in str(fake_anthropic.requests[1]["messages"][-1])
    assert Task.objects.filter(session=session).count() == 2


def test_a_crisis_session_proposes_none_even_when_the_model_does(session, fake_anthropic):
    fake_anthropic.queue(
        fake.tool_use(SUMMARY_TOOL, {**SUMMARY, "tasks": [EXPERIMENT]}),
        fake.tool_use(NARRATOR_TOOL, narrator_output(closing="Thank you for today.")),
    )
    AskSession.objects.filter(pk=session.pk).update(final_risk_level="L3")

    session_end(session=session)

    assert not Task.objects.filter(session=session).exists()
    assert session_state(session)["homework"] is None
    told = fake_anthropic.requests[0]["messages"][-1]["content"][0]["text"]
    assert '"homework": false' in told


def test_the_offline_engine_proposes_none_after_a_crisis_in_the_dialogue(session):
    answer(session, "Harsh thoughts")
    answer(session, "I want to kill myself")
    session.refresh_from_db()
    assert session.current_intent_code == "crisis"

    session_end(session=session)

    assert not Task.objects.filter(session=session).exists()
    assert session_state(session)["homework"] is None


def test_a_crisis_intervention_session_proposes_none(alice):
    session = services.session_create(
        owner=alice, actor=alice, session_type=AskSession.SessionType.CRISIS_INTERVENTION
    )
    session_end(session=session)
    assert not Task.objects.filter(session=session).exists()


@pytest.mark.parametrize(
    ("locale", "words", "title"),
    [
        ("en", "I keep thinking I am useless, the thought will not stop", "A thought record"),
        ("ru", "Я всё время думаю, что я бесполезна, эта мысль не уходит", "Дневник мыслей"),
        ("zh-CN", "我一直觉得自己没用", "思维记录"),
    ],
)
def test_the_offline_banks_speak_the_client_s_language(alice, locale, words, title):
    UserProfile.objects.filter(user=alice).update(locale=locale)
    session = services.session_create(owner=alice, actor=alice)
    AskSession.objects.filter(pk=session.pk).update(cbt_focus="cognitive_restructuring")
    answer(session, words)
    session_end(session=session)

    [task] = Task.objects.filter(session=session)
    assert task.kind == "thought_record"
    assert title in task.title
    labels = [field["label"] for field in task.template]
    assert len(labels) == 8
    if locale != "en":
        assert all(label.isascii() is False for label in labels)


def test_the_offline_choice_follows_what_the_client_said():
    sad = offline_tasks(
        locale="en",
        focus="behavioral_activation",
        themes=["energy", "sadness", "anxiety"],
        topic="low days",
        turn_count=6,
        fatigue=False,
    )
    assert [t["kind"] for t in sad] == ["activity_scheduling", "relaxation"]
    tired = offline_tasks(
        locale="en",
        focus="emotion_regulation",
        themes=["anxiety"],
        topic="",
        turn_count=6,
        fatigue=True,
    )
    assert [t["kind"] for t in tired] == ["relaxation"]  # one only, after "I'm tired"
    assert "{topic}" not in tired[0]["instructions"]


def test_the_opening_names_the_task_within_the_two_hook_limit(alice):
    earlier = factories.AskSessionFactory(
        user=alice, slots={"topic": "Work stress"}, ended_at="2026-03-01T10:00:00Z"
    )
    UserProfile.objects.filter(user=alice).update(
        observed_patterns=[{"text": "Avoids hard talks at work."}]
    )
    task = task_accept(task=factories.TaskFactory(session=earlier), by=alice)

    session = services.session_create(owner=alice, actor=alice)

    hooks = list(session.messages.filter(kind="hook").order_by("id"))
    assert len(hooks) == 2
    assert hooks[0].text == (
        "Last time you planned to try «A thought record for one hard moment» — how did it go?"
    )
    assert hooks[0].payload == {"task_id": str(task.pk)}
    assert hooks[1].text == "Last time you talked about «Work stress»."
    state = session_state(session)
    assert state["current_card"]["kind"] == "task_review"
    assert state["notice"]["items"][0] == hooks[0].text


def test_an_opening_without_homework_keeps_its_hooks(alice):
    factories.AskSessionFactory(user=alice, slots={"topic": "Work stress"})
    session = services.session_create(owner=alice, actor=alice)
    assert session_state(session)["current_card"]["kind"] == "topic"
    assert [m.text for m in session.messages.filter(kind="hook")] == [
        "Last time you talked about «Work stress»."
    ]


def test_a_crisis_in_one_last_thing_withdraws_the_offer(alice, api_as):
    session = services.session_create(owner=alice, actor=alice)
    answer(session, "I keep thinking I am useless, the thought will not stop")
    session_end(session=session)
    [task, *_] = Task.objects.filter(session=session)
    assert session_state(session)["homework"] is not None

    last_thing_submit(session=session, text="Honestly I want to kill myself")

    assert session_state(session)["homework"] is None
    response = api_as(alice).post(f"/api/ask/tasks/{task.pk}/accept", {}, format="json")
    assert response.status_code == 409
    assert response.json()["code"] == "E_TASK_STATE"
    session.refresh_from_db()
    assert session.generated_task_ids == []
