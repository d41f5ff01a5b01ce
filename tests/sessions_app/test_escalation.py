"""Alerts that never go unanswered (SPEC §3 Crisis, QUALITY C2): an alert nobody
claims escalates to ops after N minutes and to every counselor on duty after 2N, once, on a
frozen clock."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
import time_machine

from sessions_app import pages, services
from sessions_app.engine.services import session_claim
from sessions_app.jobs.escalation import alerts_escalate
from sessions_app.jobs.schedules import JOBS
from sessions_app.models import AskSession, Notification
from sessions_app.realtime.push import CRISIS_EVENT_TYPES
from tests import factories
from tests.engine.conftest import analyst, answer, narrator, script

pytestmark = pytest.mark.django_db

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)


@pytest.fixture
def on_duty(db: Any) -> list[Any]:
    return [
        factories.on_duty_counselor(name, first_name=name.title()) for name in ("erin", "frank")
    ]


@pytest.fixture
def alerted(alice: Any, on_duty: list[Any], settings: Any) -> AskSession:
    """A crisis at T0 that alerted erin; frank comes on duty only later."""
    settings.CRISIS_ESCALATION_AFTER = timedelta(minutes=5)
    scripted = {"provider": "scripted", "model": "scripted"}
    settings.LLM_BINDINGS = {**settings.LLM_BINDINGS, "analyst": scripted, "narrator": scripted}
    frank = on_duty[1]
    frank.profile.on_duty = False
    frank.profile.save()
    with time_machine.travel(T0, tick=False):
        session = services.session_create(owner=alice, actor=alice)
        with script(analyst(), narrator("What happens at work?", "And at night?")):
            answer(session, "Work stress")
        answer(session, "I want to end my life")
    frank.profile.on_duty = True
    frank.profile.save()
    session.refresh_from_db()
    assert session.alerted_at == T0
    return session


def alerts_for(user: Any) -> list[str]:
    return list(
        Notification.objects.filter(user=user, kind="crisis_alert").values_list(
            "payload__escalation", flat=True
        )
    )


def at(minutes: float) -> Any:
    return alerts_escalate(now=T0 + timedelta(minutes=minutes))


def test_an_unclaimed_alert_escalates_to_ops_after_n_and_to_all_on_duty_after_2n(
    alerted, on_duty, olga
):
    erin, frank = on_duty

    with time_machine.travel(T0 + timedelta(minutes=4, seconds=59), tick=False):
        assert at(4.98).counts == {"ops": 0, "on_duty": 0, "notified": 0}
    assert alerts_for(olga) == []

    with time_machine.travel(T0 + timedelta(minutes=5), tick=False):
        report = at(5)
    assert report.counts == {"ops": 1, "on_duty": 0, "notified": 1}
    assert alerts_for(olga) == ["ops"]
    assert alerts_for(frank) == []  # not yet: ops first
    event = alerted.events.get(type="alert.escalated")
    assert event.payload == {"stage": "ops", "waited_minutes": 5, "notified": 1}
    assert event.type in CRISIS_EVENT_TYPES  # a live alert on ops' pages

    # Idempotent: the job runs every minute; nothing happens twice.
    assert at(6).counts["ops"] == 0
    assert at(9.9).counts == {"ops": 0, "on_duty": 0, "notified": 0}

    report = at(10)
    assert report.counts == {"ops": 0, "on_duty": 1, "notified": 2}
    assert alerts_for(frank) == ["on_duty"]  # came on duty after the first alert
    assert sorted(filter(None, alerts_for(erin))) == ["on_duty"]
    assert at(11).counts["on_duty"] == 0
    assert list(
        alerted.events.filter(type="alert.escalated").values_list("payload__stage", flat=True)
    ) == [
        "ops",
        "on_duty",
    ]

    # The escalated counselors are alerted now: frank may claim, and the page tells the story.
    claimed = session_claim(session=alerted, counselor=frank)
    page = pages.session_page(claimed)
    assert [(item["type"], item["who"]) for item in page.chain] == [
        ("risk.escalated", ""),
        ("alert.escalated", ""),
        ("alert.escalated", ""),
        ("handoff.created", "Frank"),
    ]
    assert page.chain[-1]["payload"]["seconds_to_claim"] >= 600
    assert page.chain[-1]["payload"]["escalations"] == 2


def test_a_job_that_missed_its_ticks_escalates_both_steps_in_one_run(alerted, olga, on_duty):
    report = at(12)
    assert report.counts == {"ops": 1, "on_duty": 1, "notified": 3}


def test_a_claimed_alert_never_escalates(alerted, on_duty, olga):
    session_claim(session=alerted, counselor=on_duty[0])
    assert at(30).counts == {"ops": 0, "on_duty": 0, "notified": 0}
    assert not alerted.events.filter(type="alert.escalated").exists()


def test_a_closed_session_never_escalates(alerted, olga):
    AskSession.objects.filter(pk=alerted.pk).update(status=AskSession.Status.COMPLETED_PARTIAL)
    assert at(30).counts == {"ops": 0, "on_duty": 0, "notified": 0}


def test_the_escalation_job_is_a_registered_schedule_every_minute():
    schedule = JOBS["escalation"]
    assert (schedule.func, schedule.schedule_type, schedule.minutes) == (
        "sessions_app.tasks.alerts_escalate",
        "I",
        1,
    )
