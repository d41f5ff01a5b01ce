"""The staff's browser pages (SPEC §8): the counselor's home, the session page with live
inspection, and "continue from here". Access through `access.session_for`, like the API."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_POST
from django_htmx.http import reswap, retarget

from sessions_app import realtime, selectors
from sessions_app.access import (
    SessionAction,
    pages_allowed,
    session_allows,
    session_for,
)
from sessions_app.engine import graph
from sessions_app.errors import ApplicationError
from sessions_app.models import AskMessage, AskSession
from sessions_app.roles import Role, role_of

HOME = "sessions_app/home.html"
SESSION = "sessions_app/session_detail.html"


def staff_page(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """Sign-in for anonymous visitors; 403 for roles the pages are not for (same for any id,
    so it tells nothing about the object)."""

    @wraps(view)
    def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        if not pages_allowed(request.user):
            raise PermissionDenied("These pages are for counselors and clinical operations.")
        return view(request, *args, **kwargs)

    return wrapped


def _session(user: Any, session_id: Any, *, write: bool = False) -> AskSession:
    try:
        return session_for(user, session_id, write=write)
    except ApplicationError as exc:
        if exc.status == 403:
            raise PermissionDenied(exc.detail) from None
        raise Http404(exc.detail) from None


@require_GET
@staff_page
def home(request: HttpRequest) -> HttpResponse:
    user = request.user
    role = role_of(user)
    context = {
        "queue": selectors.crisis_queue(user=user),
        "follow_ups": selectors.follow_ups_due(user=user),
        "caseload": selectors.caseload(counselor=user) if role is Role.COUNSELOR else None,
        "active": selectors.active_sessions(user=user) if role is Role.OPS else None,
        "alerts": realtime.receives_crisis_alerts(user),
    }
    return render(request, f"{HOME}#live" if request.htmx else HOME, context)


def _session_context(request: HttpRequest, session: AskSession) -> dict[str, Any]:
    highlight = request.GET.get("highlightEvent", "")
    return {
        "session": session,
        "page": selectors.session_page(session),
        "highlight": int(highlight) if highlight.isascii() and highlight.isdigit() else None,
        "view": "tree" if request.GET.get("view") == "tree" else "timeline",
        "may_continue": session_allows(request.user, SessionAction.CONTINUE_FROM)
        and not session.is_deleted,
    }


@require_GET
@staff_page
def session_detail(request: HttpRequest, session_id: Any) -> HttpResponse:
    session = _session(request.user, session_id)
    context = _session_context(request, session)
    return render(request, f"{SESSION}#canvas" if request.htmx else SESSION, context)


@require_POST
@staff_page
def session_continue_from(request: HttpRequest, session_id: Any) -> HttpResponse:
    session = _session(request.user, session_id, write=True)
    if not session_allows(request.user, SessionAction.CONTINUE_FROM):
        raise PermissionDenied("Watching is read-only: your role may not move this session.")
    raw = request.POST.get("message_id", "")
    message = AskMessage.objects.filter(session=session, pk=raw if raw.isdigit() else 0).first()
    if message is None:
        raise Http404("No such message in this session.")
    try:
        graph.message_fork(session=session, from_message=message, by=request.user)
    except ApplicationError as exc:
        if not request.htmx:
            messages.error(request, exc.detail)
            return redirect("pages:session", session_id=session.pk)
        response = render(request, f"{SESSION}#flash", {"error": exc.detail}, status=exc.status)
        return reswap(retarget(response, "#flash"), "innerHTML")
    if request.htmx:
        return render(request, f"{SESSION}#canvas", _session_context(request, session))
    return redirect("pages:session", session_id=session.pk)
