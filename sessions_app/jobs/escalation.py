"""Alerts that never go unanswered (SPEC §3 Crisis, QUALITY C2): a crisis alert nobody has
claimed after CRISIS_ESCALATION_AFTER goes to ops; after twice that, to every counselor on duty.

Each step is a conditional UPDATE of `alert_escalations` from the step before, so two runs of the
job (or two workers) escalate a session once: the one whose UPDATE changed the row writes the
notifications and the `alert.escalated` event, in the same transaction. The notifications' dedupe
keys make a repeat harmless even so. No client words anywhere: ids and levels only.
"""

from __future__ import annotations

from datetime import datetime

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

from sessions_app.engine.selectors import risk_now
from sessions_app.events import EventType, event_append
from sessions_app.jobs.lifecycle import JobReport
from sessions_app.models import AskSession, Notification
from sessions_app.roles import Role

User = get_user_model()

OPS, ON_DUTY = 1, 2
STAGE_NAMES = {OPS: "ops", ON_DUTY: "on_duty"}
BATCH = 200


def _recipients(stage: int) -> list[int]:
    users = User.objects.filter(is_active=True)
    if stage == OPS:
        users = users.filter(groups__name=Role.OPS)
    else:
        users = users.filter(groups__name=Role.COUNSELOR, profile__on_duty=True)
    return list(users.values_list("pk", flat=True).distinct())


def unclaimed_alerts(*, stage: int, now: datetime) -> list[AskSession]:
    """Live sessions whose alert waited `stage` × the delay, at the step before (indexed)."""
    cutoff = now - settings.CRISIS_ESCALATION_AFTER * stage
    return list(
        AskSession.objects.filter(
            status=AskSession.Status.ACTIVE,
            handoff_counselor__isnull=True,
            alerted_at__isnull=False,
            alerted_at__lte=cutoff,
            alert_escalations=stage - 1,
            is_deleted=False,
            sandbox__isnull=True,  # a test session's crisis pages nobody but its player
        ).order_by("alerted_at")[:BATCH]
    )


@transaction.atomic
def alert_escalate(*, session: AskSession, stage: int, now: datetime) -> int | None:
    """One step for one session: how many people were notified, None if it was not due any
    more (another run took it, or somebody claimed it meanwhile)."""
    # The conditional UPDATE decides who escalates; it also fails once somebody has claimed.
    taken = AskSession.objects.filter(
        pk=session.pk,
        alert_escalations=stage - 1,
        handoff_counselor__isnull=True,
        status=AskSession.Status.ACTIVE,
    ).update(alert_escalations=stage)
    if not taken:
        return None
    level = risk_now(session)
    name = STAGE_NAMES[stage]
    recipients = _recipients(stage)
    Notification.objects.bulk_create(
        [
            Notification(
                user_id=user_id,
                kind=Notification.Kind.CRISIS_ALERT,
                session=session,
                payload={"session_id": str(session.pk), "risk_level": level, "escalation": name},
                dedupe_key=f"crisis-{name}:{session.pk}",
            )
            for user_id in recipients
        ],
        ignore_conflicts=True,
    )
    waited = int((now - session.alerted_at).total_seconds() // 60)
    event_append(
        session=session,
        type=EventType.ALERT_ESCALATED,
        payload={"stage": name, "waited_minutes": waited, "notified": len(recipients)},
    )
    return len(recipients)


def alerts_escalate(*, now: datetime | None = None) -> JobReport:
    """Escalate every unclaimed alert that is due, ops first, then everyone on duty."""
    now = now or timezone.now()
    counts = {"ops": 0, "on_duty": 0, "notified": 0}
    for stage in (OPS, ON_DUTY):
        for session in unclaimed_alerts(stage=stage, now=now):
            notified = alert_escalate(session=session, stage=stage, now=now)
            if notified is not None:
                counts[STAGE_NAMES[stage]] += 1
                counts["notified"] += notified
    template = "{ops} alerts escalated to ops, {on_duty} to all on duty ({notified} notified)"
    return JobReport("escalation", template, counts)
