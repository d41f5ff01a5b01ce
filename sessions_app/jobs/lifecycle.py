"""Background jobs over sessions (SPEC §7): abandoned sessions and retention. Reactivation and
follow-ups live in `outreach.py`, notification delivery in `delivery.py`, the Markdown export in
`markdown_export.py`; the shared pieces (JobReport, local time) are here.

Each job is a service that a django-q schedule runs (`tasks.py`, `schedules.py`) and that
`manage.py run_job NAME` runs by hand. Each is idempotent and safe to run twice or concurrently:
rows are taken with `select_for_update(skip_locked=True)` and re-checked under the lock, and every
"once" is a database guarantee (the notification dedupe key), not a check-then-insert.
"""

from __future__ import annotations

import logging
import math
import traceback
import zoneinfo
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import F
from django.utils import timezone

from psychologist.llm.budget import clip_middle, truncate_middle
from sessions_app import events, services, texts
from sessions_app.engine.selectors import SUMMARY_MAX_CHARS, shown_note, shown_summary
from sessions_app.engine.services import summary_partial_ask
from sessions_app.events import EventType
from sessions_app.models import (
    AskSession,
    Notification,
    UserProfile,
    profile_zone,
)
from sessions_app.selectors import Transcript, session_transcript
from sessions_app.signals import session_closed

logger = logging.getLogger(__name__)

ABANDON_BATCH = 500
# How many of a client's latest sessions teach its usual time of day.
HABIT_SESSIONS = 20


@dataclass(frozen=True)
class JobReport:
    """What one run of a job did: counts for tests and django-q, one summary line for people.

    `counts` is read when the line is rendered, so counts that a job's after-commit callbacks
    add (pushes, emails) show up once those callbacks have run.
    """

    job: str
    template: str
    counts: dict[str, int]

    @property
    def summary(self) -> str:
        return self.template.format(**self.counts)

    def __str__(self) -> str:
        return self.summary


def failure_log(job: str, session_id: Any, exc: BaseException) -> None:
    """Where and what failed, without the exception's message: a database error can quote the
    row it refused, and logs never hold a client's words (QUALITY R8)."""
    where = traceback.extract_tb(exc.__traceback__)[-1] if exc.__traceback__ else None
    logger.error(
        "%s failed session=%s error=%s at=%s:%s",
        job,
        session_id,
        type(exc).__name__,
        where.filename if where else "?",
        where.lineno if where else "?",
    )


# --- local time ---------------------------------------------------------------------------------


def at_local(day: date, at: time, zone: zoneinfo.ZoneInfo) -> datetime:
    """`at` o'clock on `day` in `zone` (a wall time inside a DST gap lands just after it)."""
    return datetime.combine(day, at).replace(tzinfo=zone)


def next_local(at: time, zone: zoneinfo.ZoneInfo, now: datetime) -> datetime:
    """The next `at` o'clock in `zone` after `now`."""
    today = now.astimezone(zone).date()
    moment = at_local(today, at, zone)
    return moment if moment > now else at_local(today + timedelta(days=1), at, zone)


def typical_local_time(moments: Sequence[datetime], zone: zoneinfo.ZoneInfo) -> time | None:
    """The circular mean of the moments' local times of day.

    A clock is a circle: 23:50 and 00:10 average to 00:00, where a plain mean says noon. When the
    times spread evenly round the clock there is no mean; the latest moment's time stands in.
    """
    if not moments:
        return None
    angles = []
    for moment in moments:
        local = moment.astimezone(zone)
        angles.append((local.hour * 60 + local.minute + local.second / 60) / 1440 * math.tau)
    x, y = sum(map(math.cos, angles)), sum(map(math.sin, angles))
    if math.hypot(x, y) < 1e-6 * len(angles):
        latest = max(moments).astimezone(zone)
        return time(latest.hour, latest.minute)
    minutes = round(math.atan2(y, x) / math.tau * 1440) % 1440
    return time(minutes // 60, minutes % 60)


# --- abandoned sessions -------------------------------------------------------------------------


@dataclass(frozen=True)
class PartialSummary:
    text: str
    key_insights: list[str]
    techniques: list[str]
    # "llm" (the summarizer agent), "extractive" (its fallback), "closing" (the engine's own
    # whole-session summary was already written), "empty" (nothing was said, not even a topic)
    source: str
    answered: int


@dataclass(frozen=True)
class Abandoned:
    session: AskSession
    reminder: Notification | None


def sessions_abandoned_close(
    *, now: datetime | None = None, limit: int = ABANDON_BATCH
) -> JobReport:
    """Close every active session idle longer than SESSION_ABANDON_AFTER (every 15 minutes)."""
    now = now or timezone.now()
    cutoff = now - settings.SESSION_ABANDON_AFTER
    # The partial index on active rows' last activity makes this read cost what the abandoned
    # sessions cost, whatever the size of the table (QUALITY P4).
    idle = AskSession.objects.idle_since(cutoff).order_by("last_activity_at")
    counts = {"closed": 0, "reminders": 0, "skipped": 0, "failed": 0}
    for session_id in list(idle.values_list("pk", flat=True)[:limit]):
        try:
            outcome = session_abandon(session_id=session_id, now=now)
        except Exception as exc:  # one bad session must not stop the sweep; the next run retries
            failure_log("abandon", session_id, exc)
            counts["failed"] += 1
            continue
        if outcome is None:
            counts["skipped"] += 1
        else:
            counts["closed"] += 1
            counts["reminders"] += outcome.reminder is not None
    template = (
        "closed {closed} abandoned sessions, {reminders} reminders scheduled "
        "({skipped} skipped, {failed} failed)"
    )
    return JobReport("abandoned", template, counts)


def session_abandon(*, session_id: Any, now: datetime) -> Abandoned | None:
    """Close one idle session as `completed_partial`; None when it is no longer idle or another
    worker is closing it."""
    session = (
        AskSession.objects.select_related("user", "active_workline").filter(pk=session_id).first()
    )
    if session is None or not session.is_idle(now, after=settings.SESSION_ABANDON_AFTER):
        return None
    # The summary may wait on a model, so it is written before the transaction, never inside.
    summary = partial_summary_compose(session)
    return _abandon_commit(session=session, summary=summary, now=now)


def partial_summary_compose(session: AskSession) -> PartialSummary:
    """A summary of what was said: the topic and every answer — the summarizer agent, or a
    deterministic extract when it fails, so the partial record is never lost to an LLM outage.
    The topic heads it whatever the summarizer wrote."""
    if session.session_summary:  # the engine's closing stage already summarised all of it
        return PartialSummary(
            session.session_summary,
            list(session.key_insights),
            list(session.cbt_techniques_used),
            "closing",
            0,
        )
    transcript = session_transcript(session)
    answered = len(transcript.answers)
    if not answered:
        source = "extractive" if transcript.topic else "empty"
        return PartialSummary(_extractive(transcript, session.locale), [], [], source, 0)
    pairs = [{"question": q, "answer": a} for q, a in transcript.answers]
    facts = {
        "locale": session.locale,
        "topic": transcript.topic,
        "cbt_focus": session.cbt_focus or session.slots.get("cbt_focus") or "",
        "insights": transcript.insights,
        "turn_count": session.turn_count,
        "unfinished": True,
        "crisis": session.intervention_triggered,
    }
    reply = summary_partial_ask(session=session, facts=facts, pairs=pairs)
    if not reply.ok:
        logger.warning("partial summary fallback session=%s code=%s", session.pk, reply.failure)
        text = _extractive(transcript, session.locale)
        return PartialSummary(text, transcript.insights[:3], [], "extractive", answered)
    data = reply.output or {}
    text = _labelled(str(data.get("summary", "")), session.locale, transcript.topic)
    insights, techniques = data.get("key_insights", []), data.get("cbt_techniques_used", [])
    return PartialSummary(text, insights, techniques, "llm", answered)


def _labelled(text: str, locale: str, topic: str = "") -> str:
    head = texts.text("partial_label", locale)
    if topic and topic not in text:
        head = texts.sentences(locale, head, texts.text("partial_topic", locale, topic=topic))
    return clip_middle(texts.sentences(locale, head, text).strip(), max_chars=SUMMARY_MAX_CHARS)


def _numbered(transcript: Transcript) -> list[str]:
    return [
        f"{n}. {q} → {a}" if q else f"{n}. {a}"
        for n, (q, a) in enumerate(transcript.answers, start=1)
    ]


def _extractive(transcript: Transcript, locale: str) -> str:
    """The topic and the whole answered dialogue within the summary limit: the middle goes,
    never the end. "0 answered" only when nothing at all was said."""
    if not transcript.answers:
        body = "" if transcript.topic else "0 answered."
        return _labelled(body, locale, transcript.topic)
    lines = truncate_middle(_numbered(transcript), budget_tokens=(SUMMARY_MAX_CHARS - 120) // 4)
    body = f"{len(transcript.answers)} answered. " + " / ".join(lines)
    return _labelled(body, locale, transcript.topic)


@transaction.atomic
def _abandon_commit(
    *, session: AskSession, summary: PartialSummary, now: datetime
) -> Abandoned | None:
    # skip_locked: a concurrent sweep holding this row is closing it, so waiting would only find
    # it closed. SQLite has no row locks but serialises writers; the re-check below decides.
    locked = (
        AskSession.objects.select_for_update(skip_locked=True, of=("self",))
        .filter(pk=session.pk)
        .first()
    )
    after = settings.SESSION_ABANDON_AFTER
    if locked is None or not locked.is_idle(now, after=after):
        return None
    if locked.last_activity_at != session.last_activity_at:
        return None  # the client came back while the summary was written: not abandoned
    _close_partial(locked, summary, now)
    profile = profile_session_record(session=locked)
    idle = int((now - locked.last_activity_at).total_seconds())
    events.event_append(
        session=locked,
        type=EventType.SESSION_CLOSED_ABNORMALLY,
        payload={
            "reason": AskSession.TerminationReason.ABANDONED_TIMEOUT,
            "idle_seconds": idle,
            "answered": summary.answered,
            "summary_source": summary.source,
        },
    )
    # In the closing transaction: the ORM broker commits the analysis task with the close.
    session_closed.send(sender=AskSession, session=locked)
    return Abandoned(locked, resume_reminder_schedule(session=locked, profile=profile, now=now))


def _close_partial(session: AskSession, summary: PartialSummary, now: datetime) -> None:
    session.status = AskSession.Status.COMPLETED_PARTIAL
    session.termination_reason = AskSession.TerminationReason.ABANDONED_TIMEOUT
    session.ended_at = now
    session.ready_to_close = False
    session.counselor_speaking_since = None  # a closed session has nobody speaking in it
    # The client reads its record: nothing the safety net marks, nothing about "the user".
    session.session_summary = shown_summary(summary.text, session.locale)
    insights = [shown_note(str(item), session.locale) for item in summary.key_insights]
    session.key_insights = [item for item in insights if item]
    used = [*session.cbt_techniques_used, *summary.techniques]
    session.cbt_techniques_used = [str(item) for item in dict.fromkeys(used)]
    if session.duration_seconds is None:
        active_for = session.last_activity_at - session.created_at
        session.duration_seconds = max(0, int(active_for.total_seconds()))
    session.save(
        update_fields=[
            "status",
            "termination_reason",
            "ended_at",
            "ready_to_close",
            "counselor_speaking_since",
            "session_summary",
            "key_insights",
            "cbt_techniques_used",
            "duration_seconds",
            "updated_at",
        ]
    )


def profile_session_record(*, session: AskSession) -> UserProfile:
    """Count a finished session and relearn the client's usual time of day (circular mean of the
    local times of its latest sessions' last activity, seed session-design §5)."""
    profile, _ = UserProfile.objects.get_or_create(user_id=session.user_id)
    recent = AskSession.objects.filter(user_id=session.user_id, is_deleted=False).order_by(
        "-created_at"
    )
    moments = list(recent.values_list("last_activity_at", flat=True)[:HABIT_SESSIONS])
    profile.typical_activity_time = typical_local_time(moments, profile_zone(profile))
    # F(): concurrent closes of one client's sessions each count.
    UserProfile.objects.filter(pk=profile.pk).update(
        session_count=F("session_count") + 1,
        typical_activity_time=profile.typical_activity_time,
        updated_at=timezone.now(),
    )
    return profile


def resume_reminder_schedule(
    *, session: AskSession, profile: UserProfile, now: datetime
) -> Notification | None:
    """The "Shall we come back?" reminder: the next day at the client's usual time, in its time
    zone. Once per session: the dedupe key makes the database refuse a second one (then None)."""
    zone = profile_zone(profile)
    usual = profile.typical_activity_time or session.last_activity_at.astimezone(zone).time()
    tomorrow = now.astimezone(zone).date() + timedelta(days=1)
    reminder, created = Notification.objects.get_or_create(
        user_id=session.user_id,
        kind=Notification.Kind.RESUME_SESSION,
        dedupe_key=f"resume:{session.pk}",
        defaults={
            "session": session,
            "payload": {
                "title": texts.text("resume_session", session.locale),
                "session_id": str(session.pk),
            },
            "scheduled_for": at_local(tomorrow, usual.replace(second=0, microsecond=0), zone),
        },
    )
    return reminder if created else None


# --- retention ----------------------------------------------------------------------------------


def retention_apply(*, now: datetime | None = None) -> JobReport:
    """Anonymise soft-deleted sessions the delete path missed, and the content of sessions past
    their retention window (general RETENTION_GENERAL, crisis RETENTION_CRISIS). Nightly."""
    now = now or timezone.now()
    reason = services.AnonymiseReason
    counts = {"deleted": 0, "general": 0, "crisis": 0, "skipped": 0, "failed": 0}
    # Ids first, so a session that cannot be anonymised is not picked up again in this run.
    deleted = list(AskSession.objects.deleted_not_anonymised().values_list("pk", flat=True))
    for session_id in deleted:
        _anonymise_counted(session_id, reason.DELETED, "deleted", counts)
    expired = AskSession.objects.retention_due(now).values_list(
        "pk", "session_type", "intervention_triggered"
    )
    for session_id, session_type, intervened in list(expired):
        crisis = intervened or session_type == AskSession.SessionType.CRISIS_INTERVENTION
        why = reason.RETENTION_CRISIS if crisis else reason.RETENTION_GENERAL
        _anonymise_counted(session_id, why, "crisis" if crisis else "general", counts)
    template = (
        "anonymised {deleted} deleted, {general} general and {crisis} crisis sessions "
        "({skipped} skipped, {failed} failed)"
    )
    return JobReport("retention", template, counts)


def _anonymise_counted(session_id: Any, reason: str, bucket: str, counts: dict[str, int]) -> None:
    try:
        done = services.session_anonymise(session_id=session_id, reason=reason)
    except Exception as exc:  # one bad session must not stop the sweep; the next night retries
        failure_log("anonymise", session_id, exc)
        counts["failed"] += 1
        return
    counts[bucket if done else "skipped"] += 1
