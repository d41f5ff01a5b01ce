"""Writes on sessions and notifications. Every function here owns its transaction."""

from __future__ import annotations

import uuid
from typing import Any

from django.conf import settings
from django.contrib.admin.models import CHANGE, LogEntry
from django.contrib.auth import get_user_model
from django.db import IntegrityError, models, transaction
from django.utils import timezone
from django_q.tasks import async_task
from knox.models import AuthToken
from knox.settings import knox_settings

from sessions_app import redaction
from sessions_app.engine.selectors import is_crisis_raise, risk_now
from sessions_app.engine.services import risk_escalate_by, session_start
from sessions_app.errors import ApplicationError, ErrorCode, invalid
from sessions_app.events import EventType, event_append, event_by, session_length_check
from sessions_app.models import (
    AgentKey,
    AgentOrigin,
    AskAgent,
    AskSession,
    IdempotencyRecord,
    LiveSocket,
    Notification,
    RiskLevel,
    SessionType,
    TriggerSource,
    UserProfile,
)
from sessions_app.realtime import push as realtime
from sessions_app.roles import Role, role_of

User = get_user_model()

# --- sessions ----------------------------------------------------------------------------------

_BUILTIN_AGENT_VERSION = "builtin"


def _agent_invalid(detail: str) -> ApplicationError:
    return ApplicationError(ErrorCode.SESSION_AGENT_INVALID, detail)


def _agent_resolve(
    *, owner: Any, agent_id: int | None, origin: str | None, agent_key: str | None
) -> tuple[AskAgent | None, str, str, dict[str, str]]:
    """(custom_agent, agent_origin, active_agent_key, agent_snapshot) for a session of `owner`.

    A client may use its own user_custom agents and any template; anything else, and an origin
    or key that contradicts the agent, is `E_SESSION_AGENT_INVALID`.
    """
    if agent_id is None:
        if origin not in (None, AgentOrigin.SYSTEM_DEFAULT):
            raise _agent_invalid(f"agent_origin {origin} needs a custom_agent_id.")
        key = agent_key or AgentKey.CBT_SPECIALIST
        default = AskAgent.objects.filter(origin=AgentOrigin.SYSTEM_DEFAULT, key=key).first()
        snapshot = default.snapshot() if default else _builtin_snapshot(key)
        return None, AgentOrigin.SYSTEM_DEFAULT, key, snapshot
    agent = AskAgent.objects.filter(pk=agent_id).first()
    if agent is not None and agent.origin == AgentOrigin.USER_CUSTOM and agent.owner_id != owner.pk:
        agent = None
    if agent is None:
        # One answer for "no such agent" and "another client's": ids must not tell which exist.
        raise _agent_invalid("No agent with this id is available to this client.")
    if origin is not None and origin != agent.origin:
        raise _agent_invalid(f"The agent's origin is {agent.origin}, not {origin}.")
    if agent_key is not None and agent_key != agent.key:
        raise _agent_invalid(f"The agent's key is {agent.key}, not {agent_key}.")
    return agent, agent.origin, agent.key, agent.snapshot()


def _builtin_snapshot(key: str) -> dict[str, str]:
    return {
        "name": AgentKey(key).label,
        "persona": "",
        "version": _BUILTIN_AGENT_VERSION,
        "origin": AgentOrigin.SYSTEM_DEFAULT,
        "dify_agent_id": "",
    }


@transaction.atomic
def session_create(
    *,
    owner: Any,
    actor: Any,
    session_type: str = SessionType.GENERAL,
    trigger_source: str = TriggerSource.MANUAL_TRIGGER,
    initial_risk_level: str = RiskLevel.L0,
    dify_conversation_id: uuid.UUID | None = None,
    active_agent_key: str | None = None,
    custom_agent_id: int | None = None,
    agent_origin: str | None = None,
    cbt_focus: str = "",
    flow: str | None = None,
) -> AskSession:
    """Create and start a session for `owner`; at most one active session per client."""
    agent, origin, key, snapshot = _agent_resolve(
        owner=owner, agent_id=custom_agent_id, origin=agent_origin, agent_key=active_agent_key
    )
    session = AskSession(
        user=owner,
        session_type=session_type,
        trigger_source=trigger_source,
        initial_risk_level=initial_risk_level,
        dify_conversation_id=dify_conversation_id or uuid.uuid4(),
        active_agent_key=key,
        custom_agent=agent,
        agent_origin=origin,
        agent_snapshot=snapshot,
        cbt_focus=cbt_focus,
        status=AskSession.Status.ACTIVE,
    )
    # The partial unique index decides, not a prior SELECT: of concurrent creates exactly one
    # insert wins and the others fail here (on PostgreSQL after waiting for the winner).
    try:
        with transaction.atomic():
            session.save(force_insert=True)
    except IntegrityError:
        raise _create_conflict(dify_conversation_id) from None
    event_by(
        session=session,
        type=EventType.SESSION_CREATED,
        payload={"session_type": session_type, "trigger_source": trigger_source},
        by=actor,
    )
    # Creating is starting (SPEC §9): the opening needs no model, so it commits with the row.
    session = session_start(session=session, flow=flow)
    if is_crisis_raise(RiskLevel.L0, initial_risk_level):
        # Created in a crisis (the orchestrator says so): the one escalation path (SPEC §3).
        session = risk_escalate_by(session=session, level=initial_risk_level, by=actor)
    return session


def _create_conflict(dify_conversation_id: uuid.UUID | None) -> ApplicationError:
    taken = (
        dify_conversation_id is not None
        and AskSession.objects.filter(dify_conversation_id=dify_conversation_id).exists()
    )
    if taken:
        return ApplicationError(
            ErrorCode.VALIDATION,
            "Invalid input.",
            fields={"dify_conversation_id": ["A session with this id already exists."]},
        )
    return ApplicationError(
        ErrorCode.SESSION_ACTIVE_EXISTS, "This client already has an active session."
    )


def _handoff_apply(session: AskSession, handoff: dict[str, Any] | None) -> None:
    if handoff is None:
        session.handoff_reason, session.handoff_counselor, session.handoff_time = "", None, None
        return
    counselor = User.objects.filter(pk=handoff["counselor_id"]).first()
    if counselor is None or role_of(counselor) is not Role.COUNSELOR:
        raise ApplicationError(
            ErrorCode.VALIDATION,
            "Invalid input.",
            fields={"counselor_handoff": {"counselor_id": ["Not a counselor."]}},
        )
    session.handoff_reason = handoff.get("handoff_reason", "")
    session.handoff_counselor = counselor
    session.handoff_time = handoff["handoff_time"]


def _agent_change_apply(session: AskSession, changes: dict[str, Any]) -> None:
    if "custom_agent_id" in changes:
        agent, origin, key, snapshot = _agent_resolve(
            owner=session.user,
            agent_id=changes["custom_agent_id"],
            origin=changes.get("agent_origin"),
            agent_key=None,
        )
        # Switching agents re-snapshots: the snapshot describes the agent the session uses,
        # frozen against later edits of that agent, not against the switch itself.
        session.custom_agent, session.agent_origin = agent, origin
        session.active_agent_key, session.agent_snapshot = key, snapshot
    elif "agent_origin" in changes:
        current = session.custom_agent.origin if session.custom_agent else "system_default"
        if changes["agent_origin"] != current:
            raise _agent_invalid(f"The session's agent has origin {current}.")


# Schema JSON name → model attribute, where they differ; and the fields with their own rules.
_PATCH_ATTRS = {"endedAt": "ended_at"}
_RULED_FIELDS = frozenset(
    {
        "custom_agent_id",
        "agent_origin",
        "counselor_handoff",
        "modality_flags",
        "audio_message_count",
        "attachment_count",
    }
)


_RISK_FIELDS = frozenset({"initial_risk_level", "final_risk_level"})
_RISK_LOWERED = {
    "initial_risk_level": "the level the session began at stays on record",
    "final_risk_level": "lowering needs a reason (POST /risk)",
}


def _risk_lowered(session: AskSession, changes: dict[str, Any]) -> dict[str, str]:
    """The fields `changes` would lower, each with why not. Every field that carries risk
    follows one rule, whoever writes it: a PATCH only raises. The level goes down through
    `engine.services.risk_level_set` (a reason, a `risk.changed` event); the level the session
    began at and a crisis session's markers are its history, which nothing clears."""
    lowered: dict[str, str] = {}
    before = risk_now(session)
    for name in sorted(_RISK_FIELDS & set(changes)):
        now = getattr(session, name) or RiskLevel.L0
        if (changes[name] or RiskLevel.L0) < now:
            lowered[name] = _RISK_LOWERED[name]
    final = changes.get("final_risk_level", session.final_risk_level)
    if final != session.final_risk_level and (final or RiskLevel.L0) < before:
        # Under the level the session began at: the running risk would read lower.
        lowered["final_risk_level"] = _RISK_LOWERED["final_risk_level"]
    if session.intervention_triggered and changes.get("intervention_triggered") is False:
        lowered["intervention_triggered"] = "an intervention, once triggered, stays on record"
    crisis = AskSession.SessionType.CRISIS_INTERVENTION
    if session.session_type == crisis and changes.get("session_type", crisis) != crisis:
        lowered["session_type"] = "a crisis session stays a crisis session"
    return lowered


def _risk_after(session: AskSession, changes: dict[str, Any]) -> str:
    """The running risk once `changes` apply. null is "not assessed", i.e. no risk: clearing a
    raised level is lowering it too."""
    initial = changes.get("initial_risk_level", session.initial_risk_level) or RiskLevel.L0
    final = changes.get("final_risk_level", session.final_risk_level) or RiskLevel.L0
    return max(initial, final)


@transaction.atomic
def session_update(*, session: AskSession, actor: Any, changes: dict[str, Any]) -> AskSession:
    """Apply validated schema-named `changes` (the caller checked the role may write them)."""
    # Locked so that concurrent PATCHes apply one after the other on the current row.
    session = AskSession.objects.select_for_update().select_related("user").get(pk=session.pk)
    if "message_count" in changes:
        session_length_check(
            session=session, adding=changes["message_count"] - session.message_count
        )
    lowered = _risk_lowered(session, changes)
    if lowered:
        raise invalid(
            "A PATCH never lowers risk: POST …/risk with level and reason lowers the level.",
            **lowered,
        )
    risk_before = risk_now(session)
    risk_after = _risk_after(session, changes)
    # Raised into a crisis: the levels wait for the escalation path, which sets them after the
    # other fields (so that its event says what the risk was before).
    escalates = is_crisis_raise(risk_before, risk_after)
    held = _RISK_FIELDS & set(changes) if escalates else set()
    for name in set(changes) - _RULED_FIELDS - held:
        setattr(session, _PATCH_ATTRS.get(name, name), changes[name])
    if "session_title" in changes:
        # Named by a person now: automatic neutral titles leave it alone (an empty one resets).
        session.title_by_client = bool(changes["session_title"])
    _agent_change_apply(session, changes)
    if "counselor_handoff" in changes:
        _handoff_apply(session, changes["counselor_handoff"])
    # After voice_config: a PATCH may enable voice and set the audio count together.
    _modality_apply(
        session,
        modality_flags=changes.get("modality_flags"),
        audio_message_count=changes.get("audio_message_count"),
        attachment_count=changes.get("attachment_count"),
    )
    try:
        with transaction.atomic():
            session.save()
    except IntegrityError:  # the only unique column a PATCH can touch
        raise _create_conflict(changes.get("dify_conversation_id")) from None
    event_by(
        session=session,
        type=EventType.SESSION_UPDATED,
        payload={"fields": sorted(changes)},  # names only: values may be private text
        by=actor,
    )
    if escalates:
        session = risk_escalate_by(session=session, level=risk_after, by=actor)
        if "initial_risk_level" in changes:
            # Below the level just set (risk_after is the higher of the two): the running risk
            # stays as the escalation left it.
            session.initial_risk_level = changes["initial_risk_level"]
            session.save(update_fields=["initial_risk_level", "updated_at"])
        return session
    if risk_now(session) != risk_before:
        event_by(
            session=session,
            type=EventType.RISK_CHANGED,
            payload={"previous": risk_before, "level": risk_now(session), "reason": ""},
            by=actor,
        )
    return session


def voice_enabled(*, voice_config: dict[str, Any], modality_flags: dict[str, Any]) -> bool:
    """Voice is on when TTS is enabled in the voice config or the session is flagged audio."""
    return voice_config.get("enable_tts") is True or modality_flags.get("audio") is True


def _modality_apply(
    session: AskSession,
    *,
    modality_flags: dict[str, bool] | None,
    audio_message_count: int | None,
    attachment_count: int | None,
) -> None:
    """The modality rules of schema §10, shared by `…/modality` and the service's PATCH."""
    flags = {**session.modality_flags, **(modality_flags or {})}
    audio_changes = (
        audio_message_count is not None and audio_message_count != session.audio_message_count
    )
    if audio_changes and not voice_enabled(voice_config=session.voice_config, modality_flags=flags):
        raise ApplicationError(
            ErrorCode.SESSION_VOICE_DISABLED,
            "Voice is disabled for this session (voice_config.enable_tts and the audio flag "
            "are both off), so its audio count cannot change.",
        )
    if attachment_count is not None:
        stored = session.messages.exclude(attachment="").count()
        if attachment_count != stored:
            raise ApplicationError(
                ErrorCode.SESSION_FILE_MISMATCH,
                f"attachment_count {attachment_count} differs from the {stored} attachments "
                "stored in this session's messages.",
            )
        session.attachment_count = attachment_count
    if audio_message_count is not None:
        session.audio_message_count = audio_message_count
    session.modality_flags = flags


@transaction.atomic
def session_modality_update(
    *,
    session: AskSession,
    actor: Any,
    modality_flags: dict[str, bool] | None = None,
    audio_message_count: int | None = None,
    attachment_count: int | None = None,
) -> AskSession:
    """Refresh the modality flags and counts (schema §7 `…/modality`)."""
    # Locked: the attachment check compares against messages that could otherwise change.
    session = AskSession.objects.select_for_update().get(pk=session.pk)
    _modality_apply(
        session,
        modality_flags=modality_flags,
        audio_message_count=audio_message_count,
        attachment_count=attachment_count,
    )
    session.save()
    event_by(
        session=session,
        type=EventType.SESSION_MODALITY_UPDATED,
        by=actor,
    )
    return session


@transaction.atomic
def session_delete(*, session: AskSession, actor: Any) -> None:
    """Soft delete: hidden from everyone but ops, then anonymised by a background job."""
    session = AskSession.objects.select_for_update().get(pk=session.pk)
    now = timezone.now()
    was_active = session.is_active
    if was_active:
        # A deleted session must not keep holding the client's one active slot.
        session.status, session.ended_at = AskSession.Status.COMPLETED_PARTIAL, now
    session.is_deleted, session.deleted_at = True, now
    session.save()
    event_by(
        session=session,
        type=EventType.SESSION_DELETED,
        payload={"was_active": was_active},
        by=actor,
    )
    # Enqueued inside the transaction: the ORM broker commits or rolls back with the delete.
    async_task("sessions_app.tasks.session_anonymise", str(session.pk))


class AnonymiseReason(models.TextChoices):
    DELETED = "deleted", "Soft-deleted"
    RETENTION_GENERAL = "retention_general", "General retention window passed"
    RETENTION_CRISIS = "retention_crisis", "Crisis retention window passed"


@transaction.atomic
def session_anonymise(
    *, session_id: uuid.UUID | str, reason: str = AnonymiseReason.DELETED
) -> bool:
    """The one audited anonymisation (SPEC §7, QUALITY R9). True when this call anonymised it.

    Every word of the session goes: message texts, payloads and attachments, title, summary,
    key insights, last-thing notes, slots, workline summaries, the text inside event payloads,
    other apps' rows about it (`redaction.SESSION_TEXT_MODELS`: hypotheses), the homework it
    proposed (`redaction.tasks_scrub`: wording, entries, note; ratings stay), the profile entries
    it left, its notifications' text and replayable responses. Statistics stay: type, CBT focus
    and techniques, counts, durations, risk levels, satisfaction, event types and codes. A
    `session.anonymised` event records when and why. Safe to run twice: a repeat scrubs again
    (an analysis may have written since) and records nothing new.
    """
    # Locked so that the engine, the delete path and the nightly sweep scrub one at a time.
    session = AskSession.objects.select_for_update(of=("self",)).filter(pk=session_id).first()
    if session is None or session.is_active:  # an open session is still being written
        return False
    first = session.anonymised_at is None
    redaction.session_fields_scrub(session)
    scrubbed = {
        "messages": redaction.messages_scrub(session),
        "events": redaction.event_payloads_redact(session),
        "elsewhere": redaction.session_text_models_scrub(session),
        "tasks": redaction.tasks_scrub(session),
    }
    redaction.graph_scrub(session)
    redaction.profile_entries_drop(session)
    redaction.notifications_scrub(session)
    redaction.replays_forget(session)
    if first:
        AskSession.objects.filter(pk=session.pk).update(anonymised_at=timezone.now())
        event_append(
            session=session,
            type=EventType.SESSION_ANONYMISED,
            payload={"reason": reason, **scrubbed},
        )
    return first


# --- profiles ----------------------------------------------------------------------------------


def profile_ensure(*, user: Any, accept_language: str = "") -> UserProfile:
    """The user's profile, created on first use with the first language its `Accept-Language`
    names that Naisei speaks (else English). An existing profile is never changed here."""
    profile = UserProfile.objects.filter(user=user).first()
    if profile is not None:
        return profile
    locale = UserProfile.locale_from_accept_language(accept_language) or UserProfile.Locale.EN
    # get_or_create: two first requests at once make one profile, the loser reads it.
    profile, _ = UserProfile.objects.get_or_create(user=user, defaults={"locale": locale})
    return profile


def profile_update(*, profile: UserProfile, changes: dict[str, Any]) -> UserProfile:
    """Apply validated `changes` (the locale); sending the same value again changes nothing."""
    changed = [name for name, value in changes.items() if getattr(profile, name) != value]
    for name in changed:
        setattr(profile, name, changes[name])
    if changed:
        profile.save(update_fields=[*changed, "updated_at"])
    return profile


# What the profile's history (admin) says of each change of the vault export consent.
VAULT_CONSENT_LOG = {
    True: "Vault export consent granted.",
    False: "Vault export consent withdrawn.",
}


@transaction.atomic
def vault_consent_set(*, profile: UserProfile, consent: bool, by: Any) -> UserProfile:
    """Grant (the time is recorded: the export writes nothing without it) or withdraw (the next
    run removes the client's folder) the nightly Markdown export of its closed sessions
    (`jobs/markdown_export.py`). Repeating either changes nothing and keeps the first grant's
    time. Each change is recorded, with who made it, in the profile's history (Django admin's
    change log, where staff edits of the profile are recorded too)."""
    # Locked: a grant and a withdrawal at once end in one state, each change recorded once.
    locked = UserProfile.objects.select_for_update().get(pk=profile.pk)
    has_time = locked.vault_export_consented_at is not None
    if locked.vault_export_consent == consent and has_time == consent:
        return locked
    locked.vault_export_consent = consent
    locked.vault_export_consented_at = timezone.now() if consent else None
    locked.save(update_fields=["vault_export_consent", "vault_export_consented_at", "updated_at"])
    LogEntry.objects.log_actions(
        user_id=by.pk,
        queryset=[locked],
        action_flag=CHANGE,
        change_message=VAULT_CONSENT_LOG[consent],
        single_object=True,
    )
    return locked


# --- notifications -----------------------------------------------------------------------------


def notification_mark_read(*, notification: Notification) -> Notification:
    # A conditional UPDATE: the first read wins and a repeat keeps the original time.
    Notification.objects.filter(pk=notification.pk, read_at__isnull=True).update(
        read_at=timezone.now()
    )
    notification.refresh_from_db(fields=["read_at"])
    return notification


# --- idempotency -------------------------------------------------------------------------------


def idempotency_prune() -> int:
    """Forget stored POST responses older than IDEMPOTENCY_KEY_TTL; returns how many."""
    cutoff = timezone.now() - settings.IDEMPOTENCY_KEY_TTL
    deleted, _ = IdempotencyRecord.objects.filter(created_at__lt=cutoff).delete()
    return deleted


# --- credentials and open websockets -----------------------------------------------------------


def _user_lock(user: Any) -> None:
    # Two sign-ins (or two websockets) of one user at once would both count the same rows and
    # both stay under the bound: the user's row serialises them.
    User.objects.select_for_update().filter(pk=user.pk).first()


@transaction.atomic
def token_issue(*, user: Any) -> tuple[AuthToken, str]:
    """A new API token for `user`; expired ones are swept, and beyond `TOKENS_PER_USER` the
    oldest are revoked — their websockets closed after commit."""
    _user_lock(user)
    AuthToken.objects.filter(user=user, expiry__lt=timezone.now()).delete()
    tokens = AuthToken.objects.filter(user=user).order_by("-created", "-digest")
    oldest = list(tokens.values_list("digest", flat=True)[settings.TOKENS_PER_USER - 1 :])
    _tokens_revoke(user_id=user.pk, digests=oldest)
    return AuthToken.objects.create(user, knox_settings.TOKEN_TTL)


@transaction.atomic
def token_revoke(*, token: AuthToken) -> None:
    """Logout: the token stops working now, and its websockets close after commit."""
    _tokens_revoke(user_id=token.user_id, digests=[token.digest])


def _tokens_revoke(*, user_id: Any, digests: list[str]) -> None:
    if not digests:
        return
    AuthToken.objects.filter(user_id=user_id, digest__in=digests).delete()
    transaction.on_commit(
        lambda: realtime.credentials_revoked_publish(user_id=user_id, token_digests=digests)
    )


@transaction.atomic
def live_socket_open(*, user: Any, channel_name: str) -> list[str]:
    """Count a websocket just accepted; returns the channels of the user's oldest ones beyond
    `WEBSOCKETS_PER_USER`, which the caller closes (their rows are gone already)."""
    _user_lock(user)
    LiveSocket.objects.create(user=user, channel_name=channel_name)
    sockets = LiveSocket.objects.filter(user=user).order_by("-opened_at", "-pk")
    evicted = list(sockets.values_list("pk", "channel_name")[settings.WEBSOCKETS_PER_USER :])
    LiveSocket.objects.filter(pk__in=[pk for pk, _ in evicted]).delete()
    return [name for _, name in evicted]


def live_socket_close(*, channel_name: str) -> None:
    LiveSocket.objects.filter(channel_name=channel_name).delete()
