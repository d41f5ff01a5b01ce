"""Writes of the psychologist: requesting, starting, recording and failing analyses, and the
review lifecycle of hypotheses (SPEC §6). Every state change appends its own event."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django_q.tasks import async_task

from psychologist.models import (
    Analysis,
    AnalysisRequest,
    Hypothesis,
    HypothesisEvidence,
    HypothesisStatus,
    HypothesisTarget,
)
from sessions_app.errors import ApplicationError, ErrorCode
from sessions_app.events import EventType, event_append, event_by
from sessions_app.models import AskSession, UserProfile

if TYPE_CHECKING:
    from psychologist.evidence import HypothesisDraft
    from psychologist.prompt import AnalysisContext
    from psychologist.toolloop import IterationReport, LoopResult

log = logging.getLogger(__name__)
ACTOR = "psychologist"
# The analysis's own fields that `psychologist.analysis_completed` repeats.
COMPLETED_TELLS = (
    "tier",
    "agent",
    "provider",
    "model",
    "iterations",
    "cost_micro_usd",
    "termination_cause",
)


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


@transaction.atomic
def analysis_reanalyse(*, session: AskSession, by: Any) -> AnalysisRequest:
    """A manual run: it always runs, and on success supersedes the current analysis."""
    # Locked so that a close racing this request cannot slip between the check and the insert.
    session = AskSession.objects.select_for_update().get(pk=session.pk)
    if session.is_deleted:
        # Its content is being anonymised: there is nothing left to analyse.
        raise ApplicationError(ErrorCode.NOT_FOUND, "Session not found.")
    if session.is_active:
        raise ApplicationError(
            ErrorCode.SESSION_STILL_ACTIVE,
            "The session is still active; it is analysed when it closes.",
        )
    request = analysis_request(
        session=session, triggered_by=AnalysisRequest.TriggeredBy.MANUAL, by=by
    )
    event_by(
        session=session,
        type=EventType.PSYCHOLOGIST_REANALYSIS_REQUESTED,
        payload={"request": request.pk},
        by=by,
    )
    return request


@transaction.atomic
def analysis_begin(*, request_id: int) -> AnalysisRequest | None:
    """Count an attempt and claim the request, or None when there is nothing to run: the
    request is done, gave up, or the session already has the analysis this run would make."""
    # Locked: a redelivered task and a late original must not both count the same attempt.
    request = (
        AnalysisRequest.objects.select_for_update()
        .select_related("session")
        .filter(pk=request_id)
        .first()
    )
    if request is None or request.status == AnalysisRequest.Status.DONE:
        return None
    limit = settings.PSYCHOLOGIST_MAX_ATTEMPTS
    if request.attempts >= limit:
        # Only a run that died without an outcome (a killed worker) leaves it running.
        if request.status == AnalysisRequest.Status.RUNNING:
            _fail(request, "attempts_exhausted", f"gave up after {limit} attempts")
        return None
    request.attempts += 1
    if _already_analysed(request):
        request.status = AnalysisRequest.Status.DONE
        request.save(update_fields=["attempts", "status", "updated_at"])
        log.info("psychologist.analysis_skipped request=%s reason=current", request.pk)
        return None
    request.status, request.last_error = AnalysisRequest.Status.RUNNING, ""
    request.save(update_fields=["attempts", "status", "last_error", "updated_at"])
    _told(request, EventType.PSYCHOLOGIST_ANALYSIS_STARTED, attempt=request.attempts)
    return request


def _told(request: AnalysisRequest, type: str, **payload: Any) -> None:
    """Append one of the psychologist's events about `request` to its session's log."""
    event_append(
        session=request.session,
        type=type,
        payload={"request": request.pk, **payload},
        actor=ACTOR,
    )


def _already_analysed(request: AnalysisRequest) -> bool:
    """The cheap pre-check that spares a retry its LLM cost; the constraint is the safety net."""
    if Analysis.objects.filter(request=request).exists():
        return True
    automatic = request.triggered_by == AnalysisRequest.TriggeredBy.AUTO
    return automatic and Analysis.objects.current().filter(session=request.session_id).exists()


def analysis_iteration_record(*, request: AnalysisRequest, report: IterationReport) -> None:
    """Progress for watchers (the insights page streams it): names and numbers, never text."""
    _told(
        request,
        EventType.PSYCHOLOGIST_ITERATION,
        attempt=request.attempts,
        iteration=report.iteration,
        tools=list(report.tools),
        outcome=report.outcome,
        cost_micro_usd=report.cost_micro_usd,
    )


@transaction.atomic
def analysis_fail(*, request: AnalysisRequest, code: str, detail: str, **facts: Any) -> None:
    """A run without an analysis: no row is written (so a retry may run), but the outcome is
    always told (`psychologist.analysis_failed`)."""
    _fail(request, code, detail, **facts)


def _fail(request: AnalysisRequest, code: str, detail: str, **facts: Any) -> None:
    AnalysisRequest.objects.filter(pk=request.pk).update(
        status=AnalysisRequest.Status.FAILED,
        last_error=f"{code}: {detail}"[:200],
        updated_at=timezone.now(),
    )
    _told(
        request,
        EventType.PSYCHOLOGIST_ANALYSIS_FAILED,
        attempt=request.attempts,
        reason=code,
        detail=detail[:500],
        **facts,
    )
    log.warning("psychologist.analysis_failed request=%s reason=%s", request.pk, code)


@transaction.atomic
def analysis_record(
    *, request: AnalysisRequest, context: AnalysisContext, result: LoopResult
) -> Analysis:
    """Record a concluded run: the analysis, its hypotheses and evidence, and their events —
    all or nothing, so a worker killed half-way leaves no partial analysis behind."""
    # Locks serialise completions for one session: a redelivered run and its late original, or
    # a manual and an automatic run, decide one after the other which one becomes current.
    AskSession.objects.select_for_update().only("pk").get(pk=request.session_id)
    request = (
        AnalysisRequest.objects.select_for_update().select_related("session").get(pk=request.pk)
    )
    current = Analysis.objects.current().filter(session=request.session_id).first()
    if _already_analysed(request):
        _request_done(request)
        return Analysis.objects.filter(request=request).first() or current
    if current is not None:
        current.superseded, current.superseded_at = True, timezone.now()
        current.save(update_fields=["superseded", "superseded_at"])
    analysis = _analysis_create(request, context, result)
    analysis_hypotheses_store(
        request=request, analysis=analysis, drafts=result.drafts, superseded=current
    )
    _request_done(request)
    return analysis


def _analysis_create(
    request: AnalysisRequest, context: AnalysisContext, result: LoopResult
) -> Analysis:
    usage = result.usage
    # Should two runs ever get past the locks, the partial unique index refuses the second
    # current analysis here (IntegrityError): the safety net of ADR decision 5.
    return Analysis.objects.create(
        session_id=request.session_id,
        request=request,
        tier=context.tier.name,
        agent=context.tier.agent,
        provider=result.provider,
        model=result.model,
        triggered_by=request.triggered_by,
        termination_cause=context.termination.cause,
        iterations=result.iterations,
        input_tokens=usage.input_tokens,
        output_tokens=usage.output_tokens,
        cache_read_tokens=usage.cache_read_tokens,
        cache_write_tokens=usage.cache_write_tokens,
        cost_micro_usd=result.cost_micro_usd,
    )


def _hypotheses_create(analysis: Analysis, drafts: tuple[HypothesisDraft, ...]) -> list[Hypothesis]:
    hypotheses = Hypothesis.objects.bulk_create(
        Hypothesis(
            analysis=analysis,
            session_id=analysis.session_id,
            position=position,
            target=draft.target,
            statement=draft.statement,
            confidence=draft.confidence,
            termination_analysis=draft.termination_analysis,
        )
        for position, draft in enumerate(drafts)
    )
    HypothesisEvidence.objects.bulk_create(
        HypothesisEvidence(hypothesis=hypothesis, event_id=event_id)
        for hypothesis, draft in zip(hypotheses, drafts, strict=True)
        for event_id in draft.evidence
    )
    return hypotheses


def analysis_hypotheses_store(
    *,
    request: AnalysisRequest,
    analysis: Analysis,
    drafts: tuple[HypothesisDraft, ...],
    superseded: Analysis | None = None,
) -> list[Hypothesis]:
    """Store an analysis's hypotheses with their evidence, then the events that tell of them:
    one `psychologist.hypothesis_proposed` each and the `psychologist.analysis_completed`."""
    hypotheses = _hypotheses_create(analysis, drafts)
    _completion_events(
        request, analysis, list(zip(hypotheses, drafts, strict=True)), superseded=superseded
    )
    return hypotheses


def _completion_events(
    request: AnalysisRequest,
    analysis: Analysis,
    proposed: list[tuple[Hypothesis, HypothesisDraft]],
    *,
    superseded: Analysis | None,
) -> None:
    for hypothesis, draft in proposed:
        event_append(
            session=request.session,
            type=EventType.PSYCHOLOGIST_HYPOTHESIS_PROPOSED,
            payload={
                "analysis": analysis.pk,
                "hypothesis": hypothesis.pk,
                "target": hypothesis.target,
                "confidence": hypothesis.confidence,
                "evidence": list(draft.evidence),
            },
            actor=ACTOR,
        )
    _told(
        request,
        EventType.PSYCHOLOGIST_ANALYSIS_COMPLETED,
        analysis=analysis.pk,
        **{name: getattr(analysis, name) for name in COMPLETED_TELLS},
        hypotheses=len(proposed),
        supersedes=superseded.pk if superseded else None,
    )


def _request_done(request: AnalysisRequest) -> None:
    request.status, request.last_error = AnalysisRequest.Status.DONE, ""
    request.save(update_fields=["status", "last_error", "updated_at"])


# --- review lifecycle --------------------------------------------------------------------------


@transaction.atomic
def hypothesis_accept(*, hypothesis: Hypothesis, by: Any) -> Hypothesis:
    """Accept a proposed hypothesis; a client-targeted one joins the client's anamnesis."""
    hypothesis = _hypothesis_decide(hypothesis, by=by, status=HypothesisStatus.ACCEPTED)
    if hypothesis.target == HypothesisTarget.CLIENT:
        _anamnesis_add(hypothesis, by=by)
    return hypothesis


@transaction.atomic
def hypothesis_dismiss(*, hypothesis: Hypothesis, by: Any) -> Hypothesis:
    return _hypothesis_decide(hypothesis, by=by, status=HypothesisStatus.DISMISSED)


def _hypothesis_decide(hypothesis: Hypothesis, *, by: Any, status: str) -> Hypothesis:
    now = timezone.now()
    # A conditional UPDATE decides the race: of concurrent decisions exactly one still finds
    # the row `proposed`. On PostgreSQL the others wait on its row lock, then match nothing.
    won = Hypothesis.objects.filter(pk=hypothesis.pk, status=HypothesisStatus.PROPOSED).update(
        status=status, decided_by=by, decided_at=now
    )
    if not won:
        raise ApplicationError(
            ErrorCode.HYPOTHESIS_DECIDED, "This hypothesis was already accepted or dismissed."
        )
    hypothesis.status, hypothesis.decided_by, hypothesis.decided_at = status, by, now
    event_by(
        session=hypothesis.session,
        type=f"psychologist.hypothesis_{status}",
        payload={"hypothesis": hypothesis.pk, "analysis": hypothesis.analysis_id},
        by=by,
    )
    return hypothesis


def _anamnesis_add(hypothesis: Hypothesis, *, by: Any) -> None:
    # Locked: two hypotheses of one client accepted at once must not overwrite each other's
    # entry in the same JSON list.
    profile, _ = UserProfile.objects.select_for_update().get_or_create(
        user_id=hypothesis.session.user_id
    )
    profile.accepted_hypotheses = [
        *profile.accepted_hypotheses,
        {
            "hypothesis": hypothesis.pk,
            "session_id": str(hypothesis.session_id),
            "statement": hypothesis.statement,
            "confidence": hypothesis.confidence,
            "accepted_at": hypothesis.decided_at.isoformat(),
        },
    ]
    profile.save(update_fields=["accepted_hypotheses", "updated_at"])
    event_by(
        session=hypothesis.session,
        type=EventType.PSYCHOLOGIST_HYPOTHESIS_ACCEPTED_FOR_ANAMNESIS,
        payload={"hypothesis": hypothesis.pk, "profile": profile.pk},
        by=by,
    )
