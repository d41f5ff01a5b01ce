"""CBT homework over REST: a session proposes it at the closing, the client accepts,
fills in and finishes it, and the next session picks it up — all through the API, with the
offline engine; the template, the transitions and who may see what."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.urls import reverse

from sessions_app.models import AskMessage, AskSession, Task
from tests import factories
from tests.engine.test_rest_session import play_until_completion, url

pytestmark = pytest.mark.django_db

FILLED = {
    "situation": "Before the meeting with my manager on Monday.",
    "automatic_thought": "He will think I cannot cope.",
    "emotion": "anxious",
    "intensity": 80,
    "evidence_for": "He frowned last time.",
    "evidence_against": "He thanked me for the report last week.",
    "balanced_thought": "He may be busy; one frown is not a verdict.",
    "rerated_intensity": 40,
}


# A client caught in harsh automatic thoughts: what a thought record is for.
THOUGHTS = [
    "When I make a small mistake I think I am useless and everyone will notice.",
    "The thought comes at once: I always mess things up. I feel ashamed.",
    "I tell myself I should have known better, I keep blaming myself.",
    "There is not much evidence for it, honestly; my friend says I am too hard on myself.",
    "Maybe the thought is not a fact. I could look at it differently.",
    "That makes the feeling a bit smaller, I think.",
    "Yes, I think that is enough for now, it makes sense.",
    "Nothing more comes to mind.",
]


def task_url(name: str, task_id: Any = None) -> str:
    if task_id is None:
        return reverse(f"sessions:task-{name}")
    return reverse(f"sessions:task-{name}", kwargs={"task_id": task_id})


def closing_with_homework(client: Any) -> tuple[str, dict[str, Any]]:
    """A session played through REST to its closing: the state document at the last thing."""
    session_id = client.post(reverse("sessions:session-list"), {}, format="json").json()["_id"]
    topic = client.post(url("messages", session_id), {"text": "Harsh thoughts"}, format="json")
    play_until_completion(client, session_id, topic.json(), THOUGHTS)
    ended = client.post(url("end", session_id), {}, format="json")
    assert ended.status_code == 200, ended.content
    return session_id, ended.json()


def test_homework_goes_from_one_closing_to_the_next_opening_through_rest(alice, api_as):
    client = api_as(alice)
    session_id, ended = closing_with_homework(client)

    # the closing proposes a thought record, shown in the closing stage
    homework = ended["homework"]
    assert homework["text"]
    kinds = [task["kind"] for task in homework["tasks"]]
    assert "thought_record" in kinds
    assert 1 <= len(kinds) <= 2
    assert {task["status"] for task in homework["tasks"]} == {"proposed"}
    record = next(t for t in homework["tasks"] if t["kind"] == "thought_record")
    others = [t for t in homework["tasks"] if t is not record]

    # the client accepts the thought record and declines the rest, then finishes the session
    accepted = client.post(task_url("accept", record["_id"]), {}, format="json")
    assert accepted.status_code == 200, accepted.content
    assert accepted.json()["status"] == "accepted"
    for other in others:
        assert client.post(task_url("skip", other["_id"]), {}, format="json").json()["status"] == (
            "skipped"
        )
    state = client.get(url("state", session_id)).json()
    statuses = {t["_id"]: t["status"] for t in state["homework"]["tasks"]}
    assert statuses == {record["_id"]: "accepted", **{o["_id"]: "skipped" for o in others}}
    closed = client.post(url("last-thing", session_id), {"finish": True}, format="json").json()
    assert closed["status"] == "completed"
    detail = client.get(reverse("sessions:session-detail", kwargs={"session_id": session_id}))
    assert detail.json()["generated_task_ids"] == [record["_id"]]

    # between sessions: filled in with a re-rated intensity, then done
    task = client.get(task_url("detail", record["_id"])).json()
    assert [f["name"] for f in task["template"]] == list(FILLED)
    patched = client.patch(task_url("detail", record["_id"]), {"entries": FILLED}, format="json")
    assert patched.status_code == 200, patched.content
    assert patched.json()["entries"]["rerated_intensity"] == 40
    assert (patched.json()["rating_before"], patched.json()["rating_after"]) == (80, 40)
    done = client.post(
        task_url("done", record["_id"]),
        {"completion_note": "Easier than I thought."},
        format="json",
    )
    assert done.status_code == 200
    assert done.json()["status"] == "done"
    assert [t["_id"] for t in client.get(task_url("list") + "?status=done").json()["results"]] == [
        record["_id"]
    ]

    # the next session's opening names it, and the answer about it is linked to it
    created = client.post(reverse("sessions:session-list"), {}, format="json").json()
    state = client.get(url("state", created["_id"])).json()
    hooks = state["notice"]["items"]
    assert len(hooks) <= 2
    assert hooks[0].startswith("Last time you planned «A thought record")
    assert hooks[0].endswith("how did it go?")
    card = state["current_card"]
    assert card["kind"] == "task_review"
    answered = client.post(
        url("answers", created["_id"]),
        {"card_id": card["id"], "text": "It helped: the fear was smaller after writing it."},
        format="json",
    )
    assert answered.status_code == 200
    assert answered.json()["current_card"]["kind"] == "topic"  # then the day's topic
    task = client.get(task_url("detail", record["_id"])).json()
    assert task["review_session_id"] == created["_id"]
    message = AskMessage.objects.get(pk=task["review_message_id"])
    assert message.text.startswith("It helped")
    assert str(message.session_id) == created["_id"]
    assert AskSession.objects.get(pk=session_id).generated_task_ids == [record["_id"]]


@pytest.fixture
def accepted_record(alice):
    task = factories.TaskFactory(session=factories.AskSessionFactory(user=alice))
    return task


def test_an_intensity_of_140_is_refused_with_the_field_named(alice, api_as, accepted_record):
    client = api_as(alice)
    client.post(task_url("accept", accepted_record.pk), {}, format="json")
    response = client.patch(
        task_url("detail", accepted_record.pk),
        {"entries": {"intensity": 140, "situation": "At work"}},
        format="json",
    )
    assert response.status_code == 400
    body = response.json()
    assert body["code"] == "E_VALIDATION"
    assert list(body["fields"]) == ["entries.intensity"]
    accepted_record.refresh_from_db()
    assert accepted_record.entries == {}


@pytest.mark.parametrize(
    ("entries", "field"),
    [
        ({"rerated_intensity": -1}, "entries.rerated_intensity"),
        ({"intensity": "80"}, "entries.intensity"),
        ({"intensity": True}, "entries.intensity"),
        ({"mood": "fine"}, "entries.mood"),
        ({"situation": 5}, "entries.situation"),
        ({"situation": "x" * 2001}, "entries.situation"),
        ({"situation": {"nested": ["deep"]}}, "entries.situation"),
        ({"situation": "a\u0000b"}, "entries.situation"),
        ({"situation": "\ud800"}, "entries.situation"),  # a lone surrogate: a 500 on PostgreSQL
        ({"intensity": 99999999999999999999999}, "entries.intensity"),
        ({"intensity": 50.5}, "entries.intensity"),
    ],
)
def test_entries_outside_the_template_are_refused(alice, api_as, accepted_record, entries, field):
    client = api_as(alice)
    client.post(task_url("accept", accepted_record.pk), {}, format="json")
    # Encoded by hand: JSON may escape what Python's test client would refuse to encode.
    body = json.dumps({"entries": entries})
    url = task_url("detail", accepted_record.pk)
    response = client.generic("PATCH", url, body, content_type="application/json")
    assert response.status_code == 400
    assert response.json()["code"] == "E_VALIDATION"
    assert field in response.json()["fields"]


def test_entries_of_another_kind_follow_that_kind_s_template(alice, api_as):
    task = factories.TaskFactory(
        session=factories.AskSessionFactory(user=alice),
        kind="relaxation",
        template=factories.template_for("relaxation"),
    )
    client = api_as(alice)
    client.post(task_url("accept", task.pk), {}, format="json")
    ok = client.patch(
        task_url("detail", task.pk),
        {"entries": {"exercise": "Slow breathing", "tension_before": 70, "tension_after": 30}},
        format="json",
    )
    assert ok.status_code == 200
    assert (ok.json()["rating_before"], ok.json()["rating_after"]) == (70, 30)
    refused = client.patch(
        task_url("detail", task.pk), {"entries": {"intensity": 5}}, format="json"
    )
    assert refused.json()["fields"] == {
        "entries.intensity": ["Unknown field for this kind of task."]
    }


def test_only_the_allowed_transitions_happen_and_a_second_done_changes_nothing(
    alice, api_as, accepted_record
):
    client = api_as(alice)
    # proposed → done is not a move: accept first
    early = client.post(task_url("done", accepted_record.pk), {}, format="json")
    assert early.status_code == 409
    assert early.json()["code"] == "E_TASK_STATE"
    assert "status" in early.json()["fields"]
    assert (
        client.patch(
            task_url("detail", accepted_record.pk), {"entries": {"emotion": "sad"}}, format="json"
        ).status_code
        == 409
    )
    assert client.post(task_url("accept", accepted_record.pk), {}, format="json").status_code == 200
    first = client.post(task_url("done", accepted_record.pk), {}, format="json")
    second = client.post(task_url("done", accepted_record.pk), {}, format="json")
    assert first.status_code == second.status_code == 200
    assert first.json() == second.json()
    for move in ("accept", "skip"):
        refused = client.post(task_url(move, accepted_record.pk), {}, format="json")
        assert refused.status_code == 409, move
    accepted_record.refresh_from_db()
    assert accepted_record.status == "done"
    types = list(accepted_record.session.events.values_list("type", flat=True))
    assert types.count("task.done") == 1
    assert types.count("task.accepted") == 1


def test_a_declined_proposal_is_final_and_never_joins_generated_task_ids(
    alice, api_as, accepted_record
):
    client = api_as(alice)
    assert client.post(task_url("skip", accepted_record.pk), {}, format="json").json()[
        "status"
    ] == ("skipped")
    assert client.post(task_url("accept", accepted_record.pk), {}, format="json").status_code == 409
    accepted_record.session.refresh_from_db()
    assert accepted_record.session.generated_task_ids == []


def test_a_retried_accept_with_the_same_idempotency_key_answers_the_first_response(
    alice, api_as, accepted_record
):
    client = api_as(alice)
    headers = {"HTTP_IDEMPOTENCY_KEY": "accept-1"}
    first = client.post(task_url("accept", accepted_record.pk), {}, format="json", **headers)
    second = client.post(task_url("accept", accepted_record.pk), {}, format="json", **headers)
    assert first.json() == second.json()
    accepted_record.session.refresh_from_db()
    assert accepted_record.session.generated_task_ids == [str(accepted_record.pk)]


def test_charlie_gets_404_on_alice_s_task_and_sees_none_of_her_tasks(
    alice, charlie, api_as, accepted_record
):
    client = api_as(charlie)
    for name in ("detail", "accept", "skip", "done"):
        method = client.get if name == "detail" else client.post
        response = method(task_url(name, accepted_record.pk), {}, format="json")
        assert response.status_code == 404, name
        assert response.json()["code"] == "E_NOT_FOUND"
    patched = client.patch(
        task_url("detail", accepted_record.pk), {"entries": {"emotion": "x"}}, format="json"
    )
    assert patched.status_code == 404
    assert client.get(task_url("list")).json()["results"] == []
    accepted_record.refresh_from_db()
    assert accepted_record.status == "proposed"


def test_her_counselor_reads_her_tasks_but_does_not_do_them(
    alice, bob, dana, api_as, accepted_record
):
    counselor = api_as(bob)
    assert [t["_id"] for t in counselor.get(task_url("list")).json()["results"]] == [
        str(accepted_record.pk)
    ]
    assert counselor.get(task_url("detail", accepted_record.pk)).status_code == 200
    refused = counselor.post(task_url("accept", accepted_record.pk), {}, format="json")
    assert refused.status_code == 403
    assert refused.json()["code"] == "E_FORBIDDEN"
    assert api_as(dana).get(task_url("detail", accepted_record.pk)).status_code == 404
    assert api_as(dana).get(task_url("list")).json()["results"] == []


def test_an_unknown_status_filter_is_refused(alice, api_as):
    response = api_as(alice).get(task_url("list") + "?status=finished")
    assert response.status_code == 400
    assert "status" in response.json()["fields"]


def test_tasks_of_a_deleted_session_are_gone_for_everyone_but_the_record(
    alice, api_as, accepted_record
):
    AskSession.objects.filter(pk=accepted_record.session_id).update(is_deleted=True)
    assert api_as(alice).get(task_url("detail", accepted_record.pk)).status_code == 404
    assert Task.objects.filter(pk=accepted_record.pk).exists()
