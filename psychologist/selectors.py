"""Reads of the psychologist: the log an analysis reads, its context, and hypotheses for review."""

from __future__ import annotations

import uuid
from collections.abc import Iterable
from dataclasses import dataclass, fields
from datetime import datetime
from functools import cached_property
from typing import Any

from django.db.models import Prefetch, QuerySet
from django.utils import timezone

from psychologist.models import (
    ClinicalRule,
    Hypothesis,
    HypothesisEvidence,
    HypothesisStatus,
)
from sessions_app.access import SessionAction, role_require, session_for, sessions_visible_to
from sessions_app.errors import ApplicationError, ErrorCode
from sessions_app.models import AskMessage, AskSession, SessionEvent, Task, TaskStatus

# The psychologist's own records are not part of what it analyses: reading them back would
# feed one analysis into the next, and their number would shift a session between tiers.
OWN_EVENT_PREFIX = "psychologist."
PROFILE_HYPOTHESES_MAX = 20


@dataclass(frozen=True)
class LogEvent:
    """One event as the analysis sees it: the row, plus the text of the message it refers to
    (events carry message ids, never message text)."""

    id: int
    seq: int
    type: str
    actor: str
    payload: dict[str, Any]
    created_at: datetime
    message_role: str = ""
    message_kind: str = ""
    text: str = ""

    def as_dict(self) -> dict[str, Any]:
        row = {f.name: getattr(self, f.name) for f in fields(self)}
        return {**row, "created_at": self.created_at.isoformat()}


@dataclass(frozen=True)
class SessionLog:
    session_id: uuid.UUID
    events: tuple[LogEvent, ...]

    @cached_property
    def by_id(self) -> dict[int, LogEvent]:
        return {event.id: event for event in self.events}


def session_log(*, session: AskSession) -> SessionLog:
    """The session's whole event log in `seq` order, in two queries whatever its length."""
    rows = list(
        SessionEvent.objects.filter(session=session)
        .exclude(type__startswith=OWN_EVENT_PREFIX)
        .order_by("seq")
        .values("id", "seq", "type", "actor", "payload", "created_at")
    )
    message_ids = {_message_id(row["payload"]) for row in rows} - {None}
    messages = {
        row["id"]: row
        for row in AskMessage.objects.filter(session=session, pk__in=message_ids).values(
            "id", "role", "kind", "text"
        )
    }
    events = []
    for row in rows:
        message = messages.get(_message_id(row["payload"])) or {}
        events.append(
            LogEvent(
                **row,
                message_role=message.get("role", ""),
                message_kind=message.get("kind", ""),
                text=message.get("text", ""),
            )
        )
    return SessionLog(session_id=session.pk, events=tuple(events))


def _message_id(payload: Any) -> int | None:
    value = payload.get("message_id") if isinstance(payload, dict) else None
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def event_owners(*, event_ids: Iterable[int]) -> dict[int, uuid.UUID]:
    """The session of every id that names an existing event; unknown ids are absent."""
    ids = list(event_ids)
    if not ids:
        return {}
    return dict(SessionEvent.objects.filter(pk__in=ids).values_list("pk", "session_id"))


def clinical_rules_active() -> list[ClinicalRule]:
    return list(ClinicalRule.objects.filter(active=True).order_by("position", "id"))


def profile_hypotheses(*, session: AskSession) -> list[Hypothesis]:
    """The client's previous undismissed hypotheses: other sessions, current analyses only."""
    return list(
        Hypothesis.objects.filter(session__user_id=session.user_id, analysis__superseded=False)
        .exclude(session=session)
        .exclude(status=HypothesisStatus.DISMISSED)
        .order_by("-created_at", "-id")[:PROFILE_HYPOTHESES_MAX]
    )


HOMEWORK_MAX = 5


def homework_done(*, session: AskSession) -> list[dict[str, Any]]:
    """The client's latest CBT homework done by the session's end, with its entries:
    the practice between sessions is part of what the psychologist reads."""
    until = session.ended_at or timezone.now()
    tasks = Task.objects.filter(
        user_id=session.user_id,
        status=TaskStatus.DONE,
        finished_at__lte=until,
        session__is_deleted=False,
    ).order_by("-finished_at", "-pk")[:HOMEWORK_MAX]
    return [
        {
            "task_id": str(task.pk),
            "kind": task.kind,
            "title": task.title,
            "proposed_in_this_session": task.session_id == session.pk,
            "reviewed_in_this_session": task.review_session_id == session.pk,
            "entries": task.entries,
            "completion_note": task.completion_note,
            "rating_before": task.rating_before,
            "rating_after": task.rating_after,
        }
        for task in tasks
    ]


def _with_evidence(hypotheses: QuerySet[Hypothesis]) -> QuerySet[Hypothesis]:
    evidence = HypothesisEvidence.objects.select_related("event").order_by("event__seq")
    return hypotheses.select_related("analysis").prefetch_related(
        Prefetch("evidence", queryset=evidence)
    )


def hypothesis_list(
    *,
    user: Any,
    session: uuid.UUID | None = None,
    target: str | None = None,
    status: str | None = None,
    include_superseded: bool = False,
) -> QuerySet[Hypothesis]:
    """Hypotheses of the sessions `user` may read, newest first (counselors and ops only)."""
    role_require(user, SessionAction.ANALYSE)
    visible = sessions_visible_to(user).values("pk")
    hypotheses = Hypothesis.objects.filter(session__in=visible)
    if session is not None:
        hypotheses = hypotheses.filter(session_id=session)
    if target:
        hypotheses = hypotheses.filter(target=target)
    if status:
        hypotheses = hypotheses.filter(status=status)
    if not include_superseded:
        hypotheses = hypotheses.filter(analysis__superseded=False)
    return _with_evidence(hypotheses).order_by("-created_at", "-id")


def hypothesis_for(user: Any, hypothesis_id: int, *, write: bool = False) -> Hypothesis:
    """The hypothesis if `user` may review it: the role first (the same 403 for every id), then
    the session's own access rule (404, or 403 for a crisis session outside the caseload)."""
    role_require(user, SessionAction.ANALYSE)
    hypothesis = _with_evidence(Hypothesis.objects.filter(pk=hypothesis_id)).first()
    if hypothesis is None:
        raise _hypothesis_not_found()
    try:
        hypothesis.session = session_for(user, hypothesis.session_id, write=write)
    except ApplicationError as exc:
        if exc.code == ErrorCode.NOT_FOUND:
            raise _hypothesis_not_found() from None
        raise
    return hypothesis


def _hypothesis_not_found() -> ApplicationError:
    return ApplicationError(ErrorCode.NOT_FOUND, "Hypothesis not found.")
