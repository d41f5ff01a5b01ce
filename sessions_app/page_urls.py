"""The staff's browser pages (HTML); the API's routes are in `urls.py` under /api/."""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpResponse
from django.urls import URLPattern, path

from sessions_app import views

app_name = "pages"


def _session_page(route: str, view: Callable[..., HttpResponse], name: str) -> URLPattern:
    return path(f"sessions/<uuid:session_id>/{route}/", view, name=name)


urlpatterns = [
    path("", views.home, name="home"),
    path("alerts/", views.crisis_alerts, name="alerts"),
    path("sessions/<uuid:session_id>/", views.session_detail, name="session"),
    _session_page("continue-from", views.session_continue_from, "session-continue-from"),
    _session_page(
        "worklines/<int:workline_id>/activate",
        views.session_workline_activate,
        "session-workline-activate",
    ),
    _session_page("risk", views.session_risk, "session-risk"),
    # The counselor's workspace (docs/decisions/0001-a-counselor-takes-over.md).
    _session_page("claim", views.session_claim, "session-claim"),
    _session_page("take-over", views.session_take_over, "session-take-over"),
    _session_page(
        "counselor-message", views.session_counselor_message, "session-counselor-message"
    ),
    _session_page("hand-back", views.session_hand_back, "session-hand-back"),
    _session_page("steer", views.session_steer, "session-steer"),
    path("sandbox/", views.sandbox_home, name="sandbox"),
    path("sandbox/start/", views.sandbox_start, name="sandbox-start"),
    path("sandbox/<uuid:session_id>/answer/", views.sandbox_answer, name="sandbox-answer"),
    path("sandbox/<uuid:session_id>/message/", views.sandbox_message, name="sandbox-message"),
    path("sandbox/<uuid:session_id>/continue/", views.sandbox_continue, name="sandbox-continue"),
    path("sandbox/<uuid:session_id>/end/", views.sandbox_end, name="sandbox-end"),
    path(
        "sandbox/<uuid:session_id>/last-thing/",
        views.sandbox_last_thing,
        name="sandbox-last-thing",
    ),
]
