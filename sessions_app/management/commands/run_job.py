"""Run one background job now, as its schedule would, and print what it did."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandParser
from django.utils.module_loading import import_string

from sessions_app.jobs.schedules import JOBS


class Command(BaseCommand):
    help = "Run a background job once and print its summary line."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("job", choices=sorted(JOBS), help="the job to run")

    def handle(self, *args: Any, job: str, **options: Any) -> None:
        summary = import_string(JOBS[job].func)()
        self.stdout.write(f"{job}: {summary}")
