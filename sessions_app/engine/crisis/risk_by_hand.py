"""A person changes the risk level (SPEC §3): counselors and ops only, never silently. Lowering
needs a written reason; the event records the old level, the new one, who and why — that is how
a false alarm is closed. The engine itself only ever raises it (`escalation.risk_raise`).

Raising it into a crisis (L3/L4), by a person or the service role, takes the engine's own path
(`escalation.risk_escalate`): the crisis flow, the on-duty counselors alerted, the escalation clock.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction

from sessions_app.engine.cards.dealer import Turn, session_locked
from sessions_app.engine.crisis.escalation import risk_escalate, risk_now
from sessions_app.engine.flows.validator import CRISIS_FLOW
from sessions_app.engine.turn.routing import visible
from sessions_app.errors import invalid
from sessions_app.events import EventType, actor_label, event_by
from sessions_app.models import AskSession, RiskLevel

REASON_MAX = 500
CRISIS_LEVELS = frozenset({RiskLevel.L3, RiskLevel.L4})


@transaction.atomic
def risk_level_set(*, session: AskSession, level: str, reason: str, by: Any) -> AskSession:
    locked = session_locked(session.pk)
    previous = risk_now(locked)
    reason = (reason or "").strip()
    if level not in RiskLevel.values:
        raise invalid(f"A risk level is one of {', '.join(RiskLevel.values)}.", level="unknown")
    if level == previous:
        raise invalid(f"The risk level is {previous} already.", level="unchanged")
    # A reason of zero-width spaces is no reason: it must show something a person can read.
    if level < previous and not visible(reason):
        raise invalid("Say why the risk is lower: it stays on the record.", reason="required")
    if len(reason) > REASON_MAX:
        raise invalid(f"At most {REASON_MAX} characters.", reason=f"over {REASON_MAX}")
    if level < locked.initial_risk_level:
        raise invalid(
            f"The session began at {locked.initial_risk_level}; it cannot go below that.",
            level="below the initial level",
        )
    if level > previous and level in CRISIS_LEVELS:
        return risk_escalate_by(session=locked, level=level, by=by, reason=reason)
    locked.final_risk_level = level
    locked.save(update_fields=["final_risk_level", "updated_at"])
    event_by(
        session=locked,
        type=EventType.RISK_CHANGED,
        by=by,
        payload={"previous": previous, "level": level, "reason": reason},
    )
    return locked


def is_crisis_raise(previous: str, level: str | None) -> bool:
    return level is not None and level > previous and level in CRISIS_LEVELS


@transaction.atomic
def risk_escalate_by(*, session: AskSession, level: str, by: Any, reason: str = "") -> AskSession:
    """`by` (the service role, a counselor, ops) raised the risk to L3/L4: the same path as the
    safety net's. The client is shown the crisis resources unless a counselor is already
    speaking with it, or the session is over (then the level and the event are all there is)."""
    locked = session_locked(session.pk)
    live = locked.is_active and not locked.is_deleted
    # As the net's `counselor_present`: a person holding the conversation answers it.
    present = locked.counselor_speaking
    # In the crisis flow the client has the resources already (a crisis-type session opens
    # with them): they are not dealt twice.
    shown = locked.current_intent_code == CRISIS_FLOW
    turn = Turn(locked)
    risk_escalate(
        turn,
        level=max(level, risk_now(locked)),
        source=actor_label(by),
        by=by,
        reason=reason,
        page=live and not present,
        deal=live and not present and not shown,
    )
    turn.save()
    return locked
