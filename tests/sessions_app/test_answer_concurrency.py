"""QUALITY R3 on PostgreSQL: one card takes exactly one answer. N answers to one card sent at
once (a double tap, a client retrying in a loop) store one; the others are told the card was
answered, with the current state — the same text or different texts, with or without an
`Idempotency-Key`."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from sessions_app.models import AskMessage, AskSession, SessionEvent
from tests.races import race

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

TAPS = 8


def url(name: str, session_id: Any) -> str:
    return reverse(f"sessions:session-{name}", kwargs={"session_id": session_id})


def client_of(user: Any) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def a_question_card(user: Any) -> tuple[str, dict[str, Any]]:
    """A session of `user` past its topic, showing a question card: its id and state."""
    client = client_of(user)
    session_id = client.post(reverse("sessions:session-list"), {}, format="json").json()["_id"]
    state = client.post(url("messages", session_id), {"text": "Work stress"}, format="json").json()
    assert state["current_card"]["kind"] in ("question", "open"), state
    return session_id, state


def answers_to(card_id: str) -> int:
    return AskMessage.objects.filter(
        role=AskMessage.Role.CLIENT, kind=AskMessage.Kind.ANSWER, payload__card_id=card_id
    ).count()


@pytest.mark.parametrize("texts", ["same", "different"])
@pytest.mark.parametrize("keys", ["none", "one per tap"])
def test_concurrent_answers_to_one_card_store_one_and_the_rest_are_409(alice, texts, keys):
    session_id, state = a_question_card(alice)
    card_id = state["current_card"]["id"]

    def tap(index: int) -> Any:
        def send() -> tuple[int, dict[str, Any]]:
            text = "I avoid it." if texts == "same" else f"I avoid it, take {index}."
            headers = {"HTTP_IDEMPOTENCY_KEY": f"tap-{index}"} if keys != "none" else {}
            response = client_of(alice).post(
                url("answers", session_id),
                {"card_id": card_id, "text": text},
                format="json",
                **headers,
            )
            return response.status_code, response.json()

        return send

    results, errors = race([tap(index) for index in range(TAPS)])

    assert errors == []
    statuses = sorted(status for status, _ in results)
    assert statuses == [200] + [409] * (TAPS - 1), [body for _, body in results]
    refused = [body for status, body in results if status == 409]
    assert {body["code"] for body in refused} == {"E_CARD_ANSWERED"}
    assert all(body["state"]["current_card"]["id"] != card_id for body in refused)
    assert answers_to(card_id) == 1
    session = AskSession.objects.get(pk=session_id)
    assert session.turn_count == state["turn_count"] + 1
    received = SessionEvent.objects.filter(session=session, type="answer.received")
    assert sum(1 for e in received if e.payload.get("card_id") == card_id) == 1


def test_concurrent_retries_with_one_key_store_the_answer_once(alice):
    session_id, state = a_question_card(alice)
    card_id = state["current_card"]["id"]

    def retry() -> tuple[int, dict[str, Any]]:
        response = client_of(alice).post(
            url("answers", session_id),
            {"card_id": card_id, "text": "I avoid it."},
            format="json",
            HTTP_IDEMPOTENCY_KEY="one-tap",
        )
        return response.status_code, response.json()

    results, errors = race([retry] * TAPS)

    assert errors == []
    stored = [body for status, body in results if status == 200]
    # The first stores; a retry either replays its response or is told it is still running.
    assert stored
    assert all(body == stored[0] for body in stored)
    waits = {body["code"] for status, body in results if status != 200}
    assert waits <= {"E_IDEMPOTENCY_IN_PROGRESS"}
    assert answers_to(card_id) == 1
    assert AskSession.objects.get(pk=session_id).turn_count == state["turn_count"] + 1
