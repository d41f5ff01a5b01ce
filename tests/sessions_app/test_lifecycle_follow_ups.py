"""Follow-ups (SPEC §7): a due follow-up notifies the client's counselors, once."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from sessions_app.jobs import outreach
from sessions_app.models import AskSession, Notification
from tests import factories
from tests.sessions_app.lifecycle_support import frozen_clock

pytestmark = pytest.mark.django_db

NOW = datetime(2026, 3, 10, 9, 0, tzinfo=UTC)


clock = frozen_clock(NOW)


def follow_ups(user=None) -> list[Notification]:
    notifications = Notification.objects.filter(kind=Notification.Kind.FOLLOW_UP)
    return list(notifications.filter(user=user) if user else notifications)


def test_a_due_follow_up_notifies_the_caseload_and_the_handoff_counselor_once(
    clock, alice, bob, dana
):
    session = factories.AskSessionFactory(
        user=alice,
        follow_up_needed=True,
        follow_up_at=NOW - timedelta(minutes=1),
        handoff_counselor=dana,
        handoff_time=NOW - timedelta(days=1),
        handoff_reason="crisis keyword",
    )

    first = outreach.follow_ups_notify()
    clock.shift(timedelta(minutes=5))
    second = outreach.follow_ups_notify()

    assert (first.counts["notifications"], second.counts["notifications"]) == (2, 0)
    [for_bob], [for_dana] = follow_ups(bob), follow_ups(dana)
    assert for_bob.session == for_dana.session == session
    assert for_bob.payload["session_id"] == str(session.pk)
    assert for_bob.payload["title"] == "A follow-up is due for a client's session."
    assert follow_ups(alice) == []  # the client is not told about her own follow-up


def test_a_follow_up_not_yet_due_or_no_longer_needed_notifies_nobody(clock, alice, bob):
    factories.AskSessionFactory(
        user=alice, follow_up_needed=True, follow_up_at=NOW + timedelta(minutes=1)
    )
    factories.AskSessionFactory(
        user=alice, follow_up_needed=False, follow_up_at=NOW - timedelta(days=1)
    )
    factories.AskSessionFactory(
        user=alice, follow_up_needed=True, follow_up_at=NOW - timedelta(days=1), is_deleted=True
    )
    assert outreach.follow_ups_notify().counts == {"sessions": 0, "notifications": 0}
    assert follow_ups() == []


def test_a_follow_up_moved_to_a_new_time_notifies_again_when_that_time_comes(clock, alice, bob):
    session = factories.AskSessionFactory(
        user=alice, follow_up_needed=True, follow_up_at=NOW - timedelta(hours=1)
    )
    outreach.follow_ups_notify()
    AskSession.objects.filter(pk=session.pk).update(follow_up_at=NOW + timedelta(days=7))
    clock.shift(timedelta(days=7, minutes=1))
    outreach.follow_ups_notify()
    outreach.follow_ups_notify()
    assert len(follow_ups(bob)) == 2


def test_a_client_without_a_counselor_has_its_follow_up_sent_to_ops(clock, charlie, olga):
    factories.AskSessionFactory(
        user=charlie, follow_up_needed=True, follow_up_at=NOW - timedelta(hours=1)
    )
    outreach.follow_ups_notify()
    assert len(follow_ups(olga)) == 1
