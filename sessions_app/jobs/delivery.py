"""Notification delivery (SPEC §2, §7): due notifications are marked sent exactly once, then
pushed to the user's open websockets and, when configured, emailed.

The REST inbox is the delivery that counts — the row exists and `sent_at` is set. The websocket
push and the email go out after the marking commits, at most once each: a push nobody receives
or an email the backend refuses is logged, never retried into a duplicate.
"""

from __future__ import annotations

import logging
import smtplib
from datetime import datetime

from django.conf import settings
from django.core.mail import EmailMessage
from django.db import transaction
from django.utils import timezone

from sessions_app.jobs.lifecycle import JobReport
from sessions_app.models import Notification
from sessions_app.realtime import push as realtime

logger = logging.getLogger(__name__)

DELIVERY_BATCH = 200


def notifications_deliver(*, now: datetime | None = None) -> JobReport:
    """Deliver every notification due by `now` (every minute)."""
    now = now or timezone.now()
    counts = {"delivered": 0, "pushed": 0, "emailed": 0}
    while batch := _due_claim(now=now, counts=counts):
        counts["delivered"] += len(batch)
    template = "delivered {delivered} notifications ({pushed} pushed, {emailed} emailed)"
    return JobReport("notifications", template, counts)


@transaction.atomic
def _due_claim(*, now: datetime, counts: dict[str, int]) -> list[Notification]:
    """Mark one batch of due notifications sent and queue their pushes and emails.

    Exactly once: on PostgreSQL the batch's rows are locked by this run — `skip_locked` hands a
    concurrent run other rows instead of the same ones — and on SQLite the IMMEDIATE transaction
    serialises writers; the UPDATE's own `sent_at IS NULL` keeps an already sent row out
    whichever way the runs interleave.
    """
    due = Notification.objects.filter(sent_at__isnull=True, scheduled_for__lte=now)
    ids = list(
        due.order_by("scheduled_for", "pk")
        .select_for_update(skip_locked=True)
        .values_list("pk", flat=True)[:DELIVERY_BATCH]
    )
    if not ids:
        return []
    Notification.objects.filter(pk__in=ids, sent_at__isnull=True).update(sent_at=now)
    batch = list(Notification.objects.filter(pk__in=ids, sent_at=now).select_related("user"))
    transaction.on_commit(lambda: _send(batch, counts))
    return batch


def _send(batch: list[Notification], counts: dict[str, int]) -> None:
    for notification in batch:
        counts["pushed"] += realtime.publish_notification(
            user_id=notification.user_id, notification_id=notification.pk, kind=notification.kind
        )
        counts["emailed"] += notification_email(notification=notification)


def notification_email(*, notification: Notification) -> bool:
    """Email the notification's title when NOTIFICATION_EMAIL is on and the user has an address.

    The title is all it says: session content never leaves by email.
    """
    address = notification.user.email
    if not settings.NOTIFICATION_EMAIL or not address:
        return False
    title = str(notification.payload.get("title") or notification.get_kind_display())
    try:
        EmailMessage(subject=title, body=f"{title}\n\n— Naisei", to=[address]).send()
    except (smtplib.SMTPException, OSError):
        logger.warning("notification email failed notification=%s", notification.pk, exc_info=True)
        return False
    return True
