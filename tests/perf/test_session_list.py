"""Issue 20 / QUALITY P3: the history list reads and returns its own columns only, in at most
three queries whatever the page, P3 columns for staff only."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from knox.models import AuthToken
from rest_framework.test import APIClient

from sessions_app.api.serializers import SESSION_LIST_COLUMNS
from sessions_app.privacy import P3_FIELDS
from tests import factories

pytestmark = pytest.mark.django_db
LIST = reverse("sessions:session-list")


def token_client(user) -> APIClient:
    return APIClient(HTTP_AUTHORIZATION=f"Token {AuthToken.objects.create(user)[1]}")


def test_a_page_reads_only_the_listed_columns_in_at_most_three_queries(alice):
    sessions = [factories.AskSessionFactory(user=alice, status="completed") for _ in range(25)]
    client = token_client(alice)

    with CaptureQueriesContext(connection) as queries:
        page = client.get(LIST).json()
    assert len(queries) <= 3
    [select] = [q["sql"] for q in queries if "ask_sessions" in q["sql"]]
    assert "agent_snapshot" not in select
    assert "conversation_variables" not in select
    assert len(page["results"]) == 20
    assert set(page["results"][0]) == set(SESSION_LIST_COLUMNS) - P3_FIELDS
    newest = max(sessions, key=lambda s: (s.created_at, s.pk))
    assert page["results"][0]["_id"] == str(newest.pk)
    detail = client.get(reverse("sessions:session-detail", kwargs={"session_id": newest.pk}))
    assert page["results"][0]["createdAt"] == detail.json()["createdAt"]

    with CaptureQueriesContext(connection) as queries:
        second = client.get(page["next"]).json()
    assert len(queries) <= 3
    assert len(second["results"]) == 5


def test_staff_rows_carry_the_risk_levels(alice, bob):
    factories.AskSessionFactory(user=alice, initial_risk_level="L2")
    [row] = token_client(bob).get(LIST).json()["results"]
    assert row["initial_risk_level"] == "L2"
    assert set(row) == set(SESSION_LIST_COLUMNS)
