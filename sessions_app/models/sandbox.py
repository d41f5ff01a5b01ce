"""Sandbox sessions: a counselor's test client playing a real engine session (SPEC §8)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from sessions_app.models.base import in_choices
from sessions_app.models.sessions import AskSession

__all__ = ["SandboxProvider", "SandboxSession"]


class SandboxProvider(models.TextChoices):
    OFFLINE = "offline", _("Offline engine")
    ANTHROPIC = "anthropic", _("Anthropic")
    SCRIPTED = "scripted", _("Scripted")


class SandboxSession(models.Model):
    """A test session a counselor plays in the sandbox (SPEC §8): who plays it and which
    provider answers it. Its existence is what makes a session a sandbox session."""

    Provider = SandboxProvider

    session = models.OneToOneField(
        AskSession, primary_key=True, on_delete=models.CASCADE, related_name="sandbox"
    )
    counselor = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="sandbox_sessions"
    )
    provider = models.CharField(max_length=10, choices=Provider.choices, default=Provider.OFFLINE)
    # The scripted provider's recordings and how many of them earlier turns consumed: a turn
    # replays from `script_position`, so a script runs across requests in order.
    script = models.JSONField(default=list, blank=True)
    script_position = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        indexes = [
            models.Index(fields=["counselor", "-created_at"], name="sandbox_counselor_idx"),
        ]
        constraints = [
            in_choices("provider", SandboxProvider, "sandbox_provider_valid"),
        ]

    def __str__(self) -> str:
        return f"Sandbox session {self.session_id} of {self.counselor}"
