"""Reads on sessions, notifications and exports, with their joins built in."""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.db.models import Prefetch, QuerySet
from django.utils import timezone

from sessions_app.access import sessions_visible_to
from sessions_app.engine.graph import session_messages, workline_path
from sessions_app.errors import ApplicationError
from sessions_app.models import AskMessage, AskSession, Notification, UserProfile

# Filters over a P3 column; only callers allowed to read P3 may use them (else E_VALIDATION).
RISK_FILTERS = ("initial_risk_level", "final_risk_level")


def session_list(
    *,
    user: Any,
    session_type: str | None = None,
    trigger_source: str | None = None,
    initial_risk_level: str | None = None,
    final_risk_level: str | None = None,
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
            "E_DIFY_SESSION_NOT_FOUND",
            "No session is mapped to this dify_conversation_id.",
            status=404,
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
        raise ApplicationError("E_NOT_FOUND", "Notification not found.", status=404)
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


@dataclass(frozen=True)
class Transcript:
    """What was said on a session's active line of work, in order."""

    topic: str = ""
    pairs: list[tuple[str, str]] = field(default_factory=list)
    insights: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


def session_transcript(session: AskSession) -> Transcript:
    """The topic, the answered question → answer pairs, the insights shown and the last-thing
    notes, read from the active workline's path (a session without a graph: all messages)."""
    messages = session_messages(session)
    if session.active_workline is not None:
        path = workline_path(session.active_workline, messages=messages)
    else:
        path = sorted(messages.values(), key=lambda m: (m.created_at, m.pk))
    kind = AskMessage.Kind
    topics, pairs, insights, notes = [], [], [], []
    question: str | None = None
    for message in path:
        if message.kind == kind.QUESTION_CARD:
            question = message.text
        elif message.kind == kind.ANSWER and question is not None:
            pairs.append((question, message.text))
            question = None
        elif message.kind == kind.TOPIC:
            topics.append(message.text)
        elif message.kind == kind.INSIGHT and message.text:
            insights.append(message.text)
        elif message.kind in (kind.LAST_THING, kind.NOTE) and message.text:
            notes.append(message.text)
    return Transcript(next(iter(topics), ""), pairs, insights, notes)
