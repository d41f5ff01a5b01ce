"""CBT homework between sessions (docs/decisions/0004-cbt-homework-between-sessions.md): the
reminder on the due date, and expiry after a
grace period. One job, every 15 minutes, safe to run twice or concurrently: a reminder is once
by the notification's dedupe key (`task:<id>`), and delivered once by `delivery.py`; an expiry
re-reads the task under its row lock.
"""

from __future__ import annotations

from datetime import datetime, time, timedelta
from zoneinfo import ZoneInfo

from django.conf import settings
from django.utils import timezone

from sessions_app import texts
from sessions_app.engine.selectors import reminder_key
from sessions_app.engine.services import task_expire
from sessions_app.jobs.lifecycle import JobReport, at_local
from sessions_app.models import Notification, Task, TaskStatus, UserProfile, profile_zone

HOMEWORK_BATCH = 500


def homework_sweep(*, now: datetime | None = None) -> JobReport:
    """Reminders for accepted tasks due today (in the client's time zone), then expiry of open
    tasks whose due date is more than TASK_EXPIRY_GRACE behind."""
    now = now or timezone.now()
    counts = {"reminded": 0, "expired": 0}
    counts["reminded"] = tasks_remind(now=now)
    counts["expired"] = tasks_expire(now=now)
    return JobReport("homework", "{reminded} homework reminders, {expired} tasks expired", counts)


def _local(task: Task) -> tuple[UserProfile | None, ZoneInfo]:
    profile = getattr(task.user, "profile", None)  # a client without a profile: UTC
    return profile, profile_zone(profile)


def tasks_remind(*, now: datetime) -> int:
    # A day's margin either side of UTC: whose due date is "today" is decided per client below.
    candidates = list(
        Task.objects.filter(
            status=TaskStatus.ACCEPTED,
            due_date__lte=now.date() + timedelta(days=1),
            due_date__gte=now.date() - settings.TASK_EXPIRY_GRACE - timedelta(days=1),
            session__is_deleted=False,
        )
        .select_related("user__profile", "session")
        .order_by("due_date", "pk")[:HOMEWORK_BATCH]
    )
    keys = {reminder_key(task) for task in candidates}
    sent = set(
        Notification.objects.filter(
            kind=Notification.Kind.TASK_REMINDER, dedupe_key__in=keys
        ).values_list("dedupe_key", flat=True)
    )
    created = 0
    for task in candidates:
        profile, zone = _local(task)
        if reminder_key(task) in sent or now.astimezone(zone).date() < task.due_date:
            continue
        created += task_reminder_notify(task=task, profile=profile, zone=zone, now=now)
    return created


def task_reminder_notify(
    *, task: Task, profile: UserProfile | None, zone: ZoneInfo, now: datetime
) -> bool:
    """One reminder per task, on its due date at the client's usual hour (or now, if that has
    passed): the dedupe key makes a second run add nothing."""
    usual = getattr(profile, "typical_activity_time", None) or time(settings.TASK_REMINDER_HOUR)
    locale = getattr(profile, "locale", "") or task.session.locale
    _, created = Notification.objects.get_or_create(
        user_id=task.user_id,
        kind=Notification.Kind.TASK_REMINDER,
        dedupe_key=reminder_key(task),
        defaults={
            "session": task.session,
            "payload": {
                "title": texts.text("task_reminder", locale),
                "task_title": task.title,
                "task_id": str(task.pk),
                "kind": task.kind,
            },
            "scheduled_for": max(now, at_local(task.due_date, usual, zone)),
        },
    )
    return created


def tasks_expire(*, now: datetime) -> int:
    grace = settings.TASK_EXPIRY_GRACE
    candidates = (
        Task.objects.open()
        .filter(due_date__lt=now.date() + timedelta(days=1) - grace)
        .select_related("user__profile")
        .order_by("due_date", "pk")
    )
    expired = 0
    for task in candidates[:HOMEWORK_BATCH]:
        _, zone = _local(task)
        last_due = now.astimezone(zone).date() - grace - timedelta(days=1)
        expired += task_expire(task_id=task.pk, last_due=last_due)
    return expired
