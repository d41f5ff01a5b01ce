"""Agents, sessions (the schema's `ask_sessions`, field for field), worklines, messages (a tree)
and spin-off proposals (SPEC §2, §5)."""

from __future__ import annotations

import uuid
from typing import Any

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from sessions_app.models.base import (
    SESSION_SUMMARY_MAX,
    SESSION_TITLE_MAX,
    RiskLevel,
    default_modality_flags,
    in_choices,
    validate_conversation_variables,
    validate_modality_flags,
    validate_string_list,
    validate_voice_config,
)

__all__ = [
    "AgentKey",
    "AgentOrigin",
    "AskAgent",
    "AskMessage",
    "AskSession",
    "AskSessionQuerySet",
    "CardKind",
    "CbtFocus",
    "MessageKind",
    "MessageRole",
    "Modality",
    "Phase",
    "SessionStatus",
    "SessionType",
    "SpinOffProposal",
    "TerminationReason",
    "TriggerSource",
    "Workline",
    "WorklineStatus",
]


class AgentOrigin(models.TextChoices):
    SYSTEM_DEFAULT = "system_default", "System default"
    ORG_TEMPLATE = "org_template", "Organisation template"
    USER_CUSTOM = "user_custom", "User custom"


class AgentKey(models.TextChoices):
    CBT_SPECIALIST = "cbt_specialist", "CBT specialist"
    EMOTION_ADVISOR = "emotion_advisor", "Emotion advisor"
    BEHAVIOR_COACH = "behavior_coach", "Behavior coach"
    CRISIS_INTERVENTIONIST = "crisis_interventionist", "Crisis interventionist"
    CUSTOM_ROLE = "custom_role", "Custom role"


class AskAgent(models.Model):
    """An agent persona (`ask_agents`): a system default, an org template or a client's own."""

    key = models.CharField(max_length=40, choices=AgentKey.choices, default=AgentKey.CUSTOM_ROLE)
    name = models.CharField(max_length=80)
    persona = models.TextField(blank=True, default="")
    version = models.CharField(max_length=40, default="1")
    origin = models.CharField(
        max_length=20, choices=AgentOrigin.choices, default=AgentOrigin.SYSTEM_DEFAULT
    )
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="custom_agents",
        help_text="The client who owns a user_custom agent.",
    )
    external_agent_id = models.CharField(max_length=80, blank=True, default="")
    prompt_overrides = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        db_table = "ask_agents"
        ordering = ["name", "id"]
        constraints = [
            in_choices("key", AgentKey, "ask_agent_key_valid"),
            in_choices("origin", AgentOrigin, "ask_agent_origin_valid"),
            # A user_custom agent belongs to exactly one client; templates belong to nobody.
            models.CheckConstraint(
                condition=(Q(origin=AgentOrigin.USER_CUSTOM) & Q(owner__isnull=False))
                | (~Q(origin=AgentOrigin.USER_CUSTOM) & Q(owner__isnull=True)),
                name="ask_agent_owner_matches_origin",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.get_origin_display()})"

    def snapshot(self) -> dict[str, str]:
        """The frozen copy stored on a session at creation (schema `agent_snapshot`)."""
        return {
            "name": self.name,
            "persona": self.persona,
            "version": self.version,
            "origin": self.origin,
            "dify_agent_id": self.external_agent_id,
        }


class AskSessionQuerySet(models.QuerySet["AskSession"]):
    def visible(self) -> AskSessionQuerySet:
        return self.filter(is_deleted=False)

    def active(self) -> AskSessionQuerySet:
        return self.filter(status=AskSession.Status.ACTIVE)

    def idle_since(self, cutoff: Any) -> AskSessionQuerySet:
        """Active sessions whose last activity is older than `cutoff` (uses a partial index)."""
        return self.active().filter(last_activity_at__lt=cutoff)

    def follow_ups_due(self, now: Any) -> AskSessionQuerySet:
        """Sessions whose counselor follow-up time has come (uses a partial index)."""
        return self.filter(follow_up_needed=True, follow_up_at__lte=now, is_deleted=False)

    def retention_due(self, now: Any) -> AskSessionQuerySet:
        """Closed sessions whose content outlived its window (SPEC §7), not yet anonymised.

        A session counts as crisis when it became one: its type, or an intervention on record.
        """
        general, crisis = now - settings.RETENTION_GENERAL, now - settings.RETENTION_CRISIS
        is_crisis = Q(session_type=SessionType.CRISIS_INTERVENTION) | Q(intervention_triggered=True)
        return (
            self.filter(anonymised_at__isnull=True, created_at__lt=max(general, crisis))
            .exclude(status=AskSession.Status.ACTIVE)
            .filter(
                (~is_crisis & Q(created_at__lt=general)) | (is_crisis & Q(created_at__lt=crisis))
            )
        )

    def deleted_not_anonymised(self) -> AskSessionQuerySet:
        """Soft-deleted sessions the delete path's own anonymisation task has not reached."""
        return self.filter(is_deleted=True, anonymised_at__isnull=True)


class SessionType(models.TextChoices):
    GENERAL = "general", _("General")
    CBT_GUIDED = "cbt_guided", _("CBT guided")
    CRISIS_INTERVENTION = "crisis_intervention", _("Crisis intervention")
    FOLLOW_UP = "follow_up", _("Follow-up")


class TriggerSource(models.TextChoices):
    MOOD_CHECKIN = "mood_checkin", "Mood check-in"
    JOURNAL_NEGATIVE = "journal_negative", "Negative journal entry"
    TREEHOLE_RISK = "treehole_risk", "Treehole risk"
    MANUAL_TRIGGER = "manual_trigger", "Manual"
    SCHEDULED_CHECKIN = "scheduled_checkin", "Scheduled check-in"


class CbtFocus(models.TextChoices):
    COGNITIVE_RESTRUCTURING = "cognitive_restructuring", _("Cognitive restructuring")
    BEHAVIORAL_ACTIVATION = "behavioral_activation", _("Behavioral activation")
    EMOTION_REGULATION = "emotion_regulation", _("Emotion regulation")
    PROBLEM_SOLVING = "problem_solving", _("Problem solving")


class SessionStatus(models.TextChoices):
    ACTIVE = "active", _("Active")
    COMPLETED = "completed", _("Completed")
    COMPLETED_PARTIAL = "completed_partial", _("Completed (partial)")
    CLOSED_ABNORMALLY = "closed_abnormally", _("Closed abnormally")


class Phase(models.TextChoices):
    INTRO = "intro", _("Intro")
    QUESTIONNAIRE = "questionnaire", _("Questionnaire")
    DIALOGUE = "dialogue", _("Dialogue")
    INSIGHT = "insight", _("Insight")
    CLOSING = "closing", _("Closing")


class TerminationReason(models.TextChoices):
    ABANDONED_TIMEOUT = "abandoned_timeout", _("Abandoned (idle timeout)")
    HEARTBEAT_TIMEOUT = "heartbeat_timeout", _("Heartbeat timeout")
    KILLED = "killed", _("Killed")
    ERROR = "error", _("Error")


class AskSession(models.Model):
    """One reflection session: the schema's `ask_sessions` document plus the engine's state."""

    # The enums live at module level so Meta can name them; these aliases keep
    # `AskSession.Status.ACTIVE` readable at call sites.
    SessionType = SessionType
    TriggerSource = TriggerSource
    CbtFocus = CbtFocus
    Status = SessionStatus
    Phase = Phase
    TerminationReason = TerminationReason

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="ask_sessions"
    )
    dify_conversation_id = models.UUIDField(unique=True, default=uuid.uuid4)
    session_title = models.CharField(max_length=SESSION_TITLE_MAX, blank=True, default="")
    # Their single-field indexes (schema §3) are declared in Meta: a `db_index` here would add a
    # `varchar_pattern_ops` twin per column on PostgreSQL that no query uses (P7).
    session_type = models.CharField(
        max_length=24, choices=SessionType.choices, default=SessionType.GENERAL
    )
    trigger_source = models.CharField(
        max_length=24, choices=TriggerSource.choices, default=TriggerSource.MANUAL_TRIGGER
    )
    active_agent_key = models.CharField(
        max_length=24, choices=AgentKey.choices, default=AgentKey.CBT_SPECIALIST
    )
    custom_agent = models.ForeignKey(
        AskAgent, null=True, blank=True, on_delete=models.PROTECT, related_name="sessions"
    )
    agent_origin = models.CharField(
        max_length=20, choices=AgentOrigin.choices, default=AgentOrigin.SYSTEM_DEFAULT
    )
    agent_snapshot = models.JSONField(default=dict, blank=True)
    conversation_variables = models.JSONField(
        default=dict, blank=True, validators=[validate_conversation_variables]
    )
    modality_flags = models.JSONField(
        default=default_modality_flags, validators=[validate_modality_flags]
    )
    voice_config = models.JSONField(default=dict, blank=True, validators=[validate_voice_config])
    cbt_focus = models.CharField(max_length=32, choices=CbtFocus.choices, blank=True, default="")
    initial_risk_level = models.CharField(
        max_length=2, choices=RiskLevel.choices, default=RiskLevel.L0
    )
    final_risk_level = models.CharField(
        max_length=2, choices=RiskLevel.choices, null=True, blank=True
    )
    session_summary = models.TextField(max_length=SESSION_SUMMARY_MAX, blank=True, default="")
    key_insights = models.JSONField(default=list, blank=True, validators=[validate_string_list])
    cbt_techniques_used = models.JSONField(
        default=list, blank=True, validators=[validate_string_list]
    )
    generated_task_ids = models.JSONField(default=list, blank=True)
    # counselor_handoff {handoff_reason, counselor_id, handoff_time} is kept as three columns so
    # that "sessions handed off to me" is an indexed join, not a JSON scan.
    handoff_reason = models.CharField(max_length=200, blank=True, default="")
    handoff_counselor = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="handed_off_sessions",
    )
    handoff_time = models.DateTimeField(null=True, blank=True)
    # The counselor's workspace (SPEC §3 crisis, §8): when counselors were first alerted about
    # this session (the escalation clock and the alert → claim time start here), how far the
    # unclaimed alert has escalated (0 none, 1 ops, 2 every counselor on duty), and the one lock
    # that says who is speaking: set while the handoff counselor has taken the conversation
    # over from the AI, null while the agents speak.
    alerted_at = models.DateTimeField(null=True, blank=True)
    alert_escalations = models.PositiveSmallIntegerField(default=0)
    counselor_speaking_since = models.DateTimeField(null=True, blank=True)
    # True once the client named the session itself; until then the title is a neutral label,
    # never the client's own words.
    title_by_client = models.BooleanField(default=False)
    satisfaction_score = models.PositiveSmallIntegerField(null=True, blank=True)
    follow_up_needed = models.BooleanField(default=False)
    follow_up_at = models.DateTimeField(null=True, blank=True)
    message_count = models.PositiveIntegerField(default=0)
    audio_message_count = models.PositiveIntegerField(default=0)
    attachment_count = models.PositiveIntegerField(default=0)
    duration_seconds = models.PositiveIntegerField(null=True, blank=True)
    intervention_triggered = models.BooleanField(default=False)
    created_at = models.DateTimeField(default=timezone.now, editable=False)
    # `updated_at` and `last_activity_at` are indexed (schema §3; the idle job, P4), so a turn
    # rewrites them only when they are older than the dealer's ACTIVITY_RESOLUTION: the other
    # answers' updates touch no indexed column and stay HOT on PostgreSQL (P7). Both clocks are
    # therefore up to a minute behind, never ahead.
    updated_at = models.DateTimeField(auto_now=True)
    ended_at = models.DateTimeField(null=True, blank=True)
    is_deleted = models.BooleanField(default=False)
    deleted_at = models.DateTimeField(null=True, blank=True)
    # Set once by the anonymisation service; the retention sweeps skip such sessions by index.
    anonymised_at = models.DateTimeField(null=True, blank=True, editable=False)

    # --- engine state (SPEC §2 "engine fields", §3, §4) ---
    status = models.CharField(max_length=20, choices=Status.choices, default=Status.ACTIVE)
    phase = models.CharField(max_length=16, choices=Phase.choices, default=Phase.INTRO)
    turn_count = models.PositiveIntegerField(default=0)
    ready_to_close = models.BooleanField(default=False)
    termination_reason = models.CharField(
        max_length=20, choices=TerminationReason.choices, null=True, blank=True
    )
    last_activity_at = models.DateTimeField(default=timezone.now)
    locale = models.CharField(max_length=8, default="en")
    active_workline = models.ForeignKey(
        "Workline", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    # The dialogue thread state of §4; `pending_guard` is derived from it, never stored.
    current_intent_code = models.CharField(max_length=40, default="reflection_session")
    current_step_code = models.CharField(max_length=40, default="intro")
    slots = models.JSONField(default=dict, blank=True)
    handoff_count = models.PositiveIntegerField(default=0)
    soft_insertion_count = models.PositiveIntegerField(default=0)
    suspended_intent = models.CharField(max_length=40, blank=True, default="")
    resumable_step_code = models.CharField(max_length=40, blank=True, default="")
    resumable_slots = models.JSONField(default=dict, blank=True)
    # Last `seq` handed out by the event service; bumping it row-locks the session, which is
    # what keeps `seq` gap-free and strictly increasing under concurrent appends.
    event_seq = models.PositiveIntegerField(default=0, editable=False)
    # A batch the client completed, waiting for its unit of work off the request (SPEC §3 One
    # turn; engine/turn/pending.py): written with the answer, cleared with the batch's cards.
    # {"answer_id", "since_id", "fatigue", "meta", "human", "since": the event seq to wait after}
    batch_pending = models.JSONField(null=True, blank=True, editable=False)
    # Runs started, each claiming the batch until `batch_claimed_until`; a run that dies lets
    # the claim run out, and the sweeper hands the batch out again (also when its first
    # dispatch was lost: a recorded batch is due by then).
    batch_attempts = models.PositiveSmallIntegerField(default=0, editable=False)
    batch_claimed_until = models.DateTimeField(null=True, blank=True, editable=False)

    objects = AskSessionQuerySet.as_manager()

    class Meta:
        db_table = "ask_sessions"
        ordering = ["-created_at", "-id"]
        indexes = [
            models.Index(fields=["session_type"], name="ask_sess_type_idx"),
            models.Index(fields=["trigger_source"], name="ask_sess_trigger_idx"),
            models.Index(fields=["active_agent_key"], name="ask_sess_agent_idx"),
            models.Index(fields=["initial_risk_level"], name="ask_sess_risk_idx"),
            models.Index(fields=["final_risk_level"], name="ask_sess_final_risk_idx"),
            models.Index(fields=["user", "-updated_at"], name="ask_sess_user_updated_idx"),
            models.Index(
                fields=["trigger_source", "-created_at"], name="ask_sess_trigger_created_idx"
            ),
            models.Index(
                fields=["initial_risk_level", "-created_at"], name="ask_sess_risk_created_idx"
            ),
            models.Index(fields=["-created_at", "is_deleted"], name="ask_sess_created_deleted_idx"),
            models.Index(
                fields=["active_agent_key", "-created_at"], name="ask_sess_agent_created_idx"
            ),
            models.Index(
                fields=["custom_agent", "-updated_at"], name="ask_sess_custom_updated_idx"
            ),
            # The history list: one client's sessions, newest first, keyset-paginated.
            models.Index(fields=["user", "-created_at", "-id"], name="ask_sess_user_history_idx"),
            # The batch sweeper reads only the sessions with a batch waiting (a handful).
            models.Index(
                fields=["batch_claimed_until"],
                condition=Q(batch_claimed_until__isnull=False),
                name="ask_sess_batch_claim_idx",
            ),
            # The abandoned-session job reads only active rows by idle time (QUALITY P4).
            models.Index(
                fields=["last_activity_at"],
                condition=Q(status="active"),
                name="ask_sess_active_idle_idx",
            ),
            models.Index(
                fields=["follow_up_at"],
                condition=Q(follow_up_needed=True),
                name="ask_sess_follow_up_due_idx",
            ),
            # The nightly retention sweeps read only sessions that still hold content.
            models.Index(
                fields=["created_at"],
                condition=Q(anonymised_at__isnull=True),
                name="ask_sess_retention_idx",
            ),
            models.Index(
                fields=["deleted_at"],
                condition=Q(is_deleted=True, anonymised_at__isnull=True),
                name="ask_sess_deleted_pending_idx",
            ),
            # The escalation job reads only live alerts nobody has claimed.
            models.Index(
                fields=["alerted_at"],
                condition=Q(
                    status="active", handoff_counselor__isnull=True, alerted_at__isnull=False
                ),
                name="ask_sess_unclaimed_alert_idx",
            ),
        ]
        constraints = [
            models.UniqueConstraint(
                fields=["user"], condition=Q(status="active"), name="ask_sess_one_active_per_user"
            ),
            in_choices("session_type", SessionType, "ask_sess_type_valid"),
            in_choices("trigger_source", TriggerSource, "ask_sess_trigger_valid"),
            in_choices("active_agent_key", AgentKey, "ask_sess_agent_key_valid"),
            in_choices("agent_origin", AgentOrigin, "ask_sess_agent_origin_valid"),
            models.CheckConstraint(
                condition=Q(cbt_focus="") | Q(cbt_focus__in=CbtFocus.values),
                name="ask_sess_cbt_focus_valid",
            ),
            in_choices("initial_risk_level", RiskLevel, "ask_sess_initial_risk_valid"),
            models.CheckConstraint(
                condition=Q(final_risk_level__isnull=True)
                | Q(final_risk_level__in=RiskLevel.values),
                name="ask_sess_final_risk_valid",
            ),
            in_choices("status", SessionStatus, "ask_sess_status_valid"),
            in_choices("phase", Phase, "ask_sess_phase_valid"),
            models.CheckConstraint(
                condition=Q(termination_reason__isnull=True)
                | Q(termination_reason__in=TerminationReason.values),
                name="ask_sess_termination_valid",
            ),
            models.CheckConstraint(
                condition=Q(session_title__length__lte=SESSION_TITLE_MAX),
                name="ask_sess_title_len",
            ),
            models.CheckConstraint(
                condition=Q(session_summary__length__lte=SESSION_SUMMARY_MAX),
                name="ask_sess_summary_len",
            ),
            models.CheckConstraint(
                condition=Q(satisfaction_score__isnull=True)
                | Q(satisfaction_score__gte=1, satisfaction_score__lte=5),
                name="ask_sess_satisfaction_1_5",
            ),
            # A handoff is all three facts or none of them.
            models.CheckConstraint(
                condition=Q(handoff_counselor__isnull=True, handoff_time__isnull=True)
                | Q(handoff_counselor__isnull=False, handoff_time__isnull=False),
                name="ask_sess_handoff_complete",
            ),
            models.CheckConstraint(
                condition=Q(custom_agent__isnull=False) | ~Q(agent_origin="user_custom"),
                name="ask_sess_user_custom_has_agent",
            ),
            # Only the counselor the session is handed off to can be the one speaking.
            models.CheckConstraint(
                condition=Q(counselor_speaking_since__isnull=True)
                | Q(handoff_counselor__isnull=False),
                name="ask_sess_speaker_is_holder",
            ),
            models.CheckConstraint(
                condition=Q(alert_escalations__lte=2), name="ask_sess_alert_escalations_0_2"
            ),
        ]

    def __str__(self) -> str:
        return self.session_title or f"Session {str(self.id)[:8]}"

    @property
    def counselor_handoff(self) -> dict[str, Any] | None:
        if self.handoff_counselor_id is None:
            return None
        return {
            "handoff_reason": self.handoff_reason,
            "counselor_id": self.handoff_counselor_id,
            "handoff_time": self.handoff_time,
        }

    @property
    def counselor_speaking(self) -> bool:
        """A person holds the conversation: no agent is called, no card is dealt."""
        return self.counselor_speaking_since is not None

    @property
    def is_crisis(self) -> bool:
        return self.session_type == self.SessionType.CRISIS_INTERVENTION

    @property
    def is_active(self) -> bool:
        return self.status == self.Status.ACTIVE

    def is_idle(self, now: Any, *, after: Any) -> bool:
        return self.is_active and self.last_activity_at < now - after


class WorklineStatus(models.TextChoices):
    ACTIVE = "active", _("Active")
    PARKED = "parked", _("Parked")
    CLOSED = "closed", _("Closed")


class Workline(models.Model):
    """A named line of work inside a session with its own head (SPEC §5)."""

    Status = WorklineStatus

    session = models.ForeignKey(AskSession, on_delete=models.CASCADE, related_name="worklines")
    name = models.CharField(max_length=80)
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.ACTIVE)
    # Not indexed: every turn moves the head, and an index on it would make that update non-HOT
    # (P7); nothing looks worklines up by their head.
    head = models.ForeignKey(
        "AskMessage",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        db_index=False,
    )
    # Compaction cache (SPEC §5): the path up to and including `compacted_through` is sent to the
    # LLM as `compaction_summary`, reused turn after turn until the tail outgrows the budget.
    compacted_through = models.ForeignKey(
        "AskMessage", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    compaction_summary = models.TextField(blank=True, default="")
    # The questions the Analyst asked on the path up to `compacted_through`: with them a turn
    # reads only the tail for what was asked before (no question comes back:
    # docs/decisions/0003-an-offline-engine-that-listens.md).
    compacted_questions = models.JSONField(default=list, blank=True)
    created_at = models.DateTimeField(default=timezone.now)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["created_at", "id"]
        constraints = [
            in_choices("status", WorklineStatus, "workline_status_valid"),
            models.UniqueConstraint(fields=["session", "name"], name="workline_name_per_session"),
            models.UniqueConstraint(
                fields=["session"], condition=Q(status="active"), name="workline_one_active"
            ),
        ]

    def __str__(self) -> str:
        return self.name


class MessageRole(models.TextChoices):
    CLIENT = "client", _("Client")
    ANALYST = "analyst", _("Analyst")
    NARRATOR = "narrator", _("Narrator")
    COUNSELOR = "counselor", _("Counselor")
    SYSTEM = "system", _("System")


class CardKind(models.TextChoices):
    """What a card is for: `kind` in the state document (cards live in message payloads, not in
    a column of their own)."""

    TOPIC = "topic"
    QUESTION = "question"
    OPEN = "open"
    FALLBACK = "fallback"
    COMPLETION = "completion"
    LAST_THING = "last_thing"
    SCHEDULER = "scheduler"
    CRISIS = "crisis_resources"
    TASK_REVIEW = "task_review"  # how last time's homework went (engine/homework.py)
    SCREENING = "screening"  # the safety net unsure: the screener asks (engine/crisis/screening.py)


class MessageKind(models.TextChoices):
    INTRO = "intro", _("Intro")
    HOOK = "hook", _("Hook")
    TOPIC = "topic", _("Topic")
    QUESTION_CARD = "question_card", _("Question card")
    ANSWER = "answer", _("Answer")
    RECAP = "recap", _("Recap")
    ANALYSIS = "analysis", _("Analyst output")
    INSIGHT = "insight", _("Insight")
    COMPLETION = "completion", _("Completion card")
    CLOSING = "closing", _("Closing line")
    LAST_THING = "last_thing", _("One last thing")
    NOTE = "note", _("Note")
    REPLY = "reply", _("Reply")
    MARKER = "marker", _("Marker")
    CRISIS_RESOURCES = "crisis_resources", _("Crisis resources")
    TEXT = "text", _("Free text")


class Modality(models.TextChoices):
    TEXT = "text", "Text"
    AUDIO = "audio", "Audio"
    FILE = "file", "File"


class AskMessage(models.Model):
    """One node of the session's message tree (`ask_messages`)."""

    Role = MessageRole
    Kind = MessageKind

    Modality = Modality

    session = models.ForeignKey(AskSession, on_delete=models.CASCADE, related_name="messages")
    parent = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.PROTECT, related_name="children"
    )
    workline = models.ForeignKey(
        Workline, null=True, blank=True, on_delete=models.SET_NULL, related_name="messages"
    )
    role = models.CharField(max_length=10, choices=Role.choices)
    kind = models.CharField(max_length=20, choices=Kind.choices)
    text = models.TextField(blank=True, default="")
    payload = models.JSONField(default=dict, blank=True)
    modality = models.CharField(max_length=5, choices=Modality.choices, default=Modality.TEXT)
    attachment = models.FileField(upload_to="attachments/%Y/%m/", blank=True, default="")
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        db_table = "ask_messages"
        ordering = ["created_at", "id"]
        indexes = [
            models.Index(fields=["session", "created_at", "id"], name="ask_msg_session_time_idx"),
        ]
        constraints = [
            in_choices("role", MessageRole, "ask_msg_role_valid"),
            in_choices("kind", MessageKind, "ask_msg_kind_valid"),
            in_choices("modality", Modality, "ask_msg_modality_valid"),
            models.CheckConstraint(
                condition=~Q(parent=models.F("id")), name="ask_msg_not_own_parent"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.get_role_display()} {self.get_kind_display()} #{self.pk}"


class SpinOffProposal(models.Model):
    """A proposal to move messages A…B of one workline into another (SPEC §5 spin-off)."""

    class Status(models.TextChoices):
        PROPOSED = "proposed", "Proposed"
        AGREED = "agreed", "Agreed"
        DECLINED = "declined", "Declined"

    session = models.ForeignKey(AskSession, on_delete=models.CASCADE, related_name="spin_offs")
    source = models.ForeignKey(Workline, on_delete=models.CASCADE, related_name="+")
    target = models.ForeignKey(
        Workline, null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    new_workline_name = models.CharField(max_length=80, blank=True, default="")
    from_message = models.ForeignKey(AskMessage, on_delete=models.CASCADE, related_name="+")
    to_message = models.ForeignKey(AskMessage, on_delete=models.CASCADE, related_name="+")
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.PROPOSED)
    created_at = models.DateTimeField(default=timezone.now)
    decided_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["created_at", "id"]
        constraints = [
            models.CheckConstraint(
                condition=Q(status__in=["proposed", "agreed", "declined"]),
                name="spin_off_status_valid",
            ),
            # A target workline, or the name of the one to create when agreed.
            models.CheckConstraint(
                condition=Q(target__isnull=False) | ~Q(new_workline_name=""),
                name="spin_off_has_target",
            ),
        ]

    def __str__(self) -> str:
        return f"Spin-off {self.from_message_id}–{self.to_message_id} ({self.status})"
