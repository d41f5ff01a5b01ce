"""Reads on sessions, notifications and exports, with their joins built in."""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.contrib.auth import get_user_model
from django.db.models import (
    Count,
    Exists,
    F,
    IntegerField,
    OuterRef,
    Prefetch,
    Q,
    QuerySet,
    Subquery,
    Value,
)
from django.db.models.functions import Coalesce
from django.utils import timezone

from psychologist.llm.models import LLMCall
from sessions_app.access import (
    receives_crisis_alerts,
    sessions_alertable_to,
    sessions_visible_to,
    tasks_visible_to,
)
from sessions_app.engine import selectors as engine
from sessions_app.engine.selectors import session_label, session_messages, workline_path
from sessions_app.errors import ApplicationError, ErrorCode
from sessions_app.models import (
    AskMessage,
    AskSession,
    CaseloadAssignment,
    Notification,
    RiskLevel,
    SandboxSession,
    Task,
    TaskStatus,
    UserProfile,
)
from sessions_app.roles import Role, role_of

# Filters over a P3 column; only callers allowed to read P3 may use them (else E_VALIDATION).
RISK_FILTERS = ("risk", "initial_risk_level", "final_risk_level")


def session_list(
    *,
    user: Any,
    session_type: str | None = None,
    trigger_source: str | None = None,
    initial_risk_level: str | None = None,
    final_risk_level: str | None = None,
    risk: str | None = None,
    created_after: datetime | None = None,
    created_before: datetime | None = None,
    include_deleted: bool = False,
) -> QuerySet[AskSession]:
    """The caller's history, newest first; one query whatever the role (QUALITY P3)."""
    sessions = sessions_visible_to(user, include_deleted=include_deleted)
    exact = {
        "session_type": session_type,
        "trigger_source": trigger_source,
        "initial_risk_level": initial_risk_level,
        "final_risk_level": final_risk_level,
    }
    sessions = sessions.filter(**{field: value for field, value in exact.items() if value})
    if risk:
        sessions = sessions.filter(Q(initial_risk_level=risk) | Q(final_risk_level=risk))
    if created_after is not None:
        sessions = sessions.filter(created_at__gte=created_after)
    if created_before is not None:
        sessions = sessions.filter(created_at__lt=created_before)
    return sessions.order_by("-created_at", "-id")


def session_by_dify(*, user: Any, dify_conversation_id: uuid.UUID) -> AskSession:
    """The session mapped to an orchestrator conversation, among those `user` may read."""
    session = (
        sessions_visible_to(user, include_deleted=True)
        .filter(dify_conversation_id=dify_conversation_id)
        .select_related("user")
        .first()
    )
    if session is None:
        raise ApplicationError(
            ErrorCode.DIFY_SESSION_NOT_FOUND,
            "No session is mapped to this dify_conversation_id.",
        )
    return session


def notification_list(*, user: Any, unread_only: bool = False) -> QuerySet[Notification]:
    """The caller's inbox: notifications that are due, newest first."""
    notifications = Notification.objects.filter(user=user, scheduled_for__lte=timezone.now())
    if unread_only:
        notifications = notifications.filter(read_at__isnull=True)
    return notifications.order_by("-scheduled_for", "-id")


def notification_for(user: Any, notification_id: int) -> Notification:
    notification = Notification.objects.filter(user=user, pk=notification_id).first()
    if notification is None:
        raise ApplicationError(ErrorCode.NOT_FOUND, "Notification not found.")
    return notification


def export_sessions(*, user: Any) -> QuerySet[AskSession]:
    """Everything a client may take away: its live sessions with their messages."""
    messages = AskMessage.objects.order_by("created_at", "id")
    return (
        AskSession.objects.filter(user=user, is_deleted=False)
        .prefetch_related(Prefetch("messages", queryset=messages))
        .order_by("-created_at", "-id")
    )


def export_profile(*, user: Any) -> UserProfile | None:
    return UserProfile.objects.filter(user=user).first()


# --- the counselor's home (SPEC §8) --------------------------------------------------------------

CRISIS_LEVELS = (RiskLevel.L3, RiskLevel.L4)
HOME_LIST_LIMIT = 50


def crisis_queue(*, user: Any) -> list[AskSession]:
    """Active sessions at L3/L4 that nobody holds, among those `user` may open or was alerted
    about; the longest-waiting alert first. Each row carries `may_open` (the caller may read it,
    so the client's name may be shown) and `label` (a neutral title, never the client's words).
    """
    at_risk = Q(initial_risk_level__in=CRISIS_LEVELS) | Q(final_risk_level__in=CRISIS_LEVELS)
    if role_of(user) is Role.COUNSELOR:
        caseload = CaseloadAssignment.objects.filter(counselor=user, client=OuterRef("user"))
        may_open: Any = Exists(caseload)
    else:
        may_open = Value(True)
    rows = list(
        sessions_alertable_to(user)
        .filter(at_risk, status=AskSession.Status.ACTIVE, handoff_counselor__isnull=True)
        .select_related("user")
        .annotate(may_open=may_open)
        .order_by(F("alerted_at").asc(nulls_last=True), "created_at", "id")[:HOME_LIST_LIMIT]
    )
    for session in rows:
        session.label = session_label(session)
    return rows


def open_crisis_alerts(*, user: Any) -> list[AskSession]:
    """The crisis alerts waiting for a claim that `user` receives (ops, on-duty counselors),
    the longest-waiting first: what the banner on every staff page shows. Each row carries
    `label` (neutral, never the client's words) and `risk` (the running level)."""
    if not receives_crisis_alerts(user):
        return []
    rows = list(
        sessions_alertable_to(user)
        .filter(
            status=AskSession.Status.ACTIVE,
            handoff_counselor__isnull=True,
            alerted_at__isnull=False,
        )
        .order_by("alerted_at", "id")[:HOME_LIST_LIMIT]
    )
    for session in rows:
        session.label = session_label(session)
        session.risk = engine.risk_now(session)
    return rows


def follow_ups_due(*, user: Any, now: datetime | None = None) -> QuerySet[AskSession]:
    return (
        sessions_visible_to(user)
        .filter(follow_up_needed=True, follow_up_at__lte=now or timezone.now())
        .select_related("user")
        .order_by("follow_up_at", "id")[:HOME_LIST_LIMIT]
    )


def caseload(*, counselor: Any) -> list[CaseloadAssignment]:
    """The counselor's clients, each with its latest session: its neutral label, status, risk
    and when (one query)."""
    latest = AskSession.objects.filter(user=OuterRef("client"), is_deleted=False).order_by(
        "-created_at", "-id"
    )
    fields = (
        "pk",
        "session_title",
        "session_type",
        "cbt_focus",
        "locale",
        "status",
        "created_at",
        "last_activity_at",
        "initial_risk_level",
        "final_risk_level",
    )
    rows = list(
        CaseloadAssignment.objects.filter(counselor=counselor)
        .select_related("client")
        .annotate(**{f"latest_{name}": Subquery(latest.values(name)[:1]) for name in fields})
        .annotate(**task_counts("client"))
        .order_by("client__username")
    )
    for row in rows:
        row.latest_id = row.latest_pk
        row.latest_activity = row.latest_last_activity_at
        row.latest_risk = row.latest_final_risk_level or row.latest_initial_risk_level
        row.latest_label = ""
        if row.latest_pk is not None:
            shape = AskSession(
                session_title=row.latest_session_title,
                session_type=row.latest_session_type,
                cbt_focus=row.latest_cbt_focus,
                created_at=row.latest_created_at,
            )
            row.latest_label = session_label(shape)
    return rows


def active_sessions(*, user: Any) -> QuerySet[AskSession]:
    return (
        sessions_visible_to(user)
        .filter(status=AskSession.Status.ACTIVE)
        .select_related("user")
        .order_by("-last_activity_at", "-id")[:HOME_LIST_LIMIT]
    )


# --- the session page's reads (the page itself: `pages.session_page`) ----------------------------

MOODS = ("declining", "stable", "improving")


CRISIS_MOOD = "crisis"


def latest_mood(session: AskSession) -> str | None:
    """The latest `mood_delta` found at the top of an event's or a message's payload — or
    "crisis" for a session that escalated: its mood never reads as "stable" after that."""
    if session.intervention_triggered:
        return CRISIS_MOOD
    found = [
        row
        for row in (
            session.events.filter(payload__has_key="mood_delta")
            .order_by("-seq")
            .values_list("payload", "created_at")
            .first(),
            session.messages.filter(payload__has_key="mood_delta")
            .order_by("-created_at", "-id")
            .values_list("payload", "created_at")
            .first(),
        )
        if row is not None and row[0].get("mood_delta") in MOODS
    ]
    return max(found, key=lambda row: row[1])[0]["mood_delta"] if found else None


def llm_calls(session: AskSession) -> list[LLMCall]:
    return list(LLMCall.objects.filter(session=session).order_by("created_at", "id"))


def people_names(user_ids: set[int]) -> dict[int, str]:
    """How the staff pages name people: first name, else username."""
    users = get_user_model().objects.filter(pk__in=user_ids).only("first_name", "username")
    return {u.pk: u.first_name or u.username for u in users}


def clinical_analysis(session: AskSession) -> tuple[Any, list[Any]]:
    """The psychologist's current analysis of the session and its hypotheses with evidence.

    Read through the session's reverse relations: this app does not import the psychologist's
    modules (import-linter), and the page only shows what the analysis already recorded."""
    # A live session has no analysis yet (the psychologist runs after the close): no query.
    analysis = None if session.is_active else session.analyses.filter(superseded=False).first()
    if analysis is None:
        return None, []
    hypotheses = list(
        session.hypotheses.filter(analysis=analysis)
        .select_related("decided_by")
        .prefetch_related("evidence__event")
        .order_by("position", "id")
    )
    return analysis, hypotheses


def sandbox_sessions(*, counselor: Any) -> QuerySet[SandboxSession]:
    """The sandbox sessions `counselor` started, newest first."""
    return (
        SandboxSession.objects.filter(counselor=counselor, session__is_deleted=False)
        .select_related("session")
        .order_by("-created_at")[:HOME_LIST_LIMIT]
    )


@dataclass(frozen=True)
class Transcript:
    """What was said on a session's active line of work, in order."""

    topic: str = ""
    pairs: list[tuple[str, str]] = field(default_factory=list)
    insights: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    # Every answer the client gave besides the topic, in order: the answered cards and the
    # words written without a card ("" for their question).
    answers: list[tuple[str, str]] = field(default_factory=list)


def session_transcript(session: AskSession) -> Transcript:
    """The topic, the answered question → answer pairs, the insights shown and the last-thing
    notes, read from the active workline's path (a session without a graph: all messages)."""
    messages = session_messages(session)
    if session.active_workline is not None:
        path = workline_path(session.active_workline, messages=messages)
    else:
        path = sorted(messages.values(), key=lambda m: (m.created_at, m.pk))
    kind = AskMessage.Kind
    topics, pairs, insights, notes, answers = [], [], [], [], []
    question: str | None = None
    for message in path:
        if message.kind == kind.QUESTION_CARD:
            question = message.text
        elif message.kind == kind.ANSWER and question is not None:
            pairs.append((question, message.text))
            answers.append((question, message.text))
            question = None
        elif message.kind == kind.TEXT and message.role == AskMessage.Role.CLIENT:
            if message.text:
                answers.append(("", message.text))
        elif message.kind == kind.TOPIC:
            topics.append(message.text)
        elif message.kind == kind.INSIGHT and message.text:
            insights.append(message.text)
        elif message.kind in (kind.LAST_THING, kind.NOTE) and message.text:
            notes.append(message.text)
    return Transcript(next(iter(topics), ""), pairs, insights, notes, answers)


# --- CBT homework --------------------------------------------------------------------------------

# How the caseload row and the insights chart group a task's status.
TASK_GROUPS = {
    "done": (TaskStatus.DONE,),
    "open": (TaskStatus.PROPOSED, TaskStatus.ACCEPTED),
    "skipped": (TaskStatus.SKIPPED, TaskStatus.EXPIRED),
}


def task_counts(client_path: str) -> dict[str, Any]:
    """Annotations `tasks_done`, `tasks_open`, `tasks_skipped` (skipped or expired) for rows
    whose client is `client_path`: one subquery each, no duplicate rows."""
    counts = {}
    for group, statuses in TASK_GROUPS.items():
        rows = (
            Task.objects.filter(
                user=OuterRef(client_path), status__in=statuses, session__is_deleted=False
            )
            .order_by()
            .values("user")
            .annotate(n=Count("pk"))
            .values("n")
        )
        counts[f"tasks_{group}"] = Coalesce(Subquery(rows[:1]), 0, output_field=IntegerField())
    return counts


def session_homework(session: AskSession, events: list[Any]) -> dict[str, list[Task]]:
    """The tasks the session proposed and those its opening picked up, in one query — and none
    when its log names no task at all (most sessions)."""
    if not any(event.type.startswith("task.") for event in events):
        return {"tasks": [], "reviewed_tasks": []}
    rows = list(
        Task.objects.filter(Q(session=session) | Q(review_session=session))
        .select_related("review_message")
        .order_by("position", "created_at")
    )
    return {
        "tasks": [task for task in rows if task.session_id == session.pk],
        "reviewed_tasks": [task for task in rows if task.review_session_id == session.pk],
    }


def task_list(*, user: Any, status: str | None = None) -> QuerySet[Task]:
    """The tasks `user` may read (access.tasks_visible_to), newest first."""
    tasks = tasks_visible_to(user)
    if status:
        tasks = tasks.filter(status=status)
    return tasks.order_by("-created_at", "position", "pk")


def export_tasks(*, user: Any) -> QuerySet[Task]:
    """A client's homework for its export: every task of its live sessions."""
    return Task.objects.filter(user=user, session__is_deleted=False).order_by("created_at", "pk")
