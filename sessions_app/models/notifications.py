"""Notifications: the REST inbox, websocket pushes and emails all read this table."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone

from sessions_app.models.base import in_choices
from sessions_app.models.sessions import AskSession

__all__ = ["Notification", "NotificationKind"]


class NotificationKind(models.TextChoices):
    RESUME_SESSION = "resume_session", "Resume session"
    REACTIVATION = "reactivation", "Reactivation"
    FOLLOW_UP = "follow_up", "Follow-up due"
    CRISIS_ALERT = "crisis_alert", "Crisis alert"
    SCHEDULE_CHANGED = "schedule_changed", "Schedule changed"
    # A model refused or was cut off on a turn: nobody knows the risk, so a person looks.
    REVIEW_NEEDED = "review_needed", "Human review needed"
    # CBT homework due today (a `Task`; the payload names it).
    TASK_REMINDER = "task_reminder", "Homework reminder"


class Notification(models.Model):
    """Something to tell a user, now or later; delivered by the notification job (SPEC §7)."""

    Kind = NotificationKind

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notifications"
    )
    kind = models.CharField(max_length=20, choices=Kind.choices)
    payload = models.JSONField(default=dict, blank=True)
    session = models.ForeignKey(
        AskSession, null=True, blank=True, on_delete=models.SET_NULL, related_name="notifications"
    )
    # Jobs that may run twice name what they notify about here; the database then refuses the
    # duplicate instead of a check-then-insert that two workers could both pass.
    dedupe_key = models.CharField(max_length=120, blank=True, default="")
    scheduled_for = models.DateTimeField(default=timezone.now)
    sent_at = models.DateTimeField(null=True, blank=True)
    read_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-scheduled_for", "-id"]
        indexes = [
            models.Index(fields=["user", "-scheduled_for"], name="notification_inbox_idx"),
            models.Index(
                fields=["scheduled_for"],
                condition=Q(sent_at__isnull=True),
                name="notification_due_idx",
            ),
        ]
        constraints = [
            in_choices("kind", NotificationKind, "notification_kind_valid"),
            models.UniqueConstraint(
                fields=["user", "kind", "dedupe_key"],
                condition=~Q(dedupe_key=""),
                name="notification_dedupe",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} for {self.user}"
