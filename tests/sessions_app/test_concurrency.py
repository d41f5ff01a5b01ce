"""QUALITY R3 on PostgreSQL: the one-active-session rule holds under concurrent creates because
the database decides (a partial unique index), not a check-then-insert."""

from __future__ import annotations

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from sessions_app.models import AskSession
from tests.races import race

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def test_twenty_concurrent_creates_yield_one_201_and_nineteen_409s(alice):
    url = reverse("sessions:session-list")

    def create() -> tuple[int, str]:
        client = APIClient()
        client.force_authenticate(alice)
        response = client.post(url, {"session_type": "general"}, format="json")
        return response.status_code, response.json().get("code", "")

    results, _ = race([create] * 20)
    assert sorted(results) == [(201, "")] + [(409, "E_SESSION_ACTIVE_EXISTS")] * 19
    assert AskSession.objects.filter(user=alice, status="active").count() == 1
    session = AskSession.objects.get(user=alice)
    assert list(session.events.values_list("type", flat=True)) == [
        "session.created",
        "session.started",
        "card.dealt",
    ]
