"""CBT homework between sessions: the reminder on the due date, in the client's
language and exactly once through the existing delivery, and expiry after the grace period."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

import pytest
from django.urls import reverse

from sessions_app.engine.services import task_accept, task_done
from sessions_app.jobs import delivery, homework
from sessions_app.models import Notification, Task, UserProfile
from tests import factories
from tests.sessions_app.lifecycle_support import frozen_clock

pytestmark = pytest.mark.django_db

# Alice lives in Berlin (UTC+1 in March); her homework is due on Thursday 12 March.
NOW = datetime(2026, 3, 11, 12, 0, tzinfo=UTC)
DUE = date(2026, 3, 12)

clock = frozen_clock(NOW)


@pytest.fixture
def accepted(alice):
    task = factories.TaskFactory(session=factories.AskSessionFactory(user=alice), due_date=DUE)
    return task_accept(task=task, by=alice)


def reminders() -> list[Notification]:
    return list(Notification.objects.filter(kind=Notification.Kind.TASK_REMINDER))


def test_the_reminder_comes_on_the_due_date_once_through_the_delivery(
    clock, alice, accepted, api_as, django_capture_on_commit_callbacks
):
    assert homework.homework_sweep().counts["reminded"] == 0  # the day before: nothing
    clock.move_to(datetime(2026, 3, 11, 23, 30, tzinfo=UTC))  # 00:30 on the 12th in Berlin
    first = homework.homework_sweep()
    again = homework.homework_sweep()
    assert (first.counts["reminded"], again.counts["reminded"]) == (1, 0)
    [reminder] = reminders()
    # at her reminder hour, 10:00 in Berlin
    assert reminder.scheduled_for == datetime(2026, 3, 12, 9, 0, tzinfo=UTC)
    assert reminder.payload["task_id"] == str(accepted.pk)
    assert reminder.payload["title"] == (
        "A gentle reminder: today is the day for the exercise you planned."
    )
    # the task's wording stays out of the title, which is all an email would carry
    assert reminder.payload["task_title"] == "A thought record for one hard moment"
    with django_capture_on_commit_callbacks(execute=True):
        assert delivery.notifications_deliver().counts["delivered"] == 0  # not yet 10:00
    clock.move_to(datetime(2026, 3, 12, 9, 1, tzinfo=UTC))
    with django_capture_on_commit_callbacks(execute=True):
        assert delivery.notifications_deliver().counts["delivered"] == 1
        assert homework.homework_sweep().counts["reminded"] == 0
        assert delivery.notifications_deliver().counts["delivered"] == 0
    inbox = api_as(alice).get(reverse("sessions:notification-list")).json()["results"]
    assert [n["kind"] for n in inbox] == ["task_reminder"]
    assert len(reminders()) == 1


def test_the_reminder_speaks_the_client_s_language(clock, alice, accepted):
    UserProfile.objects.filter(user=alice).update(locale="zh-CN")
    clock.move_to(datetime(2026, 3, 12, 11, 0, tzinfo=UTC))
    homework.homework_sweep()
    [reminder] = reminders()
    assert reminder.payload["title"] == "温馨提醒：今天是完成你计划的练习的日子。"
    assert reminder.scheduled_for == datetime(2026, 3, 12, 11, 0, tzinfo=UTC)  # 10:00 passed


def test_no_reminder_for_a_proposal_nobody_took_on_or_a_task_already_done(clock, alice, accepted):
    factories.TaskFactory(session=accepted.session, due_date=DUE)  # still proposed
    task_done(task=accepted, by=alice)
    clock.move_to(datetime(2026, 3, 12, 8, 0, tzinfo=UTC))
    assert homework.homework_sweep().counts["reminded"] == 0
    assert reminders() == []


def test_finishing_the_task_withdraws_a_reminder_not_yet_delivered(clock, alice, accepted):
    clock.move_to(datetime(2026, 3, 12, 7, 0, tzinfo=UTC))
    homework.homework_sweep()
    assert len(reminders()) == 1
    task_done(task=accepted, by=alice)
    assert reminders() == []


def test_an_emailed_reminder_says_its_title_and_nothing_of_the_task(
    clock, alice, accepted, settings, mailoutbox, django_capture_on_commit_callbacks
):
    settings.NOTIFICATION_EMAIL = True
    alice.email = "alice@example.test"
    alice.save()
    clock.move_to(datetime(2026, 3, 12, 9, 30, tzinfo=UTC))
    homework.homework_sweep()
    with django_capture_on_commit_callbacks(execute=True):
        assert delivery.notifications_deliver().counts["delivered"] == 1
    [email] = mailoutbox
    assert email.subject == "A gentle reminder: today is the day for the exercise you planned."
    assert "thought record" not in (email.subject + email.body).lower()


def test_open_tasks_expire_after_the_grace_period_and_finished_ones_stay(
    clock, alice, accepted, settings, api_as
):
    settings.TASK_EXPIRY_GRACE = timedelta(days=2)
    proposed = factories.TaskFactory(session=accepted.session, due_date=DUE)
    done = task_done(
        task=task_accept(
            task=factories.TaskFactory(session=accepted.session, due_date=DUE), by=alice
        ),
        by=alice,
    )
    clock.move_to(datetime(2026, 3, 14, 22, 59, tzinfo=UTC))  # 23:59 on the 14th in Berlin
    assert homework.homework_sweep().counts["expired"] == 0
    clock.move_to(datetime(2026, 3, 14, 23, 1, tzinfo=UTC))  # the 15th has begun there
    report = homework.homework_sweep()
    assert report.counts["expired"] == 2
    assert homework.homework_sweep().counts["expired"] == 0
    statuses = dict(Task.objects.values_list("pk", "status"))
    assert statuses == {accepted.pk: "expired", proposed.pk: "expired", done.pk: "done"}
    assert accepted.session.events.filter(type="task.expired").count() == 2
    late = api_as(alice).post(
        reverse("sessions:task-done", kwargs={"task_id": accepted.pk}), {}, format="json"
    )
    assert late.status_code == 409
    assert late.json()["code"] == "E_TASK_STATE"
