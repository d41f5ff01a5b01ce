"""The append-only event log of a session (SPEC §2). Written only through `sessions_app.events`."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone

from sessions_app.models.sessions import AskSession

__all__ = ["AppendOnlyError", "EventType", "SessionEvent", "SessionEventQuerySet"]


class EventType(models.TextChoices):
    """Every type the log holds; `sessions_app.events.events_append` refuses any other."""

    # the session's life
    SESSION_CREATED = "session.created"
    SESSION_STARTED = "session.started"
    SESSION_UPDATED = "session.updated"
    SESSION_MODALITY_UPDATED = "session.modality_updated"
    SESSION_ENDING = "session.ending"
    SESSION_SUMMARIZED = "session.summarized"
    SESSION_CLOSED = "session.closed"
    SESSION_CLOSED_ABNORMALLY = "session.closed_abnormally"
    SESSION_DELETED = "session.deleted"
    SESSION_ANONYMISED = "session.anonymised"
    # the dialogue
    ANSWER_RECEIVED = "answer.received"
    MESSAGE_RECEIVED = "message.received"
    LAST_THING_RECEIVED = "last_thing.received"
    CARD_DEALT = "card.dealt"
    ANALYST_RESPONDED = "analyst.responded"
    ANALYST_FAILED = "analyst.failed"
    PACING_READY_TO_CLOSE = "pacing.ready_to_close"
    PACING_CONTINUED = "pacing.continued"
    CLOSING_DELIVERED = "closing.delivered"
    # flows
    TRANSITION_APPLIED = "transition.applied"
    VALIDATION_BLOCKED = "validation.blocked"
    INTENT_SUSPENDED = "intent.suspended"
    INTENT_RESUMED = "intent.resumed"
    SCHEDULE_CHANGED = "schedule.changed"
    # safety and people
    RISK_ESCALATED = "risk.escalated"
    RISK_UNASSESSED = "risk.unassessed"
    RISK_CHANGED = "risk.changed"
    RISK_SCREENED = "risk.screened"  # the screening card answered "no": {answers, score, …}
    HANDOFF_CREATED = "handoff.created"  # a claim: {handoff_reason, counselor_id, seconds_to_claim}
    ALERT_ESCALATED = "alert.escalated"  # an unclaimed alert went to ops, then to all on duty
    # the counselor's workspace (a person speaks while the AI pauses)
    COUNSELOR_TOOK_OVER = "counselor.took_over"
    COUNSELOR_MESSAGE = "counselor.message"
    COUNSELOR_HANDED_BACK = "counselor.handed_back"
    STEER_NOTED = "steer.noted"  # counselor guidance for the Analyst; never shown to the client
    # the graph
    MESSAGE_FORKED = "message.forked"
    WORKLINE_CREATED = "workline.created"
    WORKLINE_ACTIVATED = "workline.activated"
    WORKLINE_SPIN_OFF = "workline.spin_off"
    WORKLINE_SPIN_OFF_PROPOSED = "workline.spin_off_proposed"
    # CBT homework between sessions: on the log of the session that proposed it,
    # `task.reviewed` on the log of the session that picked it up
    TASK_PROPOSED = "task.proposed"
    TASK_ACCEPTED = "task.accepted"
    TASK_SKIPPED = "task.skipped"
    TASK_UPDATED = "task.updated"
    TASK_DONE = "task.done"
    TASK_EXPIRED = "task.expired"
    TASK_REVIEWED = "task.reviewed"
    # the psychologist (SPEC §6)
    PSYCHOLOGIST_REANALYSIS_REQUESTED = "psychologist.reanalysis_requested"
    PSYCHOLOGIST_ANALYSIS_STARTED = "psychologist.analysis_started"
    PSYCHOLOGIST_ITERATION = "psychologist.iteration"
    PSYCHOLOGIST_ANALYSIS_COMPLETED = "psychologist.analysis_completed"
    PSYCHOLOGIST_ANALYSIS_FAILED = "psychologist.analysis_failed"
    PSYCHOLOGIST_HYPOTHESIS_PROPOSED = "psychologist.hypothesis_proposed"
    PSYCHOLOGIST_HYPOTHESIS_ACCEPTED = "psychologist.hypothesis_accepted"
    PSYCHOLOGIST_HYPOTHESIS_DISMISSED = "psychologist.hypothesis_dismissed"
    PSYCHOLOGIST_HYPOTHESIS_ACCEPTED_FOR_ANAMNESIS = (
        "psychologist.hypothesis_accepted_for_anamnesis"
    )


class AppendOnlyError(RuntimeError):
    """Raised when code tries to change or remove a session event."""


class SessionEventQuerySet(models.QuerySet["SessionEvent"]):
    def update(self, **kwargs: Any) -> int:
        raise AppendOnlyError("Session events are append-only; they cannot be updated.")

    def delete(self) -> tuple[int, dict[str, int]]:
        raise AppendOnlyError("Session events are append-only; they cannot be deleted.")


class SessionEvent(models.Model):
    """The append-only log of a session. Written only by `events.event_append`."""

    session = models.ForeignKey(AskSession, on_delete=models.PROTECT, related_name="events")
    seq = models.PositiveIntegerField()
    type = models.CharField(max_length=64)
    payload = models.JSONField(default=dict, blank=True)
    actor = models.CharField(max_length=40, default="system")
    actor_user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    created_at = models.DateTimeField(default=timezone.now)

    objects = SessionEventQuerySet.as_manager()

    class Meta:
        ordering = ["session", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["session", "seq"], name="session_event_seq_unique"),
            models.CheckConstraint(condition=Q(seq__gte=1), name="session_event_seq_positive"),
        ]
        indexes = [models.Index(fields=["type", "created_at"], name="session_event_type_idx")]

    def __str__(self) -> str:
        return f"#{self.seq} {self.type}"

    def save(self, *args: Any, **kwargs: Any) -> None:
        if not self._state.adding:
            raise AppendOnlyError("Session events are append-only; they cannot be updated.")
        super().save(*args, **kwargs)

    def delete(self, *args: Any, **kwargs: Any) -> tuple[int, dict[str, int]]:
        raise AppendOnlyError("Session events are append-only; they cannot be deleted.")
