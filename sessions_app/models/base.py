"""Shared pieces of the models: schema limits, JSON validators, the CHECK helper, risk levels."""

from __future__ import annotations

import zoneinfo
from typing import Any

from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import Q
from django.db.models.functions import Length
from django.utils.translation import gettext_lazy as _

__all__ = [
    "CONVERSATION_VARIABLE_KEY_MAX",
    "CONVERSATION_VARIABLE_VALUE_MAX",
    "SESSION_MESSAGES_MAX",
    "SESSION_SUMMARY_MAX",
    "SESSION_TITLE_MAX",
    "RiskLevel",
    "default_modality_flags",
    "in_choices",
    "validate_conversation_variables",
    "validate_modality_flags",
    "validate_string_list",
    "validate_timezone",
    "validate_voice_config",
]

models.CharField.register_lookup(Length)
models.TextField.register_lookup(Length)


CONVERSATION_VARIABLE_KEY_MAX = 30
CONVERSATION_VARIABLE_VALUE_MAX = 200
SESSION_TITLE_MAX = 60
SESSION_SUMMARY_MAX = 1000
SESSION_MESSAGES_MAX = 100


def validate_conversation_variables(value: Any) -> None:
    """Schema §2: an object whose keys are ≤ 30 chars and whose values are ≤ 200 chars."""
    if not isinstance(value, dict):
        raise ValidationError("conversation_variables must be an object.", code="invalid")
    errors = []
    for key, item in value.items():
        if len(key) > CONVERSATION_VARIABLE_KEY_MAX:
            errors.append(f"key {key[:40]!r} is longer than {CONVERSATION_VARIABLE_KEY_MAX}.")
        if isinstance(item, dict | list):
            errors.append(f"value of {key[:40]!r} must be a scalar.")
        elif len(str(item)) > CONVERSATION_VARIABLE_VALUE_MAX:
            errors.append(
                f"value of {key[:40]!r} is longer than {CONVERSATION_VARIABLE_VALUE_MAX}."
            )
    if errors:
        raise ValidationError(errors, code="invalid")


def validate_modality_flags(value: Any) -> None:
    if not isinstance(value, dict) or set(value) - {"text", "audio", "file"}:
        raise ValidationError("modality_flags takes only the keys text, audio, file.")
    if not all(isinstance(flag, bool) for flag in value.values()):
        raise ValidationError("modality_flags values must be booleans.")


def validate_voice_config(value: Any) -> None:
    if not isinstance(value, dict) or set(value) - {"tts_voice", "stt_language", "enable_tts"}:
        raise ValidationError("voice_config takes only tts_voice, stt_language, enable_tts.")
    if "enable_tts" in value and not isinstance(value["enable_tts"], bool):
        raise ValidationError("voice_config.enable_tts must be a boolean.")


def validate_string_list(value: Any) -> None:
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        raise ValidationError("must be a list of strings.")


def validate_timezone(value: str) -> None:
    try:
        zoneinfo.ZoneInfo(value)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        raise ValidationError(f"{value!r} is not a known time zone.") from None


def default_modality_flags() -> dict[str, bool]:
    return {"text": True, "audio": False, "file": False}


def in_choices(field: str, choices: type[models.TextChoices], name: str) -> models.CheckConstraint:
    """A database check that `field` holds one of the enum's values (schema enums)."""
    return models.CheckConstraint(condition=Q(**{f"{field}__in": choices.values}), name=name)


class RiskLevel(models.TextChoices):
    L0 = "L0", _("L0 · no risk")
    L1 = "L1", _("L1 · general attention")
    L2 = "L2", _("L2 · needs attention")
    L3 = "L3", _("L3 · needs intervention")
    L4 = "L4", _("L4 · acute crisis")
