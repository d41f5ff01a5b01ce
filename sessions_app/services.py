"""Writes on sessions. Every function here owns its transaction."""

from __future__ import annotations

import re
from typing import Any

from django.db import transaction
from django.db.models import F

from sessions_app import realtime
from sessions_app.errors import ApplicationError
from sessions_app.models import AskSession, SessionEvent

EVENT_TYPE_RE = re.compile(r"^[a-z_]+(\.[a-z_]+)+$")


@transaction.atomic
def event_append(
    *,
    session: AskSession,
    type: str,
    payload: dict[str, Any] | None = None,
    actor: str = "system",
    actor_user: Any = None,
) -> SessionEvent:
    """Append one event to the session's log; the only writer of `SessionEvent`.

    The push to watchers goes out after the surrounding transaction commits, so nobody is told
    about an event that was rolled back.
    """
    if not EVENT_TYPE_RE.match(type):
        raise ApplicationError("E_VALIDATION", f"event type {type!r} is not a dotted name")
    # The UPDATE takes the session's row lock and holds it to the end of the transaction, so
    # concurrent appends to one session queue here and each reads the seq it just wrote.
    AskSession.objects.filter(pk=session.pk).update(event_seq=F("event_seq") + 1)
    seq = AskSession.objects.filter(pk=session.pk).values_list("event_seq", flat=True).get()
    session.event_seq = seq
    event = SessionEvent.objects.create(
        session=session,
        seq=seq,
        type=type,
        payload=payload or {},
        actor=actor,
        actor_user=actor_user,
    )
    transaction.on_commit(
        lambda: realtime.publish_event(
            session_id=session.pk, event_id=event.pk, seq=seq, event_type=type
        )
    )
    return event
