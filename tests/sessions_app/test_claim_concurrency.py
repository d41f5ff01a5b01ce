"""QUALITY R3 for the counselor's workspace on PostgreSQL: concurrent claims of one
alerted session, real threads through the REST API → exactly one handoff, the others 409."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from rest_framework.test import APIClient

from sessions_app.models import AskSession, Notification
from tests import factories
from tests.races import race

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

CLAIMERS = 10


def test_concurrent_claims_of_one_alert_yield_one_handoff_and_409s(alice):
    counselors = [
        factories.on_duty_counselor(f"duty{n}", first_name=f"Duty{n}") for n in range(CLAIMERS)
    ]
    client = APIClient()
    client.force_authenticate(alice)
    session_id = client.post("/api/ask/sessions", {}, format="json").json()["_id"]
    client.post(f"/api/ask/sessions/{session_id}/messages", {"text": "Work"}, format="json")
    client.post(
        f"/api/ask/sessions/{session_id}/messages", {"text": "I want to die"}, format="json"
    )
    assert Notification.objects.filter(session_id=session_id, kind="crisis_alert").count() == (
        CLAIMERS
    )

    def claim(counselor: object) -> Callable[[], tuple[int, str]]:
        def job() -> tuple[int, str]:
            api = APIClient()
            api.force_authenticate(counselor)
            response = api.post(f"/api/ask/sessions/{session_id}/claim", format="json")
            return response.status_code, response.json().get("code", "")

        return job

    results, _ = race([claim(c) for c in counselors])

    assert sorted(results) == [(200, "")] + [(409, "E_ALREADY_CLAIMED")] * (CLAIMERS - 1)
    session = AskSession.objects.get(pk=session_id)
    assert session.handoff_counselor in counselors
    assert session.events.filter(type="handoff.created").count() == 1
