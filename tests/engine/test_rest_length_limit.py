"""The schema's 100-message limit (SPEC §3 Schema limits) stops the dialogue growing, never a
way out: at the limit a crisis session can still be ended and its last thing said, a counselor
can still take over, talk with the client and hand back — and the client is not locked out of
new sessions until the abandoned-session job closes it ~20 hours later. Through REST."""

from __future__ import annotations

from typing import Any

import pytest

from sessions_app import models as session_models
from sessions_app.models import AskSession

pytestmark = pytest.mark.django_db

CRISIS = "I can't go on, I want to kill myself, I have the pills ready"


def url(session_id: Any, name: str = "") -> str:
    return f"/api/ask/sessions/{session_id}" + (f"/{name}" if name else "")


def a_crisis_session_at_the_limit(client: Any) -> str:
    session_id = client.post("/api/ask/sessions", {}, format="json").json()["_id"]
    client.post(url(session_id, "messages"), {"text": "Work"}, format="json")
    state = client.post(url(session_id, "messages"), {"text": CRISIS}, format="json").json()
    assert state["current_card"]["kind"] == "crisis_resources", state
    # A long crisis conversation: the session holds as many messages as the schema allows.
    limit = session_models.SESSION_MESSAGES_MAX
    AskSession.objects.filter(pk=session_id).update(message_count=limit)
    refused = client.post(url(session_id, "messages"), {"text": "Still here."}, format="json")
    assert refused.json()["code"] == "E_SESSION_TOO_LONG"  # the dialogue does not grow
    return session_id


def test_a_crisis_session_at_the_limit_can_be_ended_and_its_last_thing_said(alice, api_as):
    client = api_as(alice)
    session_id = a_crisis_session_at_the_limit(client)

    ended = client.post(url(session_id, "end"), {}, format="json")
    assert ended.status_code == 200, ended.json()
    assert ended.json()["current_card"]["kind"] == "last_thing"
    last = client.post(url(session_id, "last-thing"), {"text": "Thank you."}, format="json")
    assert last.status_code == 200, last.json()
    assert last.json()["status"] == "completed"

    # Not locked out: the next session starts at once.
    assert client.post("/api/ask/sessions", {}, format="json").status_code == 201


def test_at_the_limit_a_counselor_takes_over_talks_with_the_client_and_hands_back(
    alice, erin, api_as
):
    client, counselor = api_as(alice), api_as(erin)
    session_id = a_crisis_session_at_the_limit(client)

    for step, body, status in (
        ("claim", {}, 200),
        ("take-over", {}, 200),
        ("counselor-messages", {"text": "I am here with you. Are you safe right now?"}, 201),
    ):
        response = counselor.post(url(session_id, step), body, format="json")
        assert response.status_code == status, (step, response.json())
    reply = client.post(
        url(session_id, "messages"), {"text": "I am with my sister."}, format="json"
    )
    assert reply.status_code == 200, reply.json()
    assert reply.json()["counselor_messages"][-1]["text"].startswith("I am here with you.")
    handed_back = counselor.post(url(session_id, "hand-back"), {}, format="json")
    assert handed_back.status_code == 200, handed_back.json()
    # No room for the AI to go on: the client is offered the end.
    state = client.get(url(session_id, "state")).json()
    assert (state["ready_to_close"], state["counselor"]) == (True, None)

    ended = client.post(url(session_id, "end"), {}, format="json")
    assert ended.status_code == 200, ended.json()
    finished = client.post(url(session_id, "last-thing"), {"finish": True}, format="json")
    assert finished.json()["status"] == "completed"
