"""Migration 0014 normalizes the profile locales written before the check (issue 16) — a tag of
en, ru or zh keeps its region, anything else becomes en — before the database refuses other
languages."""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

BEFORE = [("sessions_app", "0013_event_log_refuses_truncate")]
AFTER = [("sessions_app", "0014_profile_locale_known")]


def migrate(targets: list[tuple[str, str]]):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


@pytest.mark.django_db(transaction=True)
def test_old_locales_are_folded_to_their_language_or_english():
    apps = migrate(BEFORE)
    user_model = apps.get_model("auth", "User")
    profile_model = apps.get_model("sessions_app", "UserProfile")
    written = {
        "a": "ru-RU",
        "b": "zh_Hans",
        "c": "ZH-tw",
        "d": "de",
        "e": "",
        "f": "en",
        "g": "zh-Hant",
        "h": "ru_RU",
    }
    for username, locale in written.items():
        user = user_model.objects.create(username=username)
        profile_model.objects.create(user=user, locale=locale)
    try:
        apps = migrate(AFTER)
        profiles = apps.get_model("sessions_app", "UserProfile").objects
        folded = dict(profiles.values_list("user__username", "locale"))
        assert folded == {
            "a": "ru-RU",
            "b": "zh",
            "c": "zh-TW",
            "d": "en",
            "e": "en",
            "f": "en",
            "g": "zh",
            "h": "ru-RU",
        }
    finally:
        migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())
