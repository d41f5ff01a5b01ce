"""The people around a session: profiles (client habits, counselor duty) and caseloads."""

from __future__ import annotations

import re
import zoneinfo
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import Q
from django.utils.translation.trans_real import parse_accept_lang_header

from sessions_app.models.base import validate_timezone

__all__ = ["CaseloadAssignment", "UserProfile", "locale_normalize", "profile_zone"]

# A client's locale is a BCP 47 tag in one of the languages Naisei speaks, its region kept: the
# crisis lines are the region's (`zh-TW` → Taiwan's, `en-GB` → the UK's;
# engine/crisis/escalation.py).
LANGUAGES = ("en", "ru", "zh")
_LOCALE_TAG = re.compile(
    r"^(?P<language>[a-z]{2,3})(?:-(?P<script>[a-z]{4}))?(?:-(?P<region>[a-z]{2}|[0-9]{3}))?$",
    re.IGNORECASE,
)


def locale_normalize(tag: Any) -> str | None:
    """`tag` as Naisei stores it — the language, then the region if any (`ZH-hant-tw` →
    `zh-TW`, `ru_RU` → None: not BCP 47) — or None when it is not a tag of en, ru or zh. The
    script subtag is dropped: traditional characters are folded to simplified anyway."""
    match = _LOCALE_TAG.match(tag) if isinstance(tag, str) else None
    if match is None or match["language"].lower() not in LANGUAGES:
        return None
    language, region = match["language"].lower(), match["region"]
    return f"{language}-{region.upper()}" if region else language


def validate_locale(value: Any) -> None:
    if locale_normalize(value) != value:
        raise ValidationError(
            "A language tag of en, ru or zh, with an optional region: en, ru-RU, zh-TW."
        )


class UserProfile(models.Model):
    """What Naisei knows about a client between sessions."""

    class Locale(models.TextChoices):
        """The languages the product speaks to a client in (SPEC §3)."""

        EN = "en", "English"
        RU = "ru", "Русский"
        ZH = "zh", "中文"

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="profile"
    )
    display_name = models.CharField(max_length=80, blank=True, default="")
    locale = models.CharField(max_length=8, default=Locale.EN, validators=[validate_locale])
    observed_patterns = models.JSONField(default=list, blank=True)
    accepted_hypotheses = models.JSONField(default=list, blank=True)
    session_count = models.PositiveIntegerField(default=0)
    # The session schedule: ISO weekdays (1 = Monday … 7 = Sunday) at a local time in a zone.
    schedule_weekdays = models.JSONField(default=list, blank=True)
    schedule_time = models.TimeField(null=True, blank=True)
    time_zone = models.CharField(max_length=64, default="UTC", validators=[validate_timezone])
    typical_activity_time = models.TimeField(null=True, blank=True)
    missed_in_row = models.PositiveIntegerField(default=0)
    is_minor = models.BooleanField(default=False)
    on_duty = models.BooleanField(
        default=False, help_text="Counselors only: receives live crisis alerts."
    )
    vault_export_consent = models.BooleanField(default=False)
    vault_export_consented_at = models.DateTimeField(null=True, blank=True)
    # Set only on a sandbox test client: the counselor it belongs to (one per counselor). Such
    # a user has no usable password and no token, so only the sandbox ever acts as it.
    sandbox_counselor = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="sandbox_client_profile",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            # The language, at least, is the database's to keep (the tag's form: validate_locale).
            models.CheckConstraint(
                condition=Q(locale__in=LANGUAGES)
                | Q(locale__startswith="en-")
                | Q(locale__startswith="ru-")
                | Q(locale__startswith="zh-"),
                name="profile_locale_known",
            )
        ]

    def __str__(self) -> str:
        return f"Profile of {self.user}"

    @staticmethod
    def locale_from_accept_language(header: str) -> str | None:
        """The first tag of an `Accept-Language` header in a language Naisei speaks, normalized
        (`ru-RU,ru;q=0.9` → `ru-RU`, `zh-Hans` → `zh`); None when it names none of them."""
        for language, _quality in parse_accept_lang_header(header or ""):
            locale = locale_normalize(language)
            if locale is not None:
                return locale
        return None

    @staticmethod
    def entry_text(entry: Any) -> str:
        """The words of a profile entry. Entries learned from a session are objects carrying its
        `session_id` (so anonymising the session can take them back); older ones are strings."""
        if isinstance(entry, dict):
            return str(entry.get("text") or entry.get("statement") or "")
        return str(entry or "")

    def clean(self) -> None:
        weekdays = self.schedule_weekdays
        if not isinstance(weekdays, list) or not all(
            isinstance(day, int) and 1 <= day <= 7 for day in weekdays
        ):
            raise ValidationError({"schedule_weekdays": "ISO weekdays 1 (Mon) to 7 (Sun)."})


class CaseloadAssignment(models.Model):
    """An explicit client ↔ counselor assignment: the counselor's caseload (SPEC §1)."""

    counselor = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="caseload"
    )
    client = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="counselors"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["counselor", "client"], name="caseload_unique_pair"),
            models.CheckConstraint(
                condition=~Q(counselor=models.F("client")), name="caseload_not_self"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.counselor} → {self.client}"


def profile_zone(profile: UserProfile | None) -> zoneinfo.ZoneInfo:
    """The person's time zone (UTC when unknown or unreadable): every local date and time of
    the engine and the jobs is read in it."""
    try:
        return zoneinfo.ZoneInfo((profile.time_zone if profile else "") or "UTC")
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        return zoneinfo.ZoneInfo("UTC")
