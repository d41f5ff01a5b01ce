"""The django-q schedules of the background jobs (SPEC §7), registered without admin clicks.

sessions_app's migration calls `schedules_ensure`, so `migrate` registers them on every install;
`manage.py ensure_schedules` re-applies this table after it changes. Both converge on exactly
these rows (matched by name) and leave any other schedule alone, so running either twice is
harmless. `catch_up` is off (settings), so a cluster that was down runs each job once, not once
per missed tick.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, time, timedelta
from typing import Any

from django.utils import timezone

PREFIX = "naisei."
MINUTES, HOURLY, DAILY = "I", "H", "D"  # django-q's Schedule.MINUTES / HOURLY / DAILY


@dataclass(frozen=True)
class JobSchedule:
    name: str
    func: str
    schedule_type: str
    minutes: int | None = None
    # Daily jobs first run at this UTC time, then every 24 h: the quiet hours of the night.
    at_utc: time | None = None

    @property
    def job(self) -> str:
        return self.name.removeprefix(PREFIX)


SCHEDULES: tuple[JobSchedule, ...] = (
    JobSchedule(f"{PREFIX}batches", "sessions_app.tasks.batches_resume", MINUTES, 1),
    JobSchedule(f"{PREFIX}abandoned", "sessions_app.tasks.sessions_abandoned_close", MINUTES, 15),
    JobSchedule(f"{PREFIX}notifications", "sessions_app.tasks.notifications_deliver", MINUTES, 1),
    JobSchedule(f"{PREFIX}follow_ups", "sessions_app.tasks.follow_ups_notify", MINUTES, 5),
    # Every minute: an unclaimed crisis alert escalates within a minute of its due time.
    JobSchedule(f"{PREFIX}escalation", "sessions_app.tasks.alerts_escalate", MINUTES, 1),
    # CBT homework: the due-date reminder and expiry after the grace period.
    JobSchedule(f"{PREFIX}homework", "sessions_app.tasks.homework_sweep", MINUTES, 15),
    JobSchedule(f"{PREFIX}reactivation", "sessions_app.tasks.reactivations_send", HOURLY),
    JobSchedule(f"{PREFIX}idempotency_prune", "sessions_app.tasks.idempotency_prune", HOURLY),
    JobSchedule(
        f"{PREFIX}retention", "sessions_app.tasks.retention_apply", DAILY, at_utc=time(3, 0)
    ),
    JobSchedule(f"{PREFIX}vault", "sessions_app.tasks.vault_export", DAILY, at_utc=time(4, 0)),
)
JOBS: dict[str, JobSchedule] = {schedule.job: schedule for schedule in SCHEDULES}


def first_run(schedule: JobSchedule, now: datetime) -> datetime:
    if schedule.at_utc is None:
        return now
    moment = datetime.combine(now.date(), schedule.at_utc, tzinfo=UTC)
    return moment if moment > now else moment + timedelta(days=1)


def schedules_ensure(*, schedule_model: Any = None, now: datetime | None = None) -> int:
    """Create or correct every job's schedule; returns how many rows changed.

    `schedule_model` is the migration's historical model, or django-q's own by default. The next
    run is set only on creation, so a deploy never postpones a job that is about to run.
    """
    if schedule_model is None:
        from django_q.models import Schedule as schedule_model
    now = now or timezone.now()
    changed = 0
    stale = schedule_model.objects.filter(name__startswith=PREFIX)
    changed += stale.exclude(name__in=[s.name for s in SCHEDULES]).delete()[0]
    for schedule in SCHEDULES:
        wanted = {
            "func": schedule.func,
            "schedule_type": schedule.schedule_type,
            "minutes": schedule.minutes,
            "repeats": -1,
        }
        rows = list(schedule_model.objects.filter(name=schedule.name).order_by("pk"))
        for duplicate in rows[1:]:  # a copy made by hand would run the job twice as often
            duplicate.delete()
            changed += 1
        if not rows:
            schedule_model.objects.create(
                name=schedule.name, next_run=first_run(schedule, now), **wanted
            )
            changed += 1
        elif any(getattr(rows[0], key) != value for key, value in wanted.items()):
            schedule_model.objects.filter(pk=rows[0].pk).update(**wanted)
            changed += 1
    return changed
