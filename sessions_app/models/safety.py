"""Crisis resources (SPEC §3): the lines a client in crisis is shown, per language and region,
edited by ops in admin. The migration that creates the table fills it with current numbers."""

from __future__ import annotations

from django.core.validators import RegexValidator
from django.db import models
from django.db.models import Q

from sessions_app.models.base import in_choices

__all__ = ["CrisisResource", "ResourceLanguage"]


class ResourceLanguage(models.TextChoices):
    EN = "en", "English"
    RU = "ru", "Russian"
    ZH = "zh", "Chinese"


class CrisisResource(models.Model):
    """One line or directory. `region` is an ISO 3166 code (US, GB, RU, CN, HK, TW…) or empty for
    the international entries a client of unknown region is shown; `emergency` marks the
    emergency number, shown first and to everyone of the language."""

    Language = ResourceLanguage

    language = models.CharField(max_length=2, choices=ResourceLanguage.choices)
    region = models.CharField(
        max_length=2,
        blank=True,
        default="",
        validators=[RegexValidator(r"^[A-Z]{2}$", "An ISO 3166 code in capitals: US, GB, HK…")],
    )
    name = models.CharField(max_length=120)
    contact = models.CharField(max_length=200)
    emergency = models.BooleanField(default=False)
    position = models.PositiveSmallIntegerField(default=0)
    active = models.BooleanField(default=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["language", "region", "-emergency", "position", "id"]
        indexes = [models.Index(fields=["language", "region"], name="crisis_resource_lang_idx")]
        constraints = [
            in_choices("language", ResourceLanguage, "crisis_resource_language_valid"),
            models.CheckConstraint(
                condition=Q(region="") | Q(region__length=2),
                name="crisis_resource_region_iso",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.language}-{self.region or 'intl'}: {self.name}"
