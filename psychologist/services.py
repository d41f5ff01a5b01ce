"""Writes of the psychologist: requesting and running post-session analyses (SPEC §6)."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django_q.tasks import async_task

from psychologist.models import AnalysisRequest
from sessions_app.models import AskSession


@transaction.atomic
def analysis_request(
    *, session: AskSession, triggered_by: str = AnalysisRequest.TriggeredBy.AUTO, by: Any = None
) -> AnalysisRequest:
    """Ask for an analysis of a closed session. Call it inside the transaction that closes the
    session: django-q's ORM broker lives in the same database, so the task commits or rolls back
    with the close (a transactional outbox)."""
    request = AnalysisRequest.objects.create(
        session=session, triggered_by=triggered_by, requested_by=by
    )
    async_task("psychologist.tasks.analysis_run", request.pk, task_name=f"analysis-{request.pk}")
    return request
