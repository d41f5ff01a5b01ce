"""The client's profile locale over REST (issue 16): set at creation from Accept-Language,
changed with PATCH, refused outside en, ru and zh. A locale is a language tag whose region is
kept (the crisis lines are the region's): `ru-RU`, `zh-TW`; the language is one of the three."""

from __future__ import annotations

import pytest
from django.db import IntegrityError, transaction
from django.urls import reverse
from rest_framework.test import APIClient

from sessions_app.models import AskSession, UserProfile

pytestmark = pytest.mark.django_db

PROFILE = reverse("sessions:profile")
TOKEN = reverse("api:auth-token")
SESSIONS = reverse("sessions:session-list")


@pytest.mark.parametrize(
    ("header", "locale"),
    [
        ("ru-RU,ru;q=0.9,en;q=0.8", "ru-RU"),
        ("ru", "ru"),
        ("zh-CN,zh;q=0.9", "zh-CN"),
        ("zh-Hant-TW", "zh-TW"),
        ("zh-Hans", "zh"),
        ("fr-FR, de;q=0.8, ru;q=0.5", "ru"),
        ("en-GB", "en-GB"),
        ("fr-FR, de;q=0.8", "en"),
        ("", "en"),
        ("*", "en"),
    ],
)
def test_a_first_sign_in_creates_the_profile_in_the_language_accept_language_names(
    charlie, header, locale
):
    response = APIClient().post(
        TOKEN,
        {"username": "charlie", "password": "pw-for-tests-1"},
        format="json",
        HTTP_ACCEPT_LANGUAGE=header,
    )
    assert response.status_code == 200
    assert UserProfile.objects.get(user=charlie).locale == locale


def test_a_first_session_of_a_client_without_a_profile_starts_in_its_accept_language(
    charlie, api_as
):
    response = api_as(charlie).post(SESSIONS, {}, format="json", HTTP_ACCEPT_LANGUAGE="zh-CN")
    assert response.status_code == 201, response.content
    assert UserProfile.objects.get(user=charlie).locale == "zh-CN"
    assert AskSession.objects.get(pk=response.json()["_id"]).locale == "zh-CN"


def test_get_creates_a_missing_profile_from_accept_language(charlie, api_as):
    response = api_as(charlie).get(PROFILE, HTTP_ACCEPT_LANGUAGE="ru-RU")
    assert response.status_code == 200
    assert response.json()["locale"] == "ru-RU"


def test_an_existing_profile_keeps_its_locale_whatever_the_header_says(alice, api_as):
    UserProfile.objects.filter(user=alice).update(locale="zh")
    client = api_as(alice)
    assert client.get(PROFILE, HTTP_ACCEPT_LANGUAGE="ru").json()["locale"] == "zh"
    APIClient().post(
        TOKEN,
        {"username": "alice", "password": "pw-for-tests-1"},
        format="json",
        HTTP_ACCEPT_LANGUAGE="ru",
    )
    assert UserProfile.objects.get(user=alice).locale == "zh"


def test_patch_changes_the_locale_and_repeating_it_changes_nothing(alice, api_as):
    client = api_as(alice)
    first = client.patch(PROFILE, {"locale": "ru"}, format="json")
    assert first.status_code == 200
    assert first.json()["locale"] == "ru"
    stamp = UserProfile.objects.get(user=alice).updated_at
    again = client.patch(PROFILE, {"locale": "ru"}, format="json")
    assert again.status_code == 200
    assert again.json() == first.json()
    assert UserProfile.objects.get(user=alice).updated_at == stamp
    assert client.get(PROFILE).json()["locale"] == "ru"


@pytest.mark.parametrize(
    ("value", "stored"),
    [("zh", "zh"), ("ZH-hant-tw", "zh-TW"), ("zh-Hans", "zh"), ("RU", "ru"), ("en-gb", "en-GB")],
)
def test_patch_stores_a_language_tag_normalized(alice, api_as, value, stored):
    response = api_as(alice).patch(PROFILE, {"locale": value}, format="json")
    assert response.status_code == 200, response.content
    assert response.json()["locale"] == stored
    assert UserProfile.objects.get(user=alice).locale == stored


@pytest.mark.parametrize(
    "value", ["de", "de-DE", "english", "zh-TWN", "ru-", "en_US", "x" * 40, "", 7, None, ["ru"]]
)
def test_a_locale_outside_en_ru_zh_is_e_validation_naming_the_field(alice, api_as, value):
    response = api_as(alice).patch(PROFILE, {"locale": value}, format="json")
    assert response.status_code == 400
    body = response.json()
    assert body["code"] == "E_VALIDATION"
    assert list(body["fields"]) == ["locale"]
    assert UserProfile.objects.get(user=alice).locale == "en"


def test_patch_refuses_an_empty_body_and_unknown_fields(alice, api_as):
    client = api_as(alice)
    assert client.patch(PROFILE, {}, format="json").json()["code"] == "E_VALIDATION"
    unknown = client.patch(PROFILE, {"session_count": 99}, format="json").json()
    assert unknown["code"] == "E_VALIDATION"
    assert "session_count" in unknown["fields"]


def test_staff_have_no_client_profile_here(bob, api_as):
    response = api_as(bob).patch(PROFILE, {"locale": "ru"}, format="json")
    assert response.status_code == 403
    assert response.json()["code"] == "E_FORBIDDEN"


@pytest.mark.parametrize("value", ["de", "fr-FR", ""])
def test_the_database_refuses_a_locale_in_another_language(alice, value):
    with pytest.raises(IntegrityError), transaction.atomic():
        UserProfile.objects.filter(user=alice).update(locale=value)
