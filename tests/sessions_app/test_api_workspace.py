"""The counselor's workspace over REST (SPEC §1, §9): what an alerted counselor, a
stranger, the holder and the client each get, and the OpenAPI document."""

from __future__ import annotations

from typing import Any

import pytest

from psychologist.llm.models import LLMCall
from sessions_app import services
from sessions_app.models import AskSession
from tests import factories

pytestmark = pytest.mark.django_db

CRISIS_WORDS = "I want to kill myself"


@pytest.fixture
def crisis(alice: Any, erin: Any, api_as: Any) -> AskSession:
    """Alice's session after a crisis phrase sent through REST: erin (on duty) was alerted."""
    client = api_as(alice)
    session_id = client.post("/api/ask/sessions", {}, format="json").json()["_id"]
    client.post(f"/api/ask/sessions/{session_id}/messages", {"text": "Work"}, format="json")
    client.post(f"/api/ask/sessions/{session_id}/messages", {"text": CRISIS_WORDS}, format="json")
    session = AskSession.objects.get(pk=session_id)
    assert session.is_crisis
    return session


def url(session: AskSession, name: str) -> str:
    return f"/api/ask/sessions/{session.pk}/{name}"


def test_an_alerted_counselor_claims_then_opens_the_session(crisis, erin, api_as):
    client = api_as(erin)
    assert client.get(f"/api/ask/sessions/{crisis.pk}").status_code == 403

    response = client.post(url(crisis, "claim"), format="json")

    assert response.status_code == 200, response.content
    body = response.json()
    assert body["holder"] == {"id": erin.pk, "name": "Erin"}
    assert body["handoff_reason"] == "crisis_alert"
    assert body["seconds_to_claim"] >= 0
    assert body["counselor_speaking_since"] is None
    assert client.get(f"/api/ask/sessions/{crisis.pk}").status_code == 200
    handoff = client.get(f"/api/ask/sessions/{crisis.pk}").json()["counselor_handoff"]
    assert handoff["counselor_id"] == erin.pk


def test_a_second_claim_gets_409_naming_the_holder(crisis, erin, bob, api_as):
    api_as(erin).post(url(crisis, "claim"), format="json")
    response = api_as(bob).post(url(crisis, "claim"), format="json")
    assert response.status_code == 409
    assert response.json()["code"] == "E_ALREADY_CLAIMED"
    assert "Erin" in response.json()["detail"]


def test_a_counselor_neither_alerted_nor_in_the_caseload_cannot_claim_steer_or_take_over(
    crisis, dana, alice, api_as
):
    client = api_as(dana)
    for name in ("claim", "steer", "take-over", "counselor-messages", "hand-back"):
        response = client.post(url(crisis, name), {"text": "hello"}, format="json")
        assert (response.status_code, response.json()["code"]) == (403, "E_FORBIDDEN"), name
    normal = factories.ActiveSessionFactory(user=factories.ClientFactory())
    for name in ("claim", "steer", "take-over"):
        response = client.post(url(normal, name), {"text": "hello"}, format="json")
        assert (response.status_code, response.json()["code"]) == (404, "E_NOT_FOUND"), name


def test_claiming_a_closed_session_is_refused_with_e_session_closed(crisis, erin, api_as):
    AskSession.objects.filter(pk=crisis.pk).update(status=AskSession.Status.COMPLETED_PARTIAL)
    response = api_as(erin).post(url(crisis, "claim"), format="json")
    assert response.status_code == 409
    assert response.json()["code"] == "E_SESSION_CLOSED"


def test_the_holder_takes_over_writes_and_the_client_state_shows_the_person(
    crisis, erin, bob, alice, api_as
):
    counselor, client = api_as(erin), api_as(alice)
    # Alerted, not yet holding: the crisis rule still keeps her out of everything but the claim.
    assert counselor.post(url(crisis, "take-over"), format="json").json()["code"] == "E_FORBIDDEN"
    counselor.post(url(crisis, "claim"), format="json")
    # Bob may read it (his caseload) but does not hold it.
    refused = api_as(bob).post(url(crisis, "take-over"), format="json")
    assert (refused.status_code, refused.json()["code"]) == (409, "E_NOT_HOLDER")
    early = counselor.post(url(crisis, "counselor-messages"), {"text": "Hi"}, format="json")
    assert (early.status_code, early.json()["code"]) == (409, "E_NOT_TAKEN_OVER")

    taken = counselor.post(url(crisis, "take-over"), format="json")
    assert taken.status_code == 200
    assert taken.json()["counselor_speaking_since"]
    sent = counselor.post(
        url(crisis, "counselor-messages"), {"text": "I'm Erin, I'm here."}, format="json"
    )
    assert sent.status_code == 201
    calls = LLMCall.objects.filter(session=crisis).count()
    reply = client.post(url(crisis, "messages"), {"text": "Thank you."}, format="json")

    assert reply.status_code == 200
    state = client.get(url(crisis, "state")).json()
    assert state["counselor"]["name"] == "Erin"
    assert [m["text"] for m in state["counselor_messages"]] == ["I'm Erin, I'm here."]
    assert state["current_card"] is None
    assert "counselor_handoff" not in client.get(f"/api/ask/sessions/{crisis.pk}").json()
    ended = client.post(url(crisis, "end"), {}, format="json")
    assert (ended.status_code, ended.json()["code"]) == (409, "E_COUNSELOR_SPEAKING")
    assert LLMCall.objects.filter(session=crisis).count() == calls

    back = counselor.post(url(crisis, "hand-back"), format="json")
    assert back.status_code == 200
    assert back.json()["counselor_speaking_since"] is None
    state = client.get(url(crisis, "state")).json()
    assert state["counselor"] is None
    assert state["current_card"] is not None


def test_a_steer_note_is_validated_like_any_input(crisis, bob, api_as):
    response = api_as(bob).post(url(crisis, "steer"), {"text": ""}, format="json")
    assert response.status_code == 400
    assert response.json()["code"] == "E_VALIDATION"
    assert "text" in response.json()["fields"]
    ok = api_as(bob).post(url(crisis, "steer"), {"text": "Ask about sleep."}, format="json")
    assert ok.status_code == 201
    assert crisis.events.get(pk=ok.json()["id"]).type == "steer.noted"


def test_a_closed_session_takes_no_steer_note(alice, bob, api_as):
    session = services.session_create(owner=alice, actor=alice)
    AskSession.objects.filter(pk=session.pk).update(status=AskSession.Status.COMPLETED)
    response = api_as(bob).post(url(session, "steer"), {"text": "Ask about sleep."}, format="json")
    assert (response.status_code, response.json()["code"]) == (409, "E_SESSION_CLOSED")


def test_the_workspace_is_in_the_openapi_document(api_as, alice):
    schema = api_as(alice).get("/api/schema/", HTTP_ACCEPT="application/json").json()
    paths = schema["paths"]
    for name in ("claim", "take-over", "counselor-messages", "hand-back", "steer"):
        assert f"/api/ask/sessions/{{session_id}}/{name}" in paths, name
    claim = paths["/api/ask/sessions/{session_id}/claim"]["post"]
    assert "E_ALREADY_CLAIMED" in claim["responses"]["409"]["description"]
    assert "E_SESSION_CLOSED" in claim["responses"]["409"]["description"]
    state = schema["components"]["schemas"]["StateOutput"]["properties"]
    assert {"counselor", "counselor_messages"} <= set(state)
