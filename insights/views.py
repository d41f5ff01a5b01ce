"""The insights dashboard (SPEC §8): the psychologist's hypotheses to review, the analyses
running and failed, the follow-ups due, and the charts. Read-only: accept, dismiss and reanalyse
post to `psychologist.views`."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.contrib.auth.views import redirect_to_login
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from insights import charts, selectors
from insights.forms import InsightsFilterForm
from sessions_app.access import SessionAction, session_allows
from sessions_app.roles import Role, role_of

PAGE = "insights/insights.html"


def reviewer_page(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """Sign-in for anonymous visitors; for anyone who does not review analyses (clients,
    services) the dashboard does not exist (404)."""

    @wraps(view)
    def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        if not session_allows(request.user, SessionAction.ANALYSE):
            raise Http404(_("No such page."))
        return view(request, *args, **kwargs)

    return wrapped


@require_GET
@reviewer_page
def insights_home(request: HttpRequest) -> HttpResponse:
    user, now = request.user, timezone.now()
    form = InsightsFilterForm(request.GET or None, clients=selectors.clients_in_scope(user))
    filters = form.filters()
    context: dict[str, Any] = {
        "form": form,
        "filters": filters,
        "user_is_ops": role_of(user) is Role.OPS,
        "groups": selectors.hypotheses_grouped(user=user, filters=filters),
        "running": selectors.analyses_running(user=user),
    }
    # The filter form and the live progress swap their own fragments; the rest comes once.
    part = request.GET.get("part") if request.htmx else None
    if part == "progress":
        return render(request, f"{PAGE}#progress", context)
    if part == "hypotheses":
        return render(request, f"{PAGE}#hypotheses", context)
    drawn = charts.charts(user=user, client=filters.client, now=now)
    context |= {
        "failed": selectors.analyses_failed(user=user, now=now),
        "recent": selectors.analyses_recent(user=user),
        "follow_ups": selectors.follow_ups(user=user, now=now),
        "charts": drawn,
        "charts_json": charts.charts_json(drawn),
        "now": now,
    }
    return render(request, PAGE, context)
