"""QUALITY R8: no client-facing response — list, detail, export, notifications — contains a P3
field name anywhere in its JSON; staff responses do (the positive control)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from django.urls import reverse
from django.utils import timezone

from sessions_app.api.serializers import SessionOutput, TaskExportOutput
from sessions_app.api.tasks import TaskOutput
from sessions_app.privacy import P3_FIELDS, SESSION_FIELD_PRIVACY, TASK_FIELD_PRIVACY, Privacy
from tests import factories

pytestmark = pytest.mark.django_db


def keys_in(value: Any) -> Iterator[str]:
    if isinstance(value, dict):
        for key, item in value.items():
            yield key
            yield from keys_in(item)
    elif isinstance(value, list):
        for item in value:
            yield from keys_in(item)


@pytest.fixture
def risky_history(alice, bob):
    crisis = factories.CrisisSessionFactory(
        user=alice,
        final_risk_level="L3",
        handoff_counselor=bob,
        handoff_reason="crisis_risk",
        handoff_time=timezone.now(),
    )
    factories.AskMessageFactory(session=crisis, text="I feel unsafe")
    factories.TaskFactory(session=crisis, entries={"situation": "At night"})
    factories.NotificationFactory(
        user=alice,
        session=crisis,
        payload={
            "title": "Checking in",
            "initial_risk_level": "L3",
            "nested": [{"final_risk_level": "L3"}],
        },
    )
    return crisis


def client_responses(alice, api_as, session) -> dict[str, Any]:
    client = api_as(alice)
    return {
        "list": client.get(reverse("sessions:session-list")).json(),
        "detail": client.get(
            reverse("sessions:session-detail", kwargs={"session_id": session.pk})
        ).json(),
        "patch": client.patch(
            reverse("sessions:session-detail", kwargs={"session_id": session.pk}),
            {"session_title": "Renamed"},
            format="json",
        ).json(),
        "export": client.post(
            reverse("sessions:export"), {"password": "pw-for-tests-1"}, format="json"
        ).json(),
        "notifications": client.get(reverse("sessions:notification-list")).json(),
        "create": client.post(reverse("sessions:session-list"), {}, format="json").json(),
        "tasks": client.get(reverse("sessions:task-list")).json(),
    }


def test_no_client_response_contains_a_p3_field_name_anywhere(alice, api_as, risky_history):
    for name, body in client_responses(alice, api_as, risky_history).items():
        leaked = set(keys_in(body)) & P3_FIELDS
        assert not leaked, f"{name} leaks {leaked}"


def test_the_export_holds_the_clients_sessions_messages_and_profile(alice, api_as, risky_history):
    body = client_responses(alice, api_as, risky_history)["export"]
    assert body["user"]["username"] == "alice"
    assert body["profile"]["time_zone"] == "Europe/Berlin"
    [session] = body["sessions"]
    assert session["_id"] == str(risky_history.pk)
    assert [m["text"] for m in session["messages"]] == ["I feel unsafe"]


def test_staff_do_see_the_p3_fields(bob, api_as, risky_history):
    url = reverse("sessions:session-detail", kwargs={"session_id": risky_history.pk})
    body = api_as(bob).get(url).json()
    assert set(body) >= P3_FIELDS
    assert body["counselor_handoff"]["counselor_id"] == bob.pk


def test_every_output_field_is_classified_in_the_privacy_table():
    assert set(SessionOutput().fields) == set(SESSION_FIELD_PRIVACY)


def test_a_representation_without_a_role_is_the_clients(risky_history):
    assert not set(SessionOutput(risky_history).data) & P3_FIELDS


def test_the_export_needs_the_right_password(alice, api_as):
    response = api_as(alice).post(reverse("sessions:export"), {"password": "nope"}, format="json")
    assert response.status_code == 403
    assert response.json()["code"] == "E_PASSWORD_INVALID"
    response = api_as(alice).post(reverse("sessions:export"), {}, format="json")
    assert response.status_code == 400
    assert response.json()["fields"]["password"]


@pytest.mark.parametrize("password", ["pw-for-tests-1\x00", "\ud800"])
def test_an_export_password_no_account_can_have_is_the_documented_403(alice, api_as, password):
    body = json.dumps({"password": password})  # a lone surrogate escaped, as a fuzzer sends it
    response = api_as(alice).post(reverse("sessions:export"), body, content_type="application/json")
    assert response.status_code == 403
    assert response.json()["code"] == "E_PASSWORD_INVALID"


def test_every_task_field_is_classified_and_none_is_p3():
    assert set(TaskOutput().fields) == set(TASK_FIELD_PRIVACY)
    assert set(TaskExportOutput().fields) <= set(TASK_FIELD_PRIVACY)
    assert Privacy.P3 not in TASK_FIELD_PRIVACY.values()


def test_the_export_holds_the_clients_homework_with_its_entries(alice, api_as, risky_history):
    body = client_responses(alice, api_as, risky_history)["export"]
    [task] = body["tasks"]
    assert task["session_id"] == str(risky_history.pk)
    assert task["entries"] == {"situation": "At night"}
    assert task["kind"] == "thought_record"


def test_the_export_blanks_the_analysts_notes_as_the_clients_tree_does(alice, api_as):
    session = factories.ActiveSessionFactory(user=alice)
    note = "The user avoids talking about the father."
    analyst = factories.AskMessageFactory(
        session=session, role="analyst", kind="analysis", text=note
    )
    factories.AskMessageFactory(session=session, text="I went for a walk")
    client = api_as(alice)
    tree = client.get(reverse("sessions:tree", kwargs={"session_id": session.pk})).json()
    export = client.post(
        reverse("sessions:export"), {"password": "pw-for-tests-1"}, format="json"
    ).json()

    [exported] = export["sessions"]
    assert "the user avoids" not in str(export).lower()
    shown = {m["id"]: m["text"] for m in tree["messages"]}
    assert {m["id"]: m["text"] for m in exported["messages"]} == shown
    assert shown[analyst.pk] == ""
