"""A whole session through REST only, with the offline engine (first "must show")."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from django.db import connection, connections
from django.urls import reverse

from psychologist.models import AnalysisRequest
from sessions_app.api import idempotency
from sessions_app.models import AskMessage, AskSession, SessionEvent

pytestmark = pytest.mark.django_db

ANSWERS = [
    "I keep putting off a hard conversation with my manager about my workload.",
    "I tell myself it will only make things worse, and I feel anxious.",
    "Mostly at night, I replay what I might say and cannot sleep.",
    "My partner says I should just talk to him, but I avoid it.",
    "I think I am afraid he will see me as weak.",
    "Maybe I could write down the two points I want to make.",
    "That feels a bit lighter, actually.",
    "I could ask for fifteen minutes on Monday.",
    "Yes, I think that is enough for now, it makes sense.",
    "Nothing more comes to mind.",
]


@contextmanager
def key_held_elsewhere(user: Any, key: str) -> Iterator[None]:
    """On PostgreSQL, another connection holds the key's advisory lock, as a request still
    running does (`sessions_app.api.idempotency`); elsewhere the lease alone says so."""
    if connection.vendor != "postgresql":
        yield
        return
    held, done = threading.Event(), threading.Event()

    def hold() -> None:
        try:
            with connections["default"].cursor() as cursor:
                cursor.execute("SELECT pg_advisory_lock(%s)", [idempotency._lock_id(user, key)])
                held.set()
                done.wait(timeout=30)
        finally:
            connections.close_all()

    thread = threading.Thread(target=hold)
    thread.start()
    assert held.wait(timeout=10)
    try:
        yield
    finally:
        done.set()
        thread.join()


def url(name: str, session_id: Any) -> str:
    return reverse(f"sessions:session-{name}", kwargs={"session_id": session_id})


def new_session(client: Any) -> Any:
    return client.post(reverse("sessions:session-list"), {}, format="json").json()["_id"]


def first_card_answerer(client: Any) -> Callable[..., Any]:
    """A new session's first card, answered "Work stress" by each call (with its headers)."""
    session_id = new_session(client)
    card = client.get(url("state", session_id)).json()["current_card"]
    body = {"card_id": card["id"], "text": "Work stress"}

    def answer(**headers: Any) -> Any:
        return client.post(url("answers", session_id), body, format="json", **headers)

    return answer


def play_until_completion(
    client: Any, session_id: Any, state: dict[str, Any], answers: list[str] = ANSWERS
) -> dict[str, Any]:
    """Answer each card in turn (the answers twice over) until the completion card."""
    for text in answers * 2:
        card = state["current_card"]
        if card["kind"] == "completion":
            return state
        response = client.post(
            url("answers", session_id), {"card_id": card["id"], "text": text}, format="json"
        )
        assert response.status_code == 200, response.content
        state = response.json()
        assert state["turn_count"] <= 9
    raise AssertionError("no completion card after the hard limit")


def whole_session(client: Any) -> tuple[str, dict[str, Any]]:
    created = client.post(reverse("sessions:session-list"), {}, format="json")
    assert created.status_code == 201
    session_id = created.json()["_id"]
    state = client.get(url("state", session_id)).json()
    first_notice = state["notice"]
    topic = client.post(url("messages", session_id), {"text": "Work stress"}, format="json")
    state = play_until_completion(client, session_id, topic.json())
    assert state["ready_to_close"] is True
    assert state["current_card"]["text"] == "Looks like we covered this well. End the session?"
    ended = client.post(url("end", session_id), {}, format="json").json()
    assert ended["phase"] == "closing"
    assert ended["current_card"]["kind"] == "last_thing"
    assert ended["notice"]["kind"] == "closing"
    closed = client.post(url("last-thing", session_id), {"finish": True}, format="json").json()
    assert closed["status"] == "completed"
    assert closed["current_card"] is None
    return session_id, {"opening": first_notice, "ended": ended, "closed": closed}


def test_a_whole_session_runs_through_rest_only_with_the_offline_engine(alice, api_as):
    client = api_as(alice)
    session_id, states = whole_session(client)

    assert states["opening"]["kind"] == "intro"
    assert states["opening"]["items"] == []
    assert states["closed"]["engine"] == "offline"
    # the warm line names the next session from alice's schedule (Thursdays, Berlin)
    assert "See you on Thursday." in states["ended"]["notice"]["text"]
    assert len(states["closed"]["answered"]) >= 8
    session = AskSession.objects.get(pk=session_id)
    assert session.session_summary
    assert session.key_insights
    assert session.cbt_techniques_used
    assert session.ended_at is not None
    assert session.duration_seconds is not None
    assert alice.profile.__class__.objects.get(user=alice).session_count == 1
    assert AnalysisRequest.objects.filter(session=session).count() == 1
    types = list(SessionEvent.objects.filter(session=session).values_list("type", flat=True))
    assert types.count("analyst.responded") >= 3
    assert "pacing.ready_to_close" in types
    assert types.index("session.closed") > types.index("closing.delivered")


def test_the_second_session_opens_with_a_hook_from_the_first(alice, api_as):
    client = api_as(alice)
    whole_session(client)

    created = client.post(reverse("sessions:session-list"), {}, format="json").json()
    state = client.get(url("state", created["_id"])).json()

    assert state["notice"]["kind"] == "intro"
    assert state["notice"]["text"].startswith("Good to see you again.")
    hooks = state["notice"]["items"]
    assert 1 <= len(hooks) <= 2
    assert hooks[0] == "Last time you talked about «Work stress»."
    assert "«Work stress» again" in state["current_card"]["text"]  # the suggested topic


def test_a_first_session_has_no_hooks(alice, api_as):
    created = api_as(alice).post(reverse("sessions:session-list"), {}, format="json").json()
    session = AskSession.objects.get(pk=created["_id"])
    assert not session.messages.filter(kind=AskMessage.Kind.HOOK).exists()


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"card_id": "not-the-card", "text": "hello"}, "card_id"),
        ({"card_id": "CARD", "text": "   "}, "text"),
        ({"card_id": "CARD", "text": "x" * 4001}, "text"),
        ({"card_id": "CARD"}, "text"),
        ({"card_id": "CARD", "text": "hi", "extra": 1}, "extra"),
    ],
)
def test_a_wrong_card_or_bad_text_is_e_validation_and_changes_nothing(alice, api_as, body, field):
    client = api_as(alice)
    session_id = new_session(client)
    before = client.get(url("state", session_id)).json()
    body = {k: (before["current_card"]["id"] if v == "CARD" else v) for k, v in body.items()}
    counts = (AskMessage.objects.count(), SessionEvent.objects.count())

    response = client.post(url("answers", session_id), body, format="json")

    assert response.status_code == 400
    assert response.json()["code"] == "E_VALIDATION"
    assert field in response.json()["fields"]
    assert (AskMessage.objects.count(), SessionEvent.objects.count()) == counts
    assert client.get(url("state", session_id)).json() == before


def test_answering_a_closed_session_is_e_validation(alice, api_as):
    client = api_as(alice)
    session_id, _states = whole_session(client)
    response = client.post(
        url("answers", session_id), {"card_id": "x", "text": "hi"}, format="json"
    )
    assert response.status_code == 400
    assert response.json()["code"] == "E_VALIDATION"


def test_a_retried_answer_with_the_same_key_replays_and_stores_it_once(alice, api_as):
    answer = first_card_answerer(api_as(alice))

    first = answer(HTTP_IDEMPOTENCY_KEY="a1")
    again = answer(HTTP_IDEMPOTENCY_KEY="a1")

    assert first.status_code == again.status_code == 200
    assert again.json() == first.json()
    assert again["Idempotent-Replayed"] == "true"
    assert AskMessage.objects.filter(kind=AskMessage.Kind.TOPIC).count() == 1


def test_a_resent_answer_without_a_key_is_409_with_the_current_state(alice, api_as):
    answer = first_card_answerer(api_as(alice))
    first = answer().json()

    again = answer()

    # One card takes exactly one answer (SPEC §9): the resend is told so, and what to show.
    assert again.status_code == 409
    assert again.json()["code"] == "E_CARD_ANSWERED"
    assert again.json()["state"] == first
    assert AskMessage.objects.filter(kind=AskMessage.Kind.TOPIC).count() == 1


def test_counselors_read_the_state_but_cannot_answer(alice, bob, api_as):
    session_id = api_as(alice).post(reverse("sessions:session-list"), {}, format="json").json()
    state = api_as(bob).get(url("state", session_id["_id"]))
    assert state.status_code == 200
    refused = api_as(bob).post(
        url("answers", session_id["_id"]),
        {"card_id": state.json()["current_card"]["id"], "text": "hi"},
        format="json",
    )
    assert refused.status_code == 403
    assert refused.json()["code"] == "E_FORBIDDEN"


def test_a_retry_while_the_first_request_still_runs_is_told_to_wait(alice, api_as):
    from sessions_app.models import IdempotencyRecord

    answer = first_card_answerer(api_as(alice))
    first = answer(HTTP_IDEMPOTENCY_KEY="k")
    # Pretend the first request is still running: its claim has no response yet (and, on
    # PostgreSQL, its connection holds the key's advisory lock).
    record = IdempotencyRecord.objects.get(key="k")
    IdempotencyRecord.objects.filter(pk=record.pk).update(response_status=None)

    with key_held_elsewhere(alice, "k"):
        again = answer(HTTP_IDEMPOTENCY_KEY="k")

    assert first.status_code == 200
    assert again.status_code == 409
    assert again.json()["code"] == "E_IDEMPOTENCY_IN_PROGRESS"


def test_a_claim_left_by_a_crashed_request_is_taken_over_after_its_lease(alice, api_as):
    from datetime import timedelta

    from django.utils import timezone

    from sessions_app.models import IdempotencyRecord

    answer = first_card_answerer(api_as(alice))
    fingerprint_source = answer(HTTP_IDEMPOTENCY_KEY="crashed")
    assert fingerprint_source.status_code == 200
    record = IdempotencyRecord.objects.get(key="crashed")
    IdempotencyRecord.objects.filter(pk=record.pk).update(
        response_status=None, created_at=timezone.now() - timedelta(minutes=10)
    )

    again = answer(HTTP_IDEMPOTENCY_KEY="crashed")

    # Its work had committed (the claim says so): the state it led to is replayed, the answer
    # is not given again. (On PostgreSQL no lease is waited out: tests/sessions_app/
    # test_idempotency_crash.py.)
    assert again.status_code == 200
    assert again["Idempotent-Replayed"] == "true"
    assert again.json() == fingerprint_source.json()
    assert AskMessage.objects.filter(kind=AskMessage.Kind.TOPIC).count() == 1
    assert IdempotencyRecord.objects.get(key="crashed").response_status == 200
