"""`manage.py load_flows FILE…`: load or update flows from JSON files (SPEC §4).

Every file is validated before anything is written, and all are written in one transaction: a
malformed file fails the command with the file and field named, and nothing is half-loaded.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from sessions_app.engine.services import FlowFileError, flow_files_load


class Command(BaseCommand):
    help = "Load or update flows from JSON files (format: sessions_app/flows/flow.schema.json)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("files", nargs="+", help="flow files, one flow each")

    def handle(self, *args: Any, files: list[str], **options: Any) -> None:
        try:
            codes = flow_files_load(files)
        except FlowFileError as exc:
            raise CommandError(str(exc)) from None
        self.stdout.write(f"loaded {len(codes)} flow(s): {', '.join(codes)}")
