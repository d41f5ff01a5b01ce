"""Jobs that reach out (SPEC §7): a gentle reactivation message to clients who missed N
scheduled sessions in a row, and follow-up notices to counselors. Each "once" is a database
guarantee — the notification's dedupe key — so the jobs run twice or concurrently without a
second message.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db.models import Exists, OuterRef, Subquery
from django.utils import timezone

from sessions_app import texts
from sessions_app.jobs.lifecycle import JobReport, at_local, next_local
from sessions_app.models import (
    AskSession,
    CaseloadAssignment,
    Notification,
    UserProfile,
    profile_zone,
)
from sessions_app.roles import Role

# Scheduled slots further back than this are not counted as missed.
MISSED_LOOKBACK = timedelta(days=366)
PROFILE_CHUNK = 500
FOLLOW_UP_BATCH = 500


# --- reactivation -------------------------------------------------------------------------------


def reactivations_send(*, now: datetime | None = None) -> JobReport:
    """Recount every scheduled client's missed sessions; at REACTIVATION_AFTER_MISSED in a row,
    one gentle message per absence."""
    now = now or timezone.now()
    latest = AskSession.objects.filter(user=OuterRef("user")).order_by("-created_at", "-pk")
    profiles = (
        UserProfile.objects.filter(schedule_time__isnull=False, user__is_active=True)
        .select_related("user")
        .annotate(
            last_started_at=Subquery(latest.values("created_at")[:1]),
            last_session_id=Subquery(latest.values("pk")[:1]),
        )
        .order_by("pk")
    )
    counts = {"clients": 0, "recounted": 0, "sent": 0}
    last_pk = 0
    # Keyset chunks: writes between reads, and memory bounded by the chunk, not the clientele.
    while chunk := list(profiles.filter(pk__gt=last_pk)[:PROFILE_CHUNK]):
        last_pk = chunk[-1].pk
        changed = []
        for profile in chunk:
            missed = missed_in_row(profile=profile, since=profile.last_started_at, now=now)
            if missed != profile.missed_in_row:
                profile.missed_in_row = missed
                changed.append(profile)
            if missed >= settings.REACTIVATION_AFTER_MISSED:
                counts["sent"] += reactivation_notify(profile=profile, now=now)
        UserProfile.objects.bulk_update(changed, ["missed_in_row"])
        counts["clients"] += len(chunk)
        counts["recounted"] += len(changed)
    template = (
        "{sent} reactivation messages for {clients} scheduled clients ({recounted} recounted)"
    )
    return JobReport("reactivation", template, counts)


def missed_in_row(*, profile: UserProfile, since: datetime | None, now: datetime) -> int:
    """Scheduled slots that passed without a session since the client last started one.

    A slot counts once its attendance window (SCHEDULE_ATTENDANCE_WINDOW either side) has closed;
    a session started within that window before the slot, or any later one, keeps it. Slots
    before the client joined, or older than MISSED_LOOKBACK, do not count.
    """
    weekdays = {d for d in profile.schedule_weekdays or [] if isinstance(d, int) and 1 <= d <= 7}
    if not weekdays or profile.schedule_time is None:
        return 0
    zone, window = profile_zone(profile), settings.SCHEDULE_ATTENDANCE_WINDOW
    anchor = max(m for m in (since, profile.user.date_joined, now - MISSED_LOOKBACK) if m)
    day, last_day = anchor.astimezone(zone).date(), now.astimezone(zone).date()
    missed = 0
    while day <= last_day:
        if day.isoweekday() in weekdays:
            slot = at_local(day, profile.schedule_time, zone)
            if slot - window > anchor and slot + window <= now:
                missed += 1
        day += timedelta(days=1)
    return missed


def reactivation_notify(*, profile: UserProfile, now: datetime) -> bool:
    """One message per absence: the dedupe key names the session the absence began after, so
    re-runs add nothing and only a new absence (after a new session) earns a new message."""
    anchor = getattr(profile, "last_session_id", None) or "joined"
    zone = profile_zone(profile)
    _, created = Notification.objects.get_or_create(
        user_id=profile.user_id,
        kind=Notification.Kind.REACTIVATION,
        dedupe_key=f"reactivation:{anchor}",
        defaults={
            "payload": {"title": texts.text("reactivation", profile.locale)},
            # At the client's usual session time, the hour it chose for this.
            "scheduled_for": next_local(profile.schedule_time, zone, now),
        },
    )
    return created


# --- follow-ups ---------------------------------------------------------------------------------

FOLLOW_UP_TEXT = "A follow-up is due for a client's session."


def follow_ups_notify(*, now: datetime | None = None) -> JobReport:
    """Tell the client's counselors (caseload, or the one it was handed off to; ops when it has
    none) that a session's follow-up time has come — once per session and follow-up time."""
    now = now or timezone.now()
    told = Notification.objects.filter(
        session=OuterRef("pk"),
        kind=Notification.Kind.FOLLOW_UP,
        scheduled_for__gte=OuterRef("follow_up_at"),
    )
    due = AskSession.objects.follow_ups_due(now).exclude(Exists(told)).order_by("follow_up_at")
    counts = {"sessions": 0, "notifications": 0}
    for session in due[:FOLLOW_UP_BATCH]:
        counts["sessions"] += 1
        for counselor_id in follow_up_recipients(session):
            counts["notifications"] += follow_up_notify(
                session=session, counselor_id=counselor_id, now=now
            )
    template = "{notifications} follow-up notifications for {sessions} sessions due"
    return JobReport("follow_ups", template, counts)


def follow_up_recipients(session: AskSession) -> list[int]:
    caseload = CaseloadAssignment.objects.filter(client_id=session.user_id)
    ids = set(caseload.values_list("counselor_id", flat=True))
    if session.handoff_counselor_id:
        ids.add(session.handoff_counselor_id)
    if not ids:  # nobody's client: the clinical operations team must not miss it
        ops = get_user_model().objects.filter(groups__name=Role.OPS, is_active=True)
        ids = set(ops.values_list("pk", flat=True))
    return sorted(ids)


def follow_up_notify(*, session: AskSession, counselor_id: int, now: datetime) -> bool:
    due_at = session.follow_up_at
    _, created = Notification.objects.get_or_create(
        user_id=counselor_id,
        kind=Notification.Kind.FOLLOW_UP,
        dedupe_key=f"follow_up:{session.pk}:{due_at:%Y%m%dT%H%M%S}",
        defaults={
            "session": session,
            "payload": {
                "title": FOLLOW_UP_TEXT,
                "session_id": str(session.pk),
                "client_id": session.user_id,
                "follow_up_at": due_at.isoformat(),
            },
            "scheduled_for": now,
        },
    )
    return created
