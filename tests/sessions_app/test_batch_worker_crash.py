"""SPEC §3 One turn: the batch is a durable, idempotent unit of work. A real django-q cluster runs
it against this test's PostgreSQL database with the anthropic provider pointed at the fake
Messages API, which holds the Analyst's call open; the cluster is SIGKILLed there, mid-batch.
A new cluster picks the batch up again and deals it exactly once, and the client gets its cards.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import timedelta
from typing import Any

import pytest
from django.urls import reverse
from django.utils import timezone
from rest_framework.test import APIClient

from sessions_app.engine.agents.schemas import ANALYST_TOOL, NARRATOR_TOOL
from sessions_app.engine.services import batches_resume
from sessions_app.models import AskMessage, AskSession
from tests import fake_anthropic as fake
from tests.agent_outputs import analyst_output, narrator_output
from tests.server import ARTIFACTS, ROOT, database_url

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

CARDS = ("What made the week heavy?", "Where did you feel it most?")


@pytest.fixture
def fake_api() -> Iterator[fake.FakeAnthropic]:
    api = fake.FakeAnthropic().start()
    yield api
    api.stop()


@contextmanager
def cluster(api: fake.FakeAnthropic, log_name: str) -> Iterator[subprocess.Popen[bytes]]:
    """`manage.py qcluster` on the test database, in a process group of its own (the sentinel
    and its workers die together)."""
    env = {
        **{k: v for k, v in os.environ.items() if k != "DJANGO_ALLOW_ASYNC_UNSAFE"},
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DATABASE_URL": database_url(),
        "LLM_PROVIDER": "anthropic",
        "ANTHROPIC_API_KEY": "test-key-not-secret",
        "ANTHROPIC_BASE_URL": api.base_url,
        "ANTHROPIC_MAX_RETRIES": "0",
        "ANTHROPIC_TIMEOUT_SECONDS": "300",
        "Q_SYNC": "0",
        "Q_WORKERS": "1",
        # The cluster forks its workers: unpooled, as `make run` and `make serve-prod` run it.
        "DB_POOL": "0",
    }
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    with (ARTIFACTS / log_name).open("wb") as out:
        process = subprocess.Popen(
            [sys.executable, "manage.py", "qcluster"],
            cwd=ROOT,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    try:
        yield process
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGTERM)
            try:
                process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()


def analyst_calls(api: fake.FakeAnthropic) -> int:
    return sum(
        (body.get("tool_choice") or {}).get("name") == ANALYST_TOOL for body in list(api.requests)
    )


def until(condition: Any, timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.1)


def a_batch_pending(client: APIClient) -> str:
    """A session whose client just gave its topic (a batch of one card): `pending`."""
    session_id = client.post(reverse("sessions:session-list"), {}, format="json").json()["_id"]
    messages = reverse("sessions:session-messages", kwargs={"session_id": session_id})
    state = client.post(messages, {"text": "Work stress"}, format="json").json()
    assert state["pending"]["kind"] == "batch", state
    return session_id


def test_a_batch_whose_worker_is_killed_mid_batch_is_dealt_once_by_the_next(
    alice, fake_api, task_queue
):
    client = APIClient()
    client.force_authenticate(alice)
    session_id = a_batch_pending(client)  # the queue keeps the batch for a worker
    answer_id = AskMessage.objects.filter(session_id=session_id).latest("id").pk
    fake_api.queue_for_tool(ANALYST_TOOL, fake.slow(600))

    with cluster(fake_api, "batch-crash-first.log") as first:
        until(lambda: analyst_calls(fake_api) == 1, 60, "the batch to reach the Analyst")
        os.killpg(first.pid, signal.SIGKILL)
        first.wait(timeout=10)

    record = AskSession.objects.get(pk=session_id)
    assert (record.batch_pending["answer_id"], record.batch_attempts) == (answer_id, 1)
    assert not AskMessage.objects.filter(session_id=session_id, pk__gt=answer_id).exists()

    fake_api.queue_for_tool(ANALYST_TOOL, fake.tool_use(ANALYST_TOOL, analyst_output()))
    fake_api.queue_for_tool(NARRATOR_TOOL, fake.tool_use(NARRATOR_TOOL, narrator_output(*CARDS)))
    # Time passes: the dead run's claim runs out (the broker itself would hand the task out
    # again only after Q_RETRY).
    AskSession.objects.filter(pk=session_id).update(
        batch_claimed_until=timezone.now() - timedelta(seconds=1)
    )
    with cluster(fake_api, "batch-crash-second.log"):
        # The sweeper's minute comes (the `batches` schedule): the batch is handed out again.
        assert batches_resume() == 1
        until(
            lambda: AskSession.objects.get(pk=session_id).batch_pending is None,
            90,
            "the next cluster to deal the batch",
        )

    dealt = client.get(reverse("sessions:session-state", kwargs={"session_id": session_id}))
    assert dealt.json()["pending"] is None
    assert dealt.json()["current_card"]["text"] == CARDS[0]
    after = AskMessage.objects.filter(session_id=session_id, pk__gt=answer_id)
    assert after.filter(kind=AskMessage.Kind.ANALYSIS).count() == 1
    assert analyst_calls(fake_api) == 2
