"""Every error is {"code", "detail"} (+ "fields" for E_VALIDATION), and no input yields a 500."""

from __future__ import annotations

import json

import pytest
from django.core.cache import cache
from django.urls import reverse
from rest_framework.test import APIClient

from sessions_app.api.base import WriteThrottle
from sessions_app.api.plugins import TokenAuthentication
from tests import factories

pytestmark = pytest.mark.django_db

LIST = reverse("sessions:session-list")


def error(response, status: int, code: str) -> dict:
    assert response.status_code == status, response.content
    assert response["Content-Type"].startswith("application/json")
    body = response.json()
    assert body["code"] == code
    assert isinstance(body["detail"], str)
    return body


def test_no_credentials_is_401_e_unauthenticated_with_a_token_challenge():
    response = APIClient().get(LIST)
    error(response, 401, "E_UNAUTHENTICATED")
    assert response["WWW-Authenticate"] == "Token"


@pytest.mark.parametrize(
    "header",
    ["Token nope", "Token " + "a" * 64, "Token", "Token a b", "Token \x00\x00\x00abcdefghijklmnop"],
)
def test_a_bad_token_is_401_e_unauthenticated(header):
    response = APIClient().get(LIST, HTTP_AUTHORIZATION=header)
    error(response, 401, "E_UNAUTHENTICATED")


def test_a_non_ascii_token_is_refused_without_touching_the_database():
    with pytest.raises(Exception, match="Invalid token"):
        TokenAuthentication().authenticate_credentials("ключ".encode())


def test_an_unknown_api_path_is_a_json_404():
    error(APIClient().get("/api/no/such/thing"), 404, "E_NOT_FOUND")
    error(APIClient().get("/api/ask/sessions/not-a-uuid"), 404, "E_NOT_FOUND")


def test_a_wrong_method_is_405_e_method_not_allowed(alice, api_as):
    session = factories.AskSessionFactory(user=alice)
    url = reverse("sessions:session-detail", kwargs={"session_id": session.pk})
    error(api_as(alice).put(url, {}, format="json"), 405, "E_METHOD_NOT_ALLOWED")


def test_malformed_json_is_e_validation(alice, api_as):
    response = api_as(alice).generic("POST", LIST, "{not json", content_type="application/json")
    body = error(response, 400, "E_VALIDATION")
    assert "body" in body["fields"]


def test_absurdly_nested_json_is_e_validation(alice, api_as):
    deep = "[" * 100_000 + "]" * 100_000
    response = api_as(alice).generic("POST", LIST, deep, content_type="application/json")
    error(response, 400, "E_VALIDATION")


def test_a_json_list_instead_of_an_object_is_e_validation(alice, api_as):
    error(api_as(alice).post(LIST, [1, 2], format="json"), 400, "E_VALIDATION")


def test_an_unsupported_media_type_is_415(alice, api_as):
    response = api_as(alice).generic("POST", LIST, "a=b", content_type="text/plain")
    error(response, 415, "E_UNSUPPORTED_MEDIA_TYPE")


def test_writes_are_throttled_with_429_e_throttled(alice, api_as, monkeypatch):
    monkeypatch.setattr(WriteThrottle, "THROTTLE_RATES", {"write": "2/min"})
    cache.clear()
    session = factories.AskSessionFactory(user=alice)
    url = reverse("sessions:session-detail", kwargs={"session_id": session.pk})
    client = api_as(alice)
    for _ in range(2):
        assert client.patch(url, {"follow_up_needed": True}, format="json").status_code == 200
    response = client.patch(url, {"follow_up_needed": True}, format="json")
    error(response, 429, "E_THROTTLED")
    assert int(response["Retry-After"]) > 0
    assert client.get(url).status_code == 200  # reads are not throttled
    cache.clear()


def test_login_is_throttled(alice, monkeypatch):
    from sessions_app.api.base import LoginThrottle

    monkeypatch.setattr(LoginThrottle, "THROTTLE_RATES", {"login": "3/min"})
    cache.clear()
    url = reverse("api:auth-token")
    for _ in range(3):
        APIClient().post(url, {"username": "alice", "password": "wrong"}, format="json")
    response = APIClient().post(url, {"username": "alice", "password": "wrong"}, format="json")
    error(response, 429, "E_THROTTLED")
    cache.clear()


NASTY_VALUES = [
    None,
    "",
    "\x00",
    "a\x00b",
    "\ud800",
    10**30,
    -(10**30),
    1e308,
    -1,
    True,
    [],
    {},
    {"a": {"b": {"c": {"d": {"e": {"f": {"g": {"h": {"i": {"j": 1}}}}}}}}}},
    "x" * 5000,
    "2026-13-45T99:99:99Z",
    "9999-12-31T23:59:59-23:00",
]


def send(client, method: str, url: str, body: object):
    # json.dumps escapes lone surrogates (\ud800) the way a real client's JSON would carry them.
    return client.generic(method, url, json.dumps(body), content_type="application/json")


PATCH_FIELDS = [
    "session_title",
    "satisfaction_score",
    "voice_config",
    "custom_agent_id",
    "conversation_variables",
    "counselor_handoff",
    "message_count",
    "follow_up_at",
    "key_insights",
    "modality_flags",
    "agent_snapshot",
    "dify_conversation_id",
]


@pytest.mark.parametrize("field", PATCH_FIELDS)
def test_no_value_in_any_patch_field_produces_a_server_error(alice, service_account, api_as, field):
    session = factories.AskSessionFactory(user=alice)
    url = reverse("sessions:session-detail", kwargs={"session_id": session.pk})
    client = api_as(service_account)
    for value in NASTY_VALUES:
        response = send(client, "PATCH", url, {field: value})
        assert response.status_code < 500, (field, value, response.content[:300])
        if response.status_code >= 400:
            assert "code" in response.json()


@pytest.mark.parametrize(
    "params",
    [
        {"session_type": "\x00"},
        {"created_after": "not a date"},
        {"created_after": "9999-12-31T23:59:59-23:00"},
        {"created_before": "0000-00-00"},
        {"include_deleted": "maybe"},
        {"cursor": "cD0lMDA="},  # p=%00
        {"cursor": "\x00"},  # decodes to an empty cursor: the first page
        "session_type=%ED%A0%80&created_after=%FF%FE",  # not UTF-8 at all
    ],
)
def test_no_query_string_produces_a_server_error(alice, olga, api_as, params):
    for user in (alice, olga):
        if isinstance(params, str):
            response = api_as(user).get(f"{LIST}?{params}")
        else:
            response = api_as(user).get(LIST, params)
        assert response.status_code in (200, 400), response.content
        if response.status_code == 400:
            assert response.json()["code"] == "E_VALIDATION"


def test_huge_and_odd_ids_in_paths_are_404_not_500(alice, api_as):
    client = api_as(alice)
    for path in (
        "/api/notifications/99999999999999999999999999/read",
        "/api/notifications/0/read",
        "/api/ask/sessions/00000000-0000-0000-0000-000000000000",
        "/api/ask/sessions/%00",
        "/api/ask/sessions/by-dify/zzz",
    ):
        response = client.post(path, {}, format="json") if "read" in path else client.get(path)
        error(response, 404, "E_NOT_FOUND")


def test_nasty_values_on_create_and_modality_never_produce_a_server_error(
    alice, service_account, api_as
):
    session = factories.AskSessionFactory(user=alice)
    modality = reverse("sessions:session-modality", kwargs={"session_id": session.pk})
    for field in ("session_type", "custom_agent_id", "dify_conversation_id", "user_id"):
        for value in NASTY_VALUES:
            response = send(api_as(service_account), "POST", LIST, {field: value})
            assert response.status_code < 500, (field, value)
    for field in ("modality_flags", "audio_message_count", "attachment_count"):
        for value in NASTY_VALUES:
            response = send(api_as(alice), "PATCH", modality, {field: value})
            assert response.status_code < 500, (field, value)


def test_djangos_own_500_is_json_under_api_and_html_elsewhere():
    from django.test import RequestFactory

    from sessions_app.api.errors import server_error

    api = server_error(RequestFactory().get("/api/ask/sessions"))
    assert api.status_code == 500
    assert json.loads(api.content)["code"] == "E_INTERNAL"
    page = server_error(RequestFactory().get("/admin/"))
    assert page.status_code == 500
    assert not page["Content-Type"].startswith("application/json")


def test_a_non_api_404_stays_an_html_page(client):
    response = client.get("/no/such/page")
    assert response.status_code == 404
    assert not response["Content-Type"].startswith("application/json")


def test_an_unexpected_exception_in_a_view_is_a_json_500_that_logs_no_input(
    alice, api_as, monkeypatch, caplog
):
    from sessions_app import services

    def explode(**kwargs):
        raise RuntimeError("boom")

    monkeypatch.setattr(services, "session_update", explode)
    session = factories.AskSessionFactory(user=alice)
    url = reverse("sessions:session-detail", kwargs={"session_id": session.pk})
    response = api_as(alice).patch(url, {"session_title": "CANARY-7f3a"}, format="json")
    error(response, 500, "E_INTERNAL")
    assert "CANARY-7f3a" not in caplog.text
