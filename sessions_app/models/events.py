"""The append-only event log of a session (SPEC §2). Written only through `sessions_app.events`."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone

from sessions_app.models.sessions import AskSession

__all__ = ["AppendOnlyError", "SessionEvent", "SessionEventQuerySet"]


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
