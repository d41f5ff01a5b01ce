"""Register the background jobs' django-q schedules (the migration does it on migrate)."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from sessions_app.jobs.schedules import SCHEDULES, schedules_ensure


class Command(BaseCommand):
    help = "Create or correct the django-q schedule of every background job. Idempotent."

    def handle(self, *args: Any, **options: Any) -> None:
        changed = schedules_ensure()
        self.stdout.write(f"{len(SCHEDULES)} job schedules in place, {changed} rows changed")
