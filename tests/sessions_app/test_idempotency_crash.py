"""SPEC §9, QUALITY R4: a keyed request whose web process is SIGKILLed mid-request resolves, on
the client's retry with the same `Idempotency-Key`, to exactly one stored result within seconds.

A real daphne serves the turn loop against this test's PostgreSQL database, with no worker: the
client's message completes a batch and is committed, the request holds its answer until the
batch is dealt (`Prefer: wait=30`), and the server is killed there."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import threading
import time
import urllib.error
import urllib.request
from types import SimpleNamespace
from typing import Any

import pytest
from django.urls import reverse
from knox.models import AuthToken
from rest_framework.test import APIClient

from sessions_app.api import idempotency
from sessions_app.models import AskMessage, IdempotencyRecord
from tests.fake_anthropic import FakeAnthropic
from tests.server import daphne_process, database_url

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

WORDS = "I also keep thinking about the weekend."
SECONDS = 10


def post(
    url: str, token: str, body: dict[str, Any], key: str, **headers: str
) -> tuple[int, dict[str, Any], Any]:
    request = urllib.request.Request(
        url,
        data=json.dumps(body).encode(),
        method="POST",
        headers={
            "Authorization": f"Token {token}",
            "Content-Type": "application/json",
            "Idempotency-Key": key,
            **headers,
        },
    )
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, json.loads(response.read()), response.headers
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read()), error.headers


def a_session_at_a_question_card(user: Any) -> str:
    client = APIClient()
    client.force_authenticate(user)
    session_id = client.post(reverse("sessions:session-list"), {}, format="json").json()["_id"]
    messages = reverse("sessions:session-messages", kwargs={"session_id": session_id})
    state = client.post(messages, {"text": "Work stress"}, format="json").json()
    assert state["current_card"]["kind"] in ("question", "open"), state
    return session_id


@pytest.fixture
def fake_api() -> Any:
    fake = FakeAnthropic().start()
    yield fake
    fake.stop()


def server_env(fake: FakeAnthropic) -> dict[str, str]:
    return {
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "LLM_PROVIDER": "anthropic",
        "ANTHROPIC_API_KEY": "test-key-not-secret",
        "ANTHROPIC_BASE_URL": fake.base_url,
        "ANTHROPIC_MAX_RETRIES": "0",
        "ANTHROPIC_TIMEOUT_SECONDS": "300",
        "Q_SYNC": "0",
        "BATCH_OFF_REQUEST": "1",  # the batch waits for a worker, which never comes
    }


def test_a_keyed_retry_after_the_server_was_killed_mid_request_replays_one_stored_message(
    alice, fake_api
):
    session_id = a_session_at_a_question_card(alice)
    token = AuthToken.objects.create(alice)[1]
    body = {"text": WORDS}
    env = server_env(fake_api)
    path = reverse("sessions:session-messages", kwargs={"session_id": session_id})
    stored = AskMessage.objects.filter(session_id=session_id, text=WORDS)

    with daphne_process(db_url=database_url(), log_name="crash-first.log", env=env) as served:
        url, server = served
        first = threading.Thread(
            target=lambda: _swallow(
                lambda: post(url + path, token, body, "crash-1", Prefer="wait=30")
            ),
            daemon=True,
        )
        first.start()
        deadline = time.monotonic() + 60
        while not IdempotencyRecord.objects.filter(key="crash-1", response_status=200).exists():
            assert time.monotonic() < deadline, "the message was never answered"
            time.sleep(0.1)
        # The request is still open, holding its answer for the batch no worker makes.
        assert first.is_alive()
        os.kill(server.pid, signal.SIGKILL)
        server.wait(timeout=10)

    assert stored.count() == 1  # committed before the server died

    with daphne_process(db_url=database_url(), log_name="crash-retry.log", env=env) as served:
        url, _server = served
        started = time.monotonic()
        while True:
            status, answer, headers = post(url + path, token, body, "crash-1")
            waited = time.monotonic() - started
            if status != 409 or waited > SECONDS:
                break
            assert answer["code"] == "E_IDEMPOTENCY_IN_PROGRESS"
            time.sleep(0.5)
        again_status, again, _ = post(url + path, token, body, "crash-1")

    assert (status, waited < SECONDS) == (200, True), answer
    assert headers["Idempotent-Replayed"] == "true"
    assert answer["status"] == "active"
    assert answer["pending"]["kind"] == "batch"
    assert (again_status, again) == (200, answer)  # resolved once, replayed from then on
    assert stored.count() == 1
    assert IdempotencyRecord.objects.get(key="crash-1").response_status == 200


def _swallow(call: Any) -> None:
    # The server dies under it: that is the point.
    with contextlib.suppress(urllib.error.URLError, ConnectionError, TimeoutError):
        call()


def test_a_claim_whose_attempt_died_before_its_work_committed_runs_again_at_once(alice):
    session_id = a_session_at_a_question_card(alice)
    path = reverse("sessions:session-messages", kwargs={"session_id": session_id})
    body = {"text": WORDS}
    # What a process killed before its message committed leaves: a fresh claim, not applied.
    request = SimpleNamespace(method="POST", path=path, data=body)
    IdempotencyRecord.objects.create(
        user=alice, key="died-early", fingerprint=idempotency._fingerprint(request)
    )
    client = APIClient()
    client.force_authenticate(alice)

    retry = client.post(path, body, format="json", HTTP_IDEMPOTENCY_KEY="died-early")

    # No lease waited out: no connection holds the key, so nothing is running it.
    assert retry.status_code == 200, retry.json()
    assert AskMessage.objects.filter(session_id=session_id, text=WORDS).count() == 1
    record = IdempotencyRecord.objects.get(key="died-early")
    assert (record.response_status, str(record.session_id)) == (200, session_id)
    assert record.applied_at is not None
