"""QUALITY R2: what `make fuzz` (schemathesis, every check) found, one test per kind of bug, so
each stays fixed without a live server: the schema must describe what the API really accepts,
and the API must refuse what the schema calls invalid."""

from __future__ import annotations

import pytest
from django.urls import reverse
from drf_spectacular.generators import SchemaGenerator

from sessions_app.api.idempotency import HEADER
from tests import factories

pytestmark = pytest.mark.django_db

LIST = reverse("sessions:session-list")


@pytest.fixture(scope="module")
def schema(django_db_blocker) -> dict:
    with django_db_blocker.unblock():
        return SchemaGenerator().get_schema(request=None, public=True)


def operations(schema: dict):
    for path, methods in schema["paths"].items():
        for method, operation in methods.items():
            yield path, method, operation


def test_every_idempotent_post_documents_the_key_its_format_and_its_errors(schema):
    # The fuzzer sent keys the schema allowed (any string) and got undocumented 400s and 422s.
    exempt = {"auth_token", "auth_logout", "ask_export"}  # idempotency_exempt views
    posts = [op for _, method, op in operations(schema) if method == "post"]
    for operation in posts:
        headers = [p for p in operation.get("parameters", []) if p["in"] == "header"]
        if operation["operationId"] in exempt:
            assert not headers, operation["operationId"]
            continue
        [key] = headers
        assert key["name"] == HEADER
        assert key["schema"]["pattern"] == "^[\\x21-\\x7e]{1,255}$"
        assert {"400", "422"} <= set(operation["responses"]), operation["operationId"]


def test_strict_bodies_say_unknown_keys_are_refused_and_patches_need_a_field(schema):
    components = schema["components"]["schemas"]
    assert components["SessionCreateInputRequest"]["additionalProperties"] is False
    assert components["LoginInputRequest"]["additionalProperties"] is False
    for name in ("PatchedSessionPatchInputRequest", "PatchedModalityInputRequest"):
        assert components[name]["minProperties"] == 1
    patch = schema["paths"]["/api/ask/sessions/{session_id}/modality"]["patch"]
    assert patch["requestBody"]["required"] is True


@pytest.mark.parametrize(
    ("user_fixture", "url"),
    [
        ("olga", f"{LIST}?trigger_source="),
        ("olga", f"{LIST}?created_after="),
        ("olga", f"{LIST}?include_deleted="),
        ("alice", reverse("sessions:notification-list") + "?unread="),
        ("olga", reverse("psychologist:hypothesis-list") + "?target="),
    ],
)
def test_an_empty_filter_is_refused_not_ignored(request, api_as, user_fixture, url):
    # DRF reads a QueryDict with HTML-form rules, where `?x=` means "x omitted".
    response = api_as(request.getfixturevalue(user_fixture)).get(url)
    assert response.status_code == 400, response.content
    assert response.json()["code"] == "E_VALIDATION"


@pytest.mark.parametrize(
    "body",
    [
        {"session_title": 5},
        {"satisfaction_score": "5"},
        {"follow_up_needed": 1},
        {"follow_up_needed": "true"},
        {"voice_config": {"enable_tts": "yes"}},
    ],
)
def test_a_json_value_of_another_type_is_refused_not_coerced(alice, api_as, body):
    session = factories.AskSessionFactory(user=alice)
    url = reverse("sessions:session-detail", kwargs={"session_id": session.pk})
    response = api_as(alice).patch(url, body, format="json")
    assert response.status_code == 400, response.content
    assert response.json()["code"] == "E_VALIDATION"
    [field] = body
    # One validation shape (a nested field's errors under its dotted name).
    assert any(name.split(".")[0] == field for name in response.json()["fields"])


def test_modality_flags_are_booleans_not_truthy_values(alice, service_account, api_as):
    session = factories.AskSessionFactory(user=alice)
    url = reverse("sessions:session-modality", kwargs={"session_id": session.pk})
    response = api_as(service_account).patch(url, {"modality_flags": {"file": 0}}, format="json")
    assert response.status_code == 400, response.content
    assert response.json()["fields"] == {"modality_flags.file": ["Must be a boolean."]}


def test_a_patch_without_a_body_is_e_validation(alice, api_as):
    session = factories.AskSessionFactory(user=alice)
    url = reverse("sessions:session-modality", kwargs={"session_id": session.pk})
    response = api_as(alice).patch(url)
    assert response.status_code == 400, response.content
    assert response.json()["code"] == "E_VALIDATION"
