"""Issue 28: an authenticated API response is the caller's own data; no cache on the way (a
shared proxy, the browser's disk, a phone's HTTP cache) may keep a copy of it."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests import factories

pytestmark = pytest.mark.django_db


def no_store(response) -> bool:
    return "no-store" in response.get("Cache-Control", "")


def test_the_export_and_a_clients_reads_and_writes_are_not_stored(alice, api_as):
    session = factories.ActiveSessionFactory(user=alice)
    client = api_as(alice)
    detail = reverse("sessions:session-detail", kwargs={"session_id": session.pk})
    responses = {
        "export": client.post(
            reverse("sessions:export"), {"password": "pw-for-tests-1"}, format="json"
        ),
        "list": client.get(reverse("sessions:session-list")),
        "detail": client.get(detail),
        "state": client.get(reverse("sessions:session-state", kwargs={"session_id": session.pk})),
        "patch": client.patch(detail, {"session_title": "Mine"}, format="json"),
        "notifications": client.get(reverse("sessions:notification-list")),
    }
    for name, response in responses.items():
        assert response.status_code == 200, (name, response.content[:200])
        assert no_store(response), (name, response.get("Cache-Control"))


def test_errors_and_staff_reads_are_not_stored_either(alice, bob, charlie, api_as):
    session = factories.ActiveSessionFactory(user=alice)
    detail = reverse("sessions:session-detail", kwargs={"session_id": session.pk})
    assert no_store(api_as(bob).get(detail))
    refused = api_as(charlie).get(detail)
    assert refused.status_code == 404
    assert no_store(refused)
    assert no_store(api_as(None).get(reverse("sessions:session-list")))
