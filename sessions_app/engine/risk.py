"""A person changes the risk level (SPEC §3): counselors and ops only, never silently. Lowering
needs a written reason; the event records the old level, the new one, who and why — that is how
a false alarm is closed. The engine itself only ever raises it (`crisis.risk_raise`)."""

from __future__ import annotations

from typing import Any

from django.db import transaction

from sessions_app.engine.crisis import risk_now
from sessions_app.engine.dealer import session_locked
from sessions_app.engine.words import visible
from sessions_app.errors import invalid
from sessions_app.events import EventType, event_by
from sessions_app.models import AskSession, RiskLevel

REASON_MAX = 500


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
    locked.final_risk_level = level
    locked.save(update_fields=["final_risk_level", "updated_at"])
    event_by(
        session=locked,
        type=EventType.RISK_CHANGED,
        by=by,
        payload={"previous": previous, "level": level, "reason": reason},
    )
    return locked
