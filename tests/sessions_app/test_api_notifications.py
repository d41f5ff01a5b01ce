"""The notification inbox: due notifications only, newest first, mark-read once."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from tests import factories

pytestmark = pytest.mark.django_db

INBOX = reverse("sessions:notification-list")


def read_url(notification) -> str:
    return reverse("sessions:notification-read", kwargs={"notification_id": notification.pk})


def test_the_inbox_shows_due_notifications_newest_first(alice, charlie, api_as):
    now = timezone.now()
    older = factories.NotificationFactory(user=alice, scheduled_for=now - timedelta(hours=2))
    newer = factories.NotificationFactory(user=alice, scheduled_for=now - timedelta(hours=1))
    factories.NotificationFactory(user=alice, scheduled_for=now + timedelta(days=1))  # not due
    factories.NotificationFactory(user=charlie)
    results = api_as(alice).get(INBOX).json()["results"]
    assert [n["id"] for n in results] == [newer.pk, older.pk]
    assert results[0]["payload"] == {"title": "Shall we come back?"}


def test_marking_read_sets_the_time_once_and_filters_the_unread(alice, api_as):
    notification = factories.NotificationFactory(user=alice)
    client = api_as(alice)
    first = client.post(read_url(notification)).json()["read_at"]
    assert first is not None
    assert client.post(read_url(notification)).json()["read_at"] == first
    assert client.get(INBOX, {"unread": "true"}).json()["results"] == []
    assert len(client.get(INBOX).json()["results"]) == 1


def test_charlie_cannot_read_alices_notification(alice, charlie, api_as):
    notification = factories.NotificationFactory(user=alice)
    response = api_as(charlie).post(read_url(notification))
    assert response.status_code == 404
    assert response.json()["code"] == "E_NOT_FOUND"
    notification.refresh_from_db()
    assert notification.read_at is None


def test_a_bad_unread_flag_is_e_validation(alice, api_as):
    response = api_as(alice).get(INBOX, {"unread": "maybe"})
    assert response.status_code == 400
    assert "unread" in response.json()["fields"]
