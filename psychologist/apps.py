from __future__ import annotations

from django.apps import AppConfig


class PsychologistConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "psychologist"
