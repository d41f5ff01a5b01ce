"""SPEC §9: a POST retried with the same Idempotency-Key returns the first response and
changes nothing — also when the retries race (PostgreSQL)."""

from __future__ import annotations

from contextlib import nullcontext
from datetime import timedelta
from types import SimpleNamespace
from typing import Any

import pytest
import time_machine
from django.db import connection
from django.urls import reverse
from django.utils import timezone
from rest_framework.test import APIClient

from sessions_app.api import idempotency
from sessions_app.api.base import ApiView
from sessions_app.models import AskMessage, AskSession, IdempotencyRecord, Notification
from tests import factories
from tests.races import race
from tests.sessions_app.test_access_matrix import walk
from tests.sessions_app.test_idempotency_crash import WORDS, a_session_at_a_question_card

LIST = reverse("sessions:session-list")


@pytest.mark.django_db
def test_a_retried_create_replays_the_first_response_and_creates_nothing(alice, api_as):
    client = api_as(alice)
    first = client.post(
        LIST, {"session_type": "cbt_guided"}, format="json", HTTP_IDEMPOTENCY_KEY="k-1"
    )
    again = client.post(
        LIST, {"session_type": "cbt_guided"}, format="json", HTTP_IDEMPOTENCY_KEY="k-1"
    )
    assert first.status_code == again.status_code == 201
    assert again.json() == first.json()
    assert again["Idempotent-Replayed"] == "true"
    assert AskSession.objects.filter(user=alice).count() == 1
    # without the key the same request is a new one, refused by the one-active rule
    assert client.post(LIST, {"session_type": "cbt_guided"}, format="json").status_code == 409


@pytest.mark.django_db
def test_keys_are_per_user(alice, charlie, api_as):
    a = api_as(alice).post(LIST, {}, format="json", HTTP_IDEMPOTENCY_KEY="same")
    c = api_as(charlie).post(LIST, {}, format="json", HTTP_IDEMPOTENCY_KEY="same")
    assert (a.status_code, c.status_code) == (201, 201)
    assert a.json()["_id"] != c.json()["_id"]


@pytest.mark.django_db
def test_the_same_key_for_a_different_request_is_422(alice, api_as):
    client = api_as(alice)
    client.post(LIST, {"session_type": "general"}, format="json", HTTP_IDEMPOTENCY_KEY="k")
    response = client.post(
        LIST, {"session_type": "follow_up"}, format="json", HTTP_IDEMPOTENCY_KEY="k"
    )
    assert response.status_code == 422
    assert response.json()["code"] == "E_IDEMPOTENCY_KEY_REUSED"


@pytest.mark.django_db
def test_a_failed_request_stores_nothing_so_the_retry_runs_again(alice, api_as):
    active = factories.ActiveSessionFactory(user=alice)
    client = api_as(alice)
    assert client.post(LIST, {}, format="json", HTTP_IDEMPOTENCY_KEY="k").status_code == 409
    assert not IdempotencyRecord.objects.exists()
    active.status = AskSession.Status.COMPLETED
    active.save()
    assert client.post(LIST, {}, format="json", HTTP_IDEMPOTENCY_KEY="k").status_code == 201


@pytest.mark.django_db
def test_marking_a_notification_read_twice_with_a_key_replays(alice, api_as):
    notification = factories.NotificationFactory(user=alice)
    url = reverse("sessions:notification-read", kwargs={"notification_id": notification.pk})
    first = api_as(alice).post(url, {}, format="json", HTTP_IDEMPOTENCY_KEY="r")
    Notification.objects.filter(pk=notification.pk).update(read_at=None)
    again = api_as(alice).post(url, {}, format="json", HTTP_IDEMPOTENCY_KEY="r")
    assert again.json() == first.json()
    assert Notification.objects.get(pk=notification.pk).read_at is None  # nothing ran


@pytest.mark.django_db
def test_an_expired_key_starts_afresh(alice, api_as):
    client = api_as(alice)
    client.post(LIST, {}, format="json", HTTP_IDEMPOTENCY_KEY="old")
    AskSession.objects.update(status=AskSession.Status.COMPLETED)
    IdempotencyRecord.objects.update(created_at=timezone.now() - timedelta(days=2))
    response = client.post(LIST, {}, format="json", HTTP_IDEMPOTENCY_KEY="old")
    assert response.status_code == 201
    assert "Idempotent-Replayed" not in response
    assert AskSession.objects.count() == 2


@pytest.mark.django_db
@pytest.mark.parametrize("key", ["", "a" * 256, "with space", "ключ"])
def test_a_malformed_key_is_e_validation(alice, api_as, key):
    response = api_as(alice).post(LIST, {}, format="json", HTTP_IDEMPOTENCY_KEY=key)
    assert response.status_code == 400
    assert "Idempotency-Key" in response.json()["fields"]


def test_every_post_endpoint_is_idempotent_or_says_why_not():
    from django.urls import get_resolver

    for path, name, callback in walk(get_resolver().url_patterns):
        # The schema, its docs and the catch-all that answers an unknown path (E_NOT_FOUND for
        # every method) are not endpoints.
        if not path.startswith("api/") or name in ("api:schema", "api:docs", "api-not-found"):
            continue
        view_class = callback.cls
        # ApiView is what wraps POST handlers; a ViewSet's `create` would slip past it.
        assert issubclass(view_class, ApiView), f"{name} must derive from ApiView"
        if not hasattr(view_class, "post"):
            continue
        wrapped = getattr(view_class.post, "idempotent", False)
        assert wrapped or view_class.idempotency_exempt, f"{name}: POST without Idempotency-Key"


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_concurrent_retries_with_one_key_create_one_session_and_all_get_its_response(alice):
    def retry() -> tuple[int, dict]:
        client = APIClient()
        client.force_authenticate(alice)
        response = client.post(LIST, {}, format="json", HTTP_IDEMPOTENCY_KEY="race")
        return response.status_code, response.json()

    results, _ = race([retry] * 10)
    assert [status for status, _ in results] == [201] * 10
    assert len({body["_id"] for _, body in results}) == 1
    assert AskSession.objects.filter(user=alice).count() == 1
    assert IdempotencyRecord.objects.count() == 1


# --- a turn (staged) whose first attempt died: the database state a killed process leaves -------
# On PostgreSQL a retry knows at once that nothing runs the key (the dead attempt's advisory lock
# went with its connection: test_idempotency_crash.py); the embedded SQLite cannot tell a dead
# attempt from a slow one, so it waits out the claim's lease.


def _turn(user: Any) -> tuple[str, dict[str, str]]:
    session_id = a_session_at_a_question_card(user)
    return reverse("sessions:session-messages", kwargs={"session_id": session_id}), {"text": WORDS}


def _lease_waited_out(client: APIClient, path: str, body: dict, key: str) -> Any:
    """The retry's answer once no attempt can still be running the key."""
    if connection.vendor == "postgresql":
        return nullcontext()
    early = client.post(path, body, format="json", HTTP_IDEMPOTENCY_KEY=key)
    assert early.status_code == 409, early.json()
    assert early.json()["code"] == "E_IDEMPOTENCY_IN_PROGRESS"
    later = timezone.now() + timedelta(seconds=idempotency.STAGED_LEASE_SECONDS + 1)
    return time_machine.travel(later, tick=False)


@pytest.mark.django_db
def test_a_turn_whose_first_attempt_died_before_committing_runs_once_on_the_retry(alice, api_as):
    path, body = _turn(alice)
    # What a process killed before the client's message committed leaves: a claim, not applied.
    request = SimpleNamespace(method="POST", path=path, data=body)
    IdempotencyRecord.objects.create(
        user=alice, key="died", fingerprint=idempotency._fingerprint(request)
    )
    client = api_as(alice)
    stored = AskMessage.objects.filter(text=WORDS)

    with _lease_waited_out(client, path, body, "died"):
        assert stored.count() == 0  # a retry told to wait did nothing
        retry = client.post(path, body, format="json", HTTP_IDEMPOTENCY_KEY="died")
    again = client.post(path, body, format="json", HTTP_IDEMPOTENCY_KEY="died")

    assert retry.status_code == 200, retry.json()
    assert stored.count() == 1
    assert again.json() == retry.json()
    assert again["Idempotent-Replayed"] == "true"


@pytest.mark.django_db
def test_a_turn_that_committed_before_its_response_was_lost_is_answered_not_redone(alice, api_as):
    path, body = _turn(alice)
    client = api_as(alice)
    first = client.post(path, body, format="json", HTTP_IDEMPOTENCY_KEY="lost")
    assert first.status_code == 200, first.json()
    # What a process killed between committing the turn and storing its response leaves.
    IdempotencyRecord.objects.filter(key="lost").update(response_status=None, response_body=None)

    with _lease_waited_out(client, path, body, "lost"):
        retry = client.post(path, body, format="json", HTTP_IDEMPOTENCY_KEY="lost")

    assert retry.status_code == 200, retry.json()
    assert retry["Idempotent-Replayed"] == "true"
    assert retry.json() == first.json()  # the state the committed turn left
    assert AskMessage.objects.filter(text=WORDS).count() == 1
