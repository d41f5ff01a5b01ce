"""Issue 20: at most REQUESTS_RUNNING requests of a process run at a time, the rest wait their
turn; a request waiting on a password hash or on a model's network call gives its slot back."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from django.contrib.auth.hashers import MD5PasswordHasher
from django.db import connections
from django.http import HttpRequest, HttpResponseBase
from django.urls import reverse
from rest_framework.test import APIClient

from tests import factories
from tests.fake_anthropic import FakeAnthropic, slow

pytestmark = pytest.mark.django_db(transaction=True)
PASSWORD = "a long test password"
RUNNING = "sessions_app.edge.running.RequestsRunningMiddleware"


class Inside:
    """A middleware right after the bound: counts the requests inside it at once. Each waits
    until `expected` are inside together (or a second has passed), so that the bound is
    reached, and any request let in beyond it would be counted."""

    changed = threading.Condition()
    now = 0
    most = 0
    expected = 0

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        cls = type(self)
        with cls.changed:
            cls.now += 1
            cls.most = max(cls.most, cls.now)
            cls.changed.notify_all()
            cls.changed.wait_for(lambda: cls.now >= cls.expected, timeout=1.0)
        try:
            return self.get_response(request)
        finally:
            with cls.changed:
                cls.now -= 1


class SlowHasher(MD5PasswordHasher):
    """MD5, made as slow as a real hash (a second)."""

    algorithm = "slow_md5"
    started = threading.Event()

    def verify(self, password: str, encoded: str) -> bool:
        type(self).started.set()
        time.sleep(1.0)
        return super().verify(password, encoded)


@pytest.fixture
def bound(settings: Any) -> Callable[[int], None]:
    def to(size: int) -> None:
        settings.REQUESTS_RUNNING = size
        Inside.expected = size
        settings.MIDDLEWARE = [RUNNING, f"{__name__}.Inside", *settings.MIDDLEWARE[1:]]

    assert settings.MIDDLEWARE[0] == RUNNING
    Inside.most = 0
    return to


def in_thread[T](call: Callable[[], T]) -> T:
    try:
        return call()
    finally:
        connections.close_all()


def health() -> int:
    return APIClient().get(reverse("healthz")).status_code


def test_at_most_the_bound_runs_and_every_request_is_answered(bound):
    bound(2)
    with ThreadPoolExecutor(max_workers=8) as pool:
        statuses = list(pool.map(lambda _: in_thread(health), range(8)))

    assert statuses == [200] * 8
    assert Inside.most == 2


def test_a_sign_in_hashing_its_password_gives_its_slot_back(bound, settings):
    bound(1)
    settings.PASSWORD_HASHERS = [f"{__name__}.SlowHasher"]
    user = factories.ClientFactory(username="slow")
    user.set_password(PASSWORD)
    user.save()
    finished: list[str] = []

    def sign_in() -> int:
        body = {"username": "slow", "password": PASSWORD}
        status = APIClient().post(reverse("api:auth-token"), body, format="json").status_code
        finished.append("sign-in")
        return status

    with ThreadPoolExecutor(max_workers=2) as pool:
        signing_in = pool.submit(in_thread, sign_in)
        assert SlowHasher.started.wait(timeout=10)  # the sign-in is hashing now, for a second
        assert pool.submit(in_thread, health).result(timeout=10) == 200
        finished.append("health")
        assert signing_in.result(timeout=10) == 200

    # With the slot kept through the hash, the health check would have waited for it.
    assert finished == ["health", "sign-in"]


def test_an_answer_waiting_on_the_model_gives_its_slot_back(bound, settings):
    fake = FakeAnthropic().start()
    try:
        settings.ANTHROPIC_BASE_URL = fake.base_url
        settings.ANTHROPIC_API_KEY = "test-key-not-secret"
        settings.ANTHROPIC_MAX_RETRIES = 0
        settings.ANTHROPIC_TIMEOUT_SECONDS = 10.0
        # The safety check stays offline: the call that waits is the Analyst's.
        settings.LLM_BINDINGS = {
            agent: binding
            if agent == "safety"
            else {"provider": "anthropic", "model": "claude-haiku-4-5"}
            for agent, binding in settings.LLM_BINDINGS.items()
        }
        client = APIClient()
        client.force_authenticate(factories.ClientFactory())
        created = client.post("/api/ask/sessions", {}, format="json").json()
        base = f"/api/ask/sessions/{created['_id']}"
        card = client.get(f"{base}/state").json()["current_card"]
        bound(1)
        fake.queue(slow(1.5))  # the Analyst's call takes its time
        finished: list[str] = []

        def answer() -> int:
            body = {"card_id": card["id"], "text": "Work stress"}
            status = client.post(f"{base}/answers", body, format="json").status_code
            finished.append("answer")
            return status

        with ThreadPoolExecutor(max_workers=2) as pool:
            answering = pool.submit(in_thread, answer)
            assert fake.wait_for_requests(1, timeout=10)  # the answer waits on the model
            assert pool.submit(in_thread, health).result(timeout=10) == 200
            finished.append("health")
            # The model's late, malformed reply costs the client a gentle card, not an error.
            assert answering.result(timeout=30) == 200
    finally:
        fake.stop()

    assert finished == ["health", "answer"]
