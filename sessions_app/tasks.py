"""django-q entry points: load by id, call a service. Arguments never hold message text.

The scheduled jobs (`jobs/schedules.py`) return their summary line, which django-q keeps as the
task's result: counts only, never content.
"""

from __future__ import annotations

from collections.abc import Callable

from sessions_app import sandbox, services
from sessions_app.engine import services as engine
from sessions_app.jobs import delivery, escalation, homework, lifecycle, markdown_export, outreach
from sessions_app.jobs.lifecycle import JobReport


def session_anonymise(session_id: str) -> None:
    services.session_anonymise(session_id=session_id)


def batch_prepare(session_id: str) -> str:
    """A completed batch's unit of work (the engine's `batch_prepare`), under the provider a
    sandbox session's counselor chose."""
    with sandbox.providers_for(session_id):
        result = engine.batch_prepare(session_id)
    if result is None:
        return "nothing to run"
    return f"dealt ({result.failure})" if result.failure else "dealt"


def safety_opinion(session_id: str, message_id: str) -> str:
    escalated = engine.safety_opinion_give(session_id, message_id)
    return "escalated" if escalated is not None else "no change"


def batches_resume() -> str:
    return f"handed out {engine.batches_resume()} batches again"


def _summarised(job: Callable[[], JobReport]) -> Callable[[], str]:
    """A scheduled job as django-q runs it: by dotted path, its summary line as the result."""

    def run() -> str:
        return job().summary

    run.__name__ = run.__qualname__ = job.__name__
    run.__doc__ = job.__doc__
    return run


sessions_abandoned_close = _summarised(lifecycle.sessions_abandoned_close)
notifications_deliver = _summarised(delivery.notifications_deliver)
follow_ups_notify = _summarised(outreach.follow_ups_notify)
alerts_escalate = _summarised(escalation.alerts_escalate)
reactivations_send = _summarised(outreach.reactivations_send)
retention_apply = _summarised(lifecycle.retention_apply)
vault_export = _summarised(markdown_export.vault_export)
homework_sweep = _summarised(homework.homework_sweep)


def idempotency_prune() -> str:
    return f"forgot {services.idempotency_prune()} stored POST responses"
