"""The psychologist's HTML moves, posted from the insights dashboard and the session page:
accept or dismiss a hypothesis (the row comes back in place), reanalyse a session. The reads
live in `insights`, which may not write; the writes go through `psychologist.services`."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from insights.selectors import hypothesis_row
from insights.views import reviewer_page  # the dashboard's gate: these moves are posted from it
from psychologist import selectors, services
from psychologist.models import Hypothesis
from sessions_app.access import session_for
from sessions_app.errors import ApplicationError
from sessions_app.responses import back_url

ROW = "insights/insights.html#hypothesis"


def _denied(exc: ApplicationError) -> Exception:
    if exc.status == 403:
        return PermissionDenied(exc.detail)
    return Http404(exc.detail)


def _back(request: HttpRequest) -> HttpResponse:
    return HttpResponseRedirect(
        back_url(request, request.POST.get("next", ""), fallback="insights:home")
    )


def _decide(
    request: HttpRequest, hypothesis_id: int, decide: Callable[..., Hypothesis]
) -> HttpResponse:
    try:
        hypothesis = selectors.hypothesis_for(request.user, hypothesis_id, write=True)
    except ApplicationError as exc:
        raise _denied(exc) from None
    error: ApplicationError | None = None
    try:
        decide(hypothesis=hypothesis, by=request.user)
    except ApplicationError as exc:
        error = exc  # decided meanwhile: the row shows who did, and says so
    if not request.htmx:
        if error is not None:
            messages.error(request, error.detail)
        return _back(request)
    context = {"hypothesis": hypothesis_row(hypothesis.pk), "row_error": error}
    return render(request, ROW, context, status=error.status if error else 200)


@require_POST
@reviewer_page
def hypothesis_accept(request: HttpRequest, hypothesis_id: int) -> HttpResponse:
    return _decide(request, hypothesis_id, services.hypothesis_accept)


@require_POST
@reviewer_page
def hypothesis_dismiss(request: HttpRequest, hypothesis_id: int) -> HttpResponse:
    return _decide(request, hypothesis_id, services.hypothesis_dismiss)


@require_POST
@reviewer_page
def session_reanalyse(request: HttpRequest, session_id: Any) -> HttpResponse:
    """Ask for a new analysis; it runs in the background and shows on the dashboard."""
    try:
        session = session_for(request.user, session_id, write=True)
        services.analysis_reanalyse(session=session, by=request.user)
    except ApplicationError as exc:
        if exc.status in (403, 404):
            raise _denied(exc) from None
        messages.error(request, exc.detail)
    else:
        messages.success(request, _("Reanalysis requested: it shows under “Analyses running”."))
    return _back(request)
