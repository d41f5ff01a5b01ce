"""Open websockets, one row each, so that a user's count is bounded across every web process."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone

__all__ = ["LiveSocket"]


class LiveSocket(models.Model):
    """One open websocket: written when it is accepted, deleted when it ends.

    A process that dies leaves its rows behind; they are the oldest of their user's and so the
    first evicted when the user reaches the bound — closing a channel nobody listens on is a
    no-op.
    """

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="live_sockets"
    )
    channel_name = models.CharField(max_length=200, unique=True)
    opened_at = models.DateTimeField(default=timezone.now)

    class Meta:
        app_label = "sessions_app"
        indexes = [models.Index(fields=["user", "-opened_at"], name="live_socket_user_idx")]

    def __str__(self) -> str:
        return f"{self.user_id} {self.channel_name}"
