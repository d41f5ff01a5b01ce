"""Stored responses of POSTs made with an `Idempotency-Key` (replayed for 24 hours)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone

__all__ = ["IdempotencyRecord"]


class IdempotencyRecord(models.Model):
    """The stored outcome of one POST sent with an `Idempotency-Key` (SPEC §9).

    Written in the same transaction as the work the request did, so the record exists exactly
    when the work committed; the unique (user, key) makes a concurrent duplicate wait for the
    first request's transaction and then read its stored response.
    """

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="idempotency_records"
    )
    key = models.CharField(max_length=255)
    # SHA-256 of method, path and body: the same key with a different request is refused.
    fingerprint = models.CharField(max_length=64)
    response_status = models.PositiveSmallIntegerField(null=True)
    response_body = models.JSONField(null=True)
    created_at = models.DateTimeField(default=timezone.now, db_index=True)
    # The session the request acted on (its URL's, or its response's `session_id`): the
    # anonymisation of that session forgets the record, whoever sent the request.
    session = models.ForeignKey(
        "sessions_app.AskSession", null=True, on_delete=models.CASCADE, related_name="+"
    )
    # A staged request (api/idempotency.py) whose work committed: set in the same transaction
    # as that work, so a retry after a crash knows the work is in and replays its result.
    applied_at = models.DateTimeField(null=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "key"], name="idempotency_key_per_user"),
        ]

    def __str__(self) -> str:
        return f"{self.user_id}:{self.key}"


# --- flows (SPEC §4): data-defined state machines, editable in admin ---------------------------
