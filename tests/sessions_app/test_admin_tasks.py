"""CBT homework in Django admin: listed, filtered and read — never added, edited or
deleted by staff, because what a task holds is the client's."""

from __future__ import annotations

import pytest
from django.urls import reverse

from sessions_app.models import Task
from tests import factories

pytestmark = pytest.mark.django_db


def url(view: str, *args: object) -> str:
    return reverse(f"admin:sessions_app_task_{view}", args=args)


@pytest.fixture
def ops_client(client, olga):
    olga.is_superuser = True
    olga.save()
    client.force_login(olga)
    return client


def test_ops_list_filter_and_read_homework_but_change_nothing(ops_client, alice):
    task = factories.TaskFactory(
        session=factories.AskSessionFactory(user=alice), entries={"situation": "At the office"}
    )
    factories.TaskFactory(session=factories.AskSessionFactory(user=alice), status="done")

    listing = ops_client.get(url("changelist"), {"status__exact": "proposed"})
    assert listing.status_code == 200
    assert [t.pk for t in listing.context["cl"].result_list] == [task.pk]
    page = ops_client.get(url("change", task.pk))
    assert page.status_code == 200
    assert b"At the office" in page.content
    assert b'name="_save"' not in page.content
    assert ops_client.get(url("add")).status_code == 403
    ops_client.post(url("change", task.pk), {"title": "Edited by staff"})
    ops_client.post(url("delete", task.pk), {"post": "yes"})
    task.refresh_from_db()
    assert task.title == "A thought record for one hard moment"


def test_the_session_page_shows_its_homework_inline(ops_client, alice):
    task = factories.TaskFactory(session=factories.AskSessionFactory(user=alice))
    page = ops_client.get(reverse("admin:sessions_app_asksession_change", args=[task.session_id]))
    assert page.status_code == 200
    assert task.title.encode() in page.content
    assert Task.objects.count() == 1
