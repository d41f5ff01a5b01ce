"""`ws/notifications/`: a client app's own notifications, pushed as the delivery job marks them
sent — token auth as on the session stream, and nobody else's notifications."""

from __future__ import annotations

import json

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from django.utils import timezone
from knox.models import AuthToken

from sessions_app.jobs.delivery import notifications_deliver
from sessions_app.models import Notification
from tests.ws import communicator, outcome

pytestmark = pytest.mark.usefixtures("channel_layer_kind", "keep_test_connection")

PATH = "/ws/notifications/"


def due(user, kind=Notification.Kind.RESUME_SESSION):
    return Notification.objects.create(
        user=user, kind=kind, payload={}, scheduled_for=timezone.now()
    )


@pytest.mark.django_db(transaction=True)
def test_a_delivered_notification_reaches_its_users_open_stream_and_no_one_elses(alice, charlie):
    alices_token = AuthToken.objects.create(alice)[1]
    charlies_token = AuthToken.objects.create(charlie)[1]

    async def scenario():
        mine = communicator(PATH, token=alices_token, origin=None)
        theirs = communicator(PATH, token=charlies_token, origin=None)
        assert await outcome(mine) == "open"
        assert await outcome(theirs) == "open"
        notification = await database_sync_to_async(due)(alice)
        report = await database_sync_to_async(notifications_deliver)()
        frame = json.loads(await mine.receive_from(timeout=2))
        assert await theirs.receive_nothing(timeout=0.2)
        await mine.disconnect()
        await theirs.disconnect()
        return notification, report, frame

    notification, report, frame = async_to_sync(scenario)()
    assert frame == {
        "type": "notification.new",
        "notification_id": notification.pk,
        "kind": "resume_session",
    }
    assert report.counts["delivered"] == 1
    assert report.counts["pushed"] == 1


@pytest.mark.django_db(transaction=True)
def test_the_anonymous_are_refused_the_notifications_stream():
    async def scenario():
        comm = communicator(PATH)
        result = await outcome(comm)
        await comm.disconnect()
        return result

    assert async_to_sync(scenario)() == 4401
