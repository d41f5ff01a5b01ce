"""Closing a session inside the caller's transaction — the one end every path takes: Finish,
the last thing, the scheduler from the closing (SPEC §3)."""

from __future__ import annotations

from django.utils import timezone

from sessions_app.engine.cards.dealer import Turn
from sessions_app.engine.crisis.escalation import risk_now
from sessions_app.events import EventType
from sessions_app.models import AskSession
from sessions_app.signals import session_closed


def session_close_in(turn: Turn, *, ended_in: str) -> None:
    """Close inside the caller's transaction: completed, `session.closed`, and `session_closed`
    sent (the psychologist queues its analysis on it) with the rest of the turn's writes."""
    session = turn.session
    now = timezone.now()
    turn.set(
        status=AskSession.Status.COMPLETED,
        ended_at=now,
        duration_seconds=max(0, int((now - session.created_at).total_seconds())),
        final_risk_level=risk_now(session),
        phase=AskSession.Phase.CLOSING,
        ready_to_close=False,
        counselor_speaking_since=None,
    )
    turn.event(
        EventType.SESSION_CLOSED,
        ended_in=ended_in,
        intent=session.current_intent_code,
        turn_count=session.turn_count,
        duration_seconds=session.duration_seconds,
    )
    turn.after_save.append(lambda: session_closed.send(sender=AskSession, session=session))
