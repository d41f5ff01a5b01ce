"""django-q entry points: load by id, call a service. Arguments never hold message text.

The scheduled jobs (`schedules.py`) return their summary line, which django-q keeps as the
task's result: counts only, never content.
"""

from __future__ import annotations

from sessions_app import services
from sessions_app.jobs import delivery, escalation, lifecycle, outreach, vault


def session_anonymise(session_id: str) -> None:
    services.session_anonymise(session_id=session_id)


def sessions_abandoned_close() -> str:
    return lifecycle.sessions_abandoned_close().summary


def notifications_deliver() -> str:
    return delivery.notifications_deliver().summary


def follow_ups_notify() -> str:
    return outreach.follow_ups_notify().summary


def alerts_escalate() -> str:
    return escalation.alerts_escalate().summary


def reactivations_send() -> str:
    return outreach.reactivations_send().summary


def retention_apply() -> str:
    return lifecycle.retention_apply().summary


def vault_export() -> str:
    return vault.vault_export().summary


def idempotency_prune() -> str:
    return f"forgot {services.idempotency_prune()} stored POST responses"
