"""Post-session analysis (SPEC §6): one run of a request, from claim to outcome.

The run is three short transactions around the tool loop — claim (count the attempt), the
loop itself with no transaction open (it waits on the network), then record or fail — so a
worker killed at any point leaves either nothing or a whole analysis, and its redelivery
starts from a consistent state.
"""

from __future__ import annotations

import logging

from django.conf import settings

from psychologist import selectors, services
from psychologist.models import Analysis, AnalysisRequest
from psychologist.prompt import AnalysisContext
from psychologist.termination import termination_classify
from psychologist.toolloop import LoopResult, loop_run
from psychologist.triage import Tier, tier_for
from sessions_app.models import AskSession

log = logging.getLogger(__name__)


class AnalysisRetry(Exception):
    """Raised after a transient provider failure so that django-q redelivers the task; the
    request's own attempt counter bounds how often."""


def analysis_context(*, session: AskSession, tier: Tier | None = None) -> AnalysisContext:
    """What the run reads: the whole log, the rules, the client's previous hypotheses, the
    classified ending and the tier the log's size calls for (unless one is forced)."""
    session_log = selectors.session_log(session=session)
    return AnalysisContext(
        session=session,
        log=session_log,
        termination=termination_classify(session.termination_reason),
        tier=tier or tier_for(len(session_log.events)),
        rules=selectors.clinical_rules_active(),
        previous=selectors.profile_hypotheses(session=session),
        homework=tuple(selectors.homework_done(session=session)),
    )


def analysis_perform(*, request_id: int) -> Analysis | None:
    """Run one analysis request; the analysis, or None when the run ended without one."""
    request = services.analysis_begin(request_id=request_id)
    if request is None:
        return None
    context = analysis_context(session=request.session)
    if not context.log.events:
        services.analysis_fail(request=request, code="empty_log", detail="no events to analyse")
        return None
    log.info(
        "psychologist.analysis_run request=%s tier=%s events=%d attempt=%d",
        request.pk,
        context.tier.name,
        len(context.log.events),
        request.attempts,
    )
    try:
        result = loop_run(
            context=context,
            on_iteration=lambda report: services.analysis_iteration_record(
                request=request, report=report
            ),
        )
        if result.ok:
            return services.analysis_record(request=request, context=context, result=result)
    except Exception as exc:
        # Never a silent outcome, even for a bug; django-q then shows the task as failed and
        # redelivers it, within the request's attempts.
        services.analysis_fail(request=request, code="internal_error", detail=type(exc).__name__)
        raise
    _failed(request, context, result)
    return None


def _failed(request: AnalysisRequest, context: AnalysisContext, result: LoopResult) -> None:
    retry = result.retryable and request.attempts < settings.PSYCHOLOGIST_MAX_ATTEMPTS
    services.analysis_fail(
        request=request,
        code=result.failure,
        detail=result.detail,
        tier=context.tier.name,
        iterations=result.iterations,
        cost_micro_usd=result.cost_micro_usd,
        will_retry=retry,
    )
    if retry:
        raise AnalysisRetry(f"request {request.pk}: {result.failure}")
