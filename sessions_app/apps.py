from __future__ import annotations

from django.apps import AppConfig


class SessionsAppConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "sessions_app"
