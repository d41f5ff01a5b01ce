"""Notification delivery (SPEC §2, §7): due notifications are marked sent exactly once, pushed
to the user's websocket group after commit, and emailed when that is switched on."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
import time_machine
from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.core import mail
from django.urls import reverse

from sessions_app.jobs import delivery
from sessions_app.models import Notification
from tests import factories
from tests.races import race
from tests.sessions_app.lifecycle_support import frozen_clock

pytestmark = pytest.mark.django_db

NOW = datetime(2026, 3, 10, 9, 0, tzinfo=UTC)


clock = frozen_clock(NOW)


def test_due_notifications_are_marked_sent_once_and_future_ones_wait(
    clock, alice, django_capture_on_commit_callbacks
):
    due = factories.NotificationFactory(user=alice, scheduled_for=NOW - timedelta(minutes=1))
    later = factories.NotificationFactory(user=alice, scheduled_for=NOW + timedelta(minutes=1))

    with django_capture_on_commit_callbacks(execute=True):
        first = delivery.notifications_deliver()
    clock.shift(timedelta(seconds=30))
    with django_capture_on_commit_callbacks(execute=True):
        second = delivery.notifications_deliver()

    assert (first.counts["delivered"], second.counts["delivered"]) == (1, 0)
    due.refresh_from_db()
    later.refresh_from_db()
    assert due.sent_at == NOW
    assert later.sent_at is None
    clock.shift(timedelta(minutes=1))
    assert delivery.notifications_deliver().counts["delivered"] == 1


def test_delivery_pushes_to_the_users_group_only_after_commit(
    clock, alice, django_capture_on_commit_callbacks
):
    layer = get_channel_layer()
    channel = async_to_sync(layer.new_channel)()
    async_to_sync(layer.group_add)(f"user.{alice.pk}", channel)
    notification = factories.NotificationFactory(user=alice, scheduled_for=NOW)

    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        report = delivery.notifications_deliver()
    assert report.counts["pushed"] == 0  # nothing leaves before the marking commits
    for callback in callbacks:
        callback()

    message = async_to_sync(layer.receive)(channel)
    assert message == {
        "type": "notification.new",
        "notification_id": notification.pk,
        "kind": "resume_session",
    }
    assert report.summary == "delivered 1 notifications (1 pushed, 0 emailed)"


def test_email_goes_out_only_when_switched_on_and_the_user_has_an_address(
    clock, alice, charlie, settings, django_capture_on_commit_callbacks
):
    charlie.email = ""
    charlie.save()
    factories.NotificationFactory(user=alice, scheduled_for=NOW)
    factories.NotificationFactory(user=charlie, scheduled_for=NOW)
    with django_capture_on_commit_callbacks(execute=True):
        delivery.notifications_deliver()
    assert mail.outbox == []

    settings.NOTIFICATION_EMAIL = True
    factories.NotificationFactory(user=alice, scheduled_for=NOW)
    factories.NotificationFactory(user=charlie, scheduled_for=NOW)
    with django_capture_on_commit_callbacks(execute=True):
        report = delivery.notifications_deliver()

    assert report.counts == {"delivered": 2, "pushed": 2, "emailed": 1}
    [email] = mail.outbox
    assert email.to == [alice.email]
    assert email.subject == "Shall we come back?"


def test_a_refused_email_leaves_the_notification_delivered_once(
    clock, alice, settings, monkeypatch, django_capture_on_commit_callbacks
):
    settings.NOTIFICATION_EMAIL = True

    def refuse(self, *args, **kwargs):
        raise OSError("the mail server is down")

    monkeypatch.setattr("django.core.mail.EmailMessage.send", refuse)
    notification = factories.NotificationFactory(user=alice, scheduled_for=NOW)
    with django_capture_on_commit_callbacks(execute=True):
        report = delivery.notifications_deliver()
    assert (report.counts["delivered"], report.counts["emailed"]) == (1, 0)
    notification.refresh_from_db()
    assert notification.sent_at == NOW
    with django_capture_on_commit_callbacks(execute=True):
        assert delivery.notifications_deliver().counts["delivered"] == 0


def test_the_inbox_shows_a_delivered_notification(clock, alice, api_as):
    factories.NotificationFactory(user=alice, scheduled_for=NOW - timedelta(minutes=1))
    delivery.notifications_deliver()
    [item] = api_as(alice).get(reverse("sessions:notification-list")).json()["results"]
    assert item["payload"] == {"title": "Shall we come back?"}


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_two_concurrent_delivery_runs_deliver_each_notification_exactly_once(settings):
    settings.NOTIFICATION_EMAIL = True
    users = [factories.ClientFactory() for _ in range(5)]
    notifications = [
        factories.NotificationFactory(user=users[n % 5], scheduled_for=NOW - timedelta(seconds=n))
        for n in range(450)  # more than two batches, so the runs interleave batch by batch
    ]
    with time_machine.travel(NOW, tick=False):
        reports, errors = race([delivery.notifications_deliver] * 2)

    assert errors == []
    assert sum(report.counts["delivered"] for report in reports) == len(notifications)
    assert sum(report.counts["emailed"] for report in reports) == len(notifications)
    assert len(mail.outbox) == len(notifications)
    assert not Notification.objects.filter(sent_at__isnull=True).exists()
