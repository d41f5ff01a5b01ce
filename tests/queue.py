"""The task queue as production runs it (django-q's ORM broker), for tests that must see what
happens between a commit and the worker: tasks stay queued until `run()` works them off, as a
cluster's worker does. Elsewhere the suite runs tasks at once (`Q_SYNC`, tests/settings.py)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.utils.module_loading import import_string
from django_q.models import OrmQ
from django_q.signing import SignedPackage


class TaskQueue:
    def queued(self) -> list[str]:
        """The dotted paths of the tasks waiting, oldest first."""
        return [_task(row)["func"] for row in OrmQ.objects.order_by("id")]

    def run(self) -> list[Any]:
        """Work the queue until it is empty (a task may queue more): each task's result."""
        results = []
        while calls := self.take():
            results += [call() for call in calls]
        return results

    def take(self) -> list[Callable[[], Any]]:
        """Take every queued task off the queue, as calls to make (a test counts what the task
        alone costs)."""
        rows = list(OrmQ.objects.order_by("id"))
        OrmQ.objects.filter(pk__in=[row.pk for row in rows]).delete()
        return [_call(_task(row)) for row in rows]


def _call(task: dict[str, Any]) -> Callable[[], Any]:
    return lambda: import_string(task["func"])(*task["args"], **task["kwargs"])


def _task(row: OrmQ) -> dict[str, Any]:
    return SignedPackage.loads(row.payload)
