"""CBT homework on the counselor's pages: the session page lists what the session
proposed (with the client's entries) and what its opening picked up; the caseload row counts
done / open / skipped."""

from __future__ import annotations

import pytest
from django.urls import reverse

from sessions_app import services
from sessions_app.engine.selectors import session_state
from sessions_app.engine.services import (
    EntriesChange,
    answer_submit,
    task_accept,
    task_done,
    task_entries_update,
    task_skip,
)
from tests import factories

pytestmark = pytest.mark.django_db


def test_the_caseload_row_counts_done_open_and_skipped_homework(client, alice, bob):
    session = factories.AskSessionFactory(user=alice)
    task_done(task=task_accept(task=factories.TaskFactory(session=session), by=alice), by=alice)
    task_accept(task=factories.TaskFactory(session=session), by=alice)
    factories.TaskFactory(session=session)
    task_skip(task=factories.TaskFactory(session=session), by=alice)
    factories.TaskFactory(session=factories.AskSessionFactory(), status="done")  # not hers

    client.force_login(bob)
    page = client.get(reverse("pages:home"))

    [row] = page.context["caseload"]
    assert (row.tasks_done, row.tasks_open, row.tasks_skipped) == (1, 2, 1)
    assert "homework 1 done / 2 open / 1 skipped" in page.content.decode()


def test_the_session_page_shows_the_homework_and_how_it_went_next_time(client, alice, bob):
    earlier = factories.AskSessionFactory(user=alice)
    task = task_accept(task=factories.TaskFactory(session=earlier), by=alice)
    change = EntriesChange({"automatic_thought": "Nobody wants me there", "intensity": 75})
    task_entries_update(task=task, by=alice, change=change)
    task_done(task=task, by=alice)
    later = services.session_create(owner=alice, actor=alice)
    card = session_state(later)["current_card"]
    answer_submit(session=later, card_id=card["id"], text="Writing it down calmed me")

    client.force_login(bob)
    proposed = client.get(reverse("pages:session", kwargs={"session_id": earlier.pk}))
    picked_up = client.get(reverse("pages:session", kwargs={"session_id": later.pk}))

    body = proposed.content.decode()
    assert f'data-task="{task.pk}"' in body
    assert "Nobody wants me there" in body
    assert "75/100" in body
    later_body = picked_up.content.decode()
    assert f'data-reviewed-task="{task.pk}"' in later_body
    assert "Writing it down calmed me" in later_body
