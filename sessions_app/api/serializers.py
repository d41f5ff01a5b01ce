"""Explicit Input/Output serializers of the sessions API, in the schema's JSON names.

Outputs are filtered through the privacy table (`privacy.py`) by the caller's role; inputs are
strict: an unknown key, a read-only key or a key the caller's role may not write is rejected with
a per-field message (no mass assignment).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from django.core.exceptions import ValidationError as DjangoValidationError
from django.core.validators import ProhibitNullCharactersValidator
from django.utils.translation import gettext
from rest_framework import serializers
from rest_framework.validators import ProhibitSurrogateCharactersValidator

from sessions_app.engine.services import visible
from sessions_app.models import (
    SESSION_SUMMARY_MAX,
    SESSION_TITLE_MAX,
    AgentKey,
    AgentOrigin,
    CbtFocus,
    RiskLevel,
    SessionType,
    TriggerSource,
    locale_normalize,
    validate_conversation_variables,
)
from sessions_app.privacy import (
    CLIENT_MAX_PRIVACY,
    P3_FIELDS,
    SESSION_FIELD_PRIVACY,
    Privacy,
    client_may_read_message,
)

INT32_MAX = 2**31 - 1
INT64_MAX = 2**63 - 1
# Schema names a caller can never write, whatever its role.
READ_ONLY_NAMES = frozenset(
    {"_id", "_openid", "createdAt", "updatedAt", "is_deleted", "status", "deleted_at"}
)
_JSON_MAX_DEPTH = 8


def validate_json_storable(value: Any, depth: int = 0) -> None:
    """Refuse what a JSON column cannot store: NUL, lone surrogates, NaN/∞, deep nesting."""
    if depth > _JSON_MAX_DEPTH:
        raise DjangoValidationError("nested too deeply.")
    if isinstance(value, str):
        if "\x00" in value or any(0xD800 <= ord(ch) <= 0xDFFF for ch in value):
            raise DjangoValidationError("contains characters that cannot be stored.")
    elif isinstance(value, float) and not math.isfinite(value):
        raise DjangoValidationError("numbers must be finite.")
    elif isinstance(value, Mapping):
        for key, item in value.items():
            validate_json_storable(key, depth + 1)
            validate_json_storable(item, depth + 1)
    elif isinstance(value, list):
        for item in value:
            validate_json_storable(item, depth + 1)


# The JSON type the schema documents for a field class. DRF coerces ("5" → 5, 1 → True, 5 → "5"),
# so without this check a body the schema calls invalid would be accepted.
_JSON_TYPES: tuple[tuple[type[serializers.Field], type | tuple[type, ...], str], ...] = (
    (serializers.BooleanField, bool, "a boolean"),
    (serializers.IntegerField, int, "an integer"),
    (serializers.CharField, str, "a string"),
    (serializers.ChoiceField, str, "a string"),
    (serializers.UUIDField, str, "a string"),
    (serializers.DateTimeField, str, "a string"),
)


def _json_type_error(field: serializers.Field, value: Any) -> str | None:
    if value is None:  # null is the field's own allow_null rule
        return None
    if isinstance(field, serializers.ListField) and isinstance(value, list):
        return next(filter(None, (_json_type_error(field.child, item) for item in value)), None)
    for field_class, json_type, name in _JSON_TYPES:
        if isinstance(field, field_class):
            wrong = not isinstance(value, json_type) or (
                json_type is int and isinstance(value, bool)
            )
            return f"Must be {name}." if wrong else None
    return None


class StrictSerializer(serializers.Serializer):
    """Rejects keys it does not declare, keys outside `context["writable"]` if given, and values
    of another JSON type than the field's (no coercion)."""

    # A body must name at least this many fields (PATCH: an empty change is refused); the
    # schema says so too (`api.base.StrictInputSchema`).
    min_fields: int = 0

    def to_internal_value(self, data: Any) -> Any:
        if isinstance(data, Mapping):
            if len(data) < self.min_fields:
                raise serializers.ValidationError(
                    {"non_field_errors": ["Send at least one field to change."]}
                )
            errors = self._key_errors(data.keys())
            for key, value in data.items():
                field = self.fields.get(key)
                problem = _json_type_error(field, value) if field is not None else None
                if problem and key not in errors:
                    errors[key] = [problem]
            if errors:
                raise serializers.ValidationError(errors)
        return super().to_internal_value(data)

    def _key_errors(self, keys: Iterable[str]) -> dict[str, list[str]]:
        writable = self.context.get("writable") if self.parent is None else None
        errors: dict[str, list[str]] = {}
        for key in keys:
            if key in READ_ONLY_NAMES:
                errors[key] = ["This field is read-only."]
            elif key not in self.fields:
                errors[key] = ["Unknown field."]
            elif writable is not None and key not in writable:
                errors[key] = ["Your role may not write this field."]
        return errors


# --- nested objects ------------------------------------------------------------------------


class VoiceConfigSerializer(StrictSerializer):
    tts_voice = serializers.CharField(max_length=80, required=False, allow_blank=True)
    stt_language = serializers.CharField(max_length=20, required=False, allow_blank=True)
    enable_tts = serializers.BooleanField(required=False)


class ModalityFlagsSerializer(StrictSerializer):
    text = serializers.BooleanField(required=False)
    audio = serializers.BooleanField(required=False)
    file = serializers.BooleanField(required=False)


class AgentSnapshotSerializer(StrictSerializer):
    name = serializers.CharField(max_length=80, allow_blank=True, required=False)
    persona = serializers.CharField(max_length=2000, allow_blank=True, required=False)
    version = serializers.CharField(max_length=40, allow_blank=True, required=False)
    origin = serializers.ChoiceField(choices=AgentOrigin.choices, required=False)
    dify_agent_id = serializers.CharField(max_length=80, allow_blank=True, required=False)


class CounselorHandoffSerializer(StrictSerializer):
    handoff_reason = serializers.CharField(max_length=200, allow_blank=True, required=False)
    counselor_id = serializers.IntegerField(min_value=1, max_value=INT64_MAX)
    handoff_time = serializers.DateTimeField()

    def validate_handoff_reason(self, value: str) -> str:
        # Empty is "none given"; zero-width spaces pretend to be a reason.
        if value and not visible(value):
            raise serializers.ValidationError(gettext("A reason must show something, or be empty."))
        return value


def conversation_variables_field(**kwargs: Any) -> serializers.JSONField:
    return serializers.JSONField(
        validators=[validate_conversation_variables, validate_json_storable],
        help_text="Object; keys ≤ 30 characters, scalar values ≤ 200 characters.",
        **kwargs,
    )


def string_list_field(**kwargs: Any) -> serializers.ListField:
    return serializers.ListField(
        child=serializers.CharField(max_length=500), max_length=100, **kwargs
    )


# --- output --------------------------------------------------------------------------------


def staff_only[F: serializers.Field](field: Callable[..., F], **kwargs: Any) -> F:
    """A P3 field: documented as optional, since the output drops it for a client."""
    return field(required=False, help_text="P3: staff only.", **kwargs)


class SessionOutput(serializers.Serializer):
    """A session in the schema's names. P3 fields (marked so) are omitted for clients."""

    _id = serializers.UUIDField(source="id")
    user_id = serializers.IntegerField()
    dify_conversation_id = serializers.UUIDField()
    session_title = serializers.CharField()
    session_type = serializers.ChoiceField(choices=SessionType.choices)
    trigger_source = serializers.ChoiceField(choices=TriggerSource.choices)
    active_agent_key = serializers.ChoiceField(choices=AgentKey.choices)
    custom_agent_id = serializers.IntegerField(allow_null=True)
    agent_origin = serializers.ChoiceField(choices=AgentOrigin.choices)
    agent_snapshot = AgentSnapshotSerializer()
    conversation_variables = serializers.DictField()
    modality_flags = ModalityFlagsSerializer()
    voice_config = VoiceConfigSerializer()
    cbt_focus = serializers.CharField()
    initial_risk_level = staff_only(serializers.ChoiceField, choices=RiskLevel.choices)
    final_risk_level = staff_only(
        serializers.ChoiceField, choices=RiskLevel.choices, allow_null=True
    )
    session_summary = serializers.CharField()
    key_insights = serializers.ListField(child=serializers.CharField())
    cbt_techniques_used = serializers.ListField(child=serializers.CharField())
    generated_task_ids = serializers.ListField(child=serializers.CharField())
    counselor_handoff = staff_only(CounselorHandoffSerializer, allow_null=True)
    satisfaction_score = serializers.IntegerField(allow_null=True)
    follow_up_needed = serializers.BooleanField()
    follow_up_at = serializers.DateTimeField(allow_null=True)
    message_count = serializers.IntegerField()
    audio_message_count = serializers.IntegerField()
    attachment_count = serializers.IntegerField()
    duration_seconds = serializers.IntegerField(allow_null=True)
    intervention_triggered = staff_only(serializers.BooleanField)
    createdAt = serializers.DateTimeField(source="created_at")
    updatedAt = serializers.DateTimeField(source="updated_at")
    endedAt = serializers.DateTimeField(source="ended_at", allow_null=True)
    is_deleted = serializers.BooleanField()
    status = serializers.CharField(help_text="Engine status: active, completed, …")

    def to_representation(self, instance: Any) -> dict[str, Any]:
        data = super().to_representation(instance)
        # Without an explicit level a caller gets the client's view: the safe default.
        level = self.context.get("max_privacy", CLIENT_MAX_PRIVACY)
        return {
            name: value
            for name, value in data.items()
            if SESSION_FIELD_PRIVACY.get(name, Privacy.P3) <= level
        }


# The history list's columns, read with `.values()`: a page reads these ten-odd columns, not
# the whole ~2 KB row with its nine JSON fields (QUALITY P3). The list is a history; the
# whole session is `GET …/sessions/{id}`.
SESSION_LIST_COLUMNS: dict[str, str] = {
    "_id": "id",
    "session_title": "session_title",
    "session_type": "session_type",
    "trigger_source": "trigger_source",
    "status": "status",
    "session_summary": "session_summary",
    "satisfaction_score": "satisfaction_score",
    "modality_flags": "modality_flags",
    "message_count": "message_count",
    "initial_risk_level": "initial_risk_level",
    "final_risk_level": "final_risk_level",
    "createdAt": "created_at",
    "updatedAt": "updated_at",
    "endedAt": "ended_at",
}


class SessionListItemOutput(serializers.Serializer):
    """One row of the history list (documents `session_list_items`; P3 for staff only)."""

    def get_fields(self) -> dict[str, serializers.Field]:
        # The session's own fields, fewer: the list and the session cannot drift apart.
        fields = SessionOutput().get_fields()
        return {name: fields[name] for name in SESSION_LIST_COLUMNS}


def session_list_columns() -> list[str]:
    """The model columns a list page reads (plus the cursor's, which are among them)."""
    return list(SESSION_LIST_COLUMNS.values())


def session_list_items(rows: Iterable[Mapping[str, Any]], max_privacy: Privacy) -> list[dict]:
    """`.values()` rows as list items in the schema's names, without the fields above the
    caller's privacy class. Plain dicts: the JSON renderer writes the UUIDs and datetimes the
    way DRF's fields do, without a serializer's per-field machinery per row."""
    names = [
        (name, column)
        for name, column in SESSION_LIST_COLUMNS.items()
        if SESSION_FIELD_PRIVACY.get(name, Privacy.P3) <= max_privacy
    ]
    return [{name: row[column] for name, column in names} for row in rows]


class NotificationOutput(serializers.Serializer):
    id = serializers.IntegerField()
    kind = serializers.CharField()
    payload = serializers.SerializerMethodField()
    session_id = serializers.UUIDField(allow_null=True)
    scheduled_for = serializers.DateTimeField()
    sent_at = serializers.DateTimeField(allow_null=True)
    read_at = serializers.DateTimeField(allow_null=True)

    def get_payload(self, notification: Any) -> dict[str, Any]:
        if self.context.get("max_privacy", CLIENT_MAX_PRIVACY) >= Privacy.P3:
            return notification.payload
        return _without_keys(notification.payload, P3_FIELDS)


def _without_keys(value: Any, names: frozenset[str]) -> Any:
    if isinstance(value, dict):
        return {k: _without_keys(v, names) for k, v in value.items() if k not in names}
    if isinstance(value, list):
        return [_without_keys(item, names) for item in value]
    return value


class MessageFieldsOutput(serializers.Serializer):
    """A message as every read of the tree shows it; the tree and the export add their own."""

    id = serializers.IntegerField()
    parent_id = serializers.IntegerField(allow_null=True)
    workline_id = serializers.IntegerField(allow_null=True)
    role = serializers.CharField()
    kind = serializers.CharField()
    text = serializers.CharField()
    createdAt = serializers.DateTimeField(source="created_at")


class MessageExportOutput(MessageFieldsOutput):
    """A message as the client takes it away: what its own tree shows it, no more."""

    text = serializers.SerializerMethodField()
    modality = serializers.CharField()
    attachment = serializers.SerializerMethodField()

    def get_text(self, message: Any) -> str:
        return message.text if client_may_read_message(message.role) else ""

    def get_attachment(self, message: Any) -> str | None:
        return message.attachment.name or None


class SessionExportOutput(SessionOutput):
    messages = MessageExportOutput(many=True)

    def to_representation(self, instance: Any) -> dict[str, Any]:
        # The privacy filter knows session fields only; the messages are added after it.
        data = super().to_representation(instance)
        data["messages"] = MessageExportOutput(instance.messages.all(), many=True).data
        return data


class ProfileExportOutput(serializers.Serializer):
    display_name = serializers.CharField()
    locale = serializers.CharField()
    observed_patterns = serializers.JSONField()
    accepted_hypotheses = serializers.JSONField()
    session_count = serializers.IntegerField()
    schedule_weekdays = serializers.JSONField()
    schedule_time = serializers.TimeField(allow_null=True)
    time_zone = serializers.CharField()
    typical_activity_time = serializers.TimeField(allow_null=True)


class UserExportOutput(serializers.Serializer):
    id = serializers.IntegerField()
    username = serializers.CharField()
    email = serializers.CharField()
    date_joined = serializers.DateTimeField()


class TaskExportOutput(serializers.Serializer):
    """A piece of CBT homework as the client takes it away."""

    _id = serializers.UUIDField(source="id")
    session_id = serializers.UUIDField()
    kind = serializers.CharField()
    title = serializers.CharField()
    instructions = serializers.CharField(allow_blank=True)
    due_date = serializers.DateField()
    status = serializers.CharField()
    entries = serializers.DictField()
    completion_note = serializers.CharField(allow_blank=True)
    review_session_id = serializers.UUIDField(allow_null=True)
    createdAt = serializers.DateTimeField(source="created_at")
    finishedAt = serializers.DateTimeField(source="finished_at", allow_null=True)


class ExportOutput(serializers.Serializer):
    exported_at = serializers.DateTimeField()
    user = UserExportOutput()
    profile = ProfileExportOutput(allow_null=True)
    sessions = SessionExportOutput(many=True)
    tasks = TaskExportOutput(many=True)


# --- input ---------------------------------------------------------------------------------


class SessionCreateInput(StrictSerializer):
    """Schema §7 POST fields; `user_id` for services only, `initial_risk_level` not clients."""

    user_id = serializers.IntegerField(
        min_value=1, max_value=INT64_MAX, required=False, help_text="Services: the client."
    )
    session_type = serializers.ChoiceField(choices=SessionType.choices, required=False)
    trigger_source = serializers.ChoiceField(choices=TriggerSource.choices, required=False)
    initial_risk_level = serializers.ChoiceField(choices=RiskLevel.choices, required=False)
    dify_conversation_id = serializers.UUIDField(required=False)
    active_agent_key = serializers.ChoiceField(choices=AgentKey.choices, required=False)
    custom_agent_id = serializers.IntegerField(
        min_value=1, max_value=INT64_MAX, required=False, allow_null=True
    )
    agent_origin = serializers.ChoiceField(choices=AgentOrigin.choices, required=False)


LOCALE_HELP = (
    "A BCP 47 tag in English, Russian or Chinese, its region kept for the crisis lines: "
    "`en`, `ru`, `zh`, `en-GB`, `ru-RU`, `zh-TW`."
)


class ProfileOutput(serializers.Serializer):
    """The caller's own profile as the client app reads it."""

    display_name = serializers.CharField()
    locale = serializers.CharField(help_text=LOCALE_HELP)
    time_zone = serializers.CharField()


class VaultConsentOutput(serializers.Serializer):
    """Whether the nightly vault export writes the client's finished sessions and profile as
    Markdown files into a private folder of its own on the server."""

    consent = serializers.BooleanField()
    consented_at = serializers.DateTimeField(
        allow_null=True, help_text="When the client granted it; null without consent."
    )
    statement = serializers.CharField(
        help_text="What the consent means, in the client's language (its profile's `locale`)."
    )


# A language tag of en, ru or zh, in any letter case, with an optional script and region.
LOCALE_PATTERN = r"^(?:[Ee][Nn]|[Rr][Uu]|[Zz][Hh])(?:-[A-Za-z]{4})?(?:-(?:[A-Za-z]{2}|[0-9]{3}))?$"
LOCALE_INVALID = (
    "Naisei speaks en, ru and zh: send one of them, with a region if you like (ru-RU, zh-TW)."
)


class ProfilePatchInput(StrictSerializer):
    min_fields = 1

    # The pattern is in the schema too, so a client (and the fuzzer) knows what may be sent.
    locale = serializers.RegexField(
        LOCALE_PATTERN,
        required=False,
        max_length=16,
        help_text=LOCALE_HELP + " Any letter case; stored normalized, a script subtag dropped.",
        error_messages={"invalid": LOCALE_INVALID},
    )

    def validate_locale(self, value: str) -> str:
        locale = locale_normalize(value)
        if locale is None:
            raise serializers.ValidationError(LOCALE_INVALID)
        return locale


class SessionPatchInput(StrictSerializer):
    """Every field some role may PATCH; which ones a caller may send depends on its role."""

    min_fields = 1

    session_title = serializers.CharField(
        max_length=SESSION_TITLE_MAX, allow_blank=True, required=False
    )
    satisfaction_score = serializers.IntegerField(
        min_value=1, max_value=5, allow_null=True, required=False
    )
    follow_up_needed = serializers.BooleanField(required=False)
    voice_config = VoiceConfigSerializer(required=False)
    custom_agent_id = serializers.IntegerField(
        min_value=1, max_value=INT64_MAX, allow_null=True, required=False
    )
    agent_origin = serializers.ChoiceField(choices=AgentOrigin.choices, required=False)
    final_risk_level = serializers.ChoiceField(
        choices=RiskLevel.choices, allow_null=True, required=False
    )
    session_summary = serializers.CharField(
        max_length=SESSION_SUMMARY_MAX, allow_blank=True, required=False
    )
    # Services only (the orchestrator's sessionManager writes every field):
    dify_conversation_id = serializers.UUIDField(required=False)
    session_type = serializers.ChoiceField(choices=SessionType.choices, required=False)
    trigger_source = serializers.ChoiceField(choices=TriggerSource.choices, required=False)
    active_agent_key = serializers.ChoiceField(choices=AgentKey.choices, required=False)
    agent_snapshot = AgentSnapshotSerializer(required=False)
    conversation_variables = conversation_variables_field(required=False)
    modality_flags = ModalityFlagsSerializer(required=False)
    cbt_focus = serializers.ChoiceField(choices=[("", "none"), *CbtFocus.choices], required=False)
    initial_risk_level = serializers.ChoiceField(choices=RiskLevel.choices, required=False)
    key_insights = string_list_field(required=False)
    cbt_techniques_used = string_list_field(required=False)
    generated_task_ids = string_list_field(required=False)
    counselor_handoff = CounselorHandoffSerializer(allow_null=True, required=False)
    follow_up_at = serializers.DateTimeField(allow_null=True, required=False)
    message_count = serializers.IntegerField(min_value=0, max_value=INT32_MAX, required=False)
    audio_message_count = serializers.IntegerField(min_value=0, max_value=INT32_MAX, required=False)
    attachment_count = serializers.IntegerField(min_value=0, max_value=INT32_MAX, required=False)
    duration_seconds = serializers.IntegerField(
        min_value=0, max_value=INT32_MAX, allow_null=True, required=False
    )
    intervention_triggered = serializers.BooleanField(required=False)
    endedAt = serializers.DateTimeField(allow_null=True, required=False)


class ModalityInput(StrictSerializer):
    min_fields = 1

    modality_flags = ModalityFlagsSerializer(required=False)
    audio_message_count = serializers.IntegerField(min_value=0, max_value=INT32_MAX, required=False)
    attachment_count = serializers.IntegerField(min_value=0, max_value=INT32_MAX, required=False)


class SessionListFilter(serializers.Serializer):
    """Query parameters of the list (and the cursor); any other is refused."""

    session_type = serializers.ChoiceField(choices=SessionType.choices, required=False)
    type = serializers.ChoiceField(
        choices=SessionType.choices, required=False, help_text="Alias of `session_type`."
    )
    trigger_source = serializers.ChoiceField(choices=TriggerSource.choices, required=False)
    trigger = serializers.ChoiceField(
        choices=TriggerSource.choices, required=False, help_text="Alias of `trigger_source`."
    )
    risk = serializers.ChoiceField(
        choices=RiskLevel.choices,
        required=False,
        help_text="Sessions whose initial or final risk level is this (staff only).",
    )
    initial_risk_level = serializers.ChoiceField(choices=RiskLevel.choices, required=False)
    final_risk_level = serializers.ChoiceField(choices=RiskLevel.choices, required=False)
    ALIASES = {"type": "session_type", "trigger": "trigger_source"}
    created_after = serializers.DateTimeField(required=False)
    created_before = serializers.DateTimeField(required=False)
    include_deleted = serializers.BooleanField(required=False, default=False)

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        """A short name stands for its full one; both given must agree."""
        for alias, name in self.ALIASES.items():
            if alias in attrs:
                value = attrs.pop(alias)
                if attrs.setdefault(name, value) != value:
                    message = gettext("Says something else than %(name)s.") % {"name": name}
                    raise serializers.ValidationError({alias: [message]})
        return attrs


class NotificationListFilter(serializers.Serializer):
    unread = serializers.BooleanField(required=False, default=False, help_text="Unread only.")


_PROHIBITING = (ProhibitNullCharactersValidator, ProhibitSurrogateCharactersValidator)


class CredentialField(serializers.CharField):
    """A username or password as typed: any string. One holding a NUL or a lone surrogate can
    belong to no account (none can be set), so the view answers it as the wrong credential it
    is — its documented 401/403 — instead of DRF's undocumented "Null characters are not
    allowed" 400."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.validators = [
            v
            for v in self.validators
            if not isinstance(
                v, ProhibitNullCharactersValidator | ProhibitSurrogateCharactersValidator
            )
        ]


def credential_impossible(value: str) -> bool:
    """Whether no account can have this username or password (nor may it reach the database)."""
    return "\x00" in value or any(0xD800 <= ord(ch) <= 0xDFFF for ch in value)


class ExportInput(StrictSerializer):
    password = CredentialField(max_length=4096, trim_whitespace=False)


class LoginInput(StrictSerializer):
    username = CredentialField(max_length=150)
    password = CredentialField(max_length=4096, trim_whitespace=False)


class LoginOutput(serializers.Serializer):
    token = serializers.CharField()
    expiry = serializers.DateTimeField(allow_null=True)
