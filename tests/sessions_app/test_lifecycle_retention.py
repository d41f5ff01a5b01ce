"""Retention (SPEC §7): general sessions keep their content 6 months, crisis sessions 2 years;
soft-deleted sessions are anonymised promptly, the nightly sweep catching any the delete path
missed."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from sessions_app.jobs import lifecycle
from sessions_app.models import AskSession
from tests import factories
from tests.sessions_app.lifecycle_support import frozen_clock

pytestmark = pytest.mark.django_db

NOW = datetime(2026, 9, 30, 3, 0, tzinfo=UTC)
DAY = timedelta(days=1)


clock = frozen_clock(NOW)


def aged(user, age: timedelta, **fields) -> AskSession:
    return factories.AskSessionFactory(
        user=user, created_at=NOW - age, session_summary="kept words", **fields
    )


def anonymised(session: AskSession) -> bool:
    session.refresh_from_db()
    return session.anonymised_at is not None and session.session_summary == ""


def test_general_content_is_kept_for_6_months_and_crisis_content_for_2_years(clock, alice):
    general_young = aged(alice, 182 * DAY)
    general_old = aged(alice, 184 * DAY)
    crisis_young = aged(alice, 729 * DAY, session_type="crisis_intervention")
    crisis_old = aged(alice, 731 * DAY, session_type="crisis_intervention")
    # A session that turned into a crisis is kept as long as one, whatever its type says.
    escalated = aged(alice, 400 * DAY, intervention_triggered=True)

    report = lifecycle.retention_apply()

    assert report.counts == {"deleted": 0, "general": 1, "crisis": 1, "skipped": 0, "failed": 0}
    assert [anonymised(s) for s in (general_young, general_old)] == [False, True]
    assert [anonymised(s) for s in (crisis_young, crisis_old, escalated)] == [False, True, False]
    reasons = [
        s.events.get(type="session.anonymised").payload["reason"] for s in (general_old, crisis_old)
    ]
    assert reasons == ["retention_general", "retention_crisis"]


def test_the_windows_come_from_settings(clock, alice, settings):
    settings.RETENTION_GENERAL = 30 * DAY
    month_old = aged(alice, 31 * DAY)
    lifecycle.retention_apply()
    assert anonymised(month_old)


def test_a_soft_deleted_session_the_delete_path_missed_is_anonymised_the_same_night(clock, alice):
    missed = aged(alice, 2 * DAY, is_deleted=True, deleted_at=NOW - DAY)
    report = lifecycle.retention_apply()
    assert report.counts["deleted"] == 1
    assert anonymised(missed)


def test_the_sweep_runs_twice_without_doing_anything_twice(clock, alice):
    old = aged(alice, 400 * DAY)
    first, second = lifecycle.retention_apply(), lifecycle.retention_apply()
    assert (first.counts["general"], second.counts["general"]) == (1, 0)
    assert old.events.filter(type="session.anonymised").count() == 1


def test_an_open_session_is_never_swept(clock, alice):
    session = factories.ActiveSessionFactory(user=alice, created_at=NOW - 400 * DAY)
    lifecycle.retention_apply()
    session.refresh_from_db()
    assert session.anonymised_at is None
