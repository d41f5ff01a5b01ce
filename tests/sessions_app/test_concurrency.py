"""QUALITY R3 on PostgreSQL: the one-active-session rule holds under concurrent creates because
the database decides (a partial unique index), not a check-then-insert."""

from __future__ import annotations

import threading

import pytest
from django.db import connection
from django.urls import reverse
from rest_framework.test import APIClient

from sessions_app.models import AskSession

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def test_twenty_concurrent_creates_yield_one_201_and_nineteen_409s(alice):
    url = reverse("sessions:session-list")
    results: list[tuple[int, str]] = []
    lock = threading.Lock()
    barrier = threading.Barrier(20)

    def create() -> None:
        client = APIClient()
        client.force_authenticate(alice)
        barrier.wait()
        try:
            response = client.post(url, {"session_type": "general"}, format="json")
            with lock:
                results.append((response.status_code, response.json().get("code", "")))
        finally:
            connection.close()

    threads = [threading.Thread(target=create) for _ in range(20)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(results) == [(201, "")] + [(409, "E_SESSION_ACTIVE_EXISTS")] * 19
    assert AskSession.objects.filter(user=alice, status="active").count() == 1
    session = AskSession.objects.get(user=alice)
    assert list(session.events.values_list("type", flat=True)) == [
        "session.created",
        "session.started",
        "card.dealt",
    ]
