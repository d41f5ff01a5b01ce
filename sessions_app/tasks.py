"""django-q entry points: load by id, call a service. Arguments never hold message text."""

from __future__ import annotations

from sessions_app import services


def session_anonymise(session_id: str) -> None:
    services.session_anonymise(session_id=session_id)


def idempotency_prune() -> int:
    return services.idempotency_prune()
