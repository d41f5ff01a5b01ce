"""Error pages: the API answers JSON with its documented codes whatever DEBUG says; the staff
pages answer the project's own 404, 403 and 500 in the reader's language, never Django's
technical pages; and `make run` serves with DEBUG off (static files still served)."""

from __future__ import annotations

import subprocess
import uuid

import pytest
from django.conf import settings as django_settings
from django.test import Client

from sessions_app import selectors
from tests import factories

pytestmark = pytest.mark.django_db


@pytest.fixture(params=[False, True], ids=["debug-off", "debug-on"])
def debug(request, settings):
    settings.DEBUG = request.param
    return request.param


@pytest.mark.parametrize("path", ["/api/nope", "/api/nope/", "/api/ask/nope/deeper"])
def test_an_unknown_api_path_is_json_e_not_found_whatever_debug_says(debug, path):
    for method in ("get", "post"):
        response = getattr(Client(), method)(path)
        assert response.status_code == 404, response.content[:200]
        assert response["Content-Type"].startswith("application/json")
        assert response.json() == {"code": "E_NOT_FOUND", "detail": "Not found."}


def test_a_known_api_route_is_not_shadowed_by_the_catch_all(api_as, alice):
    assert api_as(alice).get("/api/ask/sessions").status_code == 200
    assert Client().get("/api/schema/").status_code == 200


def test_an_unknown_session_page_is_the_projects_own_404(settings, client, bob):
    settings.DEBUG = False
    client.force_login(bob)
    response = client.get(f"/sessions/{uuid.uuid4()}/", HTTP_ACCEPT_LANGUAGE="ru")
    assert response.status_code == 404
    assert "404.html" in [template.name for template in response.templates]
    page = response.content.decode()
    assert "Не найдено" in page
    assert 'class="topbar"' in page  # the site's own frame, with its navigation
    assert "URLconf" not in page
    assert "technical_404" not in page


def test_a_forbidden_page_is_the_projects_own_403(settings, client, alice):
    settings.DEBUG = False
    client.force_login(alice)  # a client: the staff pages are not for her
    response = client.get("/", HTTP_ACCEPT_LANGUAGE="zh-hans")
    assert response.status_code == 403
    assert "403.html" in [template.name for template in response.templates]
    assert 'lang="zh-hans"' in response.content.decode()


def test_a_crash_is_the_projects_own_500_in_the_readers_language(settings, bob, monkeypatch):
    settings.DEBUG = False

    def crash(**kwargs):
        raise RuntimeError("boom")

    monkeypatch.setattr(selectors, "crisis_queue", crash)
    client = Client(raise_request_exception=False)
    client.force_login(bob)
    response = client.get("/", HTTP_ACCEPT_LANGUAGE="ru")
    assert response.status_code == 500
    page = response.content.decode()
    assert "Что-то пошло не так" in page
    assert 'class="topbar"' in page
    assert "Traceback" not in page
    assert "boom" not in page


def test_a_crash_under_api_is_json_e_internal(settings, bob, monkeypatch):
    settings.DEBUG = False
    client = Client(raise_request_exception=False)
    client.force_login(factories.OpsFactory())
    monkeypatch.setattr(selectors, "session_list", lambda **kwargs: 1 / 0)
    response = client.get("/api/ask/sessions")
    assert response.status_code == 500
    assert response.json()["code"] == "E_INTERNAL"


def test_make_run_serves_with_debug_off_and_static_files_on():
    dry = subprocess.run(
        ["make", "-n", "start"],
        cwd=django_settings.BASE_DIR,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert "DJANGO_DEBUG=${DJANGO_DEBUG:-0}" in dry
    assert "runserver" in dry
    assert "--insecure" in dry
