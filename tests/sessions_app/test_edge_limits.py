"""QUALITY R11 and SPEC §9 "no input produces a 500": a body over the limit, too many fields or
too many files answer 413 E_PAYLOAD_TOO_LARGE on every route, anonymous or not, logged as one
line without a traceback. And QUALITY R10: a lost database answers 503 E_UNAVAILABLE with
Retry-After, never a traceback page."""

from __future__ import annotations

import json
import logging

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import OperationalError
from django.test import Client
from django.urls import reverse

from sessions_app import views
from sessions_app.api import sessions as api_sessions
from tests import factories

pytestmark = pytest.mark.django_db

THREE_MB = 3 * 1024 * 1024


def big_json() -> str:
    return json.dumps({"text": "x" * THREE_MB})


def assert_too_large(response, caplog) -> None:
    assert response.status_code == 413, response.content[:300]
    assert response.json()["code"] == "E_PAYLOAD_TOO_LARGE"
    assert isinstance(response.json()["detail"], str)
    edge = [r for r in caplog.records if r.name == "sessions_app.edge.limits"]
    assert len(edge) == 1
    assert edge[0].exc_info is None
    assert not [r for r in caplog.records if r.exc_info], "a traceback was logged"
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]


@pytest.mark.parametrize(
    "path",
    ["/api/auth/token", "/api/ask/sessions", "/login/", "/admin/login/", "/sandbox/start/"],
)
def test_a_3_mb_body_is_413_for_an_anonymous_caller(path, caplog):
    caplog.set_level(logging.INFO)
    response = Client().post(path, big_json(), content_type="application/json")
    assert_too_large(response, caplog)


def test_a_3_mb_body_is_413_for_an_authenticated_client(alice, api_as, caplog):
    caplog.set_level(logging.INFO)
    session = factories.AskSessionFactory(user=alice)
    url = reverse("sessions:session-messages", kwargs={"session_id": session.pk})
    response = api_as(alice).generic("POST", url, big_json(), content_type="application/json")
    assert_too_large(response, caplog)


def test_a_3_mb_form_is_413_for_a_signed_in_counselor(bob, caplog):
    caplog.set_level(logging.INFO)
    client = Client()
    client.force_login(bob)
    response = client.post("/sandbox/start/", {"script": "x" * THREE_MB, "provider": "scripted"})
    assert_too_large(response, caplog)


def test_too_many_form_fields_is_413(caplog):
    caplog.set_level(logging.INFO)
    fields = {f"f{number}": "1" for number in range(1200)}
    response = Client().post("/login/", fields)
    assert_too_large(response, caplog)


def test_too_many_query_fields_is_413(alice, api_as, caplog):
    caplog.set_level(logging.INFO)
    query = "&".join(f"f{number}=1" for number in range(1200))
    response = api_as(alice).get(f"/api/ask/sessions?{query}")
    assert_too_large(response, caplog)


def test_too_many_files_is_413(bob, caplog):
    caplog.set_level(logging.INFO)
    client = Client()
    client.force_login(bob)
    files = {f"file{n}": SimpleUploadedFile(f"{n}.json", b"[]") for n in range(25)}
    response = client.post("/sandbox/start/", files)
    assert_too_large(response, caplog)


def test_a_body_under_the_limit_is_served_as_before(alice, api_as):
    response = api_as(alice).post("/api/ask/sessions", {}, format="json")
    assert response.status_code == 201


def test_the_limit_is_a_setting(settings, alice, api_as, caplog):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 2048
    response = api_as(alice).post("/api/ask/sessions", {"title": "x" * 4096}, format="json")
    assert_too_large(response, caplog)


# --- the database lost --------------------------------------------------------------------------


def lose_the_database(*args, **kwargs):
    raise OperationalError("connection refused")


def test_a_lost_database_is_503_e_unavailable_with_retry_after_on_the_api(
    alice, api_as, monkeypatch, caplog
):
    monkeypatch.setattr(api_sessions.SessionListApi, "get", lose_the_database)
    response = api_as(alice).get("/api/ask/sessions")
    assert response.status_code == 503
    assert response.json()["code"] == "E_UNAVAILABLE"
    assert int(response["Retry-After"]) > 0
    assert not [r for r in caplog.records if r.exc_info]


def test_a_lost_database_is_503_with_retry_after_on_a_page(bob, monkeypatch, caplog):
    monkeypatch.setattr(views.selectors, "sandbox_sessions", lose_the_database)
    client = Client()
    client.force_login(bob)
    response = client.get("/sandbox/")
    assert response.status_code == 503
    assert int(response["Retry-After"]) > 0
    assert b"Traceback" not in response.content
    assert not [r for r in caplog.records if r.exc_info]
