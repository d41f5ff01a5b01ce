"""QUALITY R3 for CBT homework on PostgreSQL: concurrent taps on one task, real
threads through the REST API — one accept joins `generated_task_ids` once; done against skip
leaves exactly one of them."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from rest_framework.test import APIClient

from sessions_app.engine.services import task_accept
from sessions_app.models import AskSession, Task
from tests import factories
from tests.races import race

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

TAPS = 6


def tap(user: object, task: Task, move: str) -> Callable[[], tuple[int, str]]:
    def job() -> tuple[int, str]:
        api = APIClient()
        api.force_authenticate(user)
        response = api.post(f"/api/ask/tasks/{task.pk}/{move}", {}, format="json")
        body = response.json()
        return response.status_code, body["status"] if response.status_code == 200 else ""

    return job


def test_concurrent_accepts_join_generated_task_ids_once(alice):
    task = factories.TaskFactory(session=factories.AskSessionFactory(user=alice))

    results, errors = race([tap(alice, task, "accept") for _ in range(TAPS)])

    assert errors == []
    assert results == [(200, "accepted")] * TAPS
    session = AskSession.objects.get(pk=task.session_id)
    assert session.generated_task_ids == [str(task.pk)]
    assert session.events.filter(type="task.accepted").count() == 1


def test_done_racing_skip_ends_in_exactly_one_of_them(alice):
    task = task_accept(
        task=factories.TaskFactory(session=factories.AskSessionFactory(user=alice)), by=alice
    )

    results, errors = race([tap(alice, task, "done"), tap(alice, task, "skip")] * 3)

    assert errors == []
    task.refresh_from_db()
    assert task.status in ("done", "skipped")
    winners = {status for code, status in results if code == 200}
    assert winners == {task.status}
    assert sorted(code for code, _ in results) == [200] * 3 + [409] * 3
    finished = task.session.events.filter(type__in=["task.done", "task.skipped"]).count()
    assert finished == 1
