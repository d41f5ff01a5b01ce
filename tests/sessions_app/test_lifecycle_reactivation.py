"""Reactivation (SPEC §7): missed scheduled sessions are counted from the schedule against the
sessions actually started; after N in a row, one gentle message — not one per run."""

from __future__ import annotations

import zoneinfo
from datetime import UTC, datetime, time

import pytest

from sessions_app.jobs import outreach
from sessions_app.models import Notification, UserProfile
from tests import factories
from tests.sessions_app.lifecycle_support import frozen_clock

pytestmark = pytest.mark.django_db

BERLIN = zoneinfo.ZoneInfo("Europe/Berlin")
JOINED = datetime(2026, 3, 2, 10, 0, tzinfo=UTC)  # a Monday
THURSDAY_SLOT = time(18, 0)  # the factory's schedule: Thursdays at 18:00, Europe/Berlin


def berlin(month: int, day: int, hour: int, minute: int = 0) -> datetime:
    return datetime(2026, month, day, hour, minute, tzinfo=BERLIN)


clock = frozen_clock(JOINED)


@pytest.fixture
def client_profile(clock, settings):
    settings.REACTIVATION_AFTER_MISSED = 3
    user = factories.ClientFactory(username="nora")
    return factories.UserProfileFactory(user=user)


def started(user, at: datetime):
    return factories.AskSessionFactory(user=user, created_at=at, last_activity_at=at)


def reactivations(user) -> list[Notification]:
    return list(Notification.objects.filter(user=user, kind=Notification.Kind.REACTIVATION))


def missed(profile: UserProfile) -> int:
    profile.refresh_from_db()
    return profile.missed_in_row


def test_missed_sessions_are_the_scheduled_slots_passed_since_the_last_session_started(
    clock, client_profile
):
    started(client_profile.user, berlin(3, 5, 17, 50))  # kept Thursday 5 March
    clock.move_to(berlin(3, 20, 12))  # Thursdays 12 and 19 March passed without a session
    outreach.reactivations_send()
    assert missed(client_profile) == 2
    clock.move_to(berlin(3, 26, 22))  # 26 March's window is still open at 22:00
    outreach.reactivations_send()
    assert missed(client_profile) == 2
    clock.move_to(berlin(3, 27, 7))
    outreach.reactivations_send()
    assert missed(client_profile) == 3


def test_a_session_started_within_the_window_of_a_slot_keeps_it(clock, client_profile):
    started(client_profile.user, berlin(3, 12, 23, 30))  # late, but the same evening
    clock.move_to(berlin(3, 14, 12))
    outreach.reactivations_send()
    assert missed(client_profile) == 0
    # A session the day before, more than the window ahead of the slot, does not keep it.
    started(client_profile.user, berlin(3, 18, 9))
    clock.move_to(berlin(3, 21, 12))
    outreach.reactivations_send()
    assert missed(client_profile) == 1


def test_slots_before_the_client_joined_do_not_count(clock, client_profile):
    clock.move_to(berlin(3, 6, 12))  # Thursday 5 March passed; the client joined on the 2nd
    outreach.reactivations_send()
    assert missed(client_profile) == 1
    client_profile.user.date_joined = berlin(3, 5, 20)
    client_profile.user.save()
    outreach.reactivations_send()
    assert missed(client_profile) == 0


def test_after_n_missed_sessions_one_gentle_message_is_sent_however_often_the_job_runs(
    clock, client_profile
):
    started(client_profile.user, berlin(3, 5, 18))
    clock.move_to(berlin(3, 20, 12))
    assert outreach.reactivations_send().counts["sent"] == 0  # two missed: not yet
    assert reactivations(client_profile.user) == []

    clock.move_to(berlin(3, 27, 12))
    first = outreach.reactivations_send()
    again = outreach.reactivations_send()
    clock.move_to(berlin(4, 3, 12))  # a fourth one missed: still the same absence
    later = outreach.reactivations_send()

    assert [r.counts["sent"] for r in (first, again, later)] == [1, 0, 0]
    [message] = reactivations(client_profile.user)
    assert message.payload["title"].startswith("It's been a while.")
    # Sent at the client's own session hour, not in the middle of the night.
    assert message.scheduled_for == berlin(3, 27, 18)
    assert missed(client_profile) == 4


def test_a_new_absence_after_the_client_came_back_earns_a_new_message(clock, client_profile):
    started(client_profile.user, berlin(3, 5, 18))
    clock.move_to(berlin(3, 27, 12))
    outreach.reactivations_send()
    started(client_profile.user, berlin(4, 2, 18))  # back on Thursday 2 April
    clock.move_to(berlin(4, 3, 12))
    outreach.reactivations_send()
    assert missed(client_profile) == 0
    clock.move_to(berlin(4, 24, 12))  # 9, 16 and 23 April missed
    outreach.reactivations_send()
    assert len(reactivations(client_profile.user)) == 2


def test_a_client_without_a_schedule_is_never_counted(clock, client_profile):
    UserProfile.objects.filter(pk=client_profile.pk).update(schedule_weekdays=[])
    clock.move_to(berlin(5, 1, 12))
    report = outreach.reactivations_send()
    assert missed(client_profile) == 0
    assert report.counts["sent"] == 0


@pytest.mark.parametrize(
    ("locale", "title"),
    [("ru", "Давно не виделись."), ("zh", "好久不见。"), ("zh-TW", "好久不见。")],
)
def test_the_reactivation_message_is_in_the_clients_language(clock, client_profile, locale, title):
    UserProfile.objects.filter(pk=client_profile.pk).update(locale=locale)
    started(client_profile.user, berlin(3, 5, 17, 50))
    clock.move_to(berlin(3, 27, 12))  # three Thursdays missed

    outreach.reactivations_send()

    [message] = reactivations(client_profile.user)
    assert message.payload["title"].startswith(title)
