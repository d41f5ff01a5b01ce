"""The jobs' django-q schedules are registered without admin clicks, idempotently; every job
can be run by hand with a summary line."""

from __future__ import annotations

import importlib
import re
from datetime import UTC, datetime

import pytest
from django.apps import apps
from django.core.management import call_command
from django.utils.module_loading import import_string
from django_q.models import Schedule

from sessions_app.jobs.schedules import JOBS, PREFIX, SCHEDULES, schedules_ensure

pytestmark = pytest.mark.django_db

NOW = datetime(2026, 3, 10, 14, 0, tzinfo=UTC)
EVERY = {  # job → (django-q schedule type, minutes)
    "abandoned": ("I", 15),
    "notifications": ("I", 1),
    "batches": ("I", 1),  # batches whose worker died, handed out again
    "follow_ups": ("I", 5),
    "escalation": ("I", 1),
    "homework": ("I", 15),  # homework reminders and expiry
    "reactivation": ("H", None),
    "idempotency_prune": ("H", None),
    "retention": ("D", None),
    "vault": ("D", None),
}


def ours() -> dict[str, Schedule]:
    return {s.name: s for s in Schedule.objects.filter(name__startswith=PREFIX)}


def test_the_migration_registers_every_job_and_running_it_again_changes_nothing():
    migration = importlib.import_module("sessions_app.migrations.0001_squashed_0017_lean_indexes")
    Schedule.objects.all().delete()
    migration.register_schedules(apps, None)
    first = {name: (s.func, s.schedule_type, s.minutes, s.repeats) for name, s in ours().items()}
    migration.register_schedules(apps, None)
    assert {
        name: (s.func, s.schedule_type, s.minutes, s.repeats) for name, s in ours().items()
    } == (first)
    assert {name.removeprefix(PREFIX): (t, m) for name, (_, t, m, _) in first.items()} == EVERY
    assert all(repeats == -1 for *_, repeats in first.values())


def test_every_scheduled_function_is_a_task_that_takes_no_arguments():
    for schedule in SCHEDULES:
        task = import_string(schedule.func)
        assert task.__module__ == "sessions_app.tasks"
        assert task.__code__.co_argcount == 0, schedule.name


def test_nightly_jobs_first_run_in_the_quiet_hours_and_a_redeploy_does_not_postpone_them():
    Schedule.objects.all().delete()
    schedules_ensure(now=NOW)
    assert ours()[f"{PREFIX}retention"].next_run == datetime(2026, 3, 11, 3, 0, tzinfo=UTC)
    assert ours()[f"{PREFIX}abandoned"].next_run == NOW
    Schedule.objects.filter(name=f"{PREFIX}retention").update(next_run=NOW)
    assert schedules_ensure(now=datetime(2026, 3, 10, 15, 0, tzinfo=UTC)) == 0
    assert ours()[f"{PREFIX}retention"].next_run == NOW


def test_a_hand_edited_or_duplicated_schedule_is_put_right_and_others_are_left_alone():
    Schedule.objects.all().delete()
    schedules_ensure(now=NOW)
    Schedule.objects.filter(name=f"{PREFIX}abandoned").update(minutes=60)
    Schedule.objects.create(name=f"{PREFIX}abandoned", func="x.y", schedule_type="I", minutes=1)
    Schedule.objects.create(name=f"{PREFIX}retired_job", func="x.y", schedule_type="D")
    Schedule.objects.create(name="someone else's", func="x.y", schedule_type="D")

    assert schedules_ensure(now=NOW) == 3

    assert sorted(ours()) == sorted(schedule.name for schedule in SCHEDULES)
    assert ours()[f"{PREFIX}abandoned"].minutes == 15
    assert Schedule.objects.filter(name="someone else's").exists()


def test_ensure_schedules_command_reports_what_it_did(capsys):
    Schedule.objects.all().delete()
    call_command("ensure_schedules")
    call_command("ensure_schedules")
    assert capsys.readouterr().out.splitlines() == [
        "10 job schedules in place, 10 rows changed",
        "10 job schedules in place, 0 rows changed",
    ]


@pytest.mark.parametrize("job", sorted(JOBS))
def test_every_job_runs_by_hand_and_prints_one_summary_line(job, capsys, tmp_path, settings):
    settings.VAULT_EXPORT_DIR = tmp_path
    call_command("run_job", job)
    line = capsys.readouterr().out.strip()
    assert line.startswith(f"{job}: ")
    assert "\n" not in line
    assert re.search(r"\d", line)
