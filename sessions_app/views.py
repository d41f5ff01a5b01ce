"""The staff's browser pages (SPEC §8): the counselor's home, the session page with live
inspection, and "continue from here". Access through `access.session_for`, like the API."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.db.models import Model
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET, require_POST
from django_htmx.http import HttpResponseClientRedirect

from sessions_app import pages, sandbox, selectors
from sessions_app.access import (
    SessionAction,
    pages_allowed,
    receives_crisis_alerts,
    session_alerted_for,
    session_allows,
    session_for,
    session_for_claim,
    session_may,
)
from sessions_app.engine import services as engine
from sessions_app.engine.selectors import person_name, risk_now, session_label
from sessions_app.errors import ApplicationError
from sessions_app.forms import SandboxStartForm
from sessions_app.models import AskMessage, AskSession, RiskLevel, Workline
from sessions_app.responses import back_url, error_response
from sessions_app.roles import Role, role_of

HOME = "sessions_app/home.html"
SESSION = "sessions_app/session_detail.html"
SANDBOX = "sessions_app/sandbox.html"
CLAIM = "sessions_app/claim.html"
ALERTS = "sessions_app/_alerts.html"


def staff_page(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """Sign-in for anonymous visitors; 403 for roles the pages are not for (same for any id,
    so it tells nothing about the object)."""

    @wraps(view)
    def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        if not pages_allowed(request.user):
            raise PermissionDenied(_("These pages are for counselors and clinical operations."))
        return view(request, *args, **kwargs)

    return wrapped


def _session(
    user: Any,
    session_id: Any,
    *,
    write: bool = False,
    find: Callable[..., AskSession] | None = None,
) -> AskSession:
    try:
        if find is not None:
            return find(user, session_id)
        return session_for(user, session_id, write=write)
    except ApplicationError as exc:
        if exc.status == 403:
            raise PermissionDenied(exc.detail) from None
        raise Http404(exc.detail) from None


def _session_to(
    request: HttpRequest, session_id: Any, action: SessionAction, refusal: str
) -> AskSession:
    """The session to write to, when the user's role may do `action` to it (403 otherwise)."""
    session = _session(request.user, session_id, write=True)
    if not session_may(request.user, session, action):
        raise PermissionDenied(refusal)
    return session


def _session_to_steer(request: HttpRequest, session_id: Any) -> AskSession:
    """Moving where the session goes next (continuing from a message, switching the workline)."""
    return _session_to(
        request,
        session_id,
        SessionAction.CONTINUE_FROM,
        _("Watching is read-only: your role may not move this session."),
    )


def _of_session[M: Model](model: type[M], session: AskSession, pk: Any, missing: str) -> M:
    """The session's row `pk` of `model`; 404 saying `missing` when the session has none."""
    row = model.objects.filter(session=session, pk=pk).first()
    if row is None:
        raise Http404(missing)
    return row


@require_GET
@staff_page
def home(request: HttpRequest) -> HttpResponse:
    user = request.user
    role = role_of(user)
    today = timezone.localtime().replace(hour=0, minute=0, second=0, microsecond=0)
    context = {
        "queue": selectors.crisis_queue(user=user),
        "follow_ups": selectors.follow_ups_due(user=user),
        "today": today,
        "caseload": selectors.caseload(counselor=user) if role is Role.COUNSELOR else None,
        "active": selectors.active_sessions(user=user) if role is Role.OPS else None,
        "alerts": receives_crisis_alerts(user),
    }
    return render(request, f"{HOME}#live" if request.htmx else HOME, context)


@require_GET
@staff_page
def crisis_alerts(request: HttpRequest) -> HttpResponse:
    """The banner every staff page shows (templates/base.html, static/naisei/alerts.js): the
    open crisis alerts for this reader, fetched on load, on every (re)connect of the counselors'
    stream and after each of its pushes, so nothing sent while the page loaded is lost."""
    alerts = selectors.open_crisis_alerts(user=request.user)
    return render(request, ALERTS, {"alerts": alerts})


def _session_context(request: HttpRequest, session: AskSession) -> dict[str, Any]:
    highlight = request.GET.get("highlightEvent", "")
    return {
        "session": session,
        "page": pages.session_page(session),
        "highlight": int(highlight) if highlight.isascii() and highlight.isdigit() else None,
        "view": "tree" if request.GET.get("view") == "tree" else "timeline",
        "may_continue": session_may(request.user, session, SessionAction.CONTINUE_FROM)
        and not session.is_deleted,
        "may_play": session_may(request.user, session, SessionAction.PLAY)
        and not session.is_deleted,
        "may_change_risk": session_may(request.user, session, SessionAction.RISK)
        and not session.is_deleted,
        "risk_levels": RiskLevel.choices,
        "current_risk": risk_now(session),
        "may_review": session_allows(request.user, SessionAction.ANALYSE),
        **_workspace_context(request.user, session),
    }


def _workspace_context(user: Any, session: AskSession) -> dict[str, Any]:
    """What the workspace panel offers this reader: claim, take over / write / hand back (the
    holder), steer (staff, on a live session)."""
    live = session.is_active and not session.is_deleted
    staff = session_allows(user, SessionAction.CLAIM)
    holder = session.handoff_counselor_id == user.pk
    return {
        "holder_name": person_name(session.handoff_counselor)
        if session.handoff_counselor_id
        else "",
        "may_claim": live and staff and session.handoff_counselor_id is None,
        "is_holder": holder,
        "may_take_over": live and holder and not session.counselor_speaking,
        "may_write": live and holder and session.counselor_speaking,
        "may_steer": live and session_allows(user, SessionAction.STEER),
    }


def _canvas(request: HttpRequest, session: AskSession) -> HttpResponse:
    """After a change: the canvas for HTMX, the page itself otherwise."""
    if request.htmx:
        session.refresh_from_db()  # the services changed the row under this instance
        return render(request, f"{SESSION}#canvas", _session_context(request, session))
    return redirect("pages:session", session_id=session.pk)


def _redrawn_after(
    request: HttpRequest, session: AskSession, change: Callable[[], object]
) -> HttpResponse:
    """Make `change`, then redraw the canvas — or show its `ApplicationError` in the flash."""
    try:
        change()
    except ApplicationError as exc:
        back = reverse("pages:session", kwargs={"session_id": session.pk})
        return error_response(request, exc, back=back)
    return _canvas(request, session)


@require_GET
@staff_page
def session_detail(request: HttpRequest, session_id: Any) -> HttpResponse:
    alerted = session_alerted_for(request.user, session_id)
    try:
        session = _session(request.user, session_id)
    except PermissionDenied:
        if alerted is None:
            raise
        # Alerted about a crisis it does not hold: still 403 (SPEC §1), with the Claim button.
        context = {"alerted": alerted, "label": session_label(alerted)}
        return render(request, CLAIM, context, status=403)
    context = _session_context(request, session)
    return render(request, f"{SESSION}#canvas" if request.htmx else SESSION, context)


@require_POST
@staff_page
def session_continue_from(request: HttpRequest, session_id: Any) -> HttpResponse:
    session = _session_to_steer(request, session_id)
    raw = request.POST.get("message_id", "")
    pk = raw if raw.isdigit() else 0
    message = _of_session(AskMessage, session, pk, _("No such message in this session."))
    return _redrawn_after(
        request,
        session,
        lambda: engine.message_fork(session=session, from_message=message, by=request.user),
    )


@require_POST
@staff_page
def session_risk(request: HttpRequest, session_id: Any) -> HttpResponse:
    """Raise or lower the risk level by hand; lowering needs a reason (SPEC §3)."""
    session = _session_to(
        request, session_id, SessionAction.RISK, _("Your role may not change the risk level.")
    )
    level, reason = request.POST.get("level", ""), request.POST.get("reason", "")
    return _redrawn_after(
        request,
        session,
        lambda: engine.risk_level_set(session=session, level=level, reason=reason, by=request.user),
    )


@require_POST
@staff_page
def session_workline_activate(
    request: HttpRequest, session_id: Any, workline_id: int
) -> HttpResponse:
    # Switching the focus moves where the next message goes: steering, like continue-from.
    session = _session_to_steer(request, session_id)
    workline = _of_session(Workline, session, workline_id, _("No such workline in this session."))
    return _redrawn_after(
        request,
        session,
        lambda: engine.workline_activate(session=session, workline=workline, by=request.user),
    )


# --- the counselor's workspace (docs/decisions/0001-a-counselor-takes-over.md) ---


def _workspace_error(request: HttpRequest, exc: ApplicationError) -> HttpResponse:
    """Back to the page the move was made from (the home's queue, an alert, the session)."""
    back = back_url(request, request.headers.get("Referer", ""), fallback="pages:home")
    return error_response(request, exc, back=back)


@require_POST
@staff_page
def session_claim(request: HttpRequest, session_id: Any) -> HttpResponse:
    """Claim from the alert, the queue row or the session page; then the session page."""
    session = _session(request.user, session_id, find=session_for_claim)
    try:
        engine.session_claim(session=session, counselor=request.user)
    except ApplicationError as exc:
        return _workspace_error(request, exc)
    target = reverse("pages:session", kwargs={"session_id": session.pk})
    return HttpResponseClientRedirect(target) if request.htmx else redirect(target)


_MOVE_REFUSALS = {
    SessionAction.TAKE_OVER: gettext_lazy("Only counselors and ops speak with clients."),
    SessionAction.STEER: gettext_lazy("Only counselors and ops steer the Analyst."),
}


def _counselor_move(
    move: Callable[..., object],
    action: SessionAction = SessionAction.TAKE_OVER,
    field: str = "",
) -> Callable[[HttpRequest, Any], HttpResponse]:
    """A page that calls `move(session=…, counselor=request.user[, field=POST[field]])` and
    redraws the canvas; refused to whoever `action` is not for."""

    @require_POST
    @staff_page
    def view(request: HttpRequest, session_id: Any) -> HttpResponse:
        session = _session(request.user, session_id, write=True)
        if not session_allows(request.user, action):
            raise PermissionDenied(str(_MOVE_REFUSALS[action]))
        fields = {field: request.POST.get(field, "")} if field else {}
        return _redrawn_after(
            request, session, lambda: move(session=session, counselor=request.user, **fields)
        )

    return view


session_take_over = _counselor_move(engine.session_take_over)
session_counselor_message = _counselor_move(engine.counselor_message_send, field="text")
session_hand_back = _counselor_move(engine.session_hand_back)
session_steer = _counselor_move(engine.steer_note_add, SessionAction.STEER, field="text")


@require_GET
@staff_page
def sandbox_home(request: HttpRequest) -> HttpResponse:
    context = {
        "form": SandboxStartForm(),
        "runs": selectors.sandbox_sessions(counselor=request.user),
    }
    return render(request, SANDBOX, context)


@require_POST
@staff_page
def sandbox_start(request: HttpRequest) -> HttpResponse:
    form = SandboxStartForm(request.POST, request.FILES)
    if form.is_valid():
        try:
            session = sandbox.sandbox_start(counselor=request.user, **form.start_kwargs())
        except ApplicationError as exc:
            form.add_error(None, f"{exc.code}: {exc.detail}")
        else:
            return redirect("pages:session", session_id=session.pk)
    context = {"form": form, "runs": selectors.sandbox_sessions(counselor=request.user)}
    return render(request, SANDBOX, context, status=400)


def _play(
    request: HttpRequest, session_id: Any, act: Callable[[AskSession], object]
) -> HttpResponse:
    """One move of the test client: access, the engine service under the session's provider,
    then the canvas (or the error fragment)."""
    session = _session_to(
        request,
        session_id,
        SessionAction.PLAY,
        _("Only the counselor who started a test session plays it."),
    )

    def played() -> None:
        with sandbox.providers_for(session.pk):
            act(session)

    return _redrawn_after(request, session, played)


@require_POST
@staff_page
def sandbox_answer(request: HttpRequest, session_id: Any) -> HttpResponse:
    card_id, text = request.POST.get("card_id", ""), request.POST.get("text", "")
    return _play(
        request, session_id, lambda s: engine.answer_submit(session=s, card_id=card_id, text=text)
    )


@require_POST
@staff_page
def sandbox_message(request: HttpRequest, session_id: Any) -> HttpResponse:
    text = request.POST.get("text", "")
    return _play(request, session_id, lambda s: engine.message_submit(session=s, text=text))


@require_POST
@staff_page
def sandbox_continue(request: HttpRequest, session_id: Any) -> HttpResponse:
    return _play(request, session_id, lambda s: engine.session_continue(session=s))


@require_POST
@staff_page
def sandbox_end(request: HttpRequest, session_id: Any) -> HttpResponse:
    return _play(request, session_id, lambda s: engine.session_end(session=s))


@require_POST
@staff_page
def sandbox_last_thing(request: HttpRequest, session_id: Any) -> HttpResponse:
    if "finish" in request.POST:
        return _play(
            request, session_id, lambda s: engine.last_thing_submit(session=s, finish=True)
        )
    text = request.POST.get("text", "")
    return _play(request, session_id, lambda s: engine.last_thing_submit(session=s, text=text))
