"""Post-session analysis. Until the tool loop lands, a request ends as a visible failure."""

from __future__ import annotations

from django.db import transaction

from psychologist.models import AnalysisRequest
from sessions_app.services import event_append


@transaction.atomic
def analysis_perform(*, request_id: int) -> None:
    request = AnalysisRequest.objects.select_related("session").get(pk=request_id)
    AnalysisRequest.objects.filter(pk=request.pk).update(
        status=AnalysisRequest.Status.FAILED, last_error="analysis engine not installed"
    )
    event_append(
        session=request.session,
        type="psychologist.analysis_failed",
        payload={"request": request.pk, "reason": "analysis engine not installed"},
        actor="psychologist",
    )
