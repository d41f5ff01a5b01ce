"""Crisis resources per language and region (SPEC §3), from the table ops edit in admin: the
region's own lines when we carry it, else the international list with the emergency number."""

from __future__ import annotations

import pytest

from sessions_app.engine.crisis.escalation import region_of, resources
from sessions_app.models import CrisisResource

pytestmark = pytest.mark.django_db


def contacts(items):
    return " | ".join(item["contact"] for item in items)


@pytest.mark.parametrize(
    ("locale", "time_zone", "expected"),
    [
        ("en-US", "", ["911", "988", "741741"]),
        ("en", "America/Chicago", ["911", "988"]),
        ("en-GB", "", ["999", "116 123", "85258"]),
        ("en", "Europe/London", ["116 123"]),
        ("ru", "Europe/Moscow", ["112", "989-50-50", "8-800-2000-122"]),
        ("zh-CN", "", ["120", "12356", "010-82951332"]),
        ("zh", "Asia/Shanghai", ["12356"]),
        ("zh-HK", "", ["999", "2389 2222", "18111"]),
        ("zh-Hant", "Asia/Taipei", ["1925", "1995", "1980"]),
        ("zh-TW", "", ["119", "1925"]),
    ],
)
def test_the_lines_follow_the_clients_language_and_region(locale, time_zone, expected):
    found = contacts(resources(locale, time_zone))
    for number in expected:
        assert number in found


def test_a_client_of_unknown_region_gets_the_international_list_and_the_emergency_number():
    for locale in ("en", "ru", "zh"):
        items = resources(locale, "")
        assert items[0]["emergency"] is True
        assert "findahelpline.com" in contacts(items)
    assert "911" in resources("en", "Asia/Tokyo")[0]["contact"]  # the general emergency line


def test_the_lines_are_in_the_clients_language():
    assert resources("ru", "Europe/Moscow")[0]["name"] == "Экстренные службы"
    assert "香港" in " ".join(item["name"] for item in resources("zh-HK"))


def test_ops_edits_take_effect_on_the_next_crisis():
    CrisisResource.objects.filter(language="en", region="GB", name="Shout").update(active=False)
    CrisisResource.objects.create(
        language="en", region="GB", name="Papyrus", contact="0800 068 4141"
    )
    found = contacts(resources("en-GB"))
    assert "85258" not in found
    assert "0800 068 4141" in found


def test_the_region_comes_from_the_locale_then_the_time_zone():
    assert region_of("zh-Hant-TW") == "TW"
    assert region_of("en_GB") == "GB"
    assert region_of("ru", "Europe/Moscow") == "RU"
    assert region_of("en", "") == ""
    assert region_of("zh-Hant", "Nowhere/Land") == ""
