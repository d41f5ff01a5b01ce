"""The client's profile over REST. Its locale: set at creation from Accept-Language,
changed with PATCH, refused outside en, ru and zh. A locale is a language tag whose region is
kept (the crisis lines are the region's): `ru-RU`, `zh-TW`; the language is one of the three.
Its consent to the vault export: granted with PUT, withdrawn with DELETE, the client's own."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
import time_machine
from django.contrib.admin.models import LogEntry
from django.contrib.contenttypes.models import ContentType
from django.db import IntegrityError, transaction
from django.urls import reverse
from rest_framework.test import APIClient

from sessions_app.jobs import markdown_export
from sessions_app.models import AskSession, UserProfile
from tests import factories

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


# --- the vault export's consent -------------------------------------------------------------------

CONSENT = reverse("sessions:profile-vault-consent")


@pytest.fixture
def vault(tmp_path, settings):
    settings.VAULT_EXPORT_DIR = tmp_path / "vault"
    return settings.VAULT_EXPORT_DIR


def folder_of(vault, user):
    return vault / markdown_export.vault_folder_name(user.pk)


def test_a_client_grants_the_export_and_the_nightly_job_writes_its_folder(
    alice, charlie, api_as, vault
):
    factories.AskSessionFactory(user=alice, session_title="Work stress")
    factories.AskSessionFactory(user=charlie)
    client = api_as(alice)
    assert client.get(CONSENT).json()["consent"] is False
    assert markdown_export.vault_export().counts["clients"] == 0

    granted = client.put(CONSENT)

    assert granted.status_code == 200, granted.content
    assert granted.json()["consent"] is True
    assert granted.json()["consented_at"]
    assert client.get(CONSENT).json() == granted.json()
    assert markdown_export.vault_export().counts["clients"] == 1
    [session_file] = (folder_of(vault, alice) / "sessions").glob("*.md")
    assert "Work stress" in session_file.read_text(encoding="utf-8")
    assert not folder_of(vault, charlie).exists()  # charlie never granted it


def test_withdrawing_stops_the_export_and_the_next_run_deletes_the_folder(alice, api_as, vault):
    factories.AskSessionFactory(user=alice)
    client = api_as(alice)
    client.put(CONSENT)
    markdown_export.vault_export()
    assert folder_of(vault, alice).is_dir()

    withdrawn = client.delete(CONSENT)

    assert withdrawn.status_code == 200, withdrawn.content
    assert withdrawn.json()["consent"] is False
    assert withdrawn.json()["consented_at"] is None
    report = markdown_export.vault_export()
    assert report.counts["clients"] == 0
    assert not folder_of(vault, alice).exists()
    markdown_export.vault_export()
    assert not folder_of(vault, alice).exists()


def test_repeating_a_grant_keeps_its_time_and_each_change_is_in_the_profiles_history(alice, api_as):
    client = api_as(alice)
    with time_machine.travel(datetime(2026, 3, 1, 9, 0, tzinfo=UTC), tick=False):
        first = client.put(CONSENT).json()
    with time_machine.travel(datetime(2026, 3, 8, 9, 0, tzinfo=UTC), tick=False):
        again = client.put(CONSENT).json()
        client.delete(CONSENT)
        client.delete(CONSENT)

    assert again["consented_at"] == first["consented_at"] == "2026-03-01T09:00:00Z"
    profile = UserProfile.objects.get(user=alice)
    history = LogEntry.objects.filter(
        content_type=ContentType.objects.get_for_model(UserProfile), object_id=str(profile.pk)
    ).order_by("action_time", "pk")
    assert [(entry.user_id, entry.get_change_message()) for entry in history] == [
        (alice.pk, "Vault export consent granted."),
        (alice.pk, "Vault export consent withdrawn."),
    ]


@pytest.mark.parametrize(
    ("locale", "granted", "withdrawn"),
    [
        ("en", "a private folder of yours", "not written to a folder"),
        ("ru-RU", "вашу личную папку", "не записываются в папку"),
        ("zh", "属于您的私人文件夹", "不会写入服务器上的文件夹"),
    ],
)
def test_the_consent_is_stated_in_the_clients_language(alice, api_as, locale, granted, withdrawn):
    UserProfile.objects.filter(user=alice).update(locale=locale)
    client = api_as(alice)
    assert granted in client.put(CONSENT, HTTP_ACCEPT_LANGUAGE="en").json()["statement"]
    assert withdrawn in client.delete(CONSENT, HTTP_ACCEPT_LANGUAGE="en").json()["statement"]


def test_nobody_changes_another_clients_consent(alice, bob, charlie, api_as, vault):
    factories.AskSessionFactory(user=alice)
    for method in ("get", "put", "delete"):  # her counselor has no consent to give
        response = getattr(api_as(bob), method)(CONSENT)
        assert response.status_code == 403
        assert response.json()["code"] == "E_FORBIDDEN"
    assert api_as(charlie).put(CONSENT).json()["consent"] is True  # his own, not hers

    assert api_as(alice).get(CONSENT).json()["consent"] is False
    markdown_export.vault_export()
    assert not folder_of(vault, alice).exists()
    assert folder_of(vault, charlie).is_dir()


@pytest.mark.parametrize("method", ["get", "put", "delete"])
def test_an_anonymous_caller_gets_401(alice, api_as, method):
    response = getattr(api_as(None), method)(CONSENT)
    assert response.status_code == 401
    assert response.json()["code"] == "E_UNAUTHENTICATED"
    assert UserProfile.objects.get(user=alice).vault_export_consent is False
