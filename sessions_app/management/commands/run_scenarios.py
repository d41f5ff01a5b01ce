"""`manage.py run_scenarios FILE…`: replay evaluation scenarios through the real engine with the
scripted provider, print a pass/fail table, exit non-zero on any mismatch (SPEC §4).

By default it runs in a throwaway test database (migrated from scratch, destroyed after), so it
needs no prepared database and never touches real data; `--use-database` runs against the
configured one instead (each scenario still rolls back).
"""

from __future__ import annotations

import json
import logging
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import connection

from sessions_app.scenarios import Row, scenario_load, scenario_run


def _cell(value: Any, width: int = 48) -> str:
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
    return text if len(text) <= width else text[: width - 1] + "…"


class Command(BaseCommand):
    help = "Replay flow scenarios (scenarios/*.json) through the engine; non-zero on mismatch."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("files", nargs="+")
        parser.add_argument("--use-database", action="store_true")
        parser.add_argument("--failures-only", action="store_true")

    def handle(self, *args: Any, files: list[str], **options: Any) -> None:
        quiet = options["verbosity"] < 2
        # One line per model call and per enqueued task would bury the table.
        loggers = [logging.getLogger(name) for name in ("psychologist.llm", "django-q")]
        levels = [logger.level for logger in loggers]
        for logger in loggers:
            logger.setLevel(logging.WARNING if quiet else logger.level)
        try:
            rows = self._run(files, use_database=options["use_database"])
        finally:
            for logger, level in zip(loggers, levels, strict=True):
                logger.setLevel(level)
        self._table(rows, failures_only=options["failures_only"])
        failed = [row for row in rows if not row.ok]
        self.stdout.write(f"{len(rows) - len(failed)} passed, {len(failed)} failed")
        if failed:
            raise CommandError(f"{len(failed)} scenario check(s) failed")

    def _run(self, files: list[str], *, use_database: bool) -> list[Row]:
        scenarios = [scenario_load(path) for path in files]
        old_name = None
        if not use_database:
            old_name = connection.creation.create_test_db(verbosity=0, autoclobber=True)
        try:
            return [row for i, s in enumerate(scenarios) for row in scenario_run(s, i)]
        finally:
            if old_name is not None:
                connection.creation.destroy_test_db(old_name, verbosity=0)

    def _table(self, rows: list[Row], *, failures_only: bool) -> None:
        header = f"{'scenario':<44} {'turn':>4}  {'field':<18} {'expected':<48} {'got':<48}"
        self.stdout.write(header + "\n" + "-" * len(header))
        for row in rows:
            if failures_only and row.ok:
                continue
            mark = "✓" if row.ok else "✗"
            self.stdout.write(
                f"{_cell(row.scenario, 44):<44} {row.turn:>4}  {row.field:<18} "
                f"{_cell(row.expected):<48} {_cell(row.got):<48} {mark}"
            )
